package transport_test

import (
	"bytes"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/node"
	"github.com/platen/platen/starters"
)

// invoiceDraft is the invoice version's source, as a draft carries it.
func invoiceDraft(html string) map[string]any {
	d := invoiceVersion(false)
	delete(d, "activate")
	d["html"] = html
	return d
}

// storedBytes is the size of the files under dir: blobs in files of their
// own and in packs.
func storedBytes(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			info, ierr := d.Info()
			if ierr != nil {
				return ierr
			}
			n += info.Size()
		}
		return err
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return n
}

func TestDraftPreviewRendersTheDraftAndStoresNothing(t *testing.T) {
	var dataDir string
	n := testnode.Start(t, func(c *node.Config) { dataDir = c.DataDir })
	url := n.URL + "/v1/templates"
	body := invoiceVersion(true)
	body["name"], body["slug"] = "Invoice", "invoice"
	if r := testnode.Do(t, "POST", url, n.Key, body); r.Status != 201 {
		t.Fatalf("create: %s", r)
	}
	tpl := testnode.DataAs[testnode.Template](t, testnode.Do(t, "GET", url+"/invoice", n.Key, nil))
	ledger := func() int {
		return len(testnode.DataAs[testnode.Ledger](t, testnode.Do(t, "GET", n.URL+"/admin/v1/orgs/"+n.OrgID+"/ledger", n.OperatorToken, nil)).Items)
	}
	wallet := testnode.DataAs[testnode.Wallet](t, testnode.Do(t, "GET", n.URL+"/v1/wallet", n.Key, nil))
	applied, rows, blobs := n.Store().AppliedIndex(), ledger(), storedBytes(t, filepath.Join(dataDir, "blobs"))

	// The saved version says "Invoice"; the draft says "Draft", and only
	// the draft's markup can put that word in the PDF.
	draft := invoiceDraft(strings.Replace(invoiceHTML, "Invoice {{@root.number}}", "Draft {{@root.number}}", 1))
	r := testnode.Do(t, "POST", url+"/invoice/preview", n.Key, map[string]any{"draft": draft})
	if r.Status != 200 || r.Header.Get("Content-Type") != "application/pdf" || r.Header.Get("X-Platen-Pages") != "1" ||
		r.Header.Get("X-Platen-Engine") == "" || r.Header.Get("X-Platen-Engine-Reason") == "" ||
		!strings.Contains(r.Header.Get("Content-Disposition"), "invoice-draft-preview.pdf") {
		t.Fatalf("draft preview: HTTP %d %v %s", r.Status, r.Header, r.Body[:min(len(r.Body), 300)])
	}
	text := pdfText(t, r.Body)
	for _, want := range []string{"Draft S-1", "Sample widget", "Preview of a draft of invoice"} {
		if !strings.Contains(text, want) {
			t.Errorf("draft preview text lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "Invoice S-1") {
		t.Errorf("draft preview rendered the saved version:\n%s", text)
	}
	saved := pdfText(t, testnode.Do(t, "POST", url+"/invoice/preview", n.Key, nil).Body)
	if !strings.Contains(saved, "Invoice S-1") || strings.Contains(saved, "Draft") {
		t.Errorf("the saved version's preview changed:\n%s", saved)
	}

	// data replaces the draft's sample, and engine applies.
	data := map[string]any{"number": "INV-9", "items": []any{map[string]any{"description": "Given line", "price": 2}}}
	r = testnode.Do(t, "POST", url+"/invoice/preview", n.Key, map[string]any{"draft": draft, "data": data, "engine": "chromium"})
	if r.Status != 200 || r.Header.Get("X-Platen-Engine") != "chromium" || !strings.Contains(r.Header.Get("X-Platen-Engine-Reason"), "request") {
		t.Fatalf("draft preview with data and engine: HTTP %d %v", r.Status, r.Header)
	}
	if text := pdfText(t, r.Body); !strings.Contains(text, "Draft INV-9") || !strings.Contains(text, "Given line") || strings.Contains(text, "Sample widget") {
		t.Errorf("draft preview with data:\n%s", text)
	}

	// Nothing of it was kept: no version, no event, no ledger row, no
	// raft command, no file; the wallet is as it was.
	if got := testnode.DataAs[testnode.Template](t, testnode.Do(t, "GET", url+"/invoice", n.Key, nil)); got.LatestVersion != tpl.LatestVersion || got.ActiveVersion != 1 || !got.UpdatedAt.Equal(tpl.UpdatedAt) {
		t.Errorf("the template changed: %+v, was %+v", got, tpl)
	}
	if vs, _ := n.Store().TemplateVersions(tpl.ID); len(vs) != 1 {
		t.Errorf("%d versions stored, want 1", len(vs))
	}
	if got := n.Store().AppliedIndex(); got != applied {
		t.Errorf("raft applied %d commands during draft previews", got-applied)
	}
	if got := ledger(); got != rows {
		t.Errorf("ledger has %d rows, had %d", got, rows)
	}
	if got := storedBytes(t, filepath.Join(dataDir, "blobs")); got != blobs {
		t.Errorf("blobs take %d bytes, took %d", got, blobs)
	}
	if w := testnode.DataAs[testnode.Wallet](t, testnode.Do(t, "GET", n.URL+"/v1/wallet", n.Key, nil)); w.Allowance != wallet.Allowance || w.BalanceMicros != wallet.BalanceMicros {
		t.Errorf("wallet changed: %+v, was %+v", w, wallet)
	}
}

func TestDraftPreviewRefusalsNameTheDraftsField(t *testing.T) {
	n := testnode.Start(t, nil)
	url := n.URL + "/v1/templates"
	body := invoiceVersion(true)
	body["name"], body["slug"] = "Invoice", "invoice"
	if r := testnode.Do(t, "POST", url, n.Key, body); r.Status != 201 {
		t.Fatalf("create: %s", r)
	}
	with := func(change func(d map[string]any)) map[string]any {
		d := invoiceDraft(invoiceHTML)
		change(d)
		return map[string]any{"draft": d}
	}
	manifest := func(d map[string]any) map[string]any { return d["manifest"].(map[string]any) }
	cases := []struct {
		name   string
		body   map[string]any
		status int
		field  string
	}{
		{"schema type", with(func(d map[string]any) {
			manifest(d)["dataSchema"].(map[string]any)["number"] = map[string]any{"type": "strng"}
		}), 400, "draft.manifest.dataSchema.number.type"},
		{"page size", with(func(d map[string]any) { manifest(d)["pageSize"] = "A9" }), 400, "draft.manifest.pageSize"},
		{"sample data", with(func(d map[string]any) {
			d["sampleData"] = map[string]any{"number": "S-1", "items": []any{map[string]any{"description": "x", "price": -1}}}
		}), 400, "draft.sampleData.items[0].price"},
		{"helper", with(func(d map[string]any) { d["html"] = "{{formatCurency 5}}" }), 400, "draft.html"},
		{"markup type", with(func(d map[string]any) { d["html"] = 5 }), 400, "draft.html"},
		{"fields", with(func(d map[string]any) { d["fields"] = []any{map[string]any{"pieceId": "p1-1", "key": "x"}} }), 400, "draft.fields"},
		{"activate", with(func(d map[string]any) { d["activate"] = true }), 400, "draft.activate"},
		{"version", map[string]any{"draft": invoiceDraft(invoiceHTML), "version": 1}, 400, "version"},
		// Data is not the draft's: its refusal names the data's field.
		{"data", map[string]any{"draft": invoiceDraft(invoiceHTML), "data": map[string]any{"number": "X", "items": []any{map[string]any{"description": "x", "price": "free"}}}}, 422, "items[0].price"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := testnode.Do(t, "POST", url+"/invoice/preview", n.Key, c.body)
			if r.Status != c.status || r.Field() != c.field {
				t.Fatalf("HTTP %d field %q (want %d %q): %s", r.Status, r.Field(), c.status, c.field, r)
			}
		})
	}
	// The same schema saved as a version is refused at the same field, less
	// the draft's prefix: one check.
	bad := invoiceVersion(false)
	bad["manifest"].(map[string]any)["dataSchema"].(map[string]any)["number"] = map[string]any{"type": "strng"}
	if r := testnode.Do(t, "POST", url+"/invoice/versions", n.Key, bad); r.Status != 400 || r.Field() != "manifest.dataSchema.number.type" {
		t.Fatalf("save with the bad schema: %s", r)
	}
}

func TestDraftPreviewNeedsTemplatesWrite(t *testing.T) {
	n := testnode.Start(t, nil)
	url := n.URL + "/v1/templates"
	body := invoiceVersion(true)
	body["name"], body["slug"] = "Invoice", "invoice"
	if r := testnode.Do(t, "POST", url, n.Key, body); r.Status != 201 {
		t.Fatalf("create: %s", r)
	}
	_, readOnly := createKey(t, n, n.OrgID, "templates.read")
	if r := testnode.Do(t, "POST", url+"/invoice/preview", readOnly, map[string]any{"draft": invoiceDraft(invoiceHTML)}); r.Status != 403 || r.Code() != "FORBIDDEN" || !strings.Contains(r.Message(), "templates.write") {
		t.Fatalf("draft preview with templates.read only: %s", r)
	}
	if r := testnode.Do(t, "POST", url+"/invoice/preview", readOnly, nil); r.Status != 200 {
		t.Fatalf("preview of the saved version with templates.read: %s", r)
	}
}

// TestDraftPreviewOfAPDFTemplate: a template made from an uploaded PDF
// previews fields not yet saved, before it has any version, and a draft's
// fields are refused at the draft's field as saving them would be.
func TestDraftPreviewOfAPDFTemplate(t *testing.T) {
	n := testnode.Start(t, nil)
	invoice, err := os.ReadFile("../pdftemplate/testdata/chromium-invoice.pdf")
	if err != nil {
		t.Fatal(err)
	}
	r := upload(t, n, invoice, map[string]string{"name": "Studio invoice", "slug": "studio-invoice"})
	if r.Status != 201 {
		t.Fatalf("upload: %s", r)
	}
	var number string
	for _, p := range testnode.DataAs[testnode.PDFTemplate](t, r).Pieces {
		if p.Text == "INV-2026-0142" {
			number = p.ID
		}
	}
	url := n.URL + "/v1/templates/studio-invoice/preview"
	draft := map[string]any{"fields": []any{map[string]any{"pieceId": number, "key": "number"}}}
	r = testnode.Do(t, "POST", url, n.Key, map[string]any{"draft": draft, "data": map[string]any{"number": "DRAFT-7"}})
	if r.Status != 200 || r.Header.Get("X-Platen-Engine") != "pdfium" {
		t.Fatalf("draft preview: HTTP %d %v %s", r.Status, r.Header, r.Body[:min(len(r.Body), 300)])
	}
	// The number is printed twice; the draft marks one of them.
	if text := pdfText(t, r.Body); !strings.Contains(text, "DRAFT-7") || strings.Count(text, "INV-2026-0142") != 1 {
		t.Errorf("draft preview text:\n%s", text)
	}
	if tpl := testnode.DataAs[testnode.Template](t, testnode.Do(t, "GET", n.URL+"/v1/templates/studio-invoice", n.Key, nil)); tpl.LatestVersion != 0 {
		t.Fatalf("a draft preview saved a version: %+v", tpl)
	}
	bad := map[string]any{"fields": []any{map[string]any{"pieceId": "p9-9", "key": "number"}}}
	if r := testnode.Do(t, "POST", url, n.Key, map[string]any{"draft": bad}); r.Status != 400 || r.Field() != "draft.fields[0].pieceId" {
		t.Fatalf("a draft's unknown piece: %s", r)
	}
	if r := testnode.Do(t, "POST", url, n.Key, map[string]any{"draft": map[string]any{"html": "<p>x</p>"}}); r.Status != 400 || r.Field() != "draft.html" {
		t.Fatalf("markup in a PDF template's draft: %s", r)
	}
}

// inkAndSize decodes a PNG and counts its dark pixels: how much of a
// picture of a page is printed on.
func inkAndSize(t *testing.T, body []byte) (ink, width, height int) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			cr, cg, cb, ca := img.At(x, y).RGBA()
			if ca == 0xffff && cr < 0x8000 && cg < 0x8000 && cb < 0x8000 {
				ink++
			}
		}
	}
	return ink, b.Dx(), b.Dy()
}

// An editor shows its live preview as pictures: "format": "png" answers
// one page of the same watermarked render, drawn on white, with the page
// count and the engine's headers, for a draft or a saved version.
func TestPreviewAsPicture(t *testing.T) {
	n := testnode.Start(t, nil)
	url := n.URL + "/v1/templates"
	body := invoiceVersion(true)
	body["name"], body["slug"] = "Invoice", "invoice"
	if r := testnode.Do(t, "POST", url, n.Key, body); r.Status != 201 {
		t.Fatalf("create: %s", r)
	}
	url += "/invoice/preview"
	picture := func(in map[string]any) testnode.Response {
		t.Helper()
		in["format"] = "png"
		r := testnode.Do(t, "POST", url, n.Key, in)
		if r.Status != 200 || r.Header.Get("Content-Type") != "image/png" || r.Header.Get("X-Platen-Engine") == "" ||
			r.Header.Get("X-Platen-Engine-Reason") == "" || !strings.HasSuffix(r.Header.Get("Content-Disposition"), ".png\"") {
			t.Fatalf("picture of %v: HTTP %d %v %s", in, r.Status, r.Header, r.Body[:min(len(r.Body), 300)])
		}
		return r
	}

	// The saved version, at the default width: A4 800 pixels wide.
	saved := picture(map[string]any{})
	if saved.Header.Get("X-Platen-Pages") != "1" || saved.Header.Get("X-Platen-Page") != "1" {
		t.Fatalf("saved version's picture: %v", saved.Header)
	}
	plainInk, w, h := inkAndSize(t, saved.Body)
	if w != 800 || h < 1120 || h > 1140 || plainInk == 0 {
		t.Fatalf("saved version's picture is %dx%d with %d dark pixels, want 800 wide, A4's height, printed", w, h, plainInk)
	}

	// A draft's picture is the draft's: a black band the saved markup does
	// not have shows as ink.
	band := invoiceDraft(strings.Replace(invoiceHTML, "<h1>", `<div style="background:#000;height:60mm"></div><h1>`, 1))
	r := picture(map[string]any{"draft": band, "width": 400})
	bandInk, w, h := inkAndSize(t, r.Body)
	if w != 400 || h < 560 || h > 570 {
		t.Fatalf("draft picture at width 400 is %dx%d", w, h)
	}
	// 60 of 297 mm, the page's full width inside 15 mm of padding: about
	// a sixth of the picture.
	if bandInk < w*h/8 {
		t.Fatalf("draft picture has %d dark pixels of %d: the black band is missing", bandInk, w*h)
	}

	// Four items at three a page are two pages; each is its own picture.
	four := map[string]any{"number": "S-2", "items": []any{
		map[string]any{"description": "One", "price": 1}, map[string]any{"description": "Two", "price": 2},
		map[string]any{"description": "Three", "price": 3}, map[string]any{"description": "Four", "price": 4}}}
	p1 := picture(map[string]any{"draft": invoiceDraft(invoiceHTML), "data": four})
	p2 := picture(map[string]any{"draft": invoiceDraft(invoiceHTML), "data": four, "page": 2})
	if p1.Header.Get("X-Platen-Pages") != "2" || p2.Header.Get("X-Platen-Pages") != "2" || p2.Header.Get("X-Platen-Page") != "2" {
		t.Fatalf("two pages: %v / %v", p1.Header, p2.Header)
	}
	if bytes.Equal(p1.Body, p2.Body) {
		t.Fatal("pages 1 and 2 are the same picture")
	}

	for _, c := range []struct {
		body  map[string]any
		field string
	}{
		{map[string]any{"format": "png", "page": 2}, "page"},
		{map[string]any{"format": "png", "page": -1}, "page"},
		{map[string]any{"format": "png", "width": 50}, "width"},
		{map[string]any{"format": "png", "width": 5000}, "width"},
		{map[string]any{"format": "gif"}, "format"},
		{map[string]any{"page": 1}, "format"},
		{map[string]any{"format": "pdf", "width": 400}, "format"},
	} {
		if r := testnode.Do(t, "POST", url, n.Key, c.body); r.Status != 400 || r.Code() != "INVALID_REQUEST" || r.Field() != c.field {
			t.Errorf("%v: %s, want INVALID_REQUEST on %s", c.body, r, c.field)
		}
	}
	// A draft's own refusal wins over drawing: nothing to draw.
	bad := invoiceDraft("{{#each}")
	if r := testnode.Do(t, "POST", url, n.Key, map[string]any{"draft": bad, "format": "png"}); r.Status != 400 || r.Field() != "draft.html" {
		t.Errorf("broken draft as a picture: %s", r)
	}
	// The PDF is as it was.
	if r := testnode.Do(t, "POST", url, n.Key, map[string]any{"format": "pdf"}); r.Status != 200 || r.Header.Get("Content-Type") != "application/pdf" ||
		!strings.Contains(r.Header.Get("Content-Disposition"), "invoice-v1-preview.pdf") || r.Header.Get("X-Platen-Page") != "" {
		t.Errorf("format pdf: HTTP %d %v", r.Status, r.Header)
	}
}

func TestStarterThumbnail(t *testing.T) {
	n := testnode.Start(t, nil)
	url := n.URL + "/v1/templates/library/invoice/thumbnail.png"
	r := testnode.Do(t, "GET", url, n.Key, nil)
	if r.Status != 200 || r.Header.Get("Content-Type") != "image/png" || r.Header.Get("Cache-Control") != "private, max-age=86400" {
		t.Fatalf("thumbnail: HTTP %d %v %s", r.Status, r.Header, r.Body[:min(len(r.Body), 300)])
	}
	img, err := png.Decode(bytes.NewReader(r.Body))
	if err != nil {
		t.Fatalf("thumbnail is not a PNG: %v", err)
	}
	// The invoice starter is A4: 320 pixels wide, 452 high.
	if b := img.Bounds(); b.Dx() != 320 || b.Dy() < 440 || b.Dy() > 460 {
		t.Fatalf("thumbnail is %dx%d, want 320 wide and A4's height", b.Dx(), b.Dy())
	}
	// A page of an invoice: mostly white paper, with ink on it.
	var white, ink int
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			cr, cg, cb, ca := img.At(x, y).RGBA()
			switch {
			case ca == 0xffff && cr > 0xf000 && cg > 0xf000 && cb > 0xf000:
				white++
			case ca == 0xffff && cr < 0x8000 && cg < 0x8000 && cb < 0x8000:
				ink++
			}
		}
	}
	if total := b.Dx() * b.Dy(); white < total/2 || ink < total/200 {
		t.Fatalf("thumbnail has %d white and %d dark pixels of %d: not a printed page", white, ink, total)
	}
	if again := testnode.Do(t, "GET", url, n.Key, nil); again.Status != 200 || !bytes.Equal(again.Body, r.Body) {
		t.Fatalf("second thumbnail differs: HTTP %d", again.Status)
	}

	if r := testnode.Do(t, "GET", n.URL+"/v1/templates/library/no-such-starter/thumbnail.png", n.Key, nil); r.Status != 404 || r.Code() != "NOT_FOUND" {
		t.Fatalf("unknown starter: %s", r)
	}
	_, noTemplates := createKey(t, n, n.OrgID, "documents.read")
	if r := testnode.Do(t, "GET", url, noTemplates, nil); r.Status != 403 || r.Code() != "FORBIDDEN" {
		t.Fatalf("thumbnail without templates.read: %s", r)
	}
	if r := testnode.Do(t, "GET", url, "", nil); r.Status != 401 {
		t.Fatalf("thumbnail without a key: %s", r)
	}
}

// BenchmarkPreview measures what an editor pays on each debounced
// keystroke, a draft preview of the invoice starter, against a preview of
// the same source saved as the template's active version, through the REST
// route of one real node. A draft costs its check and an uncached parse on
// top, and the editor's picture of page 1 (draft-png) PDFium's drawing and
// the PNG's encoding on top of that; each reports its median besides the
// mean.
func BenchmarkPreview(b *testing.B) {
	// The key's rate limit would measure itself.
	n := testnode.Start(b, func(c *node.Config) { c.HTTP.RateLimit, c.HTTP.RateBurst = 1e6, 1e6 })
	if r := testnode.Do(b, "POST", n.URL+"/v1/templates/library/invoice/copy", n.Key, nil); r.Status != 201 {
		b.Fatalf("copy: %s", r)
	}
	st, _ := starters.Find("invoice")
	// Straight to the node: the checking proxy would be part of the timing.
	url := n.Direct + "/v1/templates/invoice/preview"
	for _, c := range []struct {
		name string
		body any
	}{{"saved", nil}, {"draft", map[string]any{"draft": st.Version}}, {"draft-png", map[string]any{"draft": st.Version, "format": "png"}}} {
		b.Run(c.name, func(b *testing.B) {
			if r := testnode.Do(b, "POST", url, n.Key, c.body); r.Status != http.StatusOK {
				b.Fatalf("preview: %s", r)
			}
			times := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				if r := testnode.Do(b, "POST", url, n.Key, c.body); r.Status != http.StatusOK {
					b.Fatalf("preview: %s", r)
				}
				times = append(times, time.Since(start))
			}
			b.StopTimer()
			sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
		})
	}
}

// TestHostileChromiumPreviewsAreRefusedWithTheirReason previews, forced to
// chromium, drafts whose print would hold a page for minutes: a 1e12 px
// box and 10,000 sheets. Each is refused 422 RENDER_FAILED by Chromium's
// measure, saying why, not by the preview's budget running out.
func TestHostileChromiumPreviewsAreRefusedWithTheirReason(t *testing.T) {
	n := testnode.Start(t, nil)
	url := n.URL + "/v1/templates"
	body := invoiceVersion(true)
	body["name"], body["slug"] = "Invoice", "invoice"
	if r := testnode.Do(t, "POST", url, n.Key, body); r.Status != 201 {
		t.Fatalf("create: %s", r)
	}
	for _, c := range []struct{ html, words string }{
		{`<div class="box" style="height:1e12px">{{number}}</div>`, "an element (div.box) is 8,878 m tall"},
		{strings.Repeat(`<div class="sheet">{{number}}</div>`, 10000), "its content is about 10,000 pages long"},
	} {
		r := testnode.Do(t, "POST", url+"/invoice/preview", n.Key, map[string]any{"draft": invoiceDraft(c.html), "engine": "chromium"})
		msg, _ := r.JSON["message"].(string)
		if r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), `"RENDER_FAILED"`) ||
			!strings.Contains(msg, "the document would print more than 2,000 pages") || !strings.Contains(msg, c.words) {
			t.Fatalf("HTTP %d %s, want 422 RENDER_FAILED saying %q", r.Status, r.Body, c.words)
		}
	}
}
