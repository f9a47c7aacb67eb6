package pdfw

import (
	"bytes"
	"compress/zlib"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/platen/platen/render/phantom/draw"
)

// TestReversedChars marks a right-to-left run of more than one cluster
// /ReversedChars, around its glyphs and nothing else, as Skia does; a run
// of one cluster and a left-to-right run are not marked.
func TestReversedChars(t *testing.T) {
	dejavu := loadFace(t, dejaVuSans, 0)
	rtl := func(x float64, text string) draw.Text {
		return draw.Text{Font: dejavu.font, Size: 16, X: x, Y: 100, Glyphs: dejavu.shape(16, text, true), Color: draw.Color{A: 1}, Reversed: true}
	}
	page := &draw.Page{Width: a4W, Height: a4H, Ops: []draw.Op{
		rtl(300, "שלום"),
		rtl(200, "ש"),
		dejavu.textOp(16, 40, 100, "left"),
	}}
	_, pdf := writePDF(t, &draw.Document{Pages: []*draw.Page{page}}, Options{NoObjectStreams: true})
	content := inflateStreams(t, pdf)
	marked := regexp.MustCompile(`/ReversedChars BMC\n1 0 0 -1 (\d+) 100 Tm\n[^\n]*T[jJ]\nEMC\n`).FindAllStringSubmatch(content, -1)
	if len(marked) != 1 || marked[0][1] != "300" || strings.Count(content, "/ReversedChars") != 1 {
		t.Errorf("want the run at x 300 alone marked /ReversedChars, got %q in:\n%s", marked, content)
	}
}

// inflateStreams returns the Flate streams of a file, decompressed and
// joined.
func inflateStreams(t *testing.T, pdf []byte) string {
	t.Helper()
	var out strings.Builder
	for _, m := range regexp.MustCompile(`(?s)/Filter/FlateDecode/Length (\d+)>>stream\n`).FindAllSubmatchIndex(pdf, -1) {
		r, err := zlib.NewReader(bytes.NewReader(pdf[m[1]:]))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(r)
		out.Write(b)
		out.WriteByte('\n')
	}
	return out.String()
}
