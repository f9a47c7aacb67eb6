package transport_test

import (
	"encoding/base64"
	"encoding/json"
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

// TestPDFAPerRequest: a document asks for PDF/A itself, from a template
// that does not: the file claims the level, the record says so and
// carries a conformance report with no failure; a bad level, or PDF/A
// with chromium named, is refused before anything is created.
func TestPDFAPerRequest(t *testing.T) {
	n := testnode.Start(t, nil)
	body := invoiceVersion(true)
	body["name"], body["slug"] = "Plain", "plain"
	body["html"] = "<!DOCTYPE html>" + invoiceHTML
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates", n.Key, body); r.Status != 201 {
		t.Fatalf("create: %s", r)
	}
	r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "plain", "data": invoiceData(2), "pdfa": "2u"})
	d := testnode.DataAs[testnode.Document](t, r)
	if r.Status != 201 || d.Status != "completed" || d.Engine != "phantom" || r.Data()["pdfa"] != "2u" {
		t.Fatalf("generate: %s", r)
	}
	var rep struct {
		Conformance *struct {
			Summary string `json:"summary"`
			Failed  int    `json:"failed"`
			PDFA    string `json:"pdfa"`
		} `json:"conformance"`
	}
	if err := json.Unmarshal(d.Report, &rep); err != nil || rep.Conformance == nil || rep.Conformance.Failed != 0 || rep.Conformance.PDFA != "PDF/A-2u" ||
		!strings.HasSuffix(rep.Conformance.Summary, " rules checked, 0 failed") {
		t.Errorf("conformance report: %s", d.Report)
	}
	_, pdf := download(t, d.DownloadURL)
	f := filepath.Join(t.TempDir(), "a.pdf")
	if err := os.WriteFile(f, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	if meta, _ := exec.Command("pdfinfo", "-meta", f).Output(); !strings.Contains(string(meta), "<pdfaid:part>2</pdfaid:part>") || !strings.Contains(string(meta), "<pdfaid:conformance>U</pdfaid:conformance>") {
		t.Errorf("the file does not claim PDF/A-2u:\n%s", meta)
	}
	// A plain document of the same template has no report of conformance.
	r = testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "plain", "data": invoiceData(2)})
	if d := testnode.DataAs[testnode.Document](t, r); strings.Contains(string(d.Report), "conformance") {
		t.Errorf("a plain document carries a conformance report: %s", d.Report)
	}
	for _, bad := range []map[string]any{
		{"templateId": "plain", "data": invoiceData(2), "pdfa": "1b"},
		{"templateId": "plain", "data": invoiceData(2), "pdfa": "3b", "engine": "chromium"},
	} {
		if r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, bad); r.Status != 400 || r.Field() != "pdfa" {
			t.Errorf("%v: %s", bad, r)
		}
	}
}

// TestPDFARefusesCMYKAtSave: a PDF/A version whose sample prints a CMYK
// JPEG is refused at save, at the asset, saying why; the same version
// without pdfa is saved.
func TestPDFARefusesCMYKAtSave(t *testing.T) {
	n := testnode.Start(t, nil)
	// A JPEG's markers with a four-component frame: what phantom reads to
	// place a JPEG as it is.
	jpeg := []byte{0xFF, 0xD8, 0xFF, 0xC0, 0, 20, 8, 0, 10, 0, 10, 4, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0, 4, 0x11, 0, 0xFF, 0xDA, 0, 2, 0, 0, 0xFF, 0xD9}
	body := map[string]any{"name": "Logo", "slug": "logo", "html": `<!DOCTYPE html><p>Logo</p><img src="{{asset "logo.jpg"}}" width="40" height="40" alt="">`,
		"assets":   map[string]string{"logo.jpg": "data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(jpeg)},
		"manifest": map[string]any{"pdfa": "3b"}, "sampleData": map[string]any{}, "activate": true}
	r := testnode.Do(t, "POST", n.URL+"/v1/templates", n.Key, body)
	if r.Status != 400 || r.Field() != "assets.logo.jpg" || !strings.Contains(r.Problem().Message, "CMYK") || !strings.Contains(r.Problem().Message, "PDF/A-3b") {
		t.Errorf("a CMYK JPEG in a PDF/A template: %s", r)
	}
	body["manifest"] = map[string]any{}
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates", n.Key, body); r.Status != 201 {
		t.Errorf("the same template without pdfa: %s", r)
	}
}
