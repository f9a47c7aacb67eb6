package corpus

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// Entry is one document's outcome, for the report.
type Entry struct {
	Name    string
	HandOff bool
	// RefPDF and GotPDF are the two engines' PDFs (GotPDF is nil for a
	// hand-off), and Ref and Got their analyses.
	RefPDF, GotPDF []byte
	Ref, Got       *Analysis
	Result         *Result
	// RefTime and GotTime are the engines' render times.
	RefTime, GotTime time.Duration
	// Failures are how the document misses the bar; Err a render or
	// analysis that failed.
	Failures []string
	Err      error
}

// gutter is the white space between the panels of a side-by-side image,
// caption the height of the line of captions above them.
const (
	gutter  = 12
	caption = 18
)

// SideBySide composes one page as three panels under a line of captions:
// the reference's render, the candidate's, and their difference (the
// reference faded, its ink the candidate lacks in red, the candidate's ink
// the reference lacks in blue). A page one of them lacks is blank in its
// panel. refName and gotName caption the panels.
func SideBySide(ref, got *Analysis, page int, refName, gotName string) *image.RGBA {
	a, b := pageGray(ref, page), pageGray(got, page)
	if a == nil {
		a = blankLike(b)
	}
	if b == nil {
		b = blankLike(a)
	}
	_, mask := PixelDiff(a, b, GrayTolerance, true)
	w, h := mask.W, mask.H
	out := image.NewRGBA(image.Rect(0, 0, 3*w+2*gutter, h+caption))
	for i := range out.Pix {
		out.Pix[i] = 255
	}
	label := func(x int, s string) {
		d := font.Drawer{Dst: out, Src: image.Black, Face: basicfont.Face7x13, Dot: fixed.P(x+2, 13)}
		d.DrawString(s)
	}
	label(0, fmt.Sprintf("%s, page %d", refName, page+1))
	label(w+gutter, gotName)
	label(2*(w+gutter), "difference: red only in "+refName+", blue only in "+gotName)
	put := func(x0 int, g *image.Gray) {
		for y := 0; y < g.Rect.Dy(); y++ {
			for x := 0; x < g.Rect.Dx(); x++ {
				v := g.Pix[y*g.Stride+x]
				out.SetRGBA(x0+x, caption+y, color.RGBA{v, v, v, 255})
			}
		}
	}
	put(0, a)
	put(w+gutter, b)
	x0 := 2 * (w + gutter)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var c color.RGBA
			switch mask.Pix[y*w+x] {
			case MaskRefInk:
				c = color.RGBA{220, 0, 0, 255}
			case MaskGotInk:
				c = color.RGBA{0, 90, 255, 255}
			default:
				v := uint8(255)
				if x < a.Rect.Dx() && y < a.Rect.Dy() {
					v = 255 - (255-a.Pix[y*a.Stride+x])/4
				}
				c = color.RGBA{v, v, v, 255}
			}
			out.SetRGBA(x0+x, caption+y, c)
		}
	}
	return out
}

func pageGray(a *Analysis, page int) *image.Gray {
	if a == nil || page < 0 || page >= len(a.Pages) {
		return nil
	}
	return a.Pages[page].Gray
}

func blankLike(g *image.Gray) *image.Gray {
	r := image.Rect(0, 0, 1, 1)
	if g != nil {
		r = g.Rect
	}
	out := image.NewGray(r)
	for i := range out.Pix {
		out.Pix[i] = 255
	}
	return out
}

// WritePNG writes img to file.
func WritePNG(file string, img image.Image) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Worst returns the compared entries (not hand-offs, not failed) that
// differ at all, ordered by how badly they do: by median displacement (then
// share within), and by pixel share; at most n of each.
func Worst(entries []Entry, n int) (byMedian, byPixel []Entry) {
	for _, e := range entries {
		if e.Result == nil || e.HandOff {
			continue
		}
		if r := e.Result; r.Median > 0 || r.Within < 1 || r.RefPages != r.GotPages {
			byMedian = append(byMedian, e)
		}
		if e.Result.PixelMax > 0 {
			byPixel = append(byPixel, e)
		}
	}
	sort.SliceStable(byMedian, func(i, j int) bool { return worse(byMedian[i].Result, byMedian[j].Result) })
	sort.SliceStable(byPixel, func(i, j int) bool { return byPixel[i].Result.PixelMax > byPixel[j].Result.PixelMax })
	return byMedian[:min(n, len(byMedian))], byPixel[:min(n, len(byPixel))]
}

// worse orders by median, then by share within (lower is worse).
func worse(a, b *Result) bool {
	if a.Median != b.Median {
		return a.Median > b.Median
	}
	return a.Within < b.Within
}

// WriteReport writes into dir the side-by-side PNG of the worst page of the
// n worst documents by median and by pixel share, named
// <rank>-median-<doc>.png and <rank>-pixel-<doc>.png, and returns those
// files. It also writes the table of every document (WriteTable) into
// dir/table.txt and every document's PDFs into dir/pdf as
// <doc>.<engine>.pdf, for a closer look with poppler; refName and gotName
// name the engines (and must differ).
func WriteReport(dir string, entries []Entry, n int, refName, gotName string) ([]string, error) {
	if err := os.MkdirAll(filepath.Join(dir, "pdf"), 0o755); err != nil {
		return nil, err
	}
	var table strings.Builder
	if err := WriteTable(&table, entries); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "table.txt"), []byte(table.String()), 0o644); err != nil {
		return nil, err
	}
	for _, e := range entries {
		base := filepath.Join(dir, "pdf", strings.ReplaceAll(e.Name, "/", "_"))
		for _, p := range []struct {
			engine string
			pdf    []byte
		}{{refName, e.RefPDF}, {gotName, e.GotPDF}} {
			if p.pdf == nil {
				continue
			}
			if err := os.WriteFile(base+"."+p.engine+".pdf", p.pdf, 0o644); err != nil {
				return nil, err
			}
		}
	}
	byMedian, byPixel := Worst(entries, n)
	var files []string
	write := func(kind string, list []Entry, page func(Entry) int) error {
		for i, e := range list {
			f := fmt.Sprintf("%s/%02d-%s-%s.png", dir, i+1, kind, strings.ReplaceAll(e.Name, "/", "_"))
			if err := WritePNG(f, SideBySide(e.Ref, e.Got, page(e), refName, gotName)); err != nil {
				return err
			}
			files = append(files, f)
		}
		return nil
	}
	if err := write("median", byMedian, worstWordPage); err != nil {
		return files, err
	}
	err := write("pixel", byPixel, func(e Entry) int { return max(e.Result.PixelPage, 0) })
	return files, err
}

// worstWordPage is the page of a result's worst word, else of its worst pixels.
func worstWordPage(e Entry) int {
	if len(e.Result.Worst) > 0 && e.Result.Worst[0].Displaced > 0 {
		return e.Result.Worst[0].Page
	}
	return max(e.Result.PixelPage, 0)
}

// WriteTable prints one line per document: its pages, words, median and
// share within, pixel share, render times, and whether it meets the bar.
func WriteTable(w io.Writer, entries []Entry) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "document\tpages\twords\tmatched\tmedian pt\twithin 2pt %\tpixel %\tref ms\tgot ms\t  verdict")
	for _, e := range entries {
		switch {
		case e.Err != nil:
			fmt.Fprintf(tw, "%s\t\t\t\t\t\t\t\t\t  error: %v\n", e.Name, oneLine(e.Err.Error()))
			continue
		case e.Result == nil:
			fmt.Fprintf(tw, "%s\t\t\t\t\t\t\t\t\t  %s\n", e.Name, verdict(e))
			continue
		}
		r := e.Result
		pages := fmt.Sprint(r.RefPages)
		if r.GotPages != r.RefPages {
			pages = fmt.Sprintf("%d/%d", r.RefPages, r.GotPages)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%.1f\t%.2f\t%d\t%d\t  %s\n", e.Name, pages, max(r.RefWords, r.GotWords), r.Matched,
			fmtPt(r.Median), 100*r.Within, 100*r.PixelMax, e.RefTime.Milliseconds(), e.GotTime.Milliseconds(), verdict(e))
	}
	return tw.Flush()
}

// verdict is "ok", "hand-off", or FAIL with the criteria missed; the
// test's own output has each failure in full.
func verdict(e Entry) string {
	if e.HandOff {
		return "hand-off"
	}
	r := e.Result
	if len(e.Failures) == 0 || r == nil {
		return "ok"
	}
	bar := DefaultBar()
	var missed []string
	if r.RefPages != r.GotPages {
		missed = append(missed, "pages")
	}
	if len(r.SizeDiffs) > 0 {
		missed = append(missed, "sizes")
	}
	if r.Median > bar.MaxMedianPt {
		missed = append(missed, "median")
	}
	if r.Within < bar.MinWithin {
		missed = append(missed, "within")
	}
	if r.PixelMax > bar.MaxPixelShare {
		missed = append(missed, "pixels")
	}
	if len(missed) == 0 {
		return "FAIL"
	}
	return "FAIL: " + strings.Join(missed, ", ")
}

func fmtPt(v float64) string {
	if math.IsInf(v, 1) {
		return "inf"
	}
	return fmt.Sprintf("%.3f", v)
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}
