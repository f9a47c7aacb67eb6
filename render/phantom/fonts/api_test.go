package fonts

import (
	"strings"
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

// TestClustersAreGraphemes: a base and its combining marks are one cluster,
// its text on the first glyph in logical order (the leftmost left to right,
// the rightmost right to left) and none on the marks' glyphs, as Chromium's
// glyph runs count them; text with no marks keeps a cluster a character.
func TestClustersAreGraphemes(t *testing.T) {
	l, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	sh := l.NewShaper()
	q := Query{Families: []string{"DejaVu Sans"}, Weight: 400}
	cases := []struct {
		text string
		rtl  bool
		want []string // the glyphs' texts, in visual order
	}{
		{"ax\u0301b", false, []string{"a", "x\u0301", "", "b"}},
		{"qx\u0323\u0301z", false, []string{"q", "x\u0323\u0301", "", "", "z"}},
		{"\u0645\u064b\u0627", true, []string{"\u0627", "", "\u0645\u064b"}},
		{"\u05e9\u05b8\u05c1\u05dc", true, []string{"\u05dc", "", "", "\u05e9\u05b8\u05c1"}},
		{"abc", false, []string{"a", "b", "c"}},
	}
	for _, c := range cases {
		runs := sh.Shape(q, 16, c.text, ShapeOptions{RTL: c.rtl})
		var got []string
		for _, r := range runs {
			for _, g := range r.Glyphs {
				got = append(got, g.Text)
			}
		}
		if len(got) != len(c.want) {
			t.Errorf("%q: texts %q, want %q", c.text, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q: texts %q, want %q", c.text, got, c.want)
				break
			}
		}
	}
}

// TestNumericFeatures: font-variant-numeric's features reach the shaper.
// Latin Modern Roman has tabular figures by default, proportional ones
// under pnum and old-style ones under onum (fonts-lmodern is a test
// dependency).
func TestNumericFeatures(t *testing.T) {
	l, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	sh := l.NewShaper()
	q := Query{Families: []string{"Latin Modern Roman"}, Weight: 400}
	if r := sh.Shape(q, 20, "1", ShapeOptions{}); len(r) == 0 || r[0].Font == nil || !strings.Contains(r[0].Font.PostScriptName, "LMRoman") {
		t.Fatalf("Latin Modern Roman is not installed (fonts-lmodern): %+v", r)
	}
	width := func(s string, num uint8) float64 {
		return runsWidth(sh.Shape(q, 20, s, ShapeOptions{Numeric: num}))
	}
	const onum, pnum, tnum = 1 << 1, 1 << 2, 1 << 3
	if w1, w8 := width("111", pnum), width("888", pnum); w1 >= w8 {
		t.Errorf("proportional figures: 111 is %.2f px, 888 %.2f px; want 111 narrower", w1, w8)
	}
	if w1, w8 := width("111", tnum), width("888", tnum); w1 != w8 {
		t.Errorf("tabular figures: 111 is %.2f px, 888 %.2f px; want them equal", w1, w8)
	}
	if w, wd := width("111", pnum), width("111", 0); w == wd {
		t.Errorf("pnum left 111 at its default (tabular) width %.2f px", w)
	}
	if g, gd := sh.Shape(q, 20, "3", ShapeOptions{Numeric: onum}), sh.Shape(q, 20, "3", ShapeOptions{}); g[0].Glyphs[0].ID == gd[0].Glyphs[0].ID {
		t.Errorf("onum left the figure 3 as glyph %d", g[0].Glyphs[0].ID)
	}
}

func runsWidth(rs []Run) float64 {
	w := 0.0
	for _, r := range rs {
		w += r.Width
	}
	return w
}

// TestHasLocal: local() names a face by its full name or its PostScript
// name, in any case; a family name alone or a font the machine lacks is
// not found.
func TestHasLocal(t *testing.T) {
	l, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{
		"Liberation Sans":          true, // the regular face's full name
		"liberation sans bold":     true,
		"LiberationSerif-Italic":   true, // a PostScript name
		"Liberation":               false,
		"Marianne":                 false,
		"PinyonScript-Regular":     false,
		"Liberation Sans Narrowed": false,
	} {
		if got := l.HasLocal(name); got != want {
			t.Errorf("HasLocal(%q) = %v, want %v", name, got, want)
		}
	}
}
