package layout

import (
	"fmt"
	"math"
	"testing"

	"github.com/platen/platen/render/phantom/draw"
)

// TestBordersPaintAsBlink checks the shapes borders are painted with, which
// are those Chromium's PDFs hold (BoxBorderPainter, as its content streams
// show; each case's numbers are Chromium 156's): readers rasterise a lone
// rectangle differently from a ring, and poppler snaps only a lone
// rectangle to whole pixels.
func TestBordersPaintAsBlink(t *testing.T) {
	pos := func(x, y int, css string) string {
		return fmt.Sprintf(`<div style="position:absolute;left:%dpx;top:%dpx;width:50px;height:20px;%s"></div>`, x, y, css)
	}
	black := draw.Color{A: 1}
	red := draw.Color{R: 1, A: 1}
	rectAt := func(x, y, w, h float64) string { return fmt.Sprint(rectPath(x, y, w, h)) }
	quad := func(pts ...float64) string {
		p := draw.Path{{Kind: draw.MoveTo, P: [3]draw.Point{{X: pts[0], Y: pts[1]}}}}
		for i := 2; i < len(pts); i += 2 {
			p = append(p, draw.Segment{Kind: draw.LineTo, P: [3]draw.Point{{X: pts[i], Y: pts[i+1]}}})
		}
		return fmt.Sprint(append(p, draw.Segment{Kind: draw.Close}))
	}
	type shape struct {
		stroke float64 // the width of a stroke, 0 for a fill
		color  draw.Color
		path   string
	}
	for _, c := range []struct {
		name, css string
		x, y      int
		want      []shape
	}{
		{"four sides alike: one stroked rectangle on the snapped box", "border:1px solid #000", 10, 10,
			[]shape{{1, black, rectAt(10.5, 10.5, 51, 21)}}},
		{"one side: its rectangle", "border-bottom:1px solid #000", 150, 10,
			[]shape{{0, black, rectAt(150, 30, 50, 1)}}},
		{"two sides of a colour: whole rectangles, bottom before right", "border-bottom:1px solid #000;border-right:2px solid #000", 220, 10,
			[]shape{{0, black, rectAt(220, 30, 52, 1)}, {0, black, rectAt(270, 10, 2, 21)}}},
		{"another colour on top: painted first and whole, the sides mitred where they meet it", "border:2px solid #000;border-top-color:red", 290, 10,
			[]shape{{0, red, rectAt(290, 10, 54, 2)}, {0, black, rectAt(290, 32, 54, 2)},
				{0, black, quad(342, 12, 342, 34, 344, 34, 344, 10)}, {0, black, quad(290, 10, 290, 34, 292, 34, 292, 12)}}},
		{"double, one width: two strokes of a third", "border:3px double #000", 10, 10,
			[]shape{{1, black, rectAt(10.5, 10.5, 55, 25)}, {1, black, rectAt(12.5, 12.5, 51, 21)}}},
		{"dashed 2 px: dashes of 6 along the whole side, the gap stretched to end on a dash", "border-top:2px dashed #000", 10, 10,
			[]shape{{0, black, fmt.Sprint(append(append(append(append(rectPath(10, 10, 6, 2), rectPath(21, 10, 6, 2)...),
				rectPath(32, 10, 6, 2)...), rectPath(43, 10, 6, 2)...), rectPath(54, 10, 6, 2)...))}}},
		{"dotted 2 px: a square at each end, the rest centred two widths apart", "border-top:2px dotted #000;width:26px", 10, 10,
			[]shape{{0, black, rectAt(10, 10, 2, 2)}, {0, black, rectAt(34, 10, 2, 2)}, {0, black, rectAt(14, 10, 2, 2)},
				{0, black, rectAt(18, 10, 2, 2)}, {0, black, rectAt(22, 10, 2, 2)}, {0, black, rectAt(26, 10, 2, 2)}, {0, black, rectAt(30, 10, 2, 2)}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := layoutString(t, `<!DOCTYPE html><body style="margin:0">`+pos(c.x, c.y, c.css), Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []shape
			for _, op := range d.Pages[0].Ops {
				switch o := op.(type) {
				case draw.Fill:
					got = append(got, shape{0, o.Color, fmt.Sprint(o.Path)})
				case draw.Stroke:
					got = append(got, shape{o.Width, o.Color, fmt.Sprint(o.Path)})
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("painted\n%v\nwant\n%v", got, c.want)
			}
		})
	}
}

// TestInsetOutsetColours checks the shades of inset and outset borders
// against Chromium 156's, colour by colour (8-bit values from its PDFs):
// the top side (dark for inset) and the bottom side (light).
func TestInsetOutsetColours(t *testing.T) {
	for _, c := range []struct {
		css       string
		top, bott int // gray levels, or the red channel for #c00
	}{
		{"4px inset #000", 84, 168},
		{"4px inset #808080", 44, 212},
		{"4px inset #fff", 171, 255},
		{"4px inset #202020", 116, 200},
		{"4px inset #404040", 0, 148},
		{"4px inset #eee", 154, 238},
		{"4px inset #ebebeb", 151, 255},
		{"4px inset #c00", 120, 255},
		{"4px outset #808080", 212, 44},
		{"1px inset", 154, 238}, // currentColor: #eee
	} {
		d, err := layoutString(t, `<!DOCTYPE html><body style="margin:0"><div style="width:50px;height:20px;border:`+c.css+`"></div>`, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, op := range d.Pages[0].Ops {
			if f, ok := op.(draw.Fill); ok {
				v := f.Color.R
				got = append(got, int(math.Round(v*255)))
			}
		}
		// Painted top, bottom, right, left.
		if len(got) != 4 || got[0] != c.top || got[1] != c.bott {
			t.Errorf("border %s: sides %v, want top %d and bottom %d", c.css, got, c.top, c.bott)
		}
	}
	// A table and its cells take their own colour where another box in
	// currentColor has #eee.
	d, err := layoutString(t, `<!DOCTYPE html><body style="margin:0"><table border=1 style="color:#00f"><tr><td>x</td></tr></table>`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range d.Pages[0].Ops {
		if f, ok := op.(draw.Fill); ok && f.Color.B < 0.6 {
			t.Errorf("table border shade %v, want blue's (0, 0, 171 or 255)", f.Color)
		}
	}
}

// TestGrooveAndRidge checks that a groove paints an inset outer half and an
// outset inner half, a ridge the other way round, in Chromium 156's shades
// (black: 84 and 168): the first two fills are the top side's halves.
func TestGrooveAndRidge(t *testing.T) {
	for _, c := range []struct {
		css          string
		outer, inner int
	}{
		{"4px groove #000", 84, 168},
		{"4px ridge #000", 168, 84},
	} {
		d, err := layoutString(t, `<!DOCTYPE html><body style="margin:0"><div style="width:40px;height:20px;border:`+c.css+`"></div>`, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got []draw.Fill
		for _, op := range d.Pages[0].Ops {
			if f, ok := op.(draw.Fill); ok {
				got = append(got, f)
			}
		}
		if len(got) != 8 {
			t.Fatalf("%s: %d fills, want two halves of four sides", c.css, len(got))
		}
		top := [2]string{fmt.Sprint(got[0].Path), fmt.Sprint(got[1].Path)}
		if want := [2]string{fmt.Sprint(rectPath(0, 0, 48, 2)), fmt.Sprint(rectPath(2, 2, 44, 2))}; top != want {
			t.Errorf("%s: top halves %v, want %v", c.css, top, want)
		}
		if o, i := int(math.Round(got[0].Color.R*255)), int(math.Round(got[1].Color.R*255)); o != c.outer || i != c.inner {
			t.Errorf("%s: top halves in %d and %d, want %d and %d", c.css, o, i, c.outer, c.inner)
		}
	}
}
