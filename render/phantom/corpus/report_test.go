package corpus

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// grayPage is a white w×h page with a black rectangle at r.
func grayPage(w, h int, rects ...image.Rectangle) *image.Gray {
	g := image.NewGray(image.Rect(0, 0, w, h))
	for i := range g.Pix {
		g.Pix[i] = 255
	}
	for _, r := range rects {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				g.Pix[y*g.Stride+x] = 0
			}
		}
	}
	return g
}

// TestReportShowsTheWorst builds three compared documents (one the same,
// one with a moved word and a missing box, one with an extra box) and
// checks the report: the table names every document with its verdict, the
// worst lists leave out the document that does not differ, and the
// side-by-side image marks the missing ink red and the extra ink blue.
func TestReportShowsTheWorst(t *testing.T) {
	word := func(x float64) []Word { return []Word{{Text: "Total", XMin: x, YMin: 10, XMax: x + 30, YMax: 20}} }
	box, box2 := image.Rect(10, 30, 40, 50), image.Rect(60, 60, 80, 70)
	ref := &Analysis{Pages: []Page{{Width: 100, Height: 100, Words: word(10), Gray: grayPage(100, 100, box)}}}
	same := &Analysis{Pages: []Page{{Width: 100, Height: 100, Words: word(10), Gray: grayPage(100, 100, box)}}}
	moved := &Analysis{Pages: []Page{{Width: 100, Height: 100, Words: word(14), Gray: grayPage(100, 100)}}}
	extra := &Analysis{Pages: []Page{{Width: 100, Height: 100, Words: word(10), Gray: grayPage(100, 100, box, box2)}}}
	bar := DefaultBar()
	var entries []Entry
	for _, c := range []struct {
		name string
		got  *Analysis
	}{{"same", same}, {"moved", moved}, {"extra", extra}} {
		r := Compare(ref, c.got, bar.WithinPt, bar.PageSizeTolerancePt)
		entries = append(entries, Entry{Name: "doc/" + c.name, Ref: ref, Got: c.got, Result: r, Failures: bar.Failures(r),
			RefPDF: []byte("%PDF ref"), GotPDF: []byte("%PDF got")})
	}
	entries = append(entries, Entry{Name: "handoff-x", HandOff: true, RefPDF: []byte("%PDF")})

	byMedian, byPixel := Worst(entries, 5)
	if len(byMedian) != 1 || byMedian[0].Name != "doc/moved" {
		t.Errorf("worst by median: %v, want doc/moved alone", names(byMedian))
	}
	if len(byPixel) != 2 || byPixel[0].Name != "doc/moved" || byPixel[1].Name != "doc/extra" {
		t.Errorf("worst by pixels: %v, want doc/moved then doc/extra", names(byPixel))
	}

	var table bytes.Buffer
	if err := WriteTable(&table, entries); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"doc/same", "doc/moved", "FAIL: median, within, pixels", "doc/extra", "handoff-x", "hand-off"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, table.String())
		}
	}

	dir := t.TempDir()
	files, err := WriteReport(dir, entries, 5, "chromium", "phantom")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 3 {
		t.Fatalf("files %v, want one by median and two by pixels", files)
	}
	for _, f := range []string{"table.txt", "pdf/doc_moved.chromium.pdf", "pdf/doc_moved.phantom.pdf", "pdf/handoff-x.chromium.pdf"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	raw, err := os.ReadFile(filepath.Join(dir, "02-pixel-doc_extra.png"))
	if err != nil {
		t.Fatalf("%v (files %v)", err, files)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 3*100+2*gutter || b.Dy() != 100+caption {
		t.Fatalf("side by side is %v", b)
	}
	at := func(panel int, p image.Point) (r, g, b uint32) {
		r, g, b, _ = img.At(panel*(100+gutter)+p.X, caption+p.Y).RGBA()
		return r >> 8, g >> 8, b >> 8
	}
	if r, g, b := at(2, image.Pt(70, 65)); b < 200 || r > 50 || g > 150 {
		t.Errorf("extra ink shows as (%d,%d,%d) in the difference, want blue", r, g, b)
	}
	if r, g, b := at(2, image.Pt(25, 40)); r != g || g != b || r > 220 {
		t.Errorf("shared ink shows as (%d,%d,%d), want a faded gray", r, g, b)
	}
	if r, _, _ := at(1, image.Pt(70, 65)); r != 0 {
		t.Error("the candidate's panel does not show its render")
	}
	movedImg := SideBySide(ref, moved, 0, "chromium", "phantom")
	if c := movedImg.RGBAAt(2*(100+gutter)+25, caption+40); c.R < 200 || c.G > 50 {
		t.Errorf("missing ink shows as %v, want red", c)
	}
}

func names(es []Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Name)
	}
	return out
}
