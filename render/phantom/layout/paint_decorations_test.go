package layout

import (
	"fmt"
	"math"
	"testing"

	"github.com/platen/platen/render/phantom/draw"
)

// fillRects are the rectangles of the page's fills, one a sub-path.
func fillRects(ops []draw.Op) []draw.Rect {
	var rs []draw.Rect
	for _, op := range ops {
		f, ok := op.(draw.Fill)
		if !ok {
			continue
		}
		for i := 0; i+4 <= len(f.Path); i += 5 {
			p0, p2 := f.Path[i].P[0], f.Path[i+2].P[0]
			rs = append(rs, draw.Rect{X: p0.X, Y: p0.Y, W: p2.X - p0.X, H: p2.Y - p0.Y})
		}
	}
	return rs
}

// TestDecorationsPaintAsChromium checks decoration lines against what
// Chromium 156's content streams hold for the same markup.
func TestDecorationsPaintAsChromium(t *testing.T) {
	page := func(t *testing.T, body string) *draw.Page {
		t.Helper()
		d, err := layoutString(t, `<!DOCTYPE html><body style="margin:0;font-family:serif;line-height:2">`+body, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return d.Pages[0]
	}
	t.Run("dotted at 16 px: dots 2 px long, 1.6 high, 4 apart, on the solid line's top", func(t *testing.T) {
		rs := fillRects(page(t, `<div style="font-size:16px"><span style="text-decoration:underline dotted">aaaaaaaaaa</span></div>`).Ops)
		if len(rs) != 18 {
			t.Fatalf("%d dots, want 18: %v", len(rs), rs)
		}
		for i, r := range rs {
			want := draw.Rect{X: float64(4 * i), Y: 21.2, W: 2, H: 1.6}
			if math.Abs(r.X-want.X) > 1e-9 || math.Abs(r.Y-want.Y) > 1e-9 || r.W != want.W || math.Abs(r.H-want.H) > 1e-9 {
				t.Errorf("dot %d is %v, want %v", i, r, want)
			}
		}
	})
	t.Run("dashed at 16 px: 6 px dashes, the gap stretched over the whole pixels spanned", func(t *testing.T) {
		rs := fillRects(page(t, `<div style="font-size:16px"><span style="text-decoration:underline dashed">aaaaaaaaaa</span></div>`).Ops)
		if len(rs) != 8 || rs[0].X != 0 || rs[0].W != 6 || math.Abs(rs[1].X-9.2857142857) > 1e-6 || math.Abs(rs[7].X+rs[7].W-71) > 1e-6 {
			t.Errorf("dashes %v, want 8 of 6 px from 0 to 71, 9.29 apart", rs)
		}
	})
	t.Run("double at 16 px: the second line round(1.6 + 1) below the first", func(t *testing.T) {
		rs := fillRects(page(t, `<div style="font-size:16px"><span style="text-decoration:underline double">aaaaaaaaaa</span></div>`).Ops)
		if len(rs) != 2 || rs[0].Y != 22 || rs[1].Y != 25 || rs[0].H != 1 {
			t.Errorf("lines %v, want two 1 px lines at 22 and 25", rs)
		}
	})
	t.Run("the underline 2 px under the baseline at 22 px (ceil(2.2 / 2))", func(t *testing.T) {
		p := page(t, `<div style="font-size:22px"><span style="text-decoration:underline">HHH</span></div>`)
		var base float64
		for _, op := range p.Ops {
			if tx, ok := op.(draw.Text); ok {
				base = tx.Y
			}
		}
		rs := fillRects(p.Ops)
		if len(rs) != 1 || rs[0].Y != math.Floor(base+2+0.5) || rs[0].H != 2 {
			t.Errorf("underline %v with the baseline at %v, want 2 px thick 2 px below it", rs, base)
		}
	})
	t.Run("a big span in an underlined block has the block's underline", func(t *testing.T) {
		rs := fillRects(page(t, `<div style="font-size:16px;text-decoration:underline">small <span style="font-size:40px">big</span> small</div>`).Ops)
		for _, r := range rs {
			if r.H != 1 {
				t.Errorf("underline %v, want every part 1 px thick (the block's 16 px / 10)", r)
			}
		}
	})
	t.Run("the underline skips the ink of a descender as Chromium's does", func(t *testing.T) {
		p := page(t, `<div style="font:40px Arial;text-decoration:underline">p</div>`)
		var clip draw.Path
		for _, op := range p.Ops {
			if c, ok := op.(draw.PushClip); ok && len(c.Path) == 10 {
				clip = c.Path
			}
		}
		// Chromium 156 clips out x < 10.21 (the stem's right edge and 4 px).
		if clip == nil || math.Abs(clip[7].P[0].X-10.21) > 0.05 {
			t.Errorf("clip %v, want a hole around the stem of p up to x = 10.21", clip)
		}
	})
	t.Run("the hanging space that ends a line is not underlined", func(t *testing.T) {
		p := page(t, `<div style="font-size:16px;width:40px"><span style="text-decoration:underline">aaa bbb</span></div>`)
		var first draw.Text
		for _, op := range p.Ops {
			if tx, ok := op.(draw.Text); ok {
				first = tx
				break
			}
		}
		ink := 0.0
		for _, g := range first.Glyphs[:len(first.Glyphs)-1] {
			ink += g.Advance
		}
		rs := fillRects(p.Ops)
		if len(rs) == 0 || math.Abs(rs[0].W-ink) > 1e-9 {
			t.Errorf("first line's underline %v, want %v wide (the text without its last space %q)", rs, ink, fmt.Sprint(first.Glyphs[len(first.Glyphs)-1].Text))
		}
	})
}
