package client

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/platen/platen/sign/signtest"
)

// TestSigningThroughTheClient stores a certificate a test authority
// issued, signs a document with it by a request's SignSpec, reads the
// signature from the record, its report, the PDF and the change feed, and
// deletes the certificate. The node names no time-stamp authority, so the
// signature is PAdES-B-B. Every type is decoded strictly (TestMain).
func TestSigningThroughTheClient(t *testing.T) {
	rec := recordOperations(t)
	_, c := startNode(t, nil)
	ctx := ctxFor(t, 2*time.Minute)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}

	ca, err := signtest.NewAuthority("Platen client test root")
	must(err)
	id, err := ca.Issue("Ada Lovelace", signtest.Options{})
	must(err)
	const password = "correct horse battery staple"
	p12, err := signtest.PKCS12(id, password)
	must(err)

	// A refusal names the field.
	var apiErr *Error
	_, err = c.Signing.Create(ctx, CreateCertificateRequest{File: bytes.NewReader(p12), Filename: "ada.p12", Password: "wrong"})
	if !errors.As(err, &apiErr) || apiErr.Status != 400 || apiErr.Code != CodeInvalidRequest || apiErr.Field != "password" {
		t.Fatalf("a wrong password: %v", err)
	}

	cert, err := c.Signing.Create(ctx, CreateCertificateRequest{File: bytes.NewReader(p12), Filename: "ada.p12", Password: password, Name: "Accounts"})
	must(err)
	if !strings.HasPrefix(cert.ID, "crt_") || cert.Name != "Accounts" || cert.Subject != "Ada Lovelace" || cert.SHA256 != id.Fingerprint() ||
		cert.KeyAlgorithm != "ECDSA P-256" || cert.ChainLength != 2 || !cert.NotAfter.After(time.Now()) || cert.CreatedAt.IsZero() {
		t.Fatalf("the stored certificate: %+v", cert)
	}
	certs, err := c.Signing.List(ctx)
	must(err)
	if len(certs) != 1 || certs[0].ID != cert.ID {
		t.Fatalf("list: %+v", certs)
	}
	got, err := c.Signing.Get(ctx, cert.ID)
	must(err)
	if got.ID != cert.ID || got.SHA256 != cert.SHA256 || !got.NotAfter.Equal(cert.NotAfter) {
		t.Fatalf("get: %+v, stored %+v", got, cert)
	}

	// The change feed carries the signature too.
	rt, err := c.Realtime(ctx)
	must(err)
	defer rt.Close()
	events, err := rt.Subscribe(ctx, []string{"document.completed"}, "")
	must(err)

	helloTemplate(t, c, "hello")
	doc, err := c.Documents.Create(ctx, DocumentRequest{
		TemplateID: "hello", Data: map[string]any{"name": "Ada", "order": "A-1"},
		Sign: &SignSpec{CertificateID: cert.ID, Reason: "Order confirmed", Location: "London"},
	})
	must(err)
	if doc.Status != StatusCompleted || doc.Sign == nil || doc.Sign.CertificateID != cert.ID || doc.Sign.Appearance != AppearanceInvisible {
		t.Fatalf("the signed document: %+v, sign %+v", doc, doc.Sign)
	}
	sig := doc.Signature
	if sig == nil || sig.Level != LevelPAdESBB || sig.Signer != "Ada Lovelace" || sig.CertificateID != cert.ID || sig.CertificateSHA256 != cert.SHA256 ||
		sig.TimestampedAt != nil || sig.Reason != "Order confirmed" || sig.Location != "London" || sig.Appearance != AppearanceInvisible ||
		time.Since(sig.SignedAt).Abs() > time.Minute {
		t.Fatalf("the document's signature: %+v", sig)
	}
	cf := doc.Report.Conformance
	if cf == nil || cf.Signature == nil || cf.Signature.Level != LevelPAdESBB || len(cf.Signature.Checks) == 0 || cf.Failed != 0 ||
		cf.Checked != len(cf.Signature.Checks) || cf.PDFA != "" || cf.PDFARules != nil {
		t.Fatalf("the report's conformance (signed, not PDF/A): %+v", cf)
	}
	var pdf bytes.Buffer
	_, err = c.Documents.Download(ctx, doc.ID, &pdf)
	must(err)
	if !bytes.Contains(pdf.Bytes(), []byte("/SubFilter/ETSI.CAdES.detached")) || int64(pdf.Len()) != doc.ByteSize {
		t.Fatalf("the downloaded PDF (%d bytes, the record says %d) carries no PAdES signature", pdf.Len(), doc.ByteSize)
	}
	again, err := c.Documents.Get(ctx, doc.ID)
	must(err)
	if again.Signature == nil || !again.Signature.SignedAt.Equal(sig.SignedAt) {
		t.Fatalf("read again: %+v", again.Signature)
	}
	select {
	case ev := <-events:
		de, err := ev.Document()
		must(err)
		if de.ID != doc.ID || de.Signature == nil || de.Signature.Signer != "Ada Lovelace" || !de.Signature.SignedAt.Equal(sig.SignedAt) {
			t.Fatalf("the feed's document.completed: %+v, signature %+v", de, de.Signature)
		}
	case <-ctx.Done():
		t.Fatal("no document.completed on the feed")
	}

	// Deleted: gone, and refused by name.
	must(c.Signing.Delete(ctx, cert.ID))
	if _, err := c.Signing.Get(ctx, cert.ID); !errors.As(err, &apiErr) || apiErr.Status != 404 || apiErr.Code != CodeNotFound {
		t.Fatalf("a deleted certificate: %v", err)
	}
	_, err = c.Documents.Create(ctx, DocumentRequest{TemplateID: "hello", Data: map[string]any{"name": "Bo", "order": "B-1"}, Sign: &SignSpec{CertificateID: cert.ID}})
	if !errors.As(err, &apiErr) || apiErr.Status != 400 || apiErr.Field != "sign.certificateId" {
		t.Fatalf("a request naming a deleted certificate: %v", err)
	}

	rec.mu.Lock()
	defer rec.mu.Unlock()
	for _, op := range []operation{opCreateCertificate, opListCertificates, opGetCertificate, opDeleteCertificate} {
		if rec.ops[op] == 0 {
			t.Errorf("%s %s was never sent", op.Method, op.Path)
		}
	}
}
