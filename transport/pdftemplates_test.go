package transport_test

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"strings"
	"testing"

	"github.com/platen/platen/internal/pdfbomb"
	"github.com/platen/platen/internal/testnode"
)

// upload posts a PDF to POST /v1/templates/pdf as a browser form would.
func upload(t *testing.T, n *testnode.Node, file []byte, fields map[string]string) testnode.Response {
	t.Helper()
	return testnode.Upload(t, n.URL+"/v1/templates/pdf", n.Key, "Invoice 0142.pdf", file, fields)
}

// TestPDFTemplateLifecycle: upload a PDF, read its pieces and page images,
// mark fields in a version, and generate through the same request, link
// and billing as a written template.
func TestPDFTemplateLifecycle(t *testing.T) {
	n := testnode.Start(t, nil)
	invoice, err := os.ReadFile("../pdftemplate/testdata/chromium-invoice.pdf")
	if err != nil {
		t.Fatal(err)
	}

	r := upload(t, n, invoice, map[string]string{"name": "Studio invoice", "slug": "studio-invoice"})
	if r.Status != 201 {
		t.Fatalf("upload: %s", r)
	}
	tpl := testnode.DataAs[testnode.PDFTemplate](t, r)
	if tpl.Kind != "pdf" || tpl.ActiveVersion != 0 || tpl.Source == nil || tpl.Source.Filename != "Invoice 0142.pdf" {
		t.Fatalf("template %+v", tpl.Template)
	}
	pieceID := map[string]string{}
	for _, p := range tpl.Pieces {
		if _, ok := pieceID[p.Text]; !ok {
			pieceID[p.Text] = p.ID
		}
		if p.Text == "INV-2026-0142" && (p.Size < 6 || p.Color == "" || p.Font == "" || p.Box.W <= 0) {
			t.Fatalf("the number's piece lacks its style: %+v", p)
		}
	}
	for _, want := range []string{"INV-2026-0142", "£12,920.40", "Marlow Coffee Roasters Ltd", "2 March 2026"} {
		if pieceID[want] == "" {
			t.Fatalf("no piece %q among %v", want, pieceID)
		}
	}

	// Refusals, each with its code and field.
	if r := upload(t, n, invoice, map[string]string{"slug": "studio-invoice"}); r.Status != 409 {
		t.Fatalf("a taken slug: %s", r)
	}
	if r := upload(t, n, nil, map[string]string{"slug": "x"}); r.Status != 400 || r.Field() != "file" {
		t.Fatalf("no file: %s", r)
	}
	if r := upload(t, n, []byte("%PDF-1.7\nnot really"), map[string]string{"slug": "broken"}); r.Status != 400 || r.Field() != "file" {
		t.Fatalf("a broken PDF: %s", r)
	}
	if r := upload(t, n, []byte("hello"), map[string]string{"slug": "text"}); r.Status != 400 || r.Field() != "file" {
		t.Fatalf("not a PDF: %s", r)
	}

	// Pieces and page images, in the same coordinates.
	r = testnode.Do(t, "GET", n.URL+"/v1/templates/studio-invoice/pieces?page=1", n.Key, nil)
	if r.Status != 200 || len(testnode.DataAs[testnode.Pieces](t, r).Items) != len(tpl.Pieces) {
		t.Fatalf("pieces: %s", r)
	}
	r = testnode.Do(t, "GET", n.URL+"/v1/templates/studio-invoice/pages/1.png", n.Key, nil)
	if r.Status != 200 || r.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("page image: HTTP %d %s", r.Status, r.Header)
	}
	img, err := png.Decode(bytes.NewReader(r.Body))
	if err != nil {
		t.Fatal(err)
	}
	page := tpl.Source.Pages[0]
	if b := img.Bounds(); b.Dx() != int(page.Width+0.5) || b.Dy() != int(page.Height+0.5) {
		t.Fatalf("a 72 dpi image of a %vx%v pt page is %v", page.Width, page.Height, b)
	}
	if r := testnode.Do(t, "GET", n.URL+"/v1/templates/studio-invoice/pages/2.png", n.Key, nil); r.Status != 404 {
		t.Fatalf("a page the PDF lacks: %s", r)
	}

	// A version of fields, checked against the pieces.
	fields := []map[string]any{
		{"pieceId": pieceID["INV-2026-0142"], "key": "number", "required": true, "align": "right"},
		{"pieceId": pieceID["£12,920.40"], "key": "amount", "default": "£0.00"},
		{"pieceId": pieceID["Marlow Coffee Roasters Ltd"], "key": "customer"},
		{"pieceId": pieceID["2 March 2026"], "key": "issued", "whenMissing": "blank"},
	}
	bad := []map[string]any{{"pieceId": "p9-9", "key": "number"}}
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates/studio-invoice/versions", n.Key, map[string]any{"fields": bad}); r.Status != 400 || r.Field() != "fields[0].pieceId" {
		t.Fatalf("a piece the PDF lacks: %s", r)
	}
	justify := []map[string]any{{"pieceId": pieceID["INV-2026-0142"], "key": "number", "align": "justify"}}
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates/studio-invoice/versions", n.Key, map[string]any{"fields": justify}); r.Status != 400 || r.Field() != "fields[0].align" {
		t.Fatalf("an unknown alignment: %s", r)
	}
	twice := []map[string]any{fields[0], {"pieceId": pieceID["£12,920.40"], "key": "number"}}
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates/studio-invoice/versions", n.Key, map[string]any{"fields": twice}); r.Status != 400 || r.Field() != "fields[1].key" {
		t.Fatalf("a key used twice: %s", r)
	}
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates/studio-invoice/versions", n.Key, map[string]any{"html": "<p>x</p>", "fields": fields}); r.Status != 400 {
		t.Fatalf("markup on a PDF template: %s", r)
	}
	r = testnode.Do(t, "POST", n.URL+"/v1/templates/studio-invoice/versions", n.Key, map[string]any{"fields": fields, "activate": true})
	if r.Status != 201 {
		t.Fatalf("save fields: %s", r)
	}
	saved := testnode.DataAs[testnode.Version](t, r).Fields
	if saved[2].WhenMissing != "original" || saved[1].WhenMissing != "default" {
		t.Fatalf("whenMissing left out: %+v", saved)
	}
	// The listing counts a version's fields.
	if r := testnode.Do(t, "GET", n.URL+"/v1/templates/studio-invoice/versions", n.Key, nil); r.Status != 200 || !strings.Contains(string(r.Body), fmt.Sprintf(`"fieldCount":%d`, len(saved))) {
		t.Fatalf("versions of a PDF template: %s", r)
	}

	// The data is flat, its keys the fields'.
	gen := func(data map[string]any) testnode.Response {
		return testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "studio-invoice", "data": data})
	}
	if r := gen(map[string]any{"amount": "£1.00"}); r.Status != 422 || r.Code() != "PAYLOAD_VALIDATION_FAILED" || r.Field() != "number" {
		t.Fatalf("a missing required key: %s", r)
	}
	if r := gen(map[string]any{"number": "A", "colour": "red"}); r.Status != 422 || r.Field() != "colour" {
		t.Fatalf("an unknown key: %s", r)
	}
	if r := gen(map[string]any{"number": map[string]any{"a": 1}}); r.Status != 422 || r.Field() != "number" {
		t.Fatalf("a nested value: %s", r)
	}

	r = gen(map[string]any{"number": "INV-2026-0999", "customer": "Øresund-Ærø Ltd"})
	if r.Status != 201 || testnode.DataAs[testnode.Document](t, r).Status != "completed" {
		t.Fatalf("generate: %s", r)
	}
	doc := testnode.DataAs[testnode.Document](t, r)
	if doc.PageCount != 1 || doc.Engine != "pdfium" {
		t.Fatalf("document %+v", doc)
	}
	report := testnode.Decode[testnode.Report](t, doc.Report).Fields
	from := map[string]string{}
	for _, f := range report {
		from[f.Key] = f.From
		switch f.Key {
		case "number":
			// The invoice's own font has every glyph of the new number.
			if f.Font != "Liberation Sans" || f.Substituted || f.Size < 9 {
				t.Fatalf("report of the number: %+v", f)
			}
		case "customer":
			// Its subset has no Ø: a substitute, and the report says why.
			if !f.Substituted || !strings.Contains(f.Reason, "Ø") {
				t.Fatalf("report of the customer: %+v", f)
			}
		}
	}
	if from["number"] != "data" || from["amount"] != "default" || from["issued"] != "blank" {
		t.Fatalf("report %+v", report)
	}
	_, pdf := download(t, doc.DownloadURL)
	text := pdfText(t, []byte(pdf))
	orig := pdfText(t, invoice)
	for _, c := range []struct {
		text  string
		delta int
	}{{"INV-2026-0999", 1}, {"Øresund-Ærø Ltd", 1}, {"£0.00", 1}, {"INV-2026-0142", -1}, {"£12,920.40", -1}, {"2 March 2026", -1}, {"Marlow Coffee Roasters Ltd", -1}, {"1 April 2026", 0}} {
		if got := strings.Count(text, c.text) - strings.Count(orig, c.text); got != c.delta {
			t.Errorf("%q: %d more in the document than in the upload, want %d", c.text, got, c.delta)
		}
	}

	// A number is printed with every digit it was sent with.
	r = testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, []byte(`{"templateId":"studio-invoice","data":{"number":"INV-1","customer":12345678901234567890}}`))
	if r.Status != 201 || testnode.DataAs[testnode.Document](t, r).Status != "completed" {
		t.Fatalf("a number as a value: %s", r)
	}
	doc = testnode.DataAs[testnode.Document](t, r)
	if _, pdf := download(t, doc.DownloadURL); !strings.Contains(pdfText(t, []byte(pdf)), "12345678901234567890") {
		t.Fatalf("the number lost digits: %s\n%s", doc.Report, pdfText(t, []byte(pdf)))
	}

	// Billed by its page like any document.
	w := testnode.DataAs[testnode.Wallet](t, testnode.Do(t, "GET", n.URL+"/v1/wallet", n.Key, nil))
	if used := w.Allowance.UsedPages; used != 2 {
		t.Fatalf("allowance used %v after two one-page documents: %+v", used, w)
	}

	// A preview with the defaults and keys: a PDF, unbilled.
	r = testnode.Do(t, "POST", n.URL+"/v1/templates/studio-invoice/preview", n.Key, map[string]any{})
	if r.Status != 200 || !bytes.HasPrefix(r.Body, []byte("%PDF-")) || !strings.Contains(pdfText(t, r.Body), "NUMBER") {
		t.Fatalf("preview: HTTP %d", r.Status)
	}
}

// TestPDFUploadBombs: each hostile upload of issue 24 is refused with 422
// PDF_TOO_COMPLEX, of the field file, in words that name the limit and
// nothing of the readers' insides; and an ordinary upload still reads
// after them.
func TestPDFUploadBombs(t *testing.T) {
	n := testnode.Start(t, nil)
	for i, c := range []struct {
		name  string
		pdf   []byte
		words string
	}{
		{"1 MB inflating to 1 GiB", pdfbomb.FlateContent(1 << 30), "its pages' content is more than 32 MB"},
		{"an image inflating to 1 GiB", pdfbomb.FlateImage(1 << 30), "its compressed streams expand to more than 256 MB"},
		{"dictionaries nested 1,000,000 deep", pdfbomb.NestedDicts(1_000_000), "the PDF's objects are nested more than 100 deep"},
		{"arrays nested 1,000,000 deep", pdfbomb.NestedArrays(1_000_000), "the PDF's objects are nested more than 100 deep"},
		{"150,000 objects", pdfbomb.ManyObjects(150_000), "it has more than 100,000 objects"},
	} {
		r := upload(t, n, c.pdf, map[string]string{"slug": fmt.Sprintf("bomb-%d", i)})
		want := "file: the PDF is too complex to read: " + c.words
		if r.Status != 422 || r.Code() != "PDF_TOO_COMPLEX" || r.Field() != "file" || r.Problem().Message != want {
			t.Errorf("%s: %s, want 422 PDF_TOO_COMPLEX %q", c.name, r, want)
		}
		for _, inside := range []string{"wasm", "stack", ".go:", "goroutine", "pdfcpu", "pdfium", "\n"} {
			if strings.Contains(strings.ToLower(r.Problem().Message), inside) {
				t.Errorf("%s: the refusal shows %q: %s", c.name, inside, r)
			}
		}
	}
	invoice, err := os.ReadFile("../pdftemplate/testdata/chromium-invoice.pdf")
	if err != nil {
		t.Fatal(err)
	}
	if r := upload(t, n, invoice, map[string]string{"slug": "after-the-bombs"}); r.Status != 201 {
		t.Fatalf("an ordinary upload after the bombs: %s", r)
	}
}
