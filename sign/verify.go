package sign

import (
	"bytes"
	"crypto/sha256"
	"encoding/asn1"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"time"

	"github.com/platen/platen/pdf"
)

// The checks Verify makes, by id, with the rule each holds the signature to
// (ETSI EN 319 142-1 for PAdES baseline, RFC 5652 for CMS, RFC 5035 for the
// signing certificate, ISO 32000-1 12.8 for the byte range).
var SignatureChecks = []struct{ ID, Source string }{
	{"pades-byte-range", "ISO 32000-1 12.8.1: the byte range covers the whole file but /Contents"},
	{"pades-last-revision", "EN 319 142-1 5.4: nothing follows the signed revision"},
	{"pades-subfilter", "EN 319 142-1 5.3: /SubFilter is ETSI.CAdES.detached"},
	{"cms-message-digest", "RFC 5652 5.4: message-digest is the SHA-256 of the signed bytes"},
	{"cms-signature", "RFC 5652 5.6: the signature verifies with the signer's certificate"},
	{"ess-signing-certificate-v2", "EN 319 122-1 5.2.2: signing-certificate-v2 names the signer's certificate"},
	{"pades-no-signing-time", "EN 319 142-1 5.3: no signing-time attribute; the time is /M"},
	{"pades-signature-timestamp", "EN 319 142-1 5.4 (B-T): a time-stamp token over the signature value"},
}

// Verified is what Verify found of a PDF's signature.
type Verified struct {
	Signer    string
	Timestamp *time.Time // the token's time, when there is one
	Checks    []pdf.Check
}

var subFilterRE = regexp.MustCompile(`/SubFilter\s*/([A-Za-z0-9.#]+)`)

// Verify checks a PDF's last signature: that it covers every byte, that
// the CMS's digest and signature verify, and that its attributes are
// PAdES baseline's. It says nothing of trust in the certificate: that is
// the reader's, against its own list of authorities.
func Verify(file []byte) (*Verified, error) {
	all := byteRangeRE.FindAllSubmatchIndex(file, -1)
	if len(all) == 0 {
		return nil, fmt.Errorf("sign: the PDF is not signed")
	}
	m := all[len(all)-1]
	var br [4]int
	for i := range br {
		n, err := strconv.Atoi(string(file[m[2+2*i]:m[3+2*i]]))
		if err != nil || n > len(file) {
			return &Verified{Checks: []pdf.Check{{ID: "pades-byte-range", Detail: "the byte range names offsets outside the file"}}}, nil
		}
		br[i] = n
	}
	v := &Verified{}
	check := func(id string, ok bool, detail string) {
		c := pdf.Check{ID: id, Passed: ok}
		if !ok {
			c.Detail = detail
		}
		v.Checks = append(v.Checks, c)
	}
	a, b, c, d := br[0], br[1], br[2], br[3]
	inFile := a == 0 && b > 0 && c > b+1 && c+d <= len(file) && d >= 0
	if !inFile || file[b] != '<' || file[c-1] != '>' {
		check("pades-byte-range", false, "the byte range does not frame the signature's /Contents")
		return v, nil
	}
	check("pades-byte-range", true, "")
	check("pades-last-revision", c+d == len(file), fmt.Sprintf("%d bytes follow the signed revision", len(file)-c-d))
	sub := subFilterRE.FindSubmatch(file[max(0, b-4096):b])
	check("pades-subfilter", sub != nil && string(sub[1]) == "ETSI.CAdES.detached", "the /SubFilter is not ETSI.CAdES.detached")

	// The CMS is followed by the zeros of the room left: its own length
	// ends it.
	der, err := hex.DecodeString(string(file[b+1 : c-1]))
	if err != nil {
		check("cms-message-digest", false, "/Contents is not hex")
		return v, nil
	}
	sd, err := parseSignedData(der)
	if err != nil {
		check("cms-message-digest", false, err.Error())
		return v, nil
	}
	cert, err := sd.signer()
	if err != nil {
		check("cms-message-digest", false, err.Error())
		return v, nil
	}
	v.Signer = cert.Subject.CommonName
	h := sha256.New()
	h.Write(file[a:b])
	h.Write(file[c : c+d])
	digest := h.Sum(nil)
	err = sd.verifySigner(cert, digest)
	digestOK := err == nil || !bytes.Contains([]byte(err.Error()), []byte("message-digest"))
	check("cms-message-digest", digestOK, "the message-digest does not match the signed bytes: the file was changed after signing")
	check("cms-signature", err == nil, fmt.Sprint(err))

	as, _ := attrs(sd.SignerInfos[0].SignedAttrs.Bytes)
	var scOK, signingTime bool
	for _, at := range as {
		switch {
		case at.Type.Equal(oidSigningCertificateV2):
			var sc signingCertificateV2
			if _, err := asn1.Unmarshal(at.Values.Bytes, &sc); err == nil && len(sc.Certs) > 0 {
				want := sha256.Sum256(cert.Raw)
				scOK = bytes.Equal(sc.Certs[0].CertHash, want[:])
			}
		case at.Type.Equal(oidSigningTime):
			signingTime = true
		}
	}
	check("ess-signing-certificate-v2", scOK, "signing-certificate-v2 is missing or names another certificate")
	check("pades-no-signing-time", !signingTime, "the signed attributes carry a signing-time")

	unsigned, _ := attrs(sd.SignerInfos[0].UnsignedAttrs.Bytes)
	for _, at := range unsigned {
		if !at.Type.Equal(oidTimeStampToken) {
			continue
		}
		info, _, err := ParseToken(at.Values.Bytes)
		imprint := sha256.Sum256(sd.SignerInfos[0].Signature)
		ok := err == nil && bytes.Equal(info.MessageImprint.HashedMessage, imprint[:])
		detail := "the time-stamp token is not over the signature value"
		if err != nil {
			detail = "the time-stamp token does not verify: " + err.Error()
		}
		check("pades-signature-timestamp", ok, detail)
		if ok {
			t := info.GenTime.UTC()
			v.Timestamp = &t
		}
	}
	return v, nil
}
