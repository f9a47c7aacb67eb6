package pdfw

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/platen/platen/render/phantom/draw"
)

// TestFakeBoldIsType3 writes a fake-bold Hebrew run as Chromium does: Type
// 3 fonts laid out as Skia's, which pdftotext reads with taller word boxes
// (poppler's default ascent and descent at the size scaled by .notdef's
// width over 0.5) and as a word apart from the real bold run after it.
func TestFakeBoldIsType3(t *testing.T) {
	dejavu := loadFace(t, dejaVuSans, 0)
	sansBold := loadFace(t, "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf", 0)
	const size = 24.0
	heb := draw.Text{Font: dejavu.font, Size: size, X: 300, Y: 100, Glyphs: dejavu.shape(size, "שלום", true),
		Color: draw.Color{A: 1}, FakeBold: size / 32}
	sheqel := draw.Text{Font: dejavu.font, Size: size, X: 40, Y: 100, Glyphs: dejavu.shape(size, "₪", false),
		Color: draw.Color{A: 1}, FakeBold: size / 32}
	digits := sansBold.textOp(size, 40+width(sheqel.Glyphs), 100, "19.50")
	page := &draw.Page{Width: a4W, Height: a4H, Ops: []draw.Op{heb, sheqel, digits}}
	path, pdf := writePDF(t, &draw.Document{Pages: []*draw.Page{page}}, Options{NoObjectStreams: true})
	validate(t, pdf)

	if out := run(t, "pdffonts", path); strings.Count(out, "Type 3") != 2 || strings.Count(out, "CID TrueType") != 1 {
		t.Errorf("want two Type 3 fonts (the Hebrew block and the ₪ block) and one CIDFont:\n%s", out)
	}
	s := string(pdf)
	if strings.Contains(s, " Tr") {
		t.Error("fake bold set a text rendering mode; the glyph procedures stroke")
	}
	// Vav is glyph 0x52C of DejaVu Sans: code 49 of the block from 1276.
	font := regexp.MustCompile(`<</Type/Font/Subtype/Type3/FontMatrix\[\.001 0 0 \.001 0 0\]/FontBBox\[[-\d ]+\]/FirstChar 0/LastChar (\d+)/Widths\[([\d. ]+)\]/Encoding<</Type/Encoding/Differences\[0((?:/g[0-9A-F]+)+)\]>>`)
	var hebrew []string
	for _, m := range font.FindAllStringSubmatch(s, -1) {
		if strings.Contains(m[3], "/g52C") {
			hebrew = m
		}
	}
	if hebrew == nil {
		t.Fatalf("no Type 3 font showing glyph 0x52C laid out as Skia's:\n%s", s)
	}
	names := strings.Split(hebrew[3], "/")[1:]
	widths := strings.Fields(hebrew[2])
	if len(names) != len(widths) || names[0] != "g0" || names[49] != "g52C" {
		t.Errorf("codes: %d names and %d widths, code 0 %q, code 49 %q", len(names), len(widths), names[0], names[49])
	}
	for c, n := range names {
		if (n == "g0") != (widths[c] == "0") && c != 0 {
			t.Errorf("code %d: name %s, width %s: unused codes are /g0 of width 0", c, n, widths[c])
		}
	}
	if widths[0] != "600.098" { // .notdef, 1229/2048 em, to widthDecimals
		t.Errorf(".notdef width %s, want 600.098", widths[0])
	}
	for _, d := range regexp.MustCompile(`<</Type/FontDescriptor[^>]*>>`).FindAllString(s, -1) {
		if !strings.Contains(d, "/FontFile") && strings.Contains(d, "/Ascent") {
			t.Errorf("a Type 3 font's descriptor has an Ascent, which poppler would take: %s", d)
		}
	}

	byText := map[string]word{}
	for _, w := range words(t, path) {
		byText[w.text] = w
	}
	if len(byText) != 3 || byText["₪"].text == "" || byText["19.50"].text == "" || byText["םולש"].text == "" {
		t.Fatalf("words %v, want ₪, 19.50 and םולש apart", byText)
	}
	k := size * pxToPt * 600.1 / 1000 / 0.5
	for _, w := range []word{byText["₪"], byText["םולש"]} {
		top, bottom := 100*pxToPt-0.95*k, 100*pxToPt+0.35*k
		if math.Abs(w.yMin-top) > 0.05 || math.Abs(w.yMax-bottom) > 0.05 {
			t.Errorf("word %q: y %.3f..%.3f, want %.3f..%.3f", w.text, w.yMin, w.yMax, top, bottom)
		}
	}
	w, x0 := byText["םולש"], 300*pxToPt
	if x1 := x0 + width(heb.Glyphs)*pxToPt; math.Abs(w.xMin-x0) > 0.1 || math.Abs(w.xMax-x1) > 0.1 {
		t.Errorf("Hebrew word x %.3f..%.3f, want %.3f..%.3f", w.xMin, w.xMax, x0, x1)
	}
}
