package pdfw

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/platen/platen/render/phantom/draw"
)

func readContext(t *testing.T, pdf []byte) *model.Context {
	t.Helper()
	ctx, err := api.ReadContext(bytes.NewReader(pdf), model.NewDefaultConfiguration())
	if err != nil {
		t.Fatalf("pdfcpu cannot read the file: %v", err)
	}
	if err := ctx.EnsurePageCount(); err != nil {
		t.Fatal(err)
	}
	return ctx
}

func navDoc() *draw.Document {
	return &draw.Document{
		Title: "Statement (März)", Lang: "de-CH",
		Pages: []*draw.Page{
			{Width: a4W, Height: a4H,
				Links: []draw.Link{
					{Rect: draw.Rect{X: 100, Y: 100, W: 200, H: 20}, URI: "https://example.com/a b?q=ü"},
					{Rect: draw.Rect{X: 100, Y: 140, W: 200, H: 20}, Dest: "terms"},
					{Rect: draw.Rect{X: 100, Y: 180, W: 200, H: 20}, Dest: "nowhere"}, // no such anchor: dropped
					{Rect: draw.Rect{X: 100, Y: 220, W: 0, H: 20}, URI: "https://example.com/empty"},
				},
				Anchors: []draw.Anchor{{Name: "top", Y: 0}}},
			{Width: a4W, Height: a4H, Anchors: []draw.Anchor{{Name: "terms", Y: 400}, {Name: "top", Y: 50}}},
			{Width: 400, Height: 300},
		},
		Outline: []draw.OutlineItem{
			{Title: "Summary", Level: 1, Page: 0, Y: 10},
			{Title: "Items", Level: 2, Page: 0, Y: 300},
			{Title: "Taxes", Level: 2, Page: 1, Y: 20},
			{Title: "VAT", Level: 4, Page: 1, Y: 200},
			{Title: "Terms", Level: 1, Page: 1, Y: 400},
			{Title: "Annex", Level: 2, Page: 2, Y: 0},
		},
	}
}

// TestOutline checks the bookmarks pdfcpu reads back, nested by level.
func TestOutline(t *testing.T) {
	_, pdf := writePDF(t, navDoc(), Options{Producer: "phantom"})
	validate(t, pdf)
	bms, err := api.Bookmarks(bytes.NewReader(pdf), model.NewDefaultConfiguration())
	if err != nil {
		t.Fatal(err)
	}
	var show func(bs []pdfcpu.Bookmark) string
	show = func(bs []pdfcpu.Bookmark) string {
		var s []string
		for _, b := range bs {
			e := b.Title + "@" + string(rune('0'+b.PageFrom))
			if len(b.Kids) > 0 {
				e += "[" + show(b.Kids) + "]"
			}
			s = append(s, e)
		}
		return strings.Join(s, " ")
	}
	if got, want := show(bms), "Summary@1[Items@1 Taxes@2[VAT@2]] Terms@2[Annex@3]"; got != want {
		t.Errorf("outline %q, want %q", got, want)
	}
	ctx := readContext(t, pdf)
	cat, _ := ctx.Catalog()
	outlines, err := ctx.DereferenceDict(cat["Outlines"])
	if err != nil || outlines == nil {
		t.Fatalf("no /Outlines: %v", err)
	}
	if n := outlines.IntEntry("Count"); n == nil || *n != 6 {
		t.Errorf("/Outlines /Count %v, want 6", n)
	}
}

// TestLinksAndDestinations checks the link annotations and the named
// destinations they point to, and the catalog's title and language.
func TestLinksAndDestinations(t *testing.T) {
	doc := navDoc()
	path, pdf := writePDF(t, doc, Options{})
	validate(t, pdf)
	ctx := readContext(t, pdf)
	x := ctx.XRefTable

	pageRef := func(n int) types.IndirectRef {
		r, err := x.PageDictIndRef(n)
		if err != nil {
			t.Fatal(err)
		}
		return *r
	}
	page1, _, _, err := x.PageDict(1, false)
	if err != nil {
		t.Fatal(err)
	}
	annots, err := x.DereferenceArray(page1["Annots"])
	if err != nil || len(annots) != 2 {
		t.Fatalf("page 1 has %d annotations (%v), want 2", len(annots), err)
	}
	uriLink, _ := x.DereferenceDict(annots[0])
	action, _ := x.DereferenceDict(uriLink["A"])
	uri, _ := x.DereferenceStringOrHexLiteral(action["URI"], model.V10, nil)
	if uri != "https://example.com/a%20b?q=%C3%BC" {
		t.Errorf("URI %q", uri)
	}
	r, _ := x.DereferenceArray(uriLink["Rect"])
	hPt := a4H * pxToPt
	wantRect := []float64{75, hPt - 90, 225, hPt - 75}
	for i, v := range r {
		f, _ := x.DereferenceNumber(v)
		if math.Abs(f-wantRect[i]) > 0.01 {
			t.Errorf("link rect %v, want %v", r, wantRect)
			break
		}
	}
	internal, _ := x.DereferenceDict(annots[1])
	dest, _ := x.DereferenceStringOrHexLiteral(internal["Dest"], model.V10, nil)
	if dest != "terms" {
		t.Errorf("internal link /Dest %q, want terms", dest)
	}

	cat, _ := x.Catalog()
	names, _ := x.DereferenceDict(cat["Names"])
	tree, _ := x.DereferenceDict(names["Dests"])
	arr, _ := x.DereferenceArray(tree["Names"])
	if len(arr) != 4 {
		t.Fatalf("dests name tree %v, want terms and top", arr)
	}
	want := []struct {
		name string
		page int
		top  float64
	}{{"terms", 2, hPt - 300}, {"top", 1, hPt}} // sorted; the first "top" wins
	for i, w := range want {
		n, _ := x.DereferenceStringOrHexLiteral(arr[2*i], model.V10, nil)
		d, _ := x.DereferenceArray(arr[2*i+1])
		if n != w.name || len(d) != 5 {
			t.Errorf("dest %d: %q %v", i, n, d)
			continue
		}
		if ref, ok := d[0].(types.IndirectRef); !ok || ref.ObjectNumber != pageRef(w.page).ObjectNumber {
			t.Errorf("dest %q points at %v, want page %d", n, d[0], w.page)
		}
		if top, _ := x.DereferenceNumber(d[3]); math.Abs(top-w.top) > 0.01 {
			t.Errorf("dest %q top %.2f, want %.2f", n, top, w.top)
		}
	}

	if lang, _ := x.DereferenceStringOrHexLiteral(cat["Lang"], model.V10, nil); lang != "de-CH" {
		t.Errorf("/Lang %q", lang)
	}
	vp, _ := x.DereferenceDict(cat["ViewerPreferences"])
	if b := vp.BooleanEntry("DisplayDocTitle"); b == nil || !*b {
		t.Errorf("DisplayDocTitle not set: %v", vp)
	}
	info := run(t, "pdfinfo", "-f", "1", "-l", "3", path)
	for _, want := range []string{"Title:           Statement (März)", "Pages:           3", "Page    3 size:  300 x 225 pts"} {
		if !strings.Contains(info, want) {
			t.Errorf("pdfinfo lacks %q:\n%s", want, info)
		}
	}
}

func readContextErr(pdf []byte) (*model.Context, error) {
	return api.ReadContext(bytes.NewReader(pdf), model.NewDefaultConfiguration())
}
