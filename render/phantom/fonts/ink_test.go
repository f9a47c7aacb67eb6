package fonts

import (
	"testing"
)

// TestInkOfDescenders measures glyphs of Arial (Liberation Sans) in the band
// where a 40 px underline lies (2 to 6 px under the baseline): "p" only by
// its stem, "g" by its bowl across most of its width, "o" not at all.
// Chromium clips a 40 px underline of "p" out up to 10.21 px, the stem's
// right edge plus the 4 px of dilation: 6.21 px, 0.155 em.
func TestInkOfDescenders(t *testing.T) {
	l, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	sh := l.NewShaper()
	q := Query{Families: []string{"Arial"}, Weight: 400}
	lo, hi := -6.0/40, -2.0/40
	ink := func(text string) (float64, float64, bool) {
		runs := sh.Shape(q, 40, text, ShapeOptions{})
		if len(runs) != 1 || len(runs[0].Glyphs) != 1 {
			t.Fatalf("%q: shaped as %+v", text, runs)
		}
		return sh.Ink(runs[0].Font, runs[0].Glyphs[0].ID, lo, hi)
	}
	if a, b, ok := ink("p"); !ok || a < 0.05 || a > 0.08 || b < 0.15 || b > 0.16 {
		t.Errorf("p: ink %v..%v em (%v), want its stem, about 0.066..0.155", a, b, ok)
	}
	if a, b, ok := ink("g"); !ok || a > 0.1 || b < 0.45 {
		t.Errorf("g: ink %v..%v em (%v), want most of its width", a, b, ok)
	}
	if _, _, ok := ink("o"); ok {
		t.Error("o has ink under its baseline")
	}
}
