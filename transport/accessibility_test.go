package transport_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/platen/platen/internal/pdfstruct"
	"github.com/platen/platen/internal/testnode"
)

// accessibleHTML is an invoice a reader can read aloud: a language, a
// title, headings in order, a table with header cells, an image with alt
// text and one marked as decoration.
const accessibleHTML = `<!DOCTYPE html><html lang="en"><head><title>Invoice {{number}}</title>
<style>body{font-family:sans-serif;padding:15mm} th{text-align:left}</style></head><body>
<h1>Invoice {{number}}</h1>
<img alt="Example Ltd logo" width="40" height="20" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC">
<img alt="" width="10" height="10" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC">
<h2>Lines</h2>
<table><thead><tr><th scope="col">Item</th><th scope="col">Price</th></tr></thead>
<tbody>{{#each items}}<tr><td>{{description}}</td><td>{{formatCurrency price}}</td></tr>{{/each}}</tbody></table>
<p>Questions? Write to <a href="mailto:billing@example.com">billing@example.com</a>.</p>
</body></html>`

func accessibleVersion(html string, manifest map[string]any) map[string]any {
	v := invoiceVersion(true)
	v["html"] = html
	m := v["manifest"].(map[string]any)
	delete(m, "pagination")
	for k, x := range manifest {
		if x == nil {
			delete(m, k)
			continue
		}
		m[k] = x
	}
	v["sampleData"] = map[string]any{"number": "S-1", "items": []any{map[string]any{"description": "Sample widget", "price": 5}}}
	return v
}

type uaReport struct {
	Conformance struct {
		PDFA       string   `json:"pdfa"`
		PDFUA      string   `json:"pdfua"`
		PDFUARules []string `json:"pdfuaRules"`
		Checked    int      `json:"checked"`
		Failed     int      `json:"failed"`
		Failures   []struct {
			ID, Detail string
		} `json:"failures"`
	} `json:"conformance"`
}

// TestAccessibleDocuments: a template that asks for PDF/UA-1 makes
// documents that claim it, tagged as their markup says, with every PDF/UA
// rule Platen checks passed, alone and with PDF/A-3b; what cannot be made
// accessible is refused at save, each with what to fix; a request can ask
// for PDF/UA of a template that does not.
func TestAccessibleDocuments(t *testing.T) {
	n := testnode.Start(t, nil)
	for _, c := range []struct {
		name, from, to, says string
	}{
		{"no alt", `<img alt="Example Ltd logo"`, `<img`, "has no alt"},
		{"no language", `<html lang="en">`, `<html>`, "no language"},
		{"no title", `<title>Invoice {{number}}</title>`, ``, "no title"},
		{"a heading skipped", `<h2>Lines</h2>`, `<h3>Lines</h3>`, "<h3> follows an <h1>"},
		{"no header cells", `<th scope="col">Item</th><th scope="col">Price</th>`, `<td>Item</td><td>Price</td>`, "no header cells"},
	} {
		// Without a locale, so that the page's own language counts.
		body := accessibleVersion(strings.Replace(accessibleHTML, c.from, c.to, 1), map[string]any{"pdfua": "1", "locale": nil})
		body["name"], body["slug"] = "Broken", "broken-"+strings.ReplaceAll(c.name, " ", "-")
		r := testnode.Do(t, "POST", n.URL+"/v1/templates", n.Key, body)
		if r.Status != 400 || r.Field() != "html" || !strings.Contains(r.Message(), c.says) {
			t.Errorf("%s: %s", c.name, r)
		}
	}
	// A page without a lang of its own takes the manifest's locale.
	body := accessibleVersion(strings.Replace(accessibleHTML, `<html lang="en">`, `<html>`, 1), map[string]any{"pdfua": "1", "locale": "en-GB"})
	body["name"], body["slug"] = "Localised", "localised"
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates", n.Key, body); r.Status != 201 {
		t.Fatalf("a page whose language is the locale: %s", r)
	}

	for _, c := range []struct {
		slug     string
		manifest map[string]any
		pdfa     string
	}{
		{"ua", map[string]any{"pdfua": "1"}, ""},
		{"ua-a3b", map[string]any{"pdfua": "1", "pdfa": "3b"}, "PDF/A-3b"},
	} {
		body := accessibleVersion(accessibleHTML, c.manifest)
		body["name"], body["slug"] = c.slug, c.slug
		if r := testnode.Do(t, "POST", n.URL+"/v1/templates", n.Key, body); r.Status != 201 {
			t.Fatalf("%s: create: %s", c.slug, r)
		}
		r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": c.slug, "data": invoiceData(3)})
		d := testnode.DataAs[testnode.Document](t, r)
		if r.Status != 201 || d.Status != "completed" || d.Engine != "phantom" || !strings.Contains(d.EngineReason, "PDF/UA-1") {
			t.Fatalf("%s: generate: %s", c.slug, r)
		}
		var rep uaReport
		json.Unmarshal(d.Report, &rep)
		cf := rep.Conformance
		if cf.PDFUA != "PDF/UA-1" || cf.PDFA != c.pdfa || len(cf.PDFUARules) < 30 || cf.Failed != 0 {
			t.Fatalf("%s: the conformance report: %s", c.slug, d.Report)
		}
		_, file := download(t, d.DownloadURL)
		s, err := pdfstruct.Read(file)
		if err != nil {
			t.Fatal(err)
		}
		roles := map[string]int{}
		var alts []string
		s.Root.Walk(func(e *pdfstruct.Elem, _ int) {
			roles[e.Role]++
			if e.Role == "Figure" && e.Alt != nil {
				alts = append(alts, *e.Alt)
			}
		})
		if !s.Marked || s.Lang != "en" || !s.DisplayDocTitle || roles["H1"] != 1 || roles["H2"] != 1 || roles["TH"] != 2 || roles["TD"] != 6 ||
			roles["Link"] != 1 || s.LinksTagged != 1 || strings.Join(alts, "|") != "Example Ltd logo" {
			t.Fatalf("%s: the structure: %+v, roles %v, alts %q", c.slug, s, roles, alts)
		}
		path := filepath.Join(t.TempDir(), "ua.pdf")
		os.WriteFile(path, file, 0o600)
		meta, _ := exec.Command("pdfinfo", "-meta", path).Output()
		if !strings.Contains(string(meta), "<pdfuaid:part>1</pdfuaid:part>") || !strings.Contains(string(meta), "<dc:title>") {
			t.Fatalf("%s: the XMP does not claim PDF/UA-1:\n%s", c.slug, meta)
		}
	}

	// A request asks for PDF/UA of a template that does not; markup that
	// cannot be made accessible is refused on pdfua, before anything is
	// made.
	plain := accessibleVersion(accessibleHTML, nil)
	plain["name"], plain["slug"] = "Plain accessible", "plain-accessible"
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates", n.Key, plain); r.Status != 201 {
		t.Fatalf("create: %s", r)
	}
	r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "plain-accessible", "data": invoiceData(1), "pdfua": "1"})
	d := testnode.DataAs[testnode.Document](t, r)
	var rep uaReport
	json.Unmarshal(d.Report, &rep)
	if r.Status != 201 || d.PDFUA != "1" || rep.Conformance.PDFUA != "PDF/UA-1" || rep.Conformance.Failed != 0 {
		t.Fatalf("a request for PDF/UA: %s", r)
	}
	if r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "plain", "data": invoiceData(1), "pdfua": "1"}); r.Status != 400 && r.Status != 404 {
		t.Fatalf("a request for PDF/UA of markup without a title: %s", r)
	}
	if r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "plain-accessible", "data": invoiceData(1), "pdfua": "2"}); r.Status != 400 || r.Field() != "pdfua" {
		t.Fatalf("pdfua 2: %s", r)
	}
	if r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "plain-accessible", "data": invoiceData(1), "pdfua": "1", "engine": "chromium"}); r.Status != 400 || r.Field() != "pdfua" {
		t.Fatalf("pdfua on chromium: %s", r)
	}
}
