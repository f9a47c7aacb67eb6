package sign

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"time"
)

// Accuracy is how far from GenTime the time may be.
type Accuracy struct {
	Seconds int `asn1:"optional"`
	Millis  int `asn1:"optional,tag:0"`
	Micros  int `asn1:"optional,tag:1"`
}

// TimeStampReq, TimeStampResp and TSTInfo are RFC 3161's.
type TimeStampReq struct {
	Version        int
	MessageImprint MessageImprint
	Nonce          *big.Int `asn1:"optional"`
	CertReq        bool     `asn1:"optional,default:false"`
}

// MessageImprint is the hash a time-stamp is over.
type MessageImprint struct {
	HashAlgorithm pkix.AlgorithmIdentifier
	HashedMessage []byte
}

// TimeStampResp is a time-stamp authority's answer.
type TimeStampResp struct {
	Status         PKIStatusInfo
	TimeStampToken asn1.RawValue `asn1:"optional"`
}

// PKIStatusInfo is an answer's status: 0 granted, 1 granted with changes.
type PKIStatusInfo struct {
	Status       int
	StatusString []string       `asn1:"optional"`
	FailInfo     asn1.BitString `asn1:"optional"`
}

// TSTInfo is what a time-stamp token signs.
type TSTInfo struct {
	Version        int
	Policy         asn1.ObjectIdentifier
	MessageImprint MessageImprint
	SerialNumber   *big.Int
	GenTime        time.Time `asn1:"generalized"`
	Accuracy       Accuracy  `asn1:"optional"`
	Ordering       bool      `asn1:"optional,default:false"`
	Nonce          *big.Int  `asn1:"optional"`
}

// TSA is a time-stamp authority (RFC 3161) the operator names: Platen asks
// it to time-stamp each signature, which makes it PAdES B-T.
type TSA struct {
	URL string
	// Client sends the requests; its timeout bounds each one.
	Client *http.Client
}

// maxTSAAnswer bounds a time-stamp authority's answer: a token with the
// authority's chain takes a few kilobytes.
const maxTSAAnswer = 64 << 10

// ErrTSA is a time-stamp authority that did not give a usable token.
var ErrTSA = errors.New("the time-stamp authority did not time-stamp the signature")

// Stamp asks for a token over digest (a SHA-256) and checks it: granted,
// over that digest, with the nonce sent, signed by the authority's
// certificate. It returns the token (a CMS ContentInfo) and its time.
func (t *TSA) Stamp(ctx context.Context, digest []byte) ([]byte, time.Time, error) {
	nonce, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 64))
	req, _ := asn1.Marshal(TimeStampReq{Version: 1, MessageImprint: MessageImprint{HashAlgorithm: sha256Alg, HashedMessage: digest},
		Nonce: nonce, CertReq: true})
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, t.URL, bytes.NewReader(req))
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("%w: %v", ErrTSA, err)
	}
	hr.Header.Set("Content-Type", "application/timestamp-query")
	c := t.Client
	if c == nil {
		c = &http.Client{Timeout: 10 * time.Second}
	}
	resp, err := c.Do(hr)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("%w: it did not answer", ErrTSA)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxTSAAnswer+1))
	if err != nil || len(body) > maxTSAAnswer {
		return nil, time.Time{}, fmt.Errorf("%w: its answer could not be read or was over %d KB", ErrTSA, maxTSAAnswer>>10)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, time.Time{}, fmt.Errorf("%w: it answered HTTP %d", ErrTSA, resp.StatusCode)
	}
	token, info, err := ParseTimeStampResp(body)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("%w: %v", ErrTSA, err)
	}
	if !bytes.Equal(info.MessageImprint.HashedMessage, digest) {
		return nil, time.Time{}, fmt.Errorf("%w: the token is over another hash", ErrTSA)
	}
	if info.Nonce == nil || info.Nonce.Cmp(nonce) != 0 {
		return nil, time.Time{}, fmt.Errorf("%w: the token does not carry the nonce sent", ErrTSA)
	}
	return token, info.GenTime, nil
}

// ParseTimeStampResp reads an authority's answer: the token, and its
// TSTInfo once the token's signature checks.
func ParseTimeStampResp(der []byte) ([]byte, *TSTInfo, error) {
	var resp TimeStampResp
	if _, err := asn1.Unmarshal(der, &resp); err != nil {
		return nil, nil, fmt.Errorf("not a time-stamp answer: %v", err)
	}
	if resp.Status.Status > 1 {
		return nil, nil, fmt.Errorf("it refused (status %d)", resp.Status.Status)
	}
	if len(resp.TimeStampToken.FullBytes) == 0 {
		return nil, nil, errors.New("it granted no token")
	}
	info, _, err := ParseToken(resp.TimeStampToken.FullBytes)
	if err != nil {
		return nil, nil, err
	}
	return resp.TimeStampToken.FullBytes, info, nil
}

// ParseToken checks a time-stamp token's signature and returns what it
// says and the authority's certificate.
func ParseToken(token []byte) (*TSTInfo, *x509.Certificate, error) {
	sd, err := parseSignedData(token)
	if err != nil {
		return nil, nil, err
	}
	if !sd.EncapContentInfo.EContentType.Equal(oidTSTInfo) {
		return nil, nil, errors.New("the token holds no TSTInfo")
	}
	var content []byte
	// A RawValue keeps its EXPLICIT tag: Bytes is the OCTET STRING.
	if _, err := asn1.Unmarshal(sd.EncapContentInfo.EContent.Bytes, &content); err != nil {
		return nil, nil, errors.New("the token's TSTInfo cannot be read")
	}
	var info TSTInfo
	if _, err := asn1.Unmarshal(content, &info); err != nil {
		return nil, nil, fmt.Errorf("the token's TSTInfo cannot be read: %v", err)
	}
	cert, err := sd.signer()
	if err != nil {
		return nil, nil, err
	}
	h := sha256.Sum256(content)
	if err := sd.verifySigner(cert, h[:]); err != nil {
		return nil, nil, err
	}
	return &info, cert, nil
}

// TimeStampToken signs info as an authority's time-stamp token: a CMS
// SignedData over the DER TSTInfo, with the signing-certificate-v2 RFC 5816
// asks for. Platen is not an authority; its tests and benchmarks run one
// with it (sign/tsatest).
func TimeStampToken(authority *Identity, info TSTInfo) ([]byte, error) {
	content, err := asn1.Marshal(info)
	if err != nil {
		return nil, err
	}
	return signCMS(authority, cmsInput{contentType: oidTSTInfo, content: content, signingTime: info.GenTime})
}
