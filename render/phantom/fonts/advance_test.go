package fonts

import (
	"fmt"
	"html"
	"math"
	"strings"
	"testing"
)

// lineCase is one line of text printed by Chromium and shaped here.
type lineCase struct {
	family string // CSS font-family value
	size   float64
	weight int
	italic bool
	text   string
}

const mixedText = `AVATAR Wave office 1,234.56 fi fl ffi Tokyo “quoted” — Lorem ipsum dolor sit amet, consectetur adipiscing; (x) = [y] {z} 100% €5 £3 ¥7 “AT&T” L'été naïve café Straße`

// TestAdvancesMatchChromium shapes long lines in several faces and sizes and
// checks every glyph's id and pen position against Chromium's PDF.
func TestAdvancesMatchChromium(t *testing.T) {
	var cases []lineCase
	for _, fam := range []string{"Arial", "'Times New Roman'", "'Courier New'", "'DejaVu Sans'", "'DejaVu Serif'", "'DejaVu Sans Mono'"} {
		for _, size := range []float64{9, 10.5, 12, 13.33, 14.666667, 16, 18.666667, 21, 32} {
			cases = append(cases, lineCase{family: fam, size: size, weight: 400, text: mixedText})
		}
	}
	cases = append(cases,
		lineCase{family: "Arial", size: 14, weight: 700, text: mixedText},
		lineCase{family: "'Times New Roman'", size: 14, weight: 400, italic: true, text: mixedText},
		lineCase{family: "'DejaVu Sans'", size: 14, weight: 700, italic: true, text: mixedText},
	)
	lines := printLines(t, cases)
	l, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	sh := l.NewShaper()
	worst, n := 0.0, 0
	for i, c := range cases {
		fams := []string{strings.Trim(c.family, "'")}
		q := Query{Families: fams, Weight: c.weight}
		if c.italic {
			q.Style = 1
		}
		runs := sh.Shape(q, c.size, c.text, ShapeOptions{})
		x := 0.0
		line := lines[i]
		k := 0
		for _, r := range runs {
			for _, g := range r.Glyphs {
				if k == len(line) {
					break
				}
				cg := line[k]
				k++
				n++
				if int(g.ID) != cg.GID || cg.Font != r.Font.PostScriptName {
					t.Fatalf("case %d (%s %gpx): glyph %d is %s/%d, Chromium %v", i, c.family, c.size, k-1, r.Font.PostScriptName, g.ID, cg)
				}
				if d := math.Abs(cg.X - x); d > worst {
					worst = d
				}
				if d := math.Abs(cg.X - x); d > 0.001 {
					t.Errorf("case %d (%s %gpx): glyph %d at x %.4f, Chromium %.4f", i, c.family, c.size, g.ID, x, cg.X)
				}
				x += g.Advance
			}
		}
		if k < len(line) || x < 500 && k < len(c.text)/2 {
			t.Errorf("case %d (%s %gpx): compared %d of Chromium's %d glyphs, up to x %.1f", i, c.family, c.size, k, len(line), x)
		}
	}
	t.Logf("%d lines, %d glyphs: worst x difference %.5f px", len(cases), n, worst)
}

// lineHeight is the room printLines gives each line.
const lineHeight = 45

// printLines prints each case on its own line, lineHeight apart, and
// returns the glyphs Chromium drew on each. The lines overflow the page; a
// clipping box keeps Chromium from shrinking the page to fit them (it culls
// the glyphs beyond the clip instead). Pages hold 24 lines; more cases
// take more prints.
func printLines(t *testing.T, cases []lineCase) [][]pdfGlyph {
	t.Helper()
	const perPrint = 24
	lines := make([][]pdfGlyph, len(cases))
	for first := 0; first < len(cases); first += perPrint {
		chunk := cases[first:min(first+perPrint, len(cases))]
		var b strings.Builder
		b.WriteString(`<div style="position:relative; width:790px; height:1100px; overflow:hidden">`)
		for i, c := range chunk {
			st := "normal"
			if c.italic {
				st = "italic"
			}
			fmt.Fprintf(&b, `<div style="position:absolute; left:0; top:%dpx; white-space:pre; font-family:%s; font-size:%gpx; font-weight:%d; font-style:%s">%s</div>`,
				i*lineHeight, c.family, c.size, c.weight, st, html.EscapeString(c.text))
		}
		b.WriteString(`</div>`)
		for _, g := range pdfGlyphs(t, printChromium(t, b.String())) {
			i := int(g.Y / lineHeight)
			if i < 0 || i >= len(chunk) {
				t.Fatalf("glyph %v outside every line", g)
			}
			lines[first+i] = append(lines[first+i], g)
		}
	}
	return lines
}
