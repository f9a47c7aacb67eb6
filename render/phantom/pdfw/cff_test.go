package pdfw

import (
	"image"
	"testing"

	"github.com/platen/platen/render/phantom/draw"
)

// TestCFFSubsetsDrawTheSameGlyphs renders CFF text with each way of
// subsetting (subroutines inlined, subroutines kept and pruned, and
// tdewolff/font's renumbering as the reference) at 150 dpi: the pixels must
// be the same. The long line holds hundreds of glyphs, the short one few.
func TestCFFSubsetsDrawTheSameGlyphs(t *testing.T) {
	defer func() { cffLayout = cffSmaller }()
	var all []rune
	for r := rune(33); r < 0x17f; r++ {
		if r < 0x7f || r > 0xa0 {
			all = append(all, r)
		}
	}
	for _, tc := range []struct {
		path string
		text string
		ref  bool // tdewolff/font can subset it
	}{
		{nimbusSans, "Quick brown fox, 0123456789 ffi", true},
		{nimbusSans, string(all), true},
		{nimbusRoman, string(all), true},
		{lmRoman, "Latin Modern: efficient", true},
		{lmRoman, string(all), false},
	} {
		face := loadFace(t, tc.path, 0)
		var ops []draw.Op
		gs := face.shape(14, tc.text, false)
		for line := 0; len(gs) > 0; line++ {
			n := min(len(gs), 40)
			ops = append(ops, draw.Text{Font: face.font, Size: 14, X: 10, Y: 20 + 20*float64(line), Glyphs: gs[:n], Color: black})
			gs = gs[n:]
		}
		doc := &draw.Document{Pages: []*draw.Page{{Width: 500, Height: 300, Ops: ops}}}
		layouts := []int{cffInlineSubrs, cffKeepSubrs}
		if tc.ref {
			layouts = append(layouts, cffTdewolff)
		}
		var first image.Image
		for _, l := range layouts {
			cffLayout = l
			noSubsetCache = true
			_, pdf := writePDF(t, doc, Options{})
			noSubsetCache = false
			validate(t, pdf)
			img := renderBytes(t, pdf)
			if first == nil {
				first = img
				if n := inkPixels(img); n < 100 {
					t.Errorf("%s: only %d pixels of ink", tc.path, n)
				}
				continue
			}
			if !sameImage(img, first) {
				t.Errorf("%s, %d glyphs: layout %d draws differently from inlined subroutines", tc.path, len(tc.text), l)
			}
		}
	}
}

func inkPixels(img image.Image) int {
	n := 0
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if c := rgbAt(img, x, y); c[0] < 100 {
				n++
			}
		}
	}
	return n
}
