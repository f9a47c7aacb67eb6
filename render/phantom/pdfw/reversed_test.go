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

// TestClusterSpans marks a cluster of several glyphs (a base and its
// marks) with one ActualText span over all its glyphs, as Skia does: left
// to right from the base, right to left from the marks, which come first.
func TestClusterSpans(t *testing.T) {
	dejavu := loadFace(t, dejaVuSans, 0)
	ltr := dejavu.textOp(20, 40, 100, "ax\u0301b")
	// The shaper's convention right to left: a cluster's text on its last
	// glyph in visual order (the first in logical order).
	gs := dejavu.shape(20, "\u064a\u0645\u064b", true)
	for i := 0; i < len(gs); {
		j := i + 1
		for j < len(gs) && gs[j].Text == "" {
			j++
		}
		gs[i].Text, gs[j-1].Text = "", gs[i].Text
		i = j
	}
	rtl := draw.Text{Font: dejavu.font, Size: 20, X: 300, Y: 100, Glyphs: gs, Color: draw.Color{A: 1}, Reversed: true}
	page := &draw.Page{Width: a4W, Height: a4H, Ops: []draw.Op{ltr, rtl}}
	_, pdf := writePDF(t, &draw.Document{Pages: []*draw.Page{page}}, Options{NoObjectStreams: true})
	content := inflateStreams(t, pdf)
	for _, c := range []struct{ hex, what string }{{"FEFF00780301", "x and U+0301"}, {"FEFF0645064B", "meem and fathatan"}} {
		m := regexp.MustCompile(`/Span<</ActualText<` + c.hex + `>>>BDC\n((?s:.*?))EMC\n`).FindStringSubmatch(content)
		if m == nil {
			t.Errorf("no span for %s in:\n%s", c.what, content)
			continue
		}
		if n := shownBytes(m[1]); n != 4 {
			t.Errorf("the span for %s shows %d bytes, want two glyphs: %q", c.what, n, m[1])
		}
	}
	if strings.Count(content, "/Span") != 2 {
		t.Errorf("want only the two clusters of two glyphs marked:\n%s", content)
	}
}

// shownBytes counts the bytes of the literal strings in content operators.
func shownBytes(ops string) int {
	n := 0
	in := false
	for i := 0; i < len(ops); i++ {
		switch b := ops[i]; {
		case !in:
			in = b == '('
		case b == '\\':
			i++
			n++
		case b == ')':
			in = false
		default:
			n++
		}
	}
	return n
}
