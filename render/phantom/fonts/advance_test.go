package fonts

import (
	"fmt"
	"html"
	"math"
	"strings"
	"testing"

	"github.com/platen/platen/render/chromium"
)

// lineCase is one line of text printed by Chromium and shaped here.
type lineCase struct {
	family string // CSS font-family value
	size   float64
	weight int
	italic bool
	text   string
	// oblique asks font-style: oblique (italic must be false).
	oblique bool
	// smallCaps asks font-variant: small-caps.
	smallCaps bool
	// stretch is font-stretch in percent (0: normal).
	stretch float64
}

const mixedText = `AVATAR Wave office 1,234.56 fi fl ffi Tokyo “quoted” — Lorem ipsum dolor sit amet, consectetur adipiscing; (x) = [y] {z} 100% €5 £3 ¥7 “AT&T” L'été naïve café Straße`

// TestAdvancesMatchChromium shapes long lines in several faces and sizes and
// checks every glyph's id and pen position against Chromium's PDF.
func TestAdvancesMatchChromium(t *testing.T) {
	t.Parallel()
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
		lineCase{family: "Arial", size: 16, weight: 400, smallCaps: true, text: mixedText},
		lineCase{family: "'Times New Roman'", size: 13.33, weight: 700, smallCaps: true, text: mixedText},
		lineCase{family: "'DejaVu Serif'", size: 21, weight: 400, italic: true, smallCaps: true, text: mixedText},
	)
	lines := printLines(t, cases)
	l, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	sh := l.NewShaper()
	worst, n := 0.0, 0
	for i, c := range cases {
		runs := sh.Shape(c.query(), c.size, c.text, ShapeOptions{SmallCaps: c.smallCaps})
		diff, w, k := lineDiff(runs, lines[i], 0.001)
		if diff != "" {
			t.Errorf("%s %gpx weight %d italic %v: %s", c.family, c.size, c.weight, c.italic, diff)
		}
		worst, n = math.Max(worst, w), n+k
		if len(lines[i]) == 0 || lines[i][len(lines[i])-1].X < 500 {
			t.Errorf("%s %gpx: the line compared is shorter than 500 px", c.family, c.size)
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
	return printLinesWith(t, nil, cases)
}

// printLinesWith is printLines on engine e (nil: the shared one).
func printLinesWith(t *testing.T, e *chromium.Engine, cases []lineCase) [][]pdfGlyph {
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
			} else if c.oblique {
				st = "oblique"
			}
			variant := "normal"
			if c.smallCaps {
				variant = "small-caps"
			}
			stretch := 100.0
			if c.stretch > 0 {
				stretch = c.stretch
			}
			fmt.Fprintf(&b, `<div style="position:absolute; left:0; top:%dpx; white-space:pre; font-family:%s; font-size:%gpx; font-weight:%d; font-style:%s; font-variant:%s; font-stretch:%g%%">%s</div>`,
				i*lineHeight, c.family, c.size, c.weight, st, variant, stretch, html.EscapeString(c.text))
		}
		b.WriteString(`</div>`)
		var pdf []byte
		if e == nil {
			pdf = printChromium(t, b.String())
		} else {
			pdf = printWith(t, e, b.String())
		}
		for _, g := range pdfGlyphs(t, pdf) {
			i := int(g.Y / lineHeight)
			if i < 0 || i >= len(chunk) {
				t.Fatalf("glyph %v outside every line", g)
			}
			lines[first+i] = append(lines[first+i], g)
		}
	}
	return lines
}
