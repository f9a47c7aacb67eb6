package phantom

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"github.com/platen/platen/internal/pdfstruct"
	"github.com/platen/platen/pdf"
	"github.com/platen/platen/render"
	"github.com/platen/platen/sign"
	"github.com/platen/platen/sign/signtest"
)

const taggedSample = `<!DOCTYPE html><html lang="en"><head><title>Tagged sample</title>
<style>body{font-family:sans-serif} th{background:#eee} .box{border:1px solid #999;padding:4px}
thead{display:table-header-group} tr{break-inside:avoid}</style></head>
<body><h1>Invoice 42</h1><p>Hello <a href="https://example.com">world</a>, <span lang="fr">bonjour</span>.</p>
<div class="box">A div with text</div>
<ol><li>First</li><li>Second</li></ol>
<table><thead><tr><th>Item</th><th>Price</th></tr></thead><tbody><tr><th scope="row">Widget</th><td>5</td></tr></tbody></table>
<img alt="A red square" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC" width="20" height="20">
<img alt="" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC" width="10" height="10">
</body></html>`

func renderTagged(t *testing.T, html string, tagged bool) []byte {
	t.Helper()
	e := testEngine(t)
	out, err := e.Render(context.Background(), render.Job{HTML: html, Geometry: a4(), Tagged: tagged})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestTaggedPDF: a tagged document reads, for a reader that is not
// Platen's (poppler and qpdf), as its markup says: roles in reading order,
// the link with its annotation, the change of language, list items with
// their bodies and labels, table headers with their scope, the image's alt
// text, the decorative image left out; the catalog says it is marked, in
// which language, with its title shown; and the pages look exactly as the
// untagged document's.
func TestTaggedPDF(t *testing.T) {
	file := renderTagged(t, taggedSample, true)
	outline, err := pdfstruct.Outline(file)
	if err != nil {
		t.Fatal(err)
	}
	want := `Document
  H1
    "Invoice 42"
  P
    "Hello "
    Link
      "world"
    ", "
    Span
      "bonjour"
    "."
  P
    "A div with text"
  L
    LI
      Lbl
        "1. "
      LBody
        "First"
    LI
      Lbl
        "2. "
      LBody
        "Second"
  Table
    THead
      TR
        TH
          "Item"
        TH
          "Price"
    TBody
      TR
        TH
          "Widget"
        TD
          "5"
  P
    Figure
      ""
    " "
`
	if got := strings.Join(strings.Fields(strings.ReplaceAll(outline, "\n", " | ")), " "); got != strings.Join(strings.Fields(strings.ReplaceAll(want, "\n", " | ")), " ") {
		t.Errorf("the structure tree reads:\n%s\nwant:\n%s", outline, want)
	}
	d, err := pdfstruct.Read(file)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Marked || d.Lang != "en" || !d.DisplayDocTitle || d.PagesWithStructParents != d.Pages || d.Links != 1 || d.LinksTagged != 1 || d.ParentTreeKeys != d.NextKey {
		t.Errorf("the catalog and pages: %+v", d)
	}
	var scopes []string
	var alt *string
	var lang string
	links := 0
	d.Root.Walk(func(e *pdfstruct.Elem, _ int) {
		switch e.Role {
		case "TH":
			scopes = append(scopes, e.Scope)
		case "Figure":
			alt = e.Alt
		case "Span":
			lang = e.Lang
		case "Link":
			links += e.Annots
		}
	})
	if strings.Join(scopes, " ") != "Column Column Row" || alt == nil || *alt != "A red square" || lang != "fr" || links != 1 {
		t.Errorf("scopes %v, alt %v, lang %q, link annotations %d", scopes, alt, lang, links)
	}
	// Tagging changes what a reader reads, not what is printed.
	plain := renderTagged(t, taggedSample, false)
	if a, b := pagePNG(t, file), pagePNG(t, plain); !bytes.Equal(a, b) {
		t.Error("the tagged document does not look like the untagged one")
	}
	if _, err := pdfstruct.Read(plain); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(plain, []byte("StructTreeRoot")) {
		t.Error("an untagged document has a structure tree")
	}
}

// TestRepeatedTableHeaderIsAnArtifact: a table over two pages is one
// Table, its header row read once; the copy on the second page is an
// artifact.
func TestRepeatedTableHeaderIsAnArtifact(t *testing.T) {
	var rows strings.Builder
	for i := 0; i < 80; i++ {
		rows.WriteString("<tr><td>row</td><td>1</td></tr>")
	}
	html := `<!DOCTYPE html><html lang="en"><head><title>Long</title><style>td,th{padding:4px}</style></head><body><table>
<thead><tr><th>Item</th><th>Qty</th></tr></thead><tbody>` + rows.String() + `</tbody></table></body></html>`
	file := renderTagged(t, html, true)
	d, err := pdfstruct.Read(file)
	if err != nil {
		t.Fatal(err)
	}
	if d.Pages < 2 {
		t.Fatalf("the table takes %d page", d.Pages)
	}
	tables, ths := 0, 0
	d.Root.Walk(func(e *pdfstruct.Elem, _ int) {
		switch e.Role {
		case "Table":
			tables++
		case "TH":
			ths++
		}
	})
	if tables != 1 || ths != 2 {
		t.Errorf("%d tables and %d header cells, want one table and 2", tables, ths)
	}
	text := pdfText(t, file)
	if n := strings.Count(text, "Item"); n != d.Pages {
		t.Errorf("the header is printed %d times on %d pages", n, d.Pages)
	}
}

func pagePNG(t *testing.T, file []byte) []byte {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "f.pdf")
	os.WriteFile(path, file, 0o600)
	if out, err := exec.Command("pdftoppm", "-r", "60", "-png", "-singlefile", path, filepath.Join(dir, "p")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v %s", err, out)
	}
	png, err := os.ReadFile(filepath.Join(dir, "p.png"))
	if err != nil {
		t.Fatal(err)
	}
	return png
}

// TestPDFUAChecksFail: a PDF/UA-1 document passes every rule Platen
// checks, and each rule fails when the file is broken on purpose: the file
// is rewritten uncompressed by qpdf (--qdf), changed, and its offsets fixed
// with fix-qdf.
func TestPDFUAChecksFail(t *testing.T) {
	e := testEngine(t)
	file, err := e.Render(context.Background(), render.Job{HTML: taggedSample, Geometry: a4(), Tagged: true, PDFUA: true})
	if err != nil {
		t.Fatal(err)
	}
	checks, err := pdf.CheckPDFUA(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range checks {
		if !c.Passed {
			t.Errorf("the document fails %s: %s", c.ID, c.Detail)
		}
	}
	if len(checks) != len(pdf.PDFUARules) {
		t.Fatalf("%d checks of %d rules", len(checks), len(pdf.PDFUARules))
	}
	dir := t.TempDir()
	in, qdf := filepath.Join(dir, "in.pdf"), filepath.Join(dir, "qdf.pdf")
	os.WriteFile(in, file, 0o600)
	if out, err := exec.Command("qpdf", "--qdf", "--object-streams=disable", in, qdf).CombinedOutput(); err != nil {
		t.Fatalf("qpdf: %v %s", err, out)
	}
	plain, _ := os.ReadFile(qdf)
	for _, c := range []struct{ from, to, fails string }{
		{"/Marked true", "/Marked false", "6.2-1"},
		{"<pdfuaid:part>1<", "<pdfuaid:part>2<", "5-2"},
		{"xmlns:pdfuaid=\"http://www.aiim.org/pdfua/ns/id/\"", "xmlns:pdfuaid=\"http://example.com/x/\"", "5-1"},
		{"<dc:title>", "<dc:titl>", "7.1-9"},
		{"/DisplayDocTitle true", "/DisplayDocTitle false", "7.1-10"},
		{"/StructTreeRoot 7 0 R", "/StructTreeRooX 7 0 R", "7.1-11"},
		{"/Alt (A red square)", "/Xlt (A red square)", "7.3-1"},
		{"/Artifact BMC", "/Artifakt BMC", "7.1-3"},
		{"/Tabs /S", "/Tabs /R", "7.18.3-1"},
		{"/Contents (https://example.com)", "/Xontents (https://example.com)", "7.18.5-2"},
		{"/StructParent 1\n", "/XtructParent 1\n", "7.18.5-1"},
		{"/S /H1", "/S /H2", "7.4.2-1"},
		{"/Scope /Column", "/Xcope /Column", "7.5-1"},
		{"/Lang (en)", "/Lang (e n)", "7.2-29"},
		{"/Lang (en)", "/Xang (en)", "7.2-34"},
		{"/S /LBody", "/S /Body", "7.1-5"},
		{"/S /TD", "/S /P", "7.2-10"},
		{"/Marked true", "/Marked true /Suspects true", "7.1-4"},
		{"/Metadata ", "/Xetadata ", "7.1-8"},
		{"\n  /P ", "\n  /Q ", "7.1-12"},
		{"/S /THead\n", "/S /Div\n", "7.2-3"},
		{"/S /THead\n", "/S /Div\n", "7.2-4"},
		{"/S /TR\n", "/S /Div\n", "7.2-8"},
		{"/S /TBody\n", "/S /TR\n", "7.2-10"},
		{"/S /L\n", "/S /Div\n", "7.2-17"},
		{"/S /LI\n", "/S /Div\n", "7.2-18"},
		{"/S /LI\n", "/S /Div\n", "7.2-19"},
		{"/S /Lbl\n", "/S /P\n", "7.2-20"},
		{"/ToUnicode", "/XoUnicode", "7.21.7-1"},
		{"/FontFile2", "/XontFile2", "7.21.4.1-1"},
	} {
		if !bytes.Contains(plain, []byte(c.from)) {
			t.Fatalf("%s: the file has no %q", c.fails, c.from)
		}
		broken := filepath.Join(dir, "broken.pdf")
		os.WriteFile(broken, bytes.Replace(plain, []byte(c.from), []byte(c.to), 1), 0o600)
		fixed, err := exec.Command("fix-qdf", broken).Output()
		if err != nil {
			t.Fatalf("fix-qdf: %v", err)
		}
		checks, err := pdf.CheckPDFUA(fixed)
		if err != nil {
			t.Fatalf("%s: %v", c.fails, err)
		}
		failed := false
		for _, ch := range checks {
			failed = failed || ch.ID == c.fails && !ch.Passed
		}
		if !failed {
			t.Errorf("%q → %q: %s did not fail", c.from, c.to, c.fails)
		}
	}
}

// TestTaggedAndSignedIsStrictlyValid: a PDF/UA document, and the same
// signed (PAdES B-B, invisibly), pass pdfcpu's strict
// validation, and the signed one still passes every PDF/UA rule checked.
func TestTaggedAndSignedIsStrictlyValid(t *testing.T) {
	e := testEngine(t)
	file, err := e.Render(context.Background(), render.Job{HTML: taggedSample, Geometry: a4(), Tagged: true, PDFUA: true})
	if err != nil {
		t.Fatal(err)
	}
	ca, err := signtest.NewAuthority("Platen test root")
	if err != nil {
		t.Fatal(err)
	}
	id, err := ca.Issue("Ada Lovelace", signtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	signed, _, err := sign.PDF(context.Background(), file, sign.Options{Identity: id, Time: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string][]byte{"PDF/UA": file, "PDF/UA signed": signed} {
		conf := model.NewDefaultConfiguration()
		conf.ValidationMode = model.ValidationStrict
		if err := api.Validate(bytes.NewReader(f), conf); err != nil {
			t.Errorf("%s: pdfcpu validate (strict): %v", name, err)
		}
		checks, err := pdf.CheckPDFUA(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range checks {
			if !c.Passed {
				t.Errorf("%s fails %s: %s", name, c.ID, c.Detail)
			}
		}
	}
}
