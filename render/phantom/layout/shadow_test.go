package layout

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/platen/platen/render/phantom/draw"
)

// TestShadowsShareImagesAndKeepToTheirBudget: boxes of one size with one
// blurred shadow share one image in the document; a document whose
// blurred shadows pass maxShadowPixelsDoc is refused with
// ErrTooManyShadowPixels, not painted at any cost.
func TestShadowsShareImagesAndKeepToTheirBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html><body style="margin:0">`)
	for i := 0; i < 20; i++ {
		b.WriteString(`<div style="width:100px;height:40px;margin:20px;box-shadow:0 2px 6px rgba(0,0,0,.3), inset 0 0 4px red">x</div>`)
	}
	b.WriteString(`</body></html>`)
	doc, err := layoutString(t, b.String(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	images := map[*draw.Image]bool{}
	draws := 0
	for _, pg := range doc.Pages {
		for _, op := range pg.Ops {
			if d, ok := op.(draw.DrawImage); ok {
				images[d.Image] = true
				draws++
			}
		}
	}
	// A box cut by the page end is painted on both pages.
	if draws < 40 || len(images) != 2 {
		t.Errorf("20 boxes with an outer and an inset blurred shadow: %d images drawn, %d distinct; want at least 40 and 2", draws, len(images))
	}

	// Each box another size: 400 shadows of some 150,000 pixels each.
	b.Reset()
	b.WriteString(`<!DOCTYPE html><html><body style="margin:0">`)
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&b, `<div style="width:%dpx;height:100px;margin:40px;box-shadow:0 0 40px #000">x</div>`, 200+i)
	}
	b.WriteString(`</body></html>`)
	if _, err := layoutString(t, b.String(), Options{}); !errors.Is(err, ErrTooManyShadowPixels) {
		t.Fatalf("got %v, want ErrTooManyShadowPixels", err)
	}
}

// TestShadowImagesOutliveTheirDocument: a template's blurred shadows are
// made once and drawn from the same image in each of its documents, so
// the PDF writer compresses them once too.
func TestShadowImagesOutliveTheirDocument(t *testing.T) {
	doc := `<div style="width:120px;height:40px;box-shadow:0 2px 9px rgba(0,0,0,.4)">a</div>`
	images := func() []*draw.Image {
		d, err := layoutString(t, doc, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var out []*draw.Image
		for _, op := range d.Pages[0].Ops {
			if di, ok := op.(draw.DrawImage); ok {
				out = append(out, di.Image)
			}
		}
		return out
	}
	first, second := images(), images()
	if len(first) != 1 || len(second) != 1 {
		t.Fatalf("%d and %d shadow images, want one each", len(first), len(second))
	}
	if first[0] != second[0] {
		t.Error("the second document made its shadow image again")
	}
}
