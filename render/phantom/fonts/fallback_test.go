package fonts

import (
	"testing"
)

// TestFallbackMatchesChromium prints text a face lacks (scripts, symbols,
// emoji, CJK) in several families and styles and checks each glyph's face,
// id, synthesis and position against Chromium's.
func TestFallbackMatchesChromium(t *testing.T) {
	t.Parallel()
	l, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	texts := []struct {
		text string
		rtl  bool
	}{
		{"Price 5 € and ₹ 20, ₽ ₺ ₿ ✓ done ✔ ✗ → next ← ↑ ↓ ↔ ⇒ ∑ ∫ √ ∞ ≈ ≠", false},
		{"Καλημέρα κόσμε Привет мир ┌─┬─┐│├┼┤└┴┘ ░▒▓█", false},
		{"emoji 😀 🎉 CJK 漢字 日本語 한국어 ok", false},
		// ₿ is in no face: the system fallback, asked for it first, gives
		// up, and the last-resort font gets the rest.
		{"x ₿ ✓ ✔ λ", false},
		{"x ✓ ₿ ✔", false},
		{"שלום עולם", true},
		{"مرحبا بالعالم", true},
	}
	var cases []lineCase
	var rtl []bool
	for _, fam := range []string{"Arial", "'Times New Roman'", "'Courier New'", "'DejaVu Sans'", "'Nimbus Sans'", "sans-serif", "monospace"} {
		for _, st := range []struct {
			weight int
			italic bool
		}{{400, false}, {700, false}, {400, true}, {700, true}} {
			for _, tx := range texts {
				cases = append(cases, lineCase{family: fam, size: 16, weight: st.weight, italic: st.italic, text: tx.text})
				rtl = append(rtl, tx.rtl)
			}
		}
	}
	lines := printLines(t, cases)
	sh := l.NewShaper()
	bad, n := 0, 0
	for i, c := range cases {
		runs := sh.Shape(c.query(), c.size, c.text, ShapeOptions{RTL: rtl[i]})
		if rtl[i] {
			// A right-to-left line shows its runs in reverse.
			for a, b := 0, len(runs)-1; a < b; a, b = a+1, b-1 {
				runs[a], runs[b] = runs[b], runs[a]
			}
		}
		diff, _, k := lineDiff(runs, lines[i], 0.001)
		n += k
		if diff != "" {
			bad++
			t.Errorf("%s %d italic=%v %q: %s", c.family, c.weight, c.italic, c.text, diff)
		}
	}
	t.Logf("%d lines, %d glyphs: %d lines differ", len(cases), n, bad)
}
