package fonts

import (
	"testing"

	"github.com/platen/platen/render/phantom/style"
)

// TestShapeCoversTheText checks the contract layout relies on: runs in
// logical order cover the text without gaps, and each glyph advance is
// counted in the run's width.
func TestShapeCoversTheText(t *testing.T) {
	l, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	sh := l.NewShaper()
	q := Query{Families: []string{"Arial"}, Weight: 700, Style: style.FontItalic}
	text := "Hello, world — שלום ✓"
	runs := sh.Shape(q, 16, text, ShapeOptions{})
	if len(runs) == 0 {
		t.Fatal("no runs")
	}
	pos := 0
	for _, r := range runs {
		if r.Start != pos || r.End <= r.Start {
			t.Fatalf("run %d-%d does not continue at %d", r.Start, r.End, pos)
		}
		pos = r.End
		var w float64
		for _, g := range r.Glyphs {
			w += g.Advance
		}
		if d := w - r.Width; d > 1e-9 || d < -1e-9 || r.Font == nil {
			t.Fatalf("run %+v: width %v, glyphs sum to %v", r, r.Width, w)
		}
	}
	if pos != len(text) {
		t.Fatalf("runs end at %d of %d", pos, len(text))
	}
}
