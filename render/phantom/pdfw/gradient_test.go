package pdfw

import (
	"testing"

	"github.com/platen/platen/render/phantom/draw"
)

// TestLinearGradient: a gradient is an axial shading in its path, its
// colours at the stops (a hard stop stays hard), the end colours extended
// past the line's ends, nothing painted outside the path, and translucent
// fills before it do not dim it.
func TestLinearGradient(t *testing.T) {
	red, blue, white := draw.Color{R: 1, A: 1}, draw.Color{B: 1, A: 1}, draw.Color{R: 1, G: 1, B: 1, A: 1}
	doc := &draw.Document{Pages: []*draw.Page{{Width: 400, Height: 200, Ops: []draw.Op{
		draw.Fill{Path: rect(0, 0, 10, 10), Color: draw.Color{A: 0.3}},
		// Red to blue from x 100 to 300 in a 0..400 × 0..50 path.
		draw.LinearGradient{Path: rect(0, 0, 400, 50), X0: 100, Y0: 0, X1: 300, Y1: 0,
			Stops: []draw.GradientStop{{Offset: 0, Color: red}, {Offset: 1, Color: blue}}},
		// Three stops with a hard one in the middle, in 0..400 × 100..150.
		draw.LinearGradient{Path: rect(0, 100, 400, 50), X0: 0, Y0: 0, X1: 400, Y1: 0,
			Stops: []draw.GradientStop{{Offset: 0, Color: red}, {Offset: 0.5, Color: red}, {Offset: 0.5, Color: white}, {Offset: 1, Color: white}}},
	}}}}
	path, _ := writePDF(t, doc, Options{})
	img := render(t, path, 96) // one pixel per CSS pixel
	for _, c := range []struct {
		x, y int
		want [3]int
		what string
	}{
		{50, 25, [3]int{255, 0, 0}, "before the line: the first colour extended"},
		{200, 25, [3]int{128, 0, 128}, "the middle: halfway"},
		{350, 25, [3]int{0, 0, 255}, "after the line: the last colour extended"},
		{200, 75, [3]int{255, 255, 255}, "outside the path: nothing"},
		{195, 125, [3]int{255, 0, 0}, "before the hard stop"},
		{205, 125, [3]int{255, 255, 255}, "after the hard stop"},
	} {
		if got := rgbAt(img, c.x, c.y); !near(got, c.want, 12) {
			t.Errorf("%s: pixel (%d, %d) is %v, want %v", c.what, c.x, c.y, got, c.want)
		}
	}
}
