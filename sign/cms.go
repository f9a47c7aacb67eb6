package sign

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"time"
)

// Object identifiers of CMS (RFC 5652), ESS (RFC 5035), time-stamps (RFC
// 3161) and the algorithms Platen signs with.
var (
	oidData                 = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 1}
	oidSignedData           = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 2}
	oidContentType          = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 3}
	oidMessageDigest        = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 4}
	oidSigningTime          = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 5}
	oidSigningCertificateV2 = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 2, 47}
	oidTimeStampToken       = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 2, 14}
	oidTSTInfo              = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 1, 4}
	oidSHA256               = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 1}
	oidSHA256WithRSA        = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 11}
	oidECDSAWithSHA256      = asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 3, 2}
)

var sha256Alg = pkix.AlgorithmIdentifier{Algorithm: oidSHA256}

type contentInfo struct {
	ContentType asn1.ObjectIdentifier
	Content     asn1.RawValue `asn1:"explicit,tag:0"`
}

type signedData struct {
	Version          int
	DigestAlgorithms []pkix.AlgorithmIdentifier `asn1:"set"`
	EncapContentInfo encapContentInfo
	Certificates     asn1.RawValue `asn1:"optional,tag:0"`
	SignerInfos      []signerInfo  `asn1:"set"`
}

type encapContentInfo struct {
	EContentType asn1.ObjectIdentifier
	EContent     asn1.RawValue `asn1:"optional,explicit,tag:0"`
}

type signerInfo struct {
	Version            int
	SID                issuerAndSerial
	DigestAlgorithm    pkix.AlgorithmIdentifier
	SignedAttrs        asn1.RawValue `asn1:"optional,tag:0"`
	SignatureAlgorithm pkix.AlgorithmIdentifier
	Signature          []byte
	UnsignedAttrs      asn1.RawValue `asn1:"optional,tag:1"`
}

type issuerAndSerial struct {
	Issuer asn1.RawValue
	Serial *big.Int
}

type attribute struct {
	Type   asn1.ObjectIdentifier
	Values asn1.RawValue
}

// essCertIDv2 names the signing certificate by its SHA-256 hash (the
// default algorithm, so left out) and its issuer and serial (RFC 5035).
type essCertIDv2 struct {
	CertHash     []byte
	IssuerSerial issuerSerial
}

type issuerSerial struct {
	Issuer asn1.RawValue // GeneralNames holding the issuer's directoryName
	Serial *big.Int
}

type signingCertificateV2 struct {
	Certs []essCertIDv2
}

// attr encodes one attribute with a single value.
func attr(oid asn1.ObjectIdentifier, value []byte) ([]byte, error) {
	return asn1.Marshal(attribute{Type: oid, Values: asn1.RawValue{Tag: asn1.TagSet, IsCompound: true, Bytes: value}})
}

// setOf encodes attributes as a DER SET OF: sorted by their encodings.
func setOf(attrs [][]byte) []byte {
	slices.SortFunc(attrs, bytes.Compare)
	return bytes.Join(attrs, nil)
}

// tagged rewrites an encoded SET OF's content under a context tag,
// IMPLICIT, as CMS carries attributes.
func tagged(tag int, content []byte) asn1.RawValue {
	return asn1.RawValue{Class: asn1.ClassContextSpecific, Tag: tag, IsCompound: true, Bytes: content}
}

// cmsInput is what one CMS signature is over.
type cmsInput struct {
	contentType asn1.ObjectIdentifier
	// content is encapsulated when set (a time-stamp token's TSTInfo);
	// digest is of detached content otherwise (a PDF's byte ranges).
	content []byte
	digest  []byte
	// signingTime adds the signing-time attribute, which PAdES forbids
	// (the time is the signature dictionary's /M) and RFC 3161 allows.
	signingTime time.Time
}

// signCMS makes a CMS SignedData with one signer (RFC 5652), the signed
// attributes PAdES baseline B-B asks for (content-type, message-digest,
// signing-certificate-v2) and the signer's chain.
func signCMS(id *Identity, in cmsInput) ([]byte, error) {
	cert := id.Chain[0]
	digest := in.digest
	if in.content != nil {
		h := sha256.Sum256(in.content)
		digest = h[:]
	}
	ct, _ := asn1.Marshal(in.contentType)
	md, _ := asn1.Marshal(digest)
	certHash := sha256.Sum256(cert.Raw)
	gn, _ := asn1.Marshal(asn1.RawValue{Class: asn1.ClassContextSpecific, Tag: 4, IsCompound: true, Bytes: cert.RawIssuer})
	sc, err := asn1.Marshal(signingCertificateV2{Certs: []essCertIDv2{{CertHash: certHash[:],
		IssuerSerial: issuerSerial{Issuer: asn1.RawValue{FullBytes: mustSeq(gn)}, Serial: cert.SerialNumber}}}})
	if err != nil {
		return nil, err
	}
	var attrs [][]byte
	for _, a := range []struct {
		oid asn1.ObjectIdentifier
		v   []byte
	}{{oidContentType, ct}, {oidMessageDigest, md}, {oidSigningCertificateV2, sc}} {
		b, err := attr(a.oid, a.v)
		if err != nil {
			return nil, err
		}
		attrs = append(attrs, b)
	}
	if !in.signingTime.IsZero() {
		st, _ := asn1.Marshal(in.signingTime.UTC())
		b, _ := attr(oidSigningTime, st)
		attrs = append(attrs, b)
	}
	signed := setOf(attrs)
	// The signature is over the attributes as a universal SET.
	full, _ := asn1.Marshal(asn1.RawValue{Tag: asn1.TagSet, IsCompound: true, Bytes: signed})
	h := sha256.Sum256(full)
	sig, err := id.Key.Sign(rand.Reader, h[:], crypto.SHA256)
	if err != nil {
		return nil, fmt.Errorf("sign: %w", err)
	}
	alg, err := signatureAlgorithm(id.Key.Public())
	if err != nil {
		return nil, err
	}
	var certs []byte
	for _, c := range id.Chain {
		certs = append(certs, c.Raw...)
	}
	encap := encapContentInfo{EContentType: in.contentType}
	if in.content != nil {
		oct, _ := asn1.Marshal(in.content)
		encap.EContent = asn1.RawValue{FullBytes: wrapExplicit(0, oct)}
	}
	sd := signedData{
		Version:          3 - 2*boolInt(in.contentType.Equal(oidData)), // 1 for id-data, 3 otherwise
		DigestAlgorithms: []pkix.AlgorithmIdentifier{sha256Alg},
		EncapContentInfo: encap,
		Certificates:     tagged(0, certs),
		SignerInfos: []signerInfo{{
			Version:            1,
			SID:                issuerAndSerial{Issuer: asn1.RawValue{FullBytes: cert.RawIssuer}, Serial: cert.SerialNumber},
			DigestAlgorithm:    sha256Alg,
			SignedAttrs:        tagged(0, signed),
			SignatureAlgorithm: alg,
			Signature:          sig,
		}},
	}
	inner, err := asn1.Marshal(sd)
	if err != nil {
		return nil, err
	}
	return asn1.Marshal(contentInfo{ContentType: oidSignedData, Content: asn1.RawValue{FullBytes: wrapExplicit(0, inner)}})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// mustSeq wraps content in a SEQUENCE.
func mustSeq(content []byte) []byte {
	b, _ := asn1.Marshal(asn1.RawValue{Tag: asn1.TagSequence, IsCompound: true, Bytes: content})
	return b
}

// wrapExplicit wraps an encoding in an EXPLICIT context tag.
func wrapExplicit(tag int, inner []byte) []byte {
	b, _ := asn1.Marshal(asn1.RawValue{Class: asn1.ClassContextSpecific, Tag: tag, IsCompound: true, Bytes: inner})
	return b
}

func signatureAlgorithm(pub crypto.PublicKey) (pkix.AlgorithmIdentifier, error) {
	switch pub.(type) {
	case *rsa.PublicKey:
		return pkix.AlgorithmIdentifier{Algorithm: oidSHA256WithRSA, Parameters: asn1.NullRawValue}, nil
	case *ecdsa.PublicKey:
		return pkix.AlgorithmIdentifier{Algorithm: oidECDSAWithSHA256}, nil
	}
	return pkix.AlgorithmIdentifier{}, errors.New("sign: the key is neither RSA nor ECDSA")
}

// addUnsignedAttr adds an unsigned attribute to a CMS SignedData's only
// signer: the signature time-stamp of PAdES B-T.
func addUnsignedAttr(cms []byte, oid asn1.ObjectIdentifier, value []byte) ([]byte, error) {
	sd, err := parseSignedData(cms)
	if err != nil {
		return nil, err
	}
	a, err := attr(oid, value)
	if err != nil {
		return nil, err
	}
	sd.SignerInfos[0].UnsignedAttrs = tagged(1, a)
	inner, err := asn1.Marshal(*sd)
	if err != nil {
		return nil, err
	}
	return asn1.Marshal(contentInfo{ContentType: oidSignedData, Content: asn1.RawValue{FullBytes: wrapExplicit(0, inner)}})
}

// parseSignedData reads a ContentInfo holding a SignedData with one signer.
func parseSignedData(der []byte) (*signedData, error) {
	var ci contentInfo
	rest, err := asn1.Unmarshal(der, &ci)
	if err != nil {
		return nil, fmt.Errorf("sign: not a CMS structure: %w", err)
	}
	if len(bytes.TrimRight(rest, "\x00")) != 0 || !ci.ContentType.Equal(oidSignedData) {
		return nil, errors.New("sign: not a CMS SignedData")
	}
	var sd signedData
	if _, err := asn1.Unmarshal(ci.Content.Bytes, &sd); err != nil {
		return nil, fmt.Errorf("sign: not a CMS SignedData: %w", err)
	}
	if len(sd.SignerInfos) != 1 {
		return nil, fmt.Errorf("sign: %d signers, not one", len(sd.SignerInfos))
	}
	// encoding/asn1 fills an optional RawValue with whatever comes next:
	// check that the certificates and signed attributes are what they say.
	if c := sd.Certificates; c.Class != asn1.ClassContextSpecific || c.Tag != 0 {
		return nil, errors.New("sign: the SignedData carries no certificates")
	}
	if a := sd.SignerInfos[0].SignedAttrs; a.Class != asn1.ClassContextSpecific || a.Tag != 0 {
		return nil, errors.New("sign: the signer has no signed attributes")
	}
	return &sd, nil
}

// attrs reads a SET OF attributes' content.
func attrs(content []byte) ([]attribute, error) {
	var out []attribute
	for len(content) > 0 {
		var a attribute
		rest, err := asn1.Unmarshal(content, &a)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
		content = rest
	}
	return out, nil
}

// certificates reads a SignedData's certificates.
func (sd *signedData) certificates() ([]*x509.Certificate, error) {
	return x509.ParseCertificates(sd.Certificates.Bytes)
}

// signer finds the signer's certificate among the SignedData's.
func (sd *signedData) signer() (*x509.Certificate, error) {
	certs, err := sd.certificates()
	if err != nil {
		return nil, fmt.Errorf("sign: certificates: %w", err)
	}
	sid := sd.SignerInfos[0].SID
	for _, c := range certs {
		if c.SerialNumber.Cmp(sid.Serial) == 0 && bytes.Equal(c.RawIssuer, sid.Issuer.FullBytes) {
			return c, nil
		}
	}
	return nil, errors.New("sign: the signer's certificate is not in the signature")
}

// verifySigner checks the signer's signature over its signed attributes,
// and that the message-digest attribute is digest.
func (sd *signedData) verifySigner(cert *x509.Certificate, digest []byte) error {
	si := sd.SignerInfos[0]
	as, err := attrs(si.SignedAttrs.Bytes)
	if err != nil {
		return fmt.Errorf("sign: signed attributes: %w", err)
	}
	var md []byte
	for _, a := range as {
		if a.Type.Equal(oidMessageDigest) {
			if _, err := asn1.Unmarshal(a.Values.Bytes, &md); err != nil {
				return fmt.Errorf("sign: message-digest: %w", err)
			}
		}
	}
	if !bytes.Equal(md, digest) {
		return errors.New("sign: the message-digest attribute does not match the signed bytes")
	}
	full, _ := asn1.Marshal(asn1.RawValue{Tag: asn1.TagSet, IsCompound: true, Bytes: si.SignedAttrs.Bytes})
	var alg x509.SignatureAlgorithm
	switch {
	case si.SignatureAlgorithm.Algorithm.Equal(oidSHA256WithRSA), si.SignatureAlgorithm.Algorithm.Equal(asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 1}):
		alg = x509.SHA256WithRSA
	case si.SignatureAlgorithm.Algorithm.Equal(oidECDSAWithSHA256):
		alg = x509.ECDSAWithSHA256
	default:
		return fmt.Errorf("sign: signature algorithm %v is not one Platen checks", si.SignatureAlgorithm.Algorithm)
	}
	if err := cert.CheckSignature(alg, full, si.Signature); err != nil {
		return fmt.Errorf("sign: the signature does not verify: %w", err)
	}
	return nil
}
