package fonts

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
)

// TestLineMetricsMatchChromium stacks three lines of text with
// line-height: normal in several faces and sizes, and checks each line's
// baseline in Chromium's PDF against the metrics: the baseline of line k
// is k*LineSpacing + Ascent + floor((LineSpacing - Ascent - Descent)/2)
// below the block's top (LayoutNG floors the ascent's half-leading).
func TestLineMetricsMatchChromium(t *testing.T) {
	t.Parallel()
	l, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	families := []string{"Arial", "Times New Roman", "Courier New", "DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono"}
	if l.hasFamily("Nimbus Sans") {
		families = append(families, "Nimbus Sans", "Nimbus Roman", "C059")
	}
	sizes := []float64{9, 10.5, 12, 13.33, 14.666667, 16, 21, 32}
	sh := l.NewShaper()
	checked, bad := 0, 0
	for _, fam := range families {
		var b strings.Builder
		for i, size := range sizes {
			fmt.Fprintf(&b, `<div style="position:absolute; left:0; top:%dpx; font-family:'%s'; font-size:%gpx">Hxg<br>Hxg<br>Hxg</div>`, i*130, fam, size)
		}
		got := pdfGlyphs(t, printChromium(t, b.String()))
		for i, size := range sizes {
			top := float64(i * 130)
			var ys []float64
			for _, g := range got {
				if g.Y >= top && g.Y < top+130 && (len(ys) == 0 || math.Abs(ys[len(ys)-1]-g.Y) > 0.01) {
					ys = append(ys, g.Y)
				}
			}
			sort.Float64s(ys)
			q := Query{Families: []string{fam}, Weight: 400}
			m := sh.Metrics(q, size)
			if len(ys) != 3 {
				t.Errorf("%s %gpx: Chromium drew %d lines (%v)", fam, size, len(ys), ys)
				continue
			}
			half := math.Floor((m.LineSpacing - m.Ascent - m.Descent) / 2)
			for k, y := range ys {
				want := top + float64(k)*m.LineSpacing + m.Ascent + half
				checked++
				if math.Abs(y-want) > 0.001 {
					bad++
					t.Errorf("%s %gpx line %d: baseline %.3f, Chromium %.3f (metrics %+v)", fam, size, k, want-top, y-top, m)
				}
			}
		}
	}
	t.Logf("%d baselines in %d faces checked, %d differ", checked, len(families), bad)
}

// TestExAndChMatchChromium places a glyph 10ex and 10ch from the left in
// several faces and sizes: Chromium's positions give its x-height and the
// width of "0", within the 1/64 px layout grid.
func TestExAndChMatchChromium(t *testing.T) {
	t.Parallel()
	l, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	type exCase struct {
		family string
		size   float64
		unit   string
	}
	var cases []exCase
	for _, fam := range []string{"Arial", "Times New Roman", "Courier New", "DejaVu Sans", "DejaVu Serif", "Nimbus Sans", "Latin Modern Roman"} {
		for _, size := range []float64{10.5, 13.33, 16} {
			for _, unit := range []string{"ex", "ch"} {
				cases = append(cases, exCase{fam, size, unit})
			}
		}
	}
	var b strings.Builder
	for i, c := range cases {
		fmt.Fprintf(&b, `<div style="position:absolute; left:0; top:%dpx; font-family:'%s'; font-size:%gpx"><span style="margin-left:10%s">X</span></div>`, i*25, c.family, c.size, c.unit)
	}
	got := pdfGlyphs(t, printChromium(t, b.String()))
	sh := l.NewShaper()
	for i, c := range cases {
		var x float64 = -1
		for _, g := range got {
			if g.Y > float64(i*25) && g.Y < float64(i*25+25) {
				x = g.X
			}
		}
		m := sh.Metrics(Query{Families: []string{c.family}, Weight: 400}, c.size)
		want := 10 * m.XHeight
		if c.unit == "ch" {
			want = 10 * m.ZeroWidth
		}
		if math.Abs(x-want) > 1.0/64 {
			t.Errorf("%s %gpx: 10%s at %.4f, Chromium %.4f", c.family, c.size, c.unit, want, x)
		}
	}
}
