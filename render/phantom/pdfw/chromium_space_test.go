package pdfw

import (
	"bytes"
	"compress/zlib"
	"io"
	"regexp"
	"strings"
	"testing"

	gtfont "github.com/go-text/typesetting/font"
	"github.com/platen/platen/render/phantom/draw"
)

// contentStreams is every flate stream of pdf that decompresses to text, in
// file order: the content streams and the object stream.
func contentStreams(t *testing.T, pdf []byte) string {
	t.Helper()
	var out strings.Builder
	re := regexp.MustCompile(`stream\r?\n`)
	for _, loc := range re.FindAllIndex(pdf, -1) {
		r, err := zlib.NewReader(bytes.NewReader(pdf[loc[1]:]))
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(r)
		out.Write(b)
		out.WriteByte('\n')
	}
	return out.String()
}

// TestPageSpaceIsChromiums writes Chromium's two page matrices and checks
// what they are for: a bar whose left edge falls on half a pixel at 72 dpi
// (x = 30 CSS px, 22.5 pt) starts on the pixel Chromium's does, 22, since
// 0.24 × 3.125 in float32 is a hair under 0.75; with 0.75 it starts on 23.
func TestPageSpaceIsChromiums(t *testing.T) {
	bar := draw.Fill{Path: rect(30, 10, 2, 80), Color: draw.Color{A: 1}}
	path, pdf := writePDF(t, &draw.Document{Pages: []*draw.Page{{Width: 100, Height: 100, Ops: []draw.Op{bar}}}}, Options{})
	if s := contentStreams(t, pdf); !strings.HasPrefix(s, ".23999999 0 0 -.23999999 0 75 cm\n3.125 0 0 3.125 0 0 cm\n") {
		t.Errorf("the content stream starts\n%.80s\nwant Chromium's .23999999 and 3.125 matrices", s)
	}
	img := render(t, path, 72)
	for _, p := range []probe{{"before the bar", 21, 30, cWhite}, {"the bar's first pixel", 22, 30, cBlack}, {"the bar's last pixel", 23, 30, cBlack}, {"after the bar", 24, 30, cWhite}} {
		if got := rgbAt(img, p.x, p.y); !near(got, p.want, 64) {
			t.Errorf("%s: pixel (%d, %d) is %v, want %v", p.name, p.x, p.y, got, p.want)
		}
	}
}

// TestLetterSpacedWordStaysOneWord sets a word with a letter spacing of
// just under 0.1 em, as Chromium's 0.1em of 7pt comes out: poppler splits
// a word at a gap of more than 0.1 em, so the widths in W and the TJ
// numbers must be written precisely enough for the gap to stay under it
// (with widths rounded to a tenth of a unit and TJ numbers to a tenth, the
// gap came out as exactly 0.1 em or more, and the word fell in two).
func TestLetterSpacedWordStaysOneWord(t *testing.T) {
	sans := loadFace(t, liberationSans, 0)
	const size = 9.33
	op := sans.textOp(size, 20, 40, "SIGNATURE")
	upem := float64(sans.face.Upem())
	for i := range op.Glyphs {
		adv := float64(sans.face.HorizontalAdvance(gtfont.GID(op.Glyphs[i].ID)))
		op.Glyphs[i].Advance = adv/upem*size + 0.09998*size
	}
	path, _ := writePDF(t, &draw.Document{Pages: []*draw.Page{{Width: 300, Height: 80, Ops: []draw.Op{op}}}}, Options{})
	ws := words(t, path)
	if len(ws) != 1 || ws[0].text != "SIGNATURE" {
		t.Errorf("pdftotext reads %v, want the one word SIGNATURE", ws)
	}
}
