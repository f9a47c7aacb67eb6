package sign_test

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/asn1"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"software.sslmate.com/src/go-pkcs12"

	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/pdf"
	"github.com/platen/platen/sign"
	"github.com/platen/platen/sign/signtest"
)

// samples are PDFs in both cross-reference forms: a table (as Chromium
// and pdfcpu's stamping write) and a stream (as phantom writes).
func samples(t *testing.T) map[string][]byte {
	t.Helper()
	table, err := os.ReadFile("../pdf/testdata/two-pages.pdf")
	if err != nil {
		t.Fatal(err)
	}
	conf := model.NewDefaultConfiguration()
	conf.WriteXRefStream = true
	conf.WriteObjectStream = true
	var stream bytes.Buffer
	if err := api.Optimize(bytes.NewReader(table), &stream, conf); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(stream.Bytes(), []byte("/XRef")) {
		t.Fatal("the stream sample has no cross-reference stream")
	}
	return map[string][]byte{"xref-table": table, "xref-stream": stream.Bytes()}
}

func identity(t *testing.T, o signtest.Options) *sign.Identity {
	t.Helper()
	ca, err := signtest.NewAuthority("Platen test root")
	if err != nil {
		t.Fatal(err)
	}
	id, err := ca.Issue("Ada Lovelace", o)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// pdfsig runs poppler's pdfsig on a file and returns its report.
func pdfsig(t *testing.T, file []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "signed.pdf")
	if err := os.WriteFile(path, file, 0o600); err != nil {
		t.Fatal(err)
	}
	out, _ := exec.Command("pdfsig", path).CombinedOutput()
	return string(out)
}

func failed(checks []pdf.Check) []string {
	var out []string
	for _, c := range checks {
		if !c.Passed {
			out = append(out, c.ID+": "+c.Detail)
		}
	}
	return out
}

func TestSignedPDFVerifiesAndAFlippedByteDoesNot(t *testing.T) {
	tsa, err := signtest.StartTSA()
	if err != nil {
		t.Fatal(err)
	}
	defer tsa.Close()
	for name, file := range samples(t) {
		for _, level := range []string{"B-B", "B-T"} {
			for _, visible := range []bool{false, true} {
				for _, key := range []signtest.Options{{}, {RSA: 2048}} {
					t.Run(name+"/"+level+"/"+map[bool]string{false: "invisible", true: "visible"}[visible]+map[bool]string{false: "/ecdsa", true: "/rsa"}[key.RSA > 0], func(t *testing.T) {
						id := identity(t, key)
						o := sign.Options{Identity: id, Reason: "Invoice approved", Location: "Zürich", Visible: visible, Time: time.Now()}
						if level == "B-T" {
							o.TSA = &sign.TSA{URL: tsa.URL}
						}
						signed, sig, err := sign.PDF(context.Background(), file, o)
						if err != nil {
							t.Fatal(err)
						}
						if sig.Level != "PAdES-"+level || sig.Signer != "Ada Lovelace" || (level == "B-T") != (sig.TimestampedAt != nil) {
							t.Fatalf("signature record %+v", sig)
						}
						if !visible && !bytes.HasPrefix(signed, file) {
							t.Fatal("the signature rewrote the bytes before its incremental update")
						}
						report := pdfsig(t, signed)
						for _, want := range []string{"Signer Certificate Common Name: Ada Lovelace", "Signature Validation: Signature is Valid.",
							"Signature Type: ETSI.CAdES.detached", "Total document signed"} {
							if !strings.Contains(report, want) {
								t.Fatalf("pdfsig does not say %q:\n%s", want, report)
							}
						}
						v, err := sign.Verify(signed)
						if err != nil {
							t.Fatal(err)
						}
						if f := failed(v.Checks); len(f) > 0 {
							t.Fatalf("checks failed: %v", f)
						}
						ids := map[string]bool{}
						for _, c := range v.Checks {
							ids[c.ID] = true
						}
						if ids["pades-signature-timestamp"] != (level == "B-T") {
							t.Fatalf("timestamp check present = %v for %s", ids["pades-signature-timestamp"], level)
						}
						if n, err := pdf.PageCount(signed); err != nil || n != 2 {
							t.Fatalf("page count after signing: %d, %v", n, err)
						}
						// A byte of the signed content flipped: the digest no
						// longer matches, for pdfsig and for Verify.
						bad := bytes.Clone(signed)
						at := bytes.Index(bad, []byte("/MediaBox")) + 2
						bad[at] ^= 0x01
						if r := pdfsig(t, bad); !strings.Contains(r, "Digest Mismatch") {
							t.Fatalf("pdfsig after a flipped byte:\n%s", r)
						}
						v, _ = sign.Verify(bad)
						if f := failed(v.Checks); len(f) == 0 || !strings.HasPrefix(f[0], "cms-message-digest") {
							t.Fatalf("Verify after a flipped byte: %v", f)
						}
					})
				}
			}
		}
	}
}

// The PAdES attributes, read from the CMS with a parser of the test's own:
// signing-certificate-v2 present, no signing-time for B-B, the token for
// B-T.
func TestPAdESAttributes(t *testing.T) {
	tsa, err := signtest.StartTSA()
	if err != nil {
		t.Fatal(err)
	}
	defer tsa.Close()
	file := samples(t)["xref-stream"]
	id := identity(t, signtest.Options{})
	for _, bt := range []bool{false, true} {
		o := sign.Options{Identity: id, Time: time.Now()}
		if bt {
			o.TSA = &sign.TSA{URL: tsa.URL}
		}
		signed, _, err := sign.PDF(context.Background(), file, o)
		if err != nil {
			t.Fatal(err)
		}
		signedAttrs, unsignedAttrs := readAttrs(t, signed)
		if !signedAttrs["1.2.840.113549.1.9.16.2.47"] || !signedAttrs["1.2.840.113549.1.9.4"] || !signedAttrs["1.2.840.113549.1.9.3"] {
			t.Fatalf("signed attributes %v lack content-type, message-digest or signing-certificate-v2", signedAttrs)
		}
		if signedAttrs["1.2.840.113549.1.9.5"] {
			t.Fatal("signing-time is among the signed attributes")
		}
		if unsignedAttrs["1.2.840.113549.1.9.16.2.14"] != bt {
			t.Fatalf("B-T %v, unsigned attributes %v", bt, unsignedAttrs)
		}
	}
}

func readAttrs(t *testing.T, signed []byte) (map[string]bool, map[string]bool) {
	t.Helper()
	i := bytes.LastIndex(signed, []byte("/Contents <"))
	j := bytes.IndexByte(signed[i:], '>')
	hexed := strings.TrimRight(string(signed[i+len("/Contents <"):i+j]), "0")
	if len(hexed)%2 == 1 {
		hexed += "0"
	}
	der := make([]byte, len(hexed)/2)
	for k := range der {
		var b byte
		for _, c := range hexed[2*k : 2*k+2] {
			b <<= 4
			switch {
			case c >= '0' && c <= '9':
				b |= byte(c - '0')
			default:
				b |= byte(c-'a') + 10
			}
		}
		der[k] = b
	}
	var ci struct {
		Type    asn1.ObjectIdentifier
		Content asn1.RawValue `asn1:"explicit,tag:0"`
	}
	if _, err := asn1.Unmarshal(der, &ci); err != nil {
		t.Fatal(err)
	}
	var sd struct {
		Version int
		Digests asn1.RawValue
		Encap   asn1.RawValue
		Certs   asn1.RawValue `asn1:"tag:0"`
		Signers []struct {
			Version  int
			SID      asn1.RawValue
			Digest   asn1.RawValue
			Signed   asn1.RawValue `asn1:"tag:0"`
			Alg      asn1.RawValue
			Sig      []byte
			Unsigned asn1.RawValue `asn1:"optional,tag:1"`
		} `asn1:"set"`
	}
	if _, err := asn1.Unmarshal(ci.Content.Bytes, &sd); err != nil {
		t.Fatal(err)
	}
	read := func(b []byte) map[string]bool {
		out := map[string]bool{}
		for len(b) > 0 {
			var a struct {
				Type   asn1.ObjectIdentifier
				Values asn1.RawValue
			}
			rest, err := asn1.Unmarshal(b, &a)
			if err != nil {
				t.Fatal(err)
			}
			out[a.Type.String()] = true
			b = rest
		}
		return out
	}
	return read(sd.Signers[0].Signed.Bytes), read(sd.Signers[0].Unsigned.Bytes)
}

func TestASignedPDFIsNeverSignedAgain(t *testing.T) {
	file := samples(t)["xref-table"]
	id := identity(t, signtest.Options{})
	signed, _, err := sign.PDF(context.Background(), file, sign.Options{Identity: id, Time: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if !sign.IsSigned(signed) || sign.IsSigned(file) {
		t.Fatal("IsSigned is wrong")
	}
	// Text that looks like a byte range (a title in the XMP, say) is not a
	// signature.
	lookalike := append(bytes.Clone(file), "\n% /ByteRange [0 1 2 3]\n"...)
	if sign.IsSigned(lookalike) {
		t.Fatal("a byte range in a comment made the PDF signed")
	}
	if _, err := pdf.Watermark(lookalike, "SANDBOX", "not for use"); err != nil {
		t.Fatalf("watermarking a PDF that only looks signed: %v", err)
	}
	if _, _, err := sign.PDF(context.Background(), signed, sign.Options{Identity: id, Time: time.Now()}); err != sign.ErrSigned {
		t.Fatalf("signing a signed PDF: %v", err)
	}
	// No later step changes it: the watermark and the signature block
	// refuse a signed PDF.
	if _, err := pdf.Watermark(signed, "SANDBOX", "not for use"); !errors.Is(err, pdf.ErrSigned) {
		t.Fatalf("watermarking a signed PDF: %v", err)
	}
	if _, _, err := pdf.SignatureBlock(signed, []string{"x"}, false); !errors.Is(err, pdf.ErrSigned) {
		t.Fatalf("drawing on a signed PDF: %v", err)
	}
}

func TestATimeStampAuthorityThatRefusesFailsTheSignature(t *testing.T) {
	tsa, err := signtest.StartTSA()
	if err != nil {
		t.Fatal(err)
	}
	defer tsa.Close()
	tsa.Refuse.Store(true)
	_, _, err = sign.PDF(context.Background(), samples(t)["xref-table"], sign.Options{Identity: identity(t, signtest.Options{}), Time: time.Now(), TSA: &sign.TSA{URL: tsa.URL}})
	if err == nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("a refusing authority: %v", err)
	}
	tsa.Close()
	_, _, err = sign.PDF(context.Background(), samples(t)["xref-table"], sign.Options{Identity: identity(t, signtest.Options{}), Time: time.Now(), TSA: &sign.TSA{URL: tsa.URL}})
	if err == nil || !strings.Contains(err.Error(), "did not answer") {
		t.Fatalf("an authority that is gone: %v", err)
	}
}

func TestParsePKCS12(t *testing.T) {
	now := time.Now()
	good := identity(t, signtest.Options{})
	modern, _ := signtest.PKCS12(good, "s3cret")
	legacy, _ := signtest.LegacyPKCS12(identity(t, signtest.Options{RSA: 2048}), "s3cret")
	for _, p12 := range [][]byte{modern, legacy} {
		id, err := sign.ParsePKCS12(p12, "s3cret", now)
		if err != nil {
			t.Fatal(err)
		}
		if id.Signer() != "Ada Lovelace" || len(id.Chain) != 2 {
			t.Fatalf("identity %s with %d certificates", id.Signer(), len(id.Chain))
		}
		// Sealed and opened again, it is the same identity.
		raw, err := id.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		back, err := sign.UnmarshalIdentity(raw)
		if err != nil || back.Fingerprint() != id.Fingerprint() {
			t.Fatalf("round trip: %v", err)
		}
	}
	expired, _ := signtest.PKCS12(identity(t, signtest.Options{NotBefore: now.AddDate(-2, 0, 0), NotAfter: now.AddDate(-1, 0, 0)}), "pw")
	early, _ := signtest.PKCS12(identity(t, signtest.Options{NotBefore: now.AddDate(0, 1, 0)}), "pw")
	weak, _ := signtest.PKCS12(identity(t, signtest.Options{RSA: 1024}), "pw")
	certOnly, _ := signtest.PKCS12(identity(t, signtest.Options{KeyUsage: x509.KeyUsageCertSign}), "pw")
	for _, c := range []struct {
		name, password, field, says string
		file                        []byte
	}{
		{"wrong password", "nope", "password", "does not open", modern},
		{"not PKCS#12", "pw", "file", "not a PKCS#12", []byte("-----BEGIN CERTIFICATE-----")},
		{"empty", "pw", "file", "empty", nil},
		{"expired", "pw", "file", "expired", expired},
		{"not yet valid", "pw", "file", "valid only from", early},
		{"weak RSA", "pw", "file", "1024 bits", weak},
		{"no signing usage", "pw", "file", "key usage", certOnly},
	} {
		_, err := sign.ParsePKCS12(c.file, c.password, now)
		var inv *fault.FieldError
		if !errors.As(err, &inv) || inv.Field != c.field || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

func FuzzParsePKCS12(f *testing.F) {
	ca, _ := signtest.NewAuthority("root")
	id, _ := ca.Issue("signer", signtest.Options{})
	p12, _ := signtest.PKCS12(id, "pw")
	f.Add(p12)
	f.Fuzz(func(t *testing.T, b []byte) {
		sign.ParsePKCS12(b, "pw", time.Now())
	})
}

func FuzzParseTimeStampResp(f *testing.F) {
	f.Add([]byte{0x30, 0x03, 0x30, 0x01, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		sign.ParseTimeStampResp(b)
	})
}

func FuzzVerify(f *testing.F) {
	f.Add([]byte("%PDF-1.7\n/ByteRange [0 10 20 5] <abcd>"))
	f.Fuzz(func(t *testing.T, b []byte) {
		sign.Verify(b)
	})
}

// TestPKCS12WorkIsBounded: a file that asks for more key derivation than
// any exporter writes is refused before it is derived; one within the
// limits opens.
func TestPKCS12WorkIsBounded(t *testing.T) {
	id := identity(t, signtest.Options{})
	ok, err := pkcs12.LegacyDES.WithIterations(100_000).Encode(id.Key, id.Chain[0], id.Chain[1:], "pw")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sign.ParsePKCS12(ok, "pw", time.Now()); err != nil {
		t.Fatalf("100,000 iterations: %v", err)
	}
	heavy, err := pkcs12.LegacyDES.WithIterations(2_000_001).Encode(id.Key, id.Chain[0], id.Chain[1:], "pw")
	if err != nil {
		t.Fatal(err)
	}
	// With the right password the library would open it: the refusal is
	// the check's, made before any derivation.
	_, err = sign.ParsePKCS12(heavy, "pw", time.Now())
	var inv *fault.FieldError
	if !errors.As(err, &inv) || inv.Field != "file" || !strings.Contains(err.Error(), "key-derivation work") {
		t.Fatalf("2,000,001 iterations: %v", err)
	}
}
