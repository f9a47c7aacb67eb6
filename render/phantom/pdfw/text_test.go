package pdfw

import (
	"bytes"
	"compress/zlib"
	"io"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/platen/platen/render/phantom/draw"
)

// expectedWords splits a run at its space glyphs into words with the box
// pdftotext should report: from the first glyph's origin to the last
// glyph's origin plus its width in the font, in points.
func expectedWords(t *testing.T, op draw.Text) []word {
	t.Helper()
	fi, err := loadFont(op.Font)
	if err != nil {
		t.Fatal(err)
	}
	s := fi.sfnt
	upem := float64(s.Head.UnitsPerEm)
	var ws []word
	var cur *word
	pen := 0.0
	for _, g := range op.Glyphs {
		x := (op.X + pen + g.XOffset) * pxToPt
		if g.Text == " " {
			cur = nil
		} else {
			if cur == nil {
				ws = append(ws, word{xMin: x})
				cur = &ws[len(ws)-1]
			}
			cur.text += g.Text
			cur.xMax = x + float64(s.GlyphAdvance(g.ID))/upem*op.Size*pxToPt
		}
		pen += g.Advance
	}
	return ws
}

// TestTextLandsWhereLayoutPutIt checks with pdftotext -bbox that every word
// starts and ends where the glyph positions say, within 0.1 pt, for plain,
// kerned, letter-spaced and justified runs, in TrueType and CFF fonts, with
// fake bold and fake italic.
func TestTextLandsWhereLayoutPutIt(t *testing.T) {
	sans := loadFace(t, liberationSans, 0)
	serif := loadFace(t, liberationSerf, 0)
	dejavu := loadFace(t, dejaVuSans, 0)
	nimbus := loadFace(t, nimbusSans, 0)
	roman := loadFace(t, nimbusRoman, 0)
	lm := loadFace(t, lmRoman, 0)

	spaced := sans.textOp(14, 40, 300, "Letter spaced words")
	for i := range spaced.Glyphs {
		spaced.Glyphs[i].Advance += 2.5
	}
	justified := serif.textOp(12, 40, 340, "a justified line of text")
	for i := range justified.Glyphs {
		if justified.Glyphs[i].Text == " " {
			justified.Glyphs[i].Advance += 13.37
		}
	}
	bold := sans.textOp(18, 40, 380, "Fake bold heading")
	bold.FakeBold = 0.6
	italic := roman.textOp(18, 40, 420, "Fake italic words")
	italic.FakeItalic = true
	runs := []draw.Text{
		sans.textOp(16, 40, 60, "Invoice number 2024-0042 total €1,234.56"),
		sans.textOp(11, 40, 90, "Effective staff offer: AVA Wave Toffee"), // kerning pairs
		serif.textOp(13.333, 40.25, 120.5, "Serif at fractional size and place"),
		dejavu.textOp(16, 40, 160, "office fluffy"),          // ffi, ffl ligatures
		nimbus.textOp(16, 40, 200, "CFF office Nimbus Sans"), // CFF, ffi ligature
		roman.textOp(22, 40, 250, "Roman type at twenty-two"),
		lm.textOp(15, 40, 276, "Latin Modern: efficient"),
		spaced, justified, bold, italic,
	}
	page := &draw.Page{Width: a4W, Height: a4H}
	for _, r := range runs {
		page.Ops = append(page.Ops, r)
	}
	path, pdf := writePDF(t, &draw.Document{Pages: []*draw.Page{page}}, Options{})
	validate(t, pdf)

	got := words(t, path)
	var want []word
	for _, r := range runs {
		want = append(want, expectedWords(t, r)...)
	}
	if len(got) != len(want) {
		t.Fatalf("pdftotext found %d words, want %d:\n%v\n%v", len(got), len(want), got, want)
	}
	for i, w := range want {
		g := got[i]
		if g.text != w.text {
			t.Errorf("word %d: %q, want %q", i, g.text, w.text)
		}
		if math.Abs(g.xMin-w.xMin) > 0.1 || math.Abs(g.xMax-w.xMax) > 0.1 {
			t.Errorf("word %q: x %.3f..%.3f, want %.3f..%.3f", w.text, g.xMin, g.xMax, w.xMin, w.xMax)
		}
	}
	// Baselines: pdftotext's box bottom is the baseline plus the descent
	// (for a skewed run it scales the descent by the slanted axis' length,
	// so those are left out).
	k := 0
	for _, r := range runs {
		if r.FakeItalic {
			k += len(expectedWords(t, r))
			continue
		}
		fi, err := loadFont(r.Font)
		if err != nil {
			t.Fatal(err)
		}
		desc := fi.descent / 1000 * r.Size * pxToPt
		if r.FakeBold > 0 {
			// A Type 3 font (type3.go): poppler's default descent, at the
			// size scaled by .notdef's width over 0.5.
			desc = -0.35 * r.Size * pxToPt * fi.width(0) / 1000 / 0.5
		}
		for range expectedWords(t, r) {
			base := got[k].yMax + desc
			if math.Abs(base-r.Y*pxToPt) > 0.1 {
				t.Errorf("word %q: baseline %.3f, want %.3f", got[k].text, base, r.Y*pxToPt)
			}
			k++
		}
	}
}

// TestGlyphOffsets moves single glyphs with XOffset and YOffset: a glyph
// alone between spaces is a word of its own, whose box shows the move.
func TestGlyphOffsets(t *testing.T) {
	sans := loadFace(t, liberationSans, 0)
	op := sans.textOp(20, 50, 100, "a b c")
	op.Glyphs[2].XOffset = 6  // b right by 6 px
	op.Glyphs[4].YOffset = -8 // c up by 8 px
	plain := sans.textOp(20, 50, 100, "a b c")
	italic := op
	italic.Y = 200
	italic.FakeItalic = true
	italic.Glyphs = append([]draw.Glyph(nil), op.Glyphs...)
	path, _ := writePDF(t, &draw.Document{Pages: []*draw.Page{{Width: a4W, Height: a4H, Ops: []draw.Op{op, italic}}}}, Options{})
	got := words(t, path)
	want := expectedWords(t, plain)
	if len(got) != 6 {
		t.Fatalf("words %v", got)
	}
	for _, g := range [][]word{got[:3], got[3:]} {
		if d := g[1].xMin - want[1].xMin; math.Abs(d-6*pxToPt) > 0.1 {
			t.Errorf("b moved by %.3f pt, want %.3f", d, 6*pxToPt)
		}
		if d := g[2].xMin - want[2].xMin; math.Abs(d) > 0.1 {
			t.Errorf("c moved sideways by %.3f pt, want 0", d)
		}
		if d := g[2].yMax - g[0].yMax; math.Abs(d+8*pxToPt) > 0.1 {
			t.Errorf("c moved down by %.3f pt, want %.3f", d, -8*pxToPt)
		}
		if d := g[0].xMin - want[0].xMin; math.Abs(d) > 0.1 {
			t.Errorf("a moved by %.3f pt", d)
		}
	}
}

// TestTextIsSearchable checks the ToUnicode maps: ligatures give back their
// letters, right-to-left runs given in visual order read in logical order,
// and astral characters survive.
func TestTextIsSearchable(t *testing.T) {
	dejavu := loadFace(t, dejaVuSans, 0)
	nimbus := loadFace(t, nimbusSans, 0)
	lig := dejavu.shape(16, "office fluffy fi", false)
	if len(lig) >= len([]rune("office fluffy fi")) {
		t.Fatalf("DejaVu Sans formed no ligature: %d glyphs", len(lig))
	}
	hebrew := draw.Text{Font: dejavu.font, Size: 16, X: 40, Y: 100, Glyphs: dejavu.shape(16, "שלום עולם", true), Color: black}
	arabic := draw.Text{Font: dejavu.font, Size: 16, X: 40, Y: 140, Glyphs: dejavu.shape(16, "مرحبا بالعالم", true), Color: black}
	ops := []draw.Op{
		draw.Text{Font: dejavu.font, Size: 16, X: 40, Y: 60, Glyphs: lig, Color: black},
		hebrew, arabic,
		nimbus.textOp(16, 40, 180, "CFF ffi office"),
	}
	path, _ := writePDF(t, &draw.Document{Pages: []*draw.Page{{Width: a4W, Height: a4H, Ops: ops}}}, Options{})
	text := run(t, "pdftotext", path, "-")
	for _, want := range []string{"office fluffy fi", "שלום עולם", "مرحبا بالعالم", "CFF ffi office"} {
		if !strings.Contains(text, want) {
			t.Errorf("pdftotext lacks %q:\n%s", want, text)
		}
	}
}

// TestActualText checks that a glyph showing other text than its ToUnicode
// entry extracts as its own text, as Chromium's does: a synthesised small
// capital (the capital's glyph showing a lower-case letter), and soft
// hyphens and zero-width spaces shaped to the space glyph with no advance,
// which must neither split their word nor let pdftotext reorder it, even
// when the hyphen shown at a line's end is a run of its own.
func TestActualText(t *testing.T) {
	sans := loadFace(t, liberationSans, 0)
	serif := loadFace(t, liberationSerf, 0)
	small := sans.textOp(10, 40, 60, "AB")
	small.Glyphs[0].Text = "a" // small caps: the glyph of A shows a
	// The advances layout gives Liberation Serif at 14.66 px (a little
	// short of the font's widths), a soft hyphen's being 0: set by TJ
	// numbers rounded as they are, the "l" after "o" and a soft hyphen
	// lands 0.1 thousandths of an em left of the hyphen, and pdftotext
	// splits the word there.
	adv := map[string]float64{"a": 6.5051422119140625, "n": 7.328125, "d": 7.328125, " ": 3.6640625,
		"c": 6.5051422119140625, "o": 7.328125, "u": 7.328125, "t": 4.0719757080078125, "e": 6.5051422119140625,
		"r": 4.880645751953125, "v": 7.328125, "l": 4.0719757080078125, "i": 4.0719757080078125, "k": 7.328125}
	word := serif.textOp(float64(float32(14.66)), 76, 106, "and coun\u00adter\u00adrev\u00ado\u00adlu\u00adtion ok")
	for i, g := range word.Glyphs {
		word.Glyphs[i].Advance = adv[g.Text]
	}
	zwsp := sans.textOp(14.66, 40, 140, "Long\u200bidentifiers\u200bwith")
	broken := sans.textOp(14.66, 40, 180, "incom\u00adpre\u00ad")
	hyphen := sans.textOp(14.66, 40+width(broken.Glyphs), 180, "\u2010")
	for _, g := range append(word.Glyphs, zwsp.Glyphs...) {
		if (g.Text == "\u00ad" || g.Text == "\u200b") && (g.Advance != 0 || g.ID != word.Glyphs[3].ID) {
			t.Fatalf("%q shaped to glyph %d advancing %g, want the space glyph %d with none", g.Text, g.ID, g.Advance, word.Glyphs[3].ID)
		}
	}
	ops := []draw.Op{small, sans.textOp(10, 40, 80, "A"), word, zwsp, broken, hyphen}
	path, pdf := writePDF(t, &draw.Document{Pages: []*draw.Page{{Width: a4W, Height: a4H, Ops: ops}}}, Options{NoObjectStreams: true, Compression: 1})
	got := words(t, path)
	var texts []string
	for _, w := range got {
		texts = append(texts, w.text)
	}
	want := []string{"aB", "A", "and", "coun\u00adter\u00adrev\u00ado\u00adlu\u00adtion", "ok",
		"Long\u200bidentifiers\u200bwith", "incom\u00adpre\u00ad\u2010"}
	if strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Fatalf("words %q,\nwant %q", texts, want)
	}
	exp := expectedWords(t, word)
	if g := got[3]; math.Abs(g.xMin-exp[1].xMin) > 0.1 || math.Abs(g.xMax-exp[1].xMax) > 0.1 {
		t.Errorf("hyphenated word at %.3f..%.3f, want %.3f..%.3f", g.xMin, g.xMax, exp[1].xMin, exp[1].xMax)
	}
	// The lowest code point a glyph shows is its ToUnicode text, the rest
	// are spans: the serif space glyph is U+0020 and its 5 soft hyphens
	// spans; the sans one, showing no space, is U+00AD and its 2 zero-width
	// spaces spans; and the small capital a.
	if n := strings.Count(inflateAll(t, pdf), "/ActualText"); n != 8 {
		t.Errorf("%d ActualText spans, want 8", n)
	}
}

// TestFontsAreEmbeddedSubsets checks pdffonts: every font a Type0 subset
// with Identity-H and ToUnicode, TrueType as CIDFontType2, CFF as Type 0C.
func TestFontsAreEmbeddedSubsets(t *testing.T) {
	sans := loadFace(t, liberationSans, 0)
	bold := loadFace(t, liberationBold, 0)
	nimbus := loadFace(t, nimbusSans, 0)
	path, _ := writePDF(t, &draw.Document{Pages: []*draw.Page{
		{Width: a4W, Height: a4H, Ops: []draw.Op{sans.textOp(12, 10, 20, "Hello"), nimbus.textOp(12, 10, 40, "CFF")}},
		{Width: a4W, Height: a4H, Ops: []draw.Op{bold.textOp(12, 10, 20, "Bold"), sans.textOp(12, 10, 40, "again")}},
	}}, Options{})
	out := run(t, "pdffonts", path)
	line := regexp.MustCompile(`(?m)^([A-Z]{6})\+(\S+)\s+(CID TrueType|CID Type 0C)\s+Identity-H\s+yes yes yes\s`)
	found := map[string]string{}
	for _, m := range line.FindAllStringSubmatch(out, -1) {
		found[m[2]] = m[3]
	}
	want := map[string]string{
		"LiberationSans-Regular":        "CID TrueType",
		"LiberationSans-Bold":           "CID TrueType",
		"NimbusSans-Regular-Identity-H": "CID Type 0C", // named as 9.7.6.1 says
	}
	if len(found) != len(want) || strings.Count(out, "\n") != 2+len(want) {
		t.Fatalf("pdffonts:\n%s", out)
	}
	for k, v := range want {
		if found[k] != v {
			t.Errorf("%s: %q, want %q\n%s", k, found[k], v, out)
		}
	}
}

// TestToUnicodeRanges checks the CMap's ranges and single mappings.
func TestToUnicodeRanges(t *testing.T) {
	texts := []string{"", "0", "1", "2", "3", "fi", "A", "", "C", "D", "\U0001F600", "x", "y"}
	got := string(appendToUnicode(nil, texts))
	body := got[len(toUnicodeHead) : len(got)-len(toUnicodeTail)]
	want := "3 beginbfchar\n<0005><00660069>\n<0006><0041>\n<000A><D83DDE00>\nendbfchar\n" +
		"3 beginbfrange\n<0001><0004><0030>\n<0008><0009><0043>\n<000B><000C><0078>\nendbfrange\n"
	if body != want {
		t.Errorf("CMap body:\n%s\nwant:\n%s", body, want)
	}
	// A range stops where the low byte of the code would wrap.
	long := make([]string, 300)
	for i := 1; i < len(long); i++ {
		long[i] = string(rune(0x4e00 + i))
	}
	got = string(appendToUnicode(nil, long))
	if !strings.Contains(got, "<0001><00FF><4E01>") || !strings.Contains(got, "<0100><012B><4F00>") {
		t.Errorf("ranges across a high byte:\n%s", got)
	}
}

// inflateAll is every stream of a PDF, inflated, one after another.
func inflateAll(t *testing.T, pdf []byte) string {
	t.Helper()
	var out strings.Builder
	for rest := pdf; ; {
		i := bytes.Index(rest, []byte("stream\n"))
		if i < 0 {
			return out.String()
		}
		end := i >= 3 && string(rest[i-3:i]) == "end"
		rest = rest[i+len("stream\n"):]
		if end {
			continue
		}
		r, err := zlib.NewReader(bytes.NewReader(rest))
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		out.Write(b)
	}
}

// TestClippedGlyphsAreLeftOut checks that a glyph wholly outside the clip
// is not written, as Skia leaves it out: pdftotext then reads what
// Chromium's PDF gives for the same boxes (two 100 × 50 px overflow:
// hidden boxes of 20 px Arial, measured with Chromium 156): a line cut at
// the right edge keeps the w its clip reaches, and of a line cut by the
// bottom edge only the glyphs rising into the box remain: f, i and the dot
// of an i, not the x-height letters between them.
func TestClippedGlyphsAreLeftOut(t *testing.T) {
	sans := loadFace(t, liberationSans, 0)
	clip := func(x, y, w, h float64) draw.Op { return draw.PushClip{Path: rect(x, y, w, h)} }
	ops := []draw.Op{
		clip(1, 1, 100, 50), sans.textOp(20, 1, 19, "Hello child world far away"), draw.PopClip{},
		clip(1, 53, 100, 50),
		sans.textOp(20, 1, 71, "one two"), sans.textOp(20, 1, 94, "three four"), sans.textOp(20, 1, 117, "five six seven"),
		draw.PopClip{},
	}
	path, _ := writePDF(t, &draw.Document{Pages: []*draw.Page{{Width: a4W, Height: a4H, Ops: ops}}}, Options{})
	var texts []string
	for _, w := range words(t, path) {
		texts = append(texts, w.text)
	}
	if got, want := strings.Join(texts, " "), "Hello child w one two three four fi i"; got != want {
		t.Errorf("words %q, want %q", got, want)
	}
}
