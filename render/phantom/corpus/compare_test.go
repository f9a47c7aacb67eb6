package corpus

import (
	"fmt"
	"image"
	"math"
	"strings"
	"testing"
)

// synthetic builds an analysis of pages of words laid out in lines: each
// word 30 pt wide and 10 pt high, five to a line.
func synthetic(pages, words int) *Analysis {
	a := &Analysis{}
	for p := 0; p < pages; p++ {
		pg := Page{Width: 594.96, Height: 841.92}
		for i := 0; i < words; i++ {
			x, y := 50+float64(i%5)*40, 50+float64(i/5)*14
			pg.Words = append(pg.Words, Word{Text: fmt.Sprintf("w%d.%d", p, i), XMin: x, YMin: y, XMax: x + 30, YMax: y + 10})
		}
		a.Pages = append(a.Pages, pg)
	}
	return a
}

func clone(a *Analysis) *Analysis {
	b := &Analysis{}
	for _, p := range a.Pages {
		p.Words = append([]Word(nil), p.Words...)
		b.Pages = append(b.Pages, p)
	}
	return b
}

func shift(a *Analysis, dx, dy float64) *Analysis {
	b := clone(a)
	for _, p := range b.Pages {
		for i := range p.Words {
			w := &p.Words[i]
			w.XMin, w.XMax, w.YMin, w.YMax = w.XMin+dx, w.XMax+dx, w.YMin+dy, w.YMax+dy
		}
	}
	return b
}

// TestCompareMeasuresWhatItClaims perturbs a synthetic analysis in each way
// the bar must see and checks the figures.
func TestCompareMeasuresWhatItClaims(t *testing.T) {
	ref := synthetic(3, 200)
	bar := DefaultBar()
	cmp := func(got *Analysis) *Result { return Compare(ref, got, bar.WithinPt, bar.PageSizeTolerancePt) }

	t.Run("identical", func(t *testing.T) {
		r := cmp(clone(ref))
		if r.Median != 0 || r.Within != 1 || r.Matched != 600 || len(bar.Failures(r)) != 0 {
			t.Fatalf("identical: median %g within %g matched %d failures %v", r.Median, r.Within, r.Matched, bar.Failures(r))
		}
	})
	t.Run("shifted", func(t *testing.T) {
		for _, c := range []struct {
			dx, dy, median, within float64
			fails                  bool
		}{
			{0.3, 0, 0.3, 1, false},
			{0, -0.5, 0.5, 1, false},
			{0.4, 0.6, 0.6, 1, true},
			{1.5, 0, 1.5, 1, true},
			{0, 2.5, 2.5, 0, true},
		} {
			r := cmp(shift(ref, c.dx, c.dy))
			if math.Abs(r.Median-c.median) > 1e-9 || r.Within != c.within || (len(bar.Failures(r)) > 0) != c.fails {
				t.Errorf("shift %g,%g: median %g within %g failures %v; want %g, %g, fails %v", c.dx, c.dy, r.Median, r.Within, bar.Failures(r), c.median, c.within, c.fails)
			}
			if math.Abs(r.Offset[0]-c.dx) > 1e-9 || math.Abs(r.Offset[1]-c.dy) > 1e-9 {
				t.Errorf("shift %g,%g: offsets %v", c.dx, c.dy, r.Offset)
			}
		}
	})
	t.Run("wider words", func(t *testing.T) {
		got := clone(ref)
		for i := range got.Pages[1].Words {
			got.Pages[1].Words[i].XMax += 3 // another face: same start, other width
		}
		r := cmp(got)
		if r.Within > 0.67 || len(bar.Failures(r)) == 0 {
			t.Errorf("a page of wider words: within %g; the bar must fail", r.Within)
		}
	})
	t.Run("missing word", func(t *testing.T) {
		got := clone(ref)
		ws := got.Pages[1].Words
		got.Pages[1].Words = append(ws[:50:50], ws[51:]...)
		r := cmp(got)
		if r.Matched != 599 || len(r.Missing) != 1 || len(r.Extra) != 0 || r.Median != 0 {
			t.Fatalf("one missing word: matched %d missing %v extra %v median %g", r.Matched, r.Missing, r.Extra, r.Median)
		}
		if want := 599.0 / 600; math.Abs(r.Within-want) > 1e-9 {
			t.Errorf("within %g, want %g: the missing word counts against it and no other word", r.Within, want)
		}
	})
	t.Run("extra word", func(t *testing.T) {
		got := clone(ref)
		ws := got.Pages[0].Words
		extra := Word{Text: "intruder", XMin: 10, YMin: 10, XMax: 20, YMax: 20}
		got.Pages[0].Words = append(append(ws[:10:10], extra), ws[10:]...)
		r := cmp(got)
		if r.Matched != 600 || len(r.Extra) != 1 || r.Median != 0 || r.Within != 600.0/601 {
			t.Errorf("one extra word: matched %d extra %v median %g within %g", r.Matched, r.Extra, r.Median, r.Within)
		}
	})
	t.Run("blocks in the other order", func(t *testing.T) {
		got := clone(ref)
		ws := got.Pages[2].Words
		// pdftotext may read two side-by-side blocks in either order.
		got.Pages[2].Words = append(append(append([]Word(nil), ws[100:150]...), ws[:100]...), ws[150:]...)
		r := cmp(got)
		if r.Matched != 600 || r.Median != 0 || r.Within != 1 {
			t.Errorf("reordered blocks: matched %d median %g within %g", r.Matched, r.Median, r.Within)
		}
	})
	t.Run("word on the next page", func(t *testing.T) {
		got := clone(ref)
		last := got.Pages[0].Words[199]
		got.Pages[0].Words = got.Pages[0].Words[:199]
		got.Pages[1].Words = append([]Word{last}, got.Pages[1].Words...)
		r := cmp(got)
		if r.Matched != 600 || r.Within != 599.0/600 || len(r.Worst) == 0 || r.Worst[0].Text != "w0.199" {
			t.Errorf("a word moved to the next page: matched %d within %g worst %v", r.Matched, r.Within, r.Worst)
		}
	})
	t.Run("extra page", func(t *testing.T) {
		got := clone(ref)
		got.Pages = append(got.Pages, Page{Width: 594.96, Height: 841.92, Words: []Word{{Text: "overflow", XMin: 50, YMin: 50, XMax: 90, YMax: 60}}})
		r := cmp(got)
		if r.GotPages != 4 || len(bar.Failures(r)) == 0 {
			t.Errorf("an extra page: %d pages, failures %v", r.GotPages, bar.Failures(r))
		}
	})
	t.Run("page size", func(t *testing.T) {
		got := clone(ref)
		got.Pages[1].Width = 595.28
		r := cmp(got)
		if len(r.SizeDiffs) != 1 || r.SizeDiffs[0].Page != 1 || len(bar.Failures(r)) != 1 {
			t.Errorf("a page of another size: %v, failures %v", r.SizeDiffs, bar.Failures(r))
		}
	})
	t.Run("nothing", func(t *testing.T) {
		r := cmp(&Analysis{Pages: []Page{{Width: 594.96, Height: 841.92}, {Width: 594.96, Height: 841.92}, {Width: 594.96, Height: 841.92}}})
		if !math.IsInf(r.Median, 1) || r.Within != 0 {
			t.Errorf("no words at all: median %g within %g", r.Median, r.Within)
		}
	})
	t.Run("too different to diff", func(t *testing.T) {
		got := clone(ref)
		for _, p := range got.Pages {
			for i := range p.Words {
				p.Words[i].Text = "x" + p.Words[i].Text
			}
		}
		r := cmp(got)
		if r.Matched != 0 || r.Within != 0 {
			t.Errorf("every word different: matched %d within %g", r.Matched, r.Within)
		}
	})
}

// TestRightToLeftWordsMatchInEitherOrder checks that a right-to-left word
// read back to front, and a number whose comma moved beside it, still pair
// with the reference's, while left-to-right words must match exactly.
func TestRightToLeftWordsMatchInEitherOrder(t *testing.T) {
	page := func(texts ...string) Page {
		p := Page{Width: 100, Height: 100}
		for i, s := range texts {
			p.Words = append(p.Words, Word{Text: s, XMin: float64(10 * i), YMin: 10, XMax: float64(10*i + 8), YMax: 20})
		}
		return p
	}
	ref := &Analysis{Pages: []Page{page("תינובשח", ",45", "ABC"), page("1,234", "total")}}
	got := &Analysis{Pages: []Page{page("חשבונית", "45,", "ABC"), page("1,243", "total")}}
	r := Compare(ref, got, 2, 0.1)
	if r.Matched != 4 || len(r.Missing) != 1 || !strings.Contains(r.Missing[0], "1,234") {
		t.Errorf("matched %d, missing %v: want the Hebrew word and the number beside it matched, and 1,234 ≠ 1,243 on a left-to-right page", r.Matched, r.Missing)
	}
}

// TestLetterSpacedWordsCutDifferently: pdftotext may cut a letter-spaced
// word into pieces in one document and not in the other; the pieces that
// spell the word on its line are measured as one word, where they are
// printed, and pieces elsewhere or spelling something else are not.
func TestLetterSpacedWordsCutDifferently(t *testing.T) {
	word := func(text string, x0, x1, y float64) Word {
		return Word{Text: text, XMin: x0, YMin: y, XMax: x1, YMax: y + 10}
	}
	ref := &Analysis{Pages: []Page{{Width: 100, Height: 100, Words: []Word{
		word("NORTHQUAY", 10, 90, 10), word("ENGINEERING", 10, 90, 30), word("after", 10, 30, 50)}}}}
	got := &Analysis{Pages: []Page{{Width: 100, Height: 100, Words: []Word{
		word("NO", 10, 25, 10), word("RT", 27, 40, 10), word("HQUAY", 42, 90, 10),
		word("E", 10, 16, 30), word("NGINEERING", 20, 95, 30), word("after", 10, 30, 50)}}}}
	r := Compare(ref, got, 2, 0.1)
	if r.Matched != 3 || r.RefWords != 3 || r.GotWords != 3 {
		t.Fatalf("matched %d of %d (got %d words): want the split words joined", r.Matched, r.RefWords, r.GotWords)
	}
	if r.Within != 2.0/3 {
		t.Errorf("within %g: ENGINEERING's pieces end 5 pt to the right, want 2 of 3 within 2 pt", r.Within)
	}
	// The other way round, and pieces on another line are not joined.
	r = Compare(got, ref, 2, 0.1)
	if r.Matched != 3 {
		t.Errorf("joined in the reference: matched %d, want 3", r.Matched)
	}
	// Cut in both, at different letters.
	both := &Analysis{Pages: []Page{{Width: 100, Height: 100, Words: []Word{word("COUN", 10, 50, 10), word("T", 52, 60, 10)}}}}
	both2 := &Analysis{Pages: []Page{{Width: 100, Height: 100, Words: []Word{word("CO", 10, 30, 10), word("UNT", 32, 60, 10)}}}}
	if r := Compare(both, both2, 2, 0.1); r.Matched != 1 || r.Within != 1 {
		t.Errorf("cut in both: matched %d within %g, want one word in place", r.Matched, r.Within)
	}
	apart := clone(got)
	apart.Pages[0].Words[1].YMin, apart.Pages[0].Words[1].YMax = 60, 70
	if r := Compare(ref, apart, 2, 0.1); r.Matched != 2 {
		t.Errorf("pieces on two lines: matched %d, want 2", r.Matched)
	}
}

// TestMyersIsALongestCommonSubsequence checks the diff against the
// quadratic dynamic programme on word lists with repeats.
func TestMyersIsALongestCommonSubsequence(t *testing.T) {
	seqs := []string{"", "a", "abc", "abcabba", "cbabac", "aaaa", "xyz", "the cat sat on the mat", "mat the on sat cat the"}
	words := func(s string) []flatWord {
		var out []flatWord
		for _, r := range s {
			out = append(out, flatWord{key: string(r), Word: Word{Text: string(r)}})
		}
		return out
	}
	for _, x := range seqs {
		for _, y := range seqs {
			a, b := words(x), words(y)
			pairs := myers(a, b)
			if want := lcsLen(x, y); len(pairs) != want {
				t.Errorf("%q %q: %d pairs, want %d", x, y, len(pairs), want)
			}
			for i, p := range pairs {
				if a[p[0]].Text != b[p[1]].Text || (i > 0 && (p[0] <= pairs[i-1][0] || p[1] <= pairs[i-1][1])) {
					t.Fatalf("%q %q: pairs %v are not an increasing match", x, y, pairs)
				}
			}
		}
	}
}

func lcsLen(x, y string) int {
	a, b := []rune(x), []rune(y)
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				dp[i][j] = dp[i-1][j-1] + 1
			} else {
				dp[i][j] = max(dp[i-1][j], dp[i][j-1])
			}
		}
	}
	return dp[len(a)][len(b)]
}

// TestPixelDiff checks the pixel measure on drawn glyph-like bars: the
// same image and a sub-pixel antialiased shift do not count; a missing
// bar, a moved one and a bar on a blank page do.
func TestPixelDiff(t *testing.T) {
	// bar draws an antialiased vertical bar from x0 to x1 (fractions
	// allowed) and rows 10 to 30.
	bar := func(img *image.Gray, x0, x1 float64) {
		for y := 10; y < 30; y++ {
			for x := 0; x < img.Rect.Dx(); x++ {
				cover := math.Max(0, math.Min(float64(x+1), x1)-math.Max(float64(x), x0))
				v := float64(img.Pix[y*img.Stride+x]) * (1 - cover)
				img.Pix[y*img.Stride+x] = uint8(math.Round(v))
			}
		}
	}
	page := func(bars ...[2]float64) *image.Gray {
		img := image.NewGray(image.Rect(0, 0, 60, 40))
		for i := range img.Pix {
			img.Pix[i] = 255
		}
		for _, b := range bars {
			bar(img, b[0], b[1])
		}
		return img
	}
	ref := page([2]float64{10, 12.5}, [2]float64{20, 21}, [2]float64{40, 43})
	for _, c := range []struct {
		name string
		got  *image.Gray
		diff bool
	}{
		{"same", page([2]float64{10, 12.5}, [2]float64{20, 21}, [2]float64{40, 43}), false},
		{"shifted 0.4 px", page([2]float64{10.4, 12.9}, [2]float64{20.4, 21.4}, [2]float64{40.4, 43.4}), false},
		{"shifted 0.7 px", page([2]float64{10.7, 13.2}, [2]float64{20.7, 21.7}, [2]float64{40.7, 43.7}), false},
		{"a bar missing", page([2]float64{10, 12.5}, [2]float64{40, 43}), true},
		{"a bar moved 3 px", page([2]float64{10, 12.5}, [2]float64{23, 24}, [2]float64{40, 43}), true},
		{"a bar wider", page([2]float64{10, 12.5}, [2]float64{20, 21}, [2]float64{40, 46}), true},
	} {
		share, mask := PixelDiff(ref, c.got, GrayTolerance, true)
		n := 0
		for _, m := range mask.Pix {
			if m != 0 {
				n++
			}
		}
		if (share > 0) != c.diff || (n > 0) != c.diff {
			t.Errorf("%s: share %.3f, %d pixels marked; want a difference: %v", c.name, share, n, c.diff)
		}
	}
	blank := page()
	if share, _ := PixelDiff(blank, page(), GrayTolerance, false); share != 0 {
		t.Errorf("two blank pages differ by %g", share)
	}
	if share, _ := PixelDiff(blank, ref, GrayTolerance, false); share != 1 {
		t.Errorf("ink on a blank page: share %g, want 1", share)
	}
	small := image.NewGray(image.Rect(0, 0, 30, 40))
	for i := range small.Pix {
		small.Pix[i] = 255
	}
	if share, _ := PixelDiff(ref, small, GrayTolerance, false); share == 0 {
		t.Error("a page cut short hides the ink beyond it")
	}
}

func TestParsePGM(t *testing.T) {
	img, err := parsePGM(append([]byte("P5\n3 2\n255\n"), 0, 1, 2, 3, 4, 5))
	if err != nil || img.Rect.Dx() != 3 || img.Rect.Dy() != 2 || img.Pix[5] != 5 {
		t.Fatalf("parsePGM: %v %v", img, err)
	}
	for _, bad := range []string{"", "P6\n1 1\n255\n\x00\x00\x00", "P5\n3 2\n255\n\x00", "P5\n0 2\n255\n", "P5\n1 1\n65535\n\x00\x00"} {
		if _, err := parsePGM([]byte(bad)); err == nil {
			t.Errorf("parsePGM(%q) accepted", bad)
		}
	}
}

// BenchmarkPixelDiff measures one A4 page at 72 dpi, the unit of a
// document's pixel comparison.
func BenchmarkPixelDiff(b *testing.B) {
	a := image.NewGray(image.Rect(0, 0, 595, 842))
	c := image.NewGray(image.Rect(0, 0, 595, 842))
	for i := range a.Pix {
		a.Pix[i] = uint8(255 - (i*7)%64)
		c.Pix[i] = uint8(255 - (i*5)%64)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		PixelDiff(a, c, GrayTolerance, false)
	}
}
