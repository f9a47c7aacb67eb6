package transport_test

import (
	"bytes"
	"crypto/x509"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/node"
	"github.com/platen/platen/sign"
	"github.com/platen/platen/sign/signtest"
)

type certificate struct {
	ID           string    `json:"id"`
	Name         string    `json:"name"`
	Subject      string    `json:"subject"`
	SubjectDN    string    `json:"subjectDn"`
	IssuerDN     string    `json:"issuerDn"`
	Serial       string    `json:"serial"`
	SHA256       string    `json:"sha256"`
	KeyAlgorithm string    `json:"keyAlgorithm"`
	NotBefore    time.Time `json:"notBefore"`
	NotAfter     time.Time `json:"notAfter"`
	ChainLength  int       `json:"chainLength"`
	CreatedAt    time.Time `json:"createdAt"`
}

// pdfsigReport runs poppler's pdfsig on a PDF.
func pdfsigReport(t *testing.T, file []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "signed.pdf")
	if err := os.WriteFile(path, file, 0o600); err != nil {
		t.Fatal(err)
	}
	out, _ := exec.Command("pdfsig", path).CombinedOutput()
	return string(out)
}

// TestSignedDocuments: an organisation uploads a PKCS#12 file; a template
// whose manifest signs (visibly, as PDF/A-3b) and a request that signs a
// plain template both make documents that pdfsig verifies, time-stamped by
// the node's authority (B-T); the record, the report and the webhook say
// who signed and when; regenerating signs anew; a refusing authority fails
// the document SIGNING_FAILED; a deleted certificate is refused at once.
func TestSignedDocuments(t *testing.T) {
	tsa, err := signtest.StartTSA()
	if err != nil {
		t.Fatal(err)
	}
	defer tsa.Close()
	rc := newReceiver(t)
	var dataDir string
	n := testnode.Start(t, func(c *node.Config) {
		c.TSAURL, dataDir = tsa.URL, c.DataDir
		c.WebhookAllowPrivate, c.WebhookCAFile, c.WebhookSchedule = true, rc.caFile, fastSchedule
	})
	register(t, n, rc.URL, "document.completed")

	ca, err := signtest.NewAuthority("Platen test root")
	if err != nil {
		t.Fatal(err)
	}
	id, err := ca.Issue("Ada Lovelace", signtest.Options{RSA: 2048})
	if err != nil {
		t.Fatal(err)
	}
	const password = "correct horse battery staple"
	p12, err := signtest.PKCS12(id, password)
	if err != nil {
		t.Fatal(err)
	}

	// Refusals name the field.
	if r := testnode.Upload(t, n.URL+"/v1/signing/certificates", n.Key, "ada.p12", p12, map[string]string{"password": "wrong"}); r.Status != 400 || r.Field() != "password" {
		t.Fatalf("wrong password: %s", r)
	}
	if r := testnode.Upload(t, n.URL+"/v1/signing/certificates", n.Key, "ada.p12", []byte("not a p12"), map[string]string{"password": password}); r.Status != 400 || r.Field() != "file" {
		t.Fatalf("not PKCS#12: %s", r)
	}
	r := testnode.Upload(t, n.URL+"/v1/signing/certificates", n.Key, "ada.p12", p12, map[string]string{"password": password, "name": "Accounts"})
	if r.Status != 201 {
		t.Fatalf("upload: %s", r)
	}
	cert := testnode.DataAs[certificate](t, r)
	if cert.Subject != "Ada Lovelace" || cert.Name != "Accounts" || cert.KeyAlgorithm != "RSA 2048" || cert.ChainLength != 2 || cert.SHA256 != id.Fingerprint() {
		t.Fatalf("certificate %+v", cert)
	}
	if l := testnode.DataAs[testnode.List[certificate]](t, testnode.Do(t, "GET", n.URL+"/v1/signing/certificates", n.Key, nil)); len(l.Items) != 1 || l.Items[0].ID != cert.ID {
		t.Fatalf("list: %+v", l)
	}
	_, readOnly := createKey(t, n, n.OrgID, "documents.read")
	if r := testnode.Do(t, "GET", n.URL+"/v1/signing/certificates", readOnly, nil); r.Status != 403 {
		t.Fatalf("a key without signing.read: %s", r)
	}

	// The key is sealed at rest, and neither it nor the password is
	// logged.
	keyDER, _ := x509.MarshalPKCS8PrivateKey(id.Key)
	if strings.Contains(n.Logs.String(), password) {
		t.Error("the PKCS#12 password is in the log")
	}
	filepath.Walk(dataDir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			if raw, err := os.ReadFile(p); err == nil && (bytes.Contains(raw, keyDER) || bytes.Contains(raw, []byte(password))) {
				t.Errorf("the signing key or its password is stored unsealed in %s", p)
			}
		}
		return nil
	})

	// A template that signs every document, visibly, as PDF/A-3b.
	body := invoiceVersion(true)
	body["name"], body["slug"], body["html"] = "Signed", "signed", "<!DOCTYPE html>"+invoiceHTML
	m := body["manifest"].(map[string]any)
	m["pdfa"] = "3b"
	m["sign"] = map[string]any{"certificateId": "crt_00000000000000000000000000", "reason": "Invoice issued"}
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates", n.Key, body); r.Status != 400 || r.Field() != "manifest.sign.certificateId" {
		t.Fatalf("a manifest signing with another certificate: %s", r)
	}
	m["sign"] = map[string]any{"certificateId": cert.ID, "reason": "Invoice issued", "location": "London", "appearance": "visible"}
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates", n.Key, body); r.Status != 201 {
		t.Fatalf("create: %s", r)
	}
	r = testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "signed", "data": invoiceData(2)})
	d := testnode.DataAs[testnode.Document](t, r)
	if r.Status != 201 || d.Status != "completed" {
		t.Fatalf("generate: %s", r)
	}
	sig := d.Signature
	if sig == nil || sig.Level != "PAdES-B-T" || sig.Signer != "Ada Lovelace" || sig.CertificateID != cert.ID || sig.Appearance != "visible" ||
		sig.Reason != "Invoice issued" || sig.TimestampedAt == nil || sig.SignedAt.IsZero() {
		t.Fatalf("the record's signature: %+v", sig)
	}
	var rep struct {
		Ms          map[string]int64 `json:"ms"`
		SHA256      string           `json:"sha256"`
		Conformance struct {
			PDFA      string `json:"pdfa"`
			Failed    int    `json:"failed"`
			Failures  []any  `json:"failures"`
			Signature struct {
				Level  string   `json:"level"`
				Checks []string `json:"checks"`
			} `json:"signature"`
		} `json:"conformance"`
	}
	json.Unmarshal(d.Report, &rep)
	if _, ok := rep.Ms["signing"]; !ok || rep.Conformance.PDFA != "PDF/A-3b" || rep.Conformance.Failed != 0 ||
		rep.Conformance.Signature.Level != "PAdES-B-T" || len(rep.Conformance.Signature.Checks) != 8 {
		t.Fatalf("the report: %s", d.Report)
	}
	_, file := download(t, d.DownloadURL)
	report := pdfsigReport(t, file)
	for _, want := range []string{"Signer Certificate Common Name: Ada Lovelace", "Signature Validation: Signature is Valid.", "Total document signed", "Signature Type: ETSI.CAdES.detached"} {
		if !strings.Contains(report, want) {
			t.Fatalf("pdfsig does not say %q:\n%s", want, report)
		}
	}
	if v, err := sign.Verify(file); err != nil || len(v.Checks) != 8 || v.Timestamp == nil {
		t.Fatalf("Verify: %+v %v", v, err)
	}
	if !strings.Contains(pdfText(t, file), "Digitally signed by Ada Lovelace") {
		t.Error("the visible signature's block is not on the page")
	}
	path := filepath.Join(t.TempDir(), "signed.pdf")
	os.WriteFile(path, file, 0o600)
	if meta, _ := exec.Command("pdfinfo", "-meta", path).Output(); !strings.Contains(string(meta), "<pdfaid:part>3</pdfaid:part>") {
		t.Error("the signed document no longer claims PDF/A-3b")
	}

	// A signed PDF is not made a template: filling it would break its
	// signature.
	if r := testnode.Upload(t, n.URL+"/v1/templates/pdf", n.Key, "signed.pdf", file, map[string]string{"name": "Signed upload"}); r.Status != 400 || r.Field() != "file" || !strings.Contains(r.Message(), "signed") {
		t.Fatalf("a signed PDF as a template: %s", r)
	}

	// The webhook says who signed and when.
	waitReceived(t, rc, "document.completed", 1)
	var payload struct {
		Data testnode.DocumentEvent `json:"data"`
	}
	json.Unmarshal(rc.received()[0].body, &payload)
	if s := payload.Data.Signature; s == nil || s.Signer != "Ada Lovelace" || s.Level != "PAdES-B-T" || !s.SignedAt.Equal(sig.SignedAt) {
		t.Fatalf("the webhook's signature: %s", rc.received()[0].body)
	}

	// Regenerate signs anew.
	r = testnode.Do(t, "POST", n.URL+"/v1/documents/"+d.ID+"/regenerate", n.Key, nil)
	again := testnode.DataAs[testnode.Document](t, r)
	if r.Status != 201 || again.Signature == nil || again.Signature.CertificateID != cert.ID {
		t.Fatalf("regenerate: %s", r)
	}
	_, file2 := download(t, again.DownloadURL)
	if bytes.Equal(file, file2) || !strings.Contains(pdfsigReport(t, file2), "Signature is Valid.") {
		t.Fatal("the regenerated document is not signed anew")
	}

	// A request signs a plain template, invisibly; a bad appearance is
	// refused before anything is made.
	plain := invoiceVersion(true)
	plain["name"], plain["slug"] = "Plain", "plain"
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates", n.Key, plain); r.Status != 201 {
		t.Fatalf("create plain: %s", r)
	}
	if r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "plain", "data": invoiceData(1),
		"sign": map[string]any{"certificateId": cert.ID, "appearance": "loud"}}); r.Status != 400 || r.Field() != "sign.appearance" {
		t.Fatalf("a bad appearance: %s", r)
	}
	r = testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "plain", "data": invoiceData(1), "sign": map[string]any{"certificateId": cert.ID}})
	if d := testnode.DataAs[testnode.Document](t, r); r.Status != 201 || d.Signature == nil || d.Signature.Appearance != "invisible" {
		t.Fatalf("a request that signs: %s", r)
	}

	// An authority that refuses: the document fails, saying why.
	tsa.Refuse.Store(true)
	r = testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "signed", "data": invoiceData(1)})
	if d := testnode.DataAs[testnode.Document](t, r); d.Status != "failed" || d.ErrorCode != "SIGNING_FAILED" || !strings.Contains(d.Message, "time-stamp authority") || d.Charge != nil && d.Charge.Micros != 0 {
		t.Fatalf("a refusing authority: %s", r)
	}
	tsa.Refuse.Store(false)

	// Deleted: gone from the API, and refused by name.
	if r := testnode.Do(t, "DELETE", n.URL+"/v1/signing/certificates/"+cert.ID, n.Key, nil); r.Status != 200 {
		t.Fatalf("delete: %s", r)
	}
	if r := testnode.Do(t, "GET", n.URL+"/v1/signing/certificates/"+cert.ID, n.Key, nil); r.Status != 404 {
		t.Fatalf("read after delete: %s", r)
	}
	if r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "signed", "data": invoiceData(1)}); r.Status != 400 || r.Field() != "sign.certificateId" {
		t.Fatalf("a template whose certificate was deleted: %s", r)
	}
	if r := testnode.Do(t, "POST", n.URL+"/v1/documents/"+d.ID+"/regenerate", n.Key, nil); r.Status != 400 || r.Field() != "sign.certificateId" {
		t.Fatalf("regenerate after delete: %s", r)
	}
	if tsa.Requests.Load() < 3 {
		t.Fatalf("the authority time-stamped %d signatures", tsa.Requests.Load())
	}
}
