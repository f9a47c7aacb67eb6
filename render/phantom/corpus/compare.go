package corpus

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/platen/platen/internal/lcs"
)

// Bar is what a candidate's PDF must meet against the reference's.
type Bar struct {
	// MaxMedianPt bounds the median word displacement, in points.
	MaxMedianPt float64
	// WithinPt and MinWithin: at least MinWithin of the words are displaced
	// by at most WithinPt points.
	WithinPt, MinWithin float64
	// MaxPixelShare bounds a page's differing pixels as a share of its ink.
	MaxPixelShare float64
	// PageSizeTolerancePt is how far page sizes may differ, in points.
	PageSizeTolerancePt float64
}

// DefaultBar returns the bar (median ≤ 0.5 pt, ≥ 98 % of words
// within 2 pt, the same pages) with the pixel threshold measured for it.
//
// Page sizes: Chromium writes its sizes with two decimals of a point after
// rounding to whole CSS pixels (A4 is 594.96 × 841.92 pt); 0.1 pt accepts
// only the writing of the same number, not a page of another size.
//
// MaxPixelShare is 1 % of the ink, measured on Chromium renders of 15 corpus
// documents against the same documents changed (TestComparisonOnPerturbedRenders
// keeps a dozen of these as a test):
//
//   - unchanged: 0 on every page;
//   - every glyph, rule and image moved by 0.25 or 0.5 px, which the word bar
//     accepts and no reader sees: 0 to 0.6 % (0.58 % on images resampled
//     half a pixel away, 0.29 % on the borders document, 0.00 % on text);
//   - what a reader sees side by side: a 28-px logo missing 1.05 %, a
//     hairline rule missing 1.4 %, one table rule a pixel heavier 1.0 to
//     1.8 %, body text #222 turned #777 0.35 to 27 %, letter-spacing 0.1 px
//     0.3 to 68 %, a missing image 3 to 84 %, borders missing 0.8 to 64 %,
//     backgrounds missing 11 to 85 %, another face 3.7 to 96 %, bold 3.3 to
//     94 %, everything moved 3 px 14 to 53 %.
//
// 1 % sits above everything sub-pixel and below nearly everything visible;
// what it misses (a faint colour change on a text page) the words do not
// measure either, and is left to the report's side-by-side images.
func DefaultBar() Bar {
	return Bar{MaxMedianPt: 0.5, WithinPt: 2, MinWithin: 0.98, MaxPixelShare: MaxPixelShare, PageSizeTolerancePt: 0.1}
}

// MaxPixelShare is DefaultBar's pixel threshold; see DefaultBar for the measurements.
const MaxPixelShare = 0.01

// Result is the comparison of a candidate's PDF with a reference's.
type Result struct {
	// RefPages and GotPages are the page counts.
	RefPages, GotPages int
	// SizeDiffs lists the pages (0-based) both have whose sizes differ by
	// more than the tolerance Compare was given.
	SizeDiffs []SizeDiff

	// RefWords and GotWords count the words; Matched those paired.
	RefWords, GotWords, Matched int
	// Missing are reference words without a match, Extra candidate words
	// without one (at most a few of each kept, for the report).
	Missing, Extra []string
	// Median is the median displacement in points over max(RefWords,
	// GotWords) words, an unmatched word counting as +Inf; 0 with no words.
	Median float64
	// Within is the share of those words displaced by at most WithinPt.
	Within float64
	// WithinPt is the distance Within was counted at.
	WithinPt float64
	// Offset is the median signed difference (candidate − reference) of
	// each edge of the matched words on the same page, xMin, yMin, xMax,
	// yMax in points: a systematic shift shows here.
	Offset [4]float64
	// Worst are the matched words displaced the most, largest first (at
	// most five; +Inf for a word set on another page).
	Worst []WordDiff

	// Pixel is each page's differing pixels as a share of its ink, for the
	// pages both PDFs have and render; PixelMax the largest, on PixelPage.
	Pixel     []float64
	PixelMax  float64
	PixelPage int
}

// SizeDiff is a page whose size differs.
type SizeDiff struct {
	Page                   int
	RefW, RefH, GotW, GotH float64
}

// WordDiff is one matched word and how far it moved.
type WordDiff struct {
	Text      string
	Page      int // reference page, 0-based
	Ref, Got  Word
	GotPage   int
	Displaced float64 // points; +Inf on another page
}

// Compare matches got against ref: pages, words (when both have words) and,
// when both analyses hold renders, pixels. withinPt is the distance Within
// counts at and sizeTolPt the page size tolerance (DefaultBar's are 2 and 0.1).
func Compare(ref, got *Analysis, withinPt, sizeTolPt float64) *Result {
	r := &Result{RefPages: len(ref.Pages), GotPages: len(got.Pages), WithinPt: withinPt, PixelPage: -1}
	for i := 0; i < len(ref.Pages) && i < len(got.Pages); i++ {
		a, b := ref.Pages[i], got.Pages[i]
		if math.Abs(a.Width-b.Width) > sizeTolPt || math.Abs(a.Height-b.Height) > sizeTolPt {
			r.SizeDiffs = append(r.SizeDiffs, SizeDiff{Page: i, RefW: a.Width, RefH: a.Height, GotW: b.Width, GotH: b.Height})
		}
	}
	r.compareWords(ref, got)
	for i := 0; i < len(ref.Pages) && i < len(got.Pages); i++ {
		a, b := ref.Pages[i].Gray, got.Pages[i].Gray
		if a == nil || b == nil {
			break
		}
		share, _ := PixelDiff(a, b, GrayTolerance, false)
		r.Pixel = append(r.Pixel, share)
		if r.PixelPage < 0 || share > r.PixelMax {
			r.PixelMax, r.PixelPage = share, i
		}
	}
	return r
}

// Failures lists how r misses the bar, empty when it meets it.
func (b Bar) Failures(r *Result) []string {
	var out []string
	if r.RefPages != r.GotPages {
		out = append(out, fmt.Sprintf("%d pages, want %d", r.GotPages, r.RefPages))
	}
	for _, s := range r.SizeDiffs {
		out = append(out, fmt.Sprintf("page %d is %.2f×%.2f pt, want %.2f×%.2f", s.Page+1, s.GotW, s.GotH, s.RefW, s.RefH))
	}
	if r.Median > b.MaxMedianPt {
		out = append(out, fmt.Sprintf("median word displacement %.3f pt, want ≤ %g", r.Median, b.MaxMedianPt))
	}
	if r.Within < b.MinWithin {
		out = append(out, fmt.Sprintf("%.1f %% of words within %g pt, want ≥ %g %% (%d of %d reference words matched, %d extra)",
			100*r.Within, r.WithinPt, 100*b.MinWithin, r.Matched, r.RefWords, r.GotWords-r.Matched))
	}
	if r.PixelMax > b.MaxPixelShare {
		out = append(out, fmt.Sprintf("page %d: %.2f %% of the ink differs, want ≤ %g %%", r.PixelPage+1, 100*r.PixelMax, 100*b.MaxPixelShare))
	}
	return out
}

// flatWord is a word with its page, in document order, and the key it is
// matched by.
type flatWord struct {
	page int
	key  string
	Word
}

// flatten lists a's words in order with their keys. A word's key is its
// text, except in right-to-left text: Chromium writes right-to-left runs in
// visual order and pdftotext reads their letters back to front ("תינובשח"
// for "חשבונית", ",45" for "45," beside Hebrew), while another writer may
// give the logical order. Which of the two pdftotext reads says nothing
// about where the word is printed, so there the key is the word's letters
// sorted: for a word with right-to-left letters, and for a word of digits
// and punctuation on a page that has right-to-left letters.
func flatten(a *Analysis) []flatWord {
	out := make([]flatWord, 0, a.Words())
	for i, p := range a.Pages {
		rtlPage := false
		for _, w := range p.Words {
			if hasRTL(w.Text) {
				rtlPage = true
				break
			}
		}
		for _, w := range p.Words {
			key := w.Text
			if hasRTL(w.Text) || (rtlPage && !hasLetter(w.Text)) {
				r := []rune(w.Text)
				sort.Slice(r, func(i, j int) bool { return r[i] < r[j] })
				key = string(r)
			}
			out = append(out, flatWord{i, key, w})
		}
	}
	return out
}

func hasRTL(s string) bool {
	for _, r := range s {
		if r >= 0x0590 && unicode.In(r, unicode.Hebrew, unicode.Arabic, unicode.Syriac, unicode.Thaana, unicode.Nko) {
			return true
		}
	}
	return false
}

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// displacement is the largest difference of the four box edges: how far
// either box must grow to cover the other. Words on different pages are
// infinitely displaced.
func displacement(a, b flatWord) float64 {
	if a.page != b.page {
		return math.Inf(1)
	}
	return max(math.Abs(a.XMin-b.XMin), math.Abs(a.YMin-b.YMin), math.Abs(a.XMax-b.XMax), math.Abs(a.YMax-b.YMax))
}

func (r *Result) compareWords(ref, got *Analysis) {
	a, b := flatten(ref), flatten(got)
	a, b, _ = joinSplitWords(a, b, nil)
	pairs := matchWords(a, b)
	r.RefWords, r.GotWords = len(a), len(b)
	r.Matched = len(pairs)
	n := max(len(a), len(b))
	if n == 0 {
		r.Within = 1
		return
	}
	d := make([]float64, 0, n)
	var edges [4][]float64
	usedA := make([]bool, len(a))
	usedB := make([]bool, len(b))
	for _, p := range pairs {
		wa, wb := a[p[0]], b[p[1]]
		usedA[p[0]], usedB[p[1]] = true, true
		x := displacement(wa, wb)
		d = append(d, x)
		if !math.IsInf(x, 1) {
			edges[0] = append(edges[0], wb.XMin-wa.XMin)
			edges[1] = append(edges[1], wb.YMin-wa.YMin)
			edges[2] = append(edges[2], wb.XMax-wa.XMax)
			edges[3] = append(edges[3], wb.YMax-wa.YMax)
		}
		if x > 0 {
			r.Worst = append(r.Worst, WordDiff{Text: wa.Text, Page: wa.page, Ref: wa.Word, Got: wb.Word, GotPage: wb.page, Displaced: x})
		}
	}
	for i, used := range usedA {
		if !used && len(r.Missing) < 8 {
			r.Missing = append(r.Missing, fmt.Sprintf("%q (page %d)", a[i].Text, a[i].page+1))
		}
	}
	for i, used := range usedB {
		if !used && len(r.Extra) < 8 {
			r.Extra = append(r.Extra, fmt.Sprintf("%q (page %d)", b[i].Text, b[i].page+1))
		}
	}
	for len(d) < n {
		d = append(d, math.Inf(1))
	}
	sort.Float64s(d)
	if n%2 == 1 {
		r.Median = d[n/2]
	} else {
		r.Median = (d[n/2-1] + d[n/2]) / 2
	}
	within := sort.SearchFloat64s(d, math.Nextafter(r.WithinPt, math.Inf(1)))
	r.Within = float64(within) / float64(n)
	for i := range edges {
		r.Offset[i] = median(edges[i])
	}
	sort.SliceStable(r.Worst, func(i, j int) bool { return r.Worst[i].Displaced > r.Worst[j].Displaced })
	if len(r.Worst) > 5 {
		r.Worst = r.Worst[:5]
	}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// maxEdits bounds the diff of the word texts: beyond it the documents are
// too different to pair word by word (over a thousand words changed), and
// the words not yet paired stay unmatched. It bounds the diff's memory to
// about maxEdits² ints.
const maxEdits = 2000

// matchWords pairs the words of a and b: first in order, by a longest common
// subsequence of their texts (Myers' diff, after the common prefix and suffix
// are set aside), so that one missing or extra word does not shift the
// rest; then, on each page, words the order left unpaired with a word of the
// same text and page, nearest first, since pdftotext's reading order may
// take two side-by-side blocks in either order when their positions differ
// a little. It returns index pairs in a's order.
func matchWords(a, b []flatWord) [][2]int {
	var pairs [][2]int
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre].key == b[pre].key {
		pairs = append(pairs, [2]int{pre, pre})
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf].key == b[len(b)-1-suf].key {
		suf++
	}
	mid := myers(a[pre:len(a)-suf], b[pre:len(b)-suf])
	for _, p := range mid {
		pairs = append(pairs, [2]int{pre + p[0], pre + p[1]})
	}
	for i := 0; i < suf; i++ {
		pairs = append(pairs, [2]int{len(a) - suf + i, len(b) - suf + i})
	}
	return append(pairs, nearestSameText(a, b, pairs)...)
}

// myers returns the pairs of a longest common subsequence of a's and b's
// texts (internal/lcs), or none when more than maxEdits edits separate
// them.
func myers(a, b []flatWord) [][2]int {
	return lcs.Myers(len(a), len(b), func(i, j int) bool { return a[i].key == b[j].key }, maxEdits)
}

// maxCandidates bounds the pairs nearestSameText weighs: a page of a
// thousand unpaired "0.00" against another is a million pairs, and such a
// page fails the bar whatever the pairing.
const maxCandidates = 1 << 20

// nearestSameText pairs the words left unpaired that have the same text
// and page, nearest pairs first.
func nearestSameText(a, b []flatWord, pairs [][2]int) [][2]int {
	usedA := make([]bool, len(a))
	usedB := make([]bool, len(b))
	for _, p := range pairs {
		usedA[p[0]], usedB[p[1]] = true, true
	}
	type key struct {
		page int
		text string
	}
	free := map[key][]int{}
	for j, w := range b {
		if !usedB[j] {
			k := key{w.page, w.key}
			free[k] = append(free[k], j)
		}
	}
	type cand struct {
		i, j int
		d    float64
	}
	var cands []cand
	for i, w := range a {
		if usedA[i] {
			continue
		}
		for _, j := range free[key{w.page, w.key}] {
			if len(cands) >= maxCandidates {
				break
			}
			cands = append(cands, cand{i, j, displacement(w, b[j])})
		}
	}
	sort.Slice(cands, func(x, y int) bool {
		if cands[x].d != cands[y].d {
			return cands[x].d < cands[y].d
		}
		return cands[x].i < cands[y].i
	})
	var out [][2]int
	for _, c := range cands {
		if usedA[c.i] || usedB[c.j] {
			continue
		}
		usedA[c.i], usedB[c.j] = true, true
		out = append(out, [2]int{c.i, c.j})
	}
	return out
}

// joinSplitWords joins the runs of words of the two documents that start
// at the same place on a line and spell the same text, where pdftotext cut
// them differently (into one word in one and pieces in the other, or into
// different pieces): letter-spaced text puts a gap of about a tenth of the
// font size between letters, pdftotext's threshold for a word break, and
// glyph positions a few millionths of a point apart fall either side of
// it. Each run becomes one word whose box covers its parts, so the word is
// still measured by where it is printed. Words already paired (pairs) are
// left alone; it returns the words, and pairs with the joined runs paired.
func joinSplitWords(a, b []flatWord, pairs [][2]int) ([]flatWord, []flatWord, [][2]int) {
	usedA := make([]bool, len(a))
	usedB := make([]bool, len(b))
	for _, p := range pairs {
		usedA[p[0]], usedB[p[1]] = true, true
	}
	var joinsA, joinsB [][2]int // [first, end) runs joined into one word
	var extra [][2]int          // pairs of a word and a joined run: {a or -run-1, b or -run-1}
	// For each unpaired word, a run of unpaired words of each document
	// that starts at the same place and spells the same text.
	for i := range a {
		if usedA[i] {
			continue
		}
		for j := range b {
			if usedA[i] {
				break
			}
			if usedB[j] || b[j].page != a[i].page || math.Abs(b[j].XMin-a[i].XMin) > 2 || math.Abs(b[j].YMin-a[i].YMin) > 2 ||
				!strings.HasPrefix(a[i].key, b[j].key) && !strings.HasPrefix(b[j].key, a[i].key) {
				continue
			}
			ia, ib := i+1, j+1
			ta, tb := a[i].key, b[j].key
			ok := true
			next := func(ws []flatWord, used []bool, k, first int, t, other string) (string, bool) {
				if k >= len(ws) || k-first >= maxSplit || used[k] || ws[k].page != ws[first].page || math.Abs(ws[k].YMin-ws[first].YMin) > 1 {
					return "", false
				}
				n := t + ws[k].key
				return n, strings.HasPrefix(other, n) || strings.HasPrefix(n, other)
			}
			for ok && ta != tb {
				if len(ta) < len(tb) {
					ta, ok = next(a, usedA, ia, i, ta, tb)
					ia++
				} else {
					tb, ok = next(b, usedB, ib, j, tb, ta)
					ib++
				}
			}
			if !ok || ia-i == 1 && ib-j == 1 {
				continue
			}
			ref := func(first, end int, used []bool, joins *[][2]int) int {
				for x := first; x < end; x++ {
					used[x] = true
				}
				if end-first == 1 {
					return first
				}
				*joins = append(*joins, [2]int{first, end})
				return -len(*joins)
			}
			extra = append(extra, [2]int{ref(i, ia, usedA, &joinsA), ref(j, ib, usedB, &joinsB)})
		}
	}
	if len(extra) == 0 {
		return a, b, pairs
	}
	// Rebuild each side with the runs joined, and map the old indexes.
	rebuild := func(ws []flatWord, joins [][2]int) ([]flatWord, []int, []int) {
		runAt := map[int]int{}
		for r, jn := range joins {
			runAt[jn[0]] = r
		}
		var out []flatWord
		index := make([]int, len(ws))
		runIndex := make([]int, len(joins))
		for x := 0; x < len(ws); x++ {
			if r, ok := runAt[x]; ok {
				jn := joins[r]
				w := ws[jn[0]]
				w.Text, w.key = "", ""
				for y := jn[0]; y < jn[1]; y++ {
					w.Text += ws[y].Text
					w.key += ws[y].key
					w.XMin, w.YMin = min(w.XMin, ws[y].XMin), min(w.YMin, ws[y].YMin)
					w.XMax, w.YMax = max(w.XMax, ws[y].XMax), max(w.YMax, ws[y].YMax)
					index[y] = -1
				}
				runIndex[r] = len(out)
				out = append(out, w)
				x = jn[1] - 1
				continue
			}
			index[x] = len(out)
			out = append(out, ws[x])
		}
		return out, index, runIndex
	}
	na, ia, ra := rebuild(a, joinsA)
	nb, ib, rb := rebuild(b, joinsB)
	out := make([][2]int, 0, len(pairs)+len(extra))
	for _, p := range pairs {
		out = append(out, [2]int{ia[p[0]], ib[p[1]]})
	}
	for _, e := range extra {
		x, y := e[0], e[1]
		if x < 0 {
			x = ra[-x-1]
		} else {
			x = ia[x]
		}
		if y < 0 {
			y = rb[-y-1]
		} else {
			y = ib[y]
		}
		out = append(out, [2]int{x, y})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return na, nb, out
}

// maxSplit bounds the words joinSplitWords joins into one: a word spelt
// letter by letter.
const maxSplit = 40
