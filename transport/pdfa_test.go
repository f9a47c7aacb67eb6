package transport_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/platen/platen/internal/testnode"
)

// TestPDFATemplates: a template whose manifest asks for PDF/A-3b makes
// documents that claim it (phantom writes them, whatever the platform
// default); a version whose sample uses what phantom does not support is
// refused at save, saying so; a manifest that cannot be PDF/A is refused
// at its field.
func TestPDFATemplates(t *testing.T) {
	n := testnode.Start(t, nil)
	body := invoiceVersion(true)
	body["name"], body["slug"] = "Archive", "archive"
	body["html"] = "<!DOCTYPE html>" + invoiceHTML
	body["manifest"].(map[string]any)["pdfa"] = "3b"
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates", n.Key, body); r.Status != 201 {
		t.Fatalf("create: %s", r)
	}
	r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "archive", "data": invoiceData(2)})
	d := testnode.DataAs[testnode.Document](t, r)
	if r.Status != 201 || d.Status != "completed" || d.Engine != "phantom" || !strings.Contains(d.EngineReason, "PDF/A-3b") {
		t.Fatalf("generate: %s", r)
	}
	_, pdf := download(t, d.DownloadURL)
	f := filepath.Join(t.TempDir(), "a.pdf")
	if err := os.WriteFile(f, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	meta, err := exec.Command("pdfinfo", "-meta", f).Output()
	if err != nil {
		t.Fatal(err)
	}
	if m := string(meta); !strings.Contains(m, "<pdfaid:part>3</pdfaid:part>") || !strings.Contains(m, "<pdfaid:conformance>B</pdfaid:conformance>") {
		t.Errorf("the document does not claim PDF/A-3b:\n%s", m)
	}

	// A sample phantom cannot print: refused at save, naming what.
	v := invoiceVersion(false)
	v["html"] = "<!DOCTYPE html>" + strings.Replace(invoiceHTML, "<body>", `<body><script>var x=1</script>`, 1)
	v["manifest"].(map[string]any)["pdfa"] = "3b"
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates/archive/versions", n.Key, v); r.Status/100 != 4 || !strings.Contains(r.Message(), "PDF/A-3b") || !strings.Contains(r.Message(), "script") {
		t.Errorf("a PDF/A version phantom cannot print: %s", r)
	}
	v = invoiceVersion(false)
	v["manifest"].(map[string]any)["pdfa"] = "3b"
	v["manifest"].(map[string]any)["engine"] = "chromium"
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates/archive/versions", n.Key, v); r.Status != 400 || r.Field() != "manifest.engine" {
		t.Errorf("PDF/A on chromium: %s", r)
	}
}
