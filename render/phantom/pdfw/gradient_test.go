package pdfw

import (
	"strings"
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

// TestRepeatingGradient: a repeating gradient paints its period again and
// again along its line, both ways from where the period starts, with the
// stops' hard edges and smooth ramps in every period, inside its path only,
// and at any angle.
func TestRepeatingGradient(t *testing.T) {
	red, blue, black, white := draw.Color{R: 1, A: 1}, draw.Color{B: 1, A: 1}, draw.Color{A: 1}, draw.Color{R: 1, G: 1, B: 1, A: 1}
	doc := &draw.Document{Pages: []*draw.Page{{Width: 400, Height: 300, Ops: []draw.Op{
		// Bars: black 0-10, white 10-20, period 20 px starting at x 105.
		draw.LinearGradient{Path: rect(0, 0, 400, 50), X0: 105, Y0: 0, X1: 125, Y1: 0, Repeat: true,
			Stops: []draw.GradientStop{{Offset: 0, Color: black}, {Offset: 0.5, Color: black}, {Offset: 0.5, Color: white}, {Offset: 1, Color: white}}},
		// A ramp red to blue every 100 px from x 0.
		draw.LinearGradient{Path: rect(0, 100, 400, 50), X0: 0, Y0: 0, X1: 100, Y1: 0, Repeat: true,
			Stops: []draw.GradientStop{{Offset: 0, Color: red}, {Offset: 1, Color: blue}}},
		// Vertical bars: red 0-25, blue 25-50, down the page from y 200.
		draw.LinearGradient{Path: rect(0, 200, 100, 100), X0: 0, Y0: 200, X1: 0, Y1: 250, Repeat: true,
			Stops: []draw.GradientStop{{Offset: 0, Color: red}, {Offset: 0.5, Color: red}, {Offset: 0.5, Color: blue}, {Offset: 1, Color: blue}}},
	}}}}
	path, raw := writePDF(t, doc, Options{NoObjectStreams: true})
	if !strings.Contains(string(raw), "/ShadingType 1") || !strings.Contains(string(raw), "/FunctionType 4") {
		t.Fatalf("a repeating gradient is not one function shading with a calculator function")
	}
	img := render(t, path, 96)
	for _, c := range []struct {
		x, y int
		want [3]int
		what string
	}{
		{110, 25, [3]int{0, 0, 0}, "the period's black half"},
		{120, 25, [3]int{255, 255, 255}, "the period's white half"},
		{310, 25, [3]int{0, 0, 0}, "ten periods on"},
		{15, 25, [3]int{255, 255, 255}, "periods before the line's start (85-105 is one)"},
		{5, 25, [3]int{0, 0, 0}, "periods before the line's start (black from 65, 45, 25, 5)"},
		{50, 125, [3]int{128, 0, 128}, "halfway along the ramp"},
		{250, 125, [3]int{128, 0, 128}, "halfway along the third ramp"},
		{150, 125, [3]int{128, 0, 128}, "halfway along the second ramp"},
		{50, 210, [3]int{255, 0, 0}, "vertical: first half of a period"},
		{50, 240, [3]int{0, 0, 255}, "vertical: second half"},
		{50, 260, [3]int{255, 0, 0}, "vertical: the next period"},
		{200, 75, [3]int{255, 255, 255}, "outside the paths: nothing"},
	} {
		if got := rgbAt(img, c.x, c.y); !near(got, c.want, 16) {
			t.Errorf("%s: pixel (%d, %d) is %v, want %v", c.what, c.x, c.y, got, c.want)
		}
	}
}
