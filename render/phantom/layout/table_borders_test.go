package layout

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// tColors gives each border a colour of its own, so that a pixel tells
// which border painted it.
var tColors = []string{"#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#46f0f0", "#f032e6", "#bcf60c", "#008080", "#9a6324", "#800000", "#808000", "#000075", "#808080", "#ffe119", "#aaffc3", "#fabebe", "#e6beff", "#000000", "#469990"}

type tPaintCase struct {
	name  string
	table tTable
}

func colored(b [4]tBorder, base int) [4]tBorder {
	for i := range b {
		if b[i].style != "" && b[i].style != "hidden" {
			b[i].color = tColors[(base+i)%len(tColors)]
		}
	}
	return b
}

func sides(t, r, b, l float64) [4]tBorder {
	mk := func(w float64) tBorder {
		if w == 0 {
			return tBorder{}
		}
		return tBorder{w: w, style: "solid"}
	}
	return [4]tBorder{mk(t), mk(r), mk(b), mk(l)}
}

var tPaintCases = []tPaintCase{
	{"mixed widths", tTable{collapse: true, border: colored(sides(3, 5, 2, 4), 0), sections: body(
		row(cell(bx(40, 20)).bordered(colored(sides(1, 2, 3, 1), 4)), cell(bx(33, 20)).bordered(colored(sides(6, 1, 1, 2), 8)), cell(bx(27, 21))),
		row(cell(bx(40, 20)).bordered(colored(sides(2, 2, 2, 2), 12)), cell(bx(33, 20)), cell(bx(27, 20)).bordered(colored(sides(4, 4, 4, 4), 16))),
	)}},
	{"spans and hidden", tTable{collapse: true, border: colored(sides(2, 2, 2, 2), 3), sections: body(
		row(cell(bx(40, 20)).span("2", "").bordered(colored(sides(3, 3, 3, 3), 7)), cell(bx(30, 20)).bordered([4]tBorder{{0, "hidden", ""}, {}, {}, {}})),
		row(cell(bx(20, 20)).span("", "2").bordered(colored(sides(1, 1, 1, 1), 11)), cell(bx(25, 20)), cell(bx(30, 20)).bordered(colored(sides(5, 1, 5, 1), 15))),
		row(cell(bx(25, 20)).bordered(colored(sides(2, 2, 2, 2), 1)), cell(bx(30, 20))),
	)}},
	{"right to left", tTable{rtl: true, collapse: true, border: colored(sides(3, 5, 2, 4), 0), sections: body(
		row(cell(bx(40, 20)).bordered(colored(sides(1, 2, 3, 1), 4)), cell(bx(33, 20)).bordered(colored(sides(6, 1, 1, 2), 8)), cell(bx(27, 21))),
		row(cell(bx(40, 20)).span("2", "").bordered(colored(sides(2, 2, 2, 2), 12)), cell(bx(27, 20)).bordered(colored(sides(4, 4, 4, 4), 16))),
	)}},
	{"odd widths at fractions", tTable{collapse: true, width: "201px", border: colored(sides(1, 1, 1, 1), 5), sections: body(
		row(cell(bx(31, 13)).bordered(colored(sides(3, 3, 3, 3), 9)), cell(bx(17, 11)).bordered(colored(sides(1, 5, 1, 5), 13)), cell(bx(23, 17))),
		row(cell(bx(31, 15)), cell(bx(17, 12)).bordered(colored(sides(7, 7, 7, 7), 2)), cell(bx(23, 10)).bordered(colored(sides(2, 2, 2, 2), 6))),
	)}},
}

// TestTableCollapsedBordersPaintLikeChromium prints tables with solid
// collapsed borders of distinct colours and compares Chromium's pixels (at
// 96 dpi, one pixel a CSS px) with the segments collapsedSegments gives,
// pixel-snapped as Chromium snaps them.
func TestTableCollapsedBordersPaintLikeChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("prints with Chromium")
	}
	var sb strings.Builder
	sb.WriteString(`<!DOCTYPE html><html><head>` + tPageCSS + `<style>.m{display:none}</style></head><body>`)
	for _, c := range tPaintCases {
		sb.WriteString(`<div class=case style="width:600px">`)
		c.table.html(&sb, &tLabels{})
		sb.WriteString(`</div>`)
	}
	sb.WriteString(`</body></html>`)
	pdf := chromiumPDF(t, sb.String())
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.pdf"), pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("pdftoppm", "-r", "96", "-png", filepath.Join(dir, "t.pdf"), filepath.Join(dir, "p")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v %s", err, out)
	}
	for i, c := range tPaintCases {
		f, err := os.Open(filepath.Join(dir, fmt.Sprintf("p-%d.png", i+1)))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		laid := c.table.layout(600, true, &tLabels{})
		g := laid.g
		var secs []tableSectionPaint
		for si := range g.sections {
			s := &g.sections[si]
			if s.rowEnd == s.rowStart {
				continue
			}
			sp := tableSectionPaint{startRow: s.rowStart}
			for ri := s.rowStart; ri < s.rowEnd; ri++ {
				sp.rowY = append(sp.rowY, g.rows[ri].y)
			}
			last := &g.rows[s.rowEnd-1]
			sp.rowY = append(sp.rowY, last.y+last.h)
			secs = append(secs, sp)
		}
		segs := g.collapsedSegments(nil, secs)
		w, h := g.inlineSize.px(), g.gridHeight.px()
		want := image.NewRGBA(image.Rect(0, 0, int(math.Ceil(w))+2, int(math.Ceil(h))+2))
		for y := 0; y < want.Bounds().Dy(); y++ {
			for x := 0; x < want.Bounds().Dx(); x++ {
				want.Set(x, y, color.White)
			}
		}
		for _, s := range segs {
			x0, y0 := snapRound(s.x.px()), snapRound(s.y.px())
			x1, y1 := snapRound(s.x.px()+s.w.px()), snapRound(s.y.px()+s.h.px())
			col := s.b.Color
			for y := y0; y < y1; y++ {
				for x := x0; x < x1; x++ {
					want.Set(x, y, color.RGBA{uint8(col.R*255 + 0.5), uint8(col.G*255 + 0.5), uint8(col.B*255 + 0.5), 255})
				}
			}
		}
		bad := 0
		for y := 0; y < want.Bounds().Dy(); y++ {
			for x := 0; x < want.Bounds().Dx(); x++ {
				wr, wg, wb, _ := want.At(x, y).RGBA()
				gr, gg, gb, _ := img.At(x, y).RGBA()
				if absDiff(wr, gr) > 0x0800 || absDiff(wg, gg) > 0x0800 || absDiff(wb, gb) > 0x0800 {
					if bad < 10 {
						t.Errorf("%s: pixel (%d,%d) is %02x%02x%02x, want %02x%02x%02x", c.name, x, y, gr>>8, gg>>8, gb>>8, wr>>8, wg>>8, wb>>8)
					}
					bad++
				}
			}
		}
		t.Logf("%-28s %d segments, %d of %d pixels differ", c.name, len(segs), bad, want.Bounds().Dx()*want.Bounds().Dy())
	}
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// snapRound is LayoutUnit::Round on a non-negative position.
func snapRound(v float64) int { return int(math.Floor(v + 0.5)) }
