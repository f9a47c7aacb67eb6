package pdftemplate

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"errors"
	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/requests"
	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// pageImage renders page 1 of a PDF with poppler at 72 dpi: one pixel is
// one point, so a piece's box is its pixels.
func pageImage(t *testing.T, pdf []byte) image.Image { return pageImageN(t, pdf, 1) }

// pageImageN renders page n with poppler at 72 dpi.
func pageImageN(t *testing.T, pdf []byte, n int) image.Image {
	t.Helper()
	dir := t.TempDir()
	in := filepath.Join(dir, "in.pdf")
	os.WriteFile(in, pdf, 0o600)
	if out, err := exec.Command("pdftoppm", "-r", "72", "-f", strconv.Itoa(n), "-l", strconv.Itoa(n), "-png", "-singlefile", in, filepath.Join(dir, "page")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v %s", err, out)
	}
	f, err := os.Open(filepath.Join(dir, "page.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	cmd := exec.Command("pdftotext", "-", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}

// TestFillReplacesTheTextAndNothingElse fills two pieces of the invoice and
// checks:
//   - text extraction finds the new values and not the old ones;
//   - the new text is in the original's font family, size and colour;
//   - the page renders pixel for pixel as before outside the two pieces.
func TestFillReplacesTheTextAndNothingElse(t *testing.T) {
	e := testEngine(t)
	orig := readFixture(t, "chromium-invoice.pdf")
	a, err := e.Analyze(orig, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	find := func(text string) Piece {
		for _, p := range a.Pieces {
			if p.Text == text {
				return p
			}
		}
		t.Fatalf("no piece %q", text)
		return Piece{}
	}
	number, amount := find("INV-2026-0142"), find("£12,920.40")
	out, report, err := e.Fill(orig, []Fill{{PieceID: number.ID, Text: "INV-2026-0999"}, {PieceID: amount.ID, Text: "£7,015.00"}}, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if len(report) != 2 || report[0].Size != number.Size || report[0].Lines != 1 {
		t.Fatalf("report %+v", report)
	}

	text := pdfText(t, out)
	if !strings.Contains(text, "INV-2026-0999") || !strings.Contains(text, "£7,015.00") {
		t.Fatalf("new values not in the text:\n%s", text)
	}
	// The number is printed twice on the invoice (heading and payment
	// reference); only the heading was filled.
	if strings.Count(text, "INV-2026-0142") != strings.Count(pdfText(t, orig), "INV-2026-0142")-1 {
		t.Fatalf("the filled number is still in the text:\n%s", text)
	}
	if strings.Count(text, "£12,920.40") != strings.Count(pdfText(t, orig), "£12,920.40")-1 {
		t.Fatalf("the filled amount is still in the text:\n%s", text)
	}

	// The new value, as PDFium's text layer reads it from the output
	// (stamped values are inside a form): the original's size and colour.
	style := textStyle(t, e, out, "INV-2026-0999")
	if !number.Bold {
		t.Fatalf("the invoice number is printed bold; the piece says %+v", number)
	}
	if style.size != number.Size || style.color != number.Color || !strings.Contains(style.font, "LiberationSans-Bold") {
		t.Fatalf("filled value %+v, want size %v colour %s", style, number.Size, number.Color)
	}

	pdfiumBefore, err := e.PageImage(orig, 1, 72, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	pdfiumAfter, err := e.PageImage(out, 1, 72, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct {
		name          string
		before, after image.Image
	}{{"PDFium", pdfiumBefore, pdfiumAfter}, {"poppler", pageImage(t, orig), pageImage(t, out)}} {
		comparePages(t, r.name, r.before, r.after, number, amount)
	}
}

// comparePages fails if a pixel differs outside the pieces, or none inside.
func comparePages(t *testing.T, renderer string, before, after image.Image, pieces ...Piece) {
	t.Helper()
	if before.Bounds() != after.Bounds() {
		t.Fatalf("%s: page size changed: %v → %v", renderer, before.Bounds(), after.Bounds())
	}
	inside := func(x, y int, p Piece, grow float64) bool {
		return float64(x) >= p.Box.X-grow && float64(x) <= p.Box.X+p.Box.W+grow && float64(y) >= p.Box.Y-grow && float64(y) <= p.Box.Y+p.Box.H+grow
	}
	changed, changedInside := 0, 0
	minX, minY, maxX, maxY := 1<<30, 1<<30, 0, 0
	var maxDelta uint32
	r := before.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, _ := before.At(x, y).RGBA()
			r2, g2, b2, _ := after.At(x, y).RGBA()
			if r1 == r2 && g1 == g2 && b1 == b2 {
				continue
			}
			in := false
			for _, p := range pieces {
				in = in || inside(x, y, p, 3)
			}
			if in {
				changedInside++
				continue
			}
			changed++
			d := max(absDiff(r1, r2), absDiff(g1, g2), absDiff(b1, b2)) >> 8
			maxDelta = max(maxDelta, d)
			minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
		}
	}
	if changed != 0 {
		t.Fatalf("%s: %d pixels changed outside the filled pieces (by up to %d of 255), within (%d,%d)-(%d,%d)", renderer, changed, maxDelta, minX, minY, maxX, maxY)
	}
	if changedInside == 0 {
		t.Fatalf("%s: nothing changed inside the pieces; the test proves nothing", renderer)
	}
	t.Logf("%s: %d pixels changed, all inside the filled pieces", renderer, changedInside)
}

// TestFillShrinksThenWraps: a value wider than its piece shrinks, down to
// the floor, and then wraps.
func TestFillShrinksThenWraps(t *testing.T) {
	e := testEngine(t)
	orig := readFixture(t, "chromium-invoice.pdf")
	a, _ := e.Analyze(orig, DefaultLimits)
	var number Piece
	for _, p := range a.Pieces {
		if p.Text == "INV-2026-0142" {
			number = p
		}
	}
	_, report, err := e.Fill(orig, []Fill{{PieceID: number.ID, Text: "INV-2026-01420"}}, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if r := report[0]; r.Size >= number.Size || r.Size < shrinkFloor(number.Size) || r.Lines != 1 {
		t.Fatalf("a slightly longer value: %+v", r)
	}
	_, report, err = e.Fill(orig, []Fill{{PieceID: number.ID, Text: "a much longer invoice number than fits"}}, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if r := report[0]; round2(shrinkFloor(number.Size)) != r.Size || r.Lines < 2 {
		t.Fatalf("a far longer value: %+v", r)
	}
	if _, _, err := e.Fill(orig, []Fill{{PieceID: "p9-9", Text: "x"}}, DefaultLimits); err == nil {
		t.Fatal("a fill of a piece that is not there")
	}
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

type charStyle struct {
	font  string
	size  float64
	color string
}

// textStyle finds text on page 1 through PDFium's text layer and returns
// the style of its first character.
func textStyle(t *testing.T, e *Engine, pdf []byte, text string) charStyle {
	return textStyleOn(t, e, pdf, 1, text)
}

// textStyleOn finds text on page n.
func textStyleOn(t *testing.T, e *Engine, pdf []byte, n int, text string) charStyle {
	t.Helper()
	var st charStyle
	err := e.with(e.deadline(), func(p pdfium.Pdfium) error {
		doc, err := p.OpenDocument(&requests.OpenDocument{File: &pdf})
		if err != nil {
			return err
		}
		defer p.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc.Document})
		page := requests.Page{ByIndex: &requests.PageByIndex{Document: doc.Document, Index: n - 1}}
		tp, err := p.FPDFText_LoadPage(&requests.FPDFText_LoadPage{Page: page})
		if err != nil {
			return err
		}
		n, _ := p.FPDFText_CountChars(&requests.FPDFText_CountChars{TextPage: tp.TextPage})
		var all []rune
		for i := 0; i < n.Count; i++ {
			u, _ := p.FPDFText_GetUnicode(&requests.FPDFText_GetUnicode{TextPage: tp.TextPage, Index: i})
			all = append(all, rune(u.Unicode))
		}
		at := strings.Index(string(all), text)
		if at < 0 {
			return fmt.Errorf("%q not in the text layer", text)
		}
		i := len([]rune(string(all)[:at]))
		size, _ := p.FPDFText_GetFontSize(&requests.FPDFText_GetFontSize{TextPage: tp.TextPage, Index: i})
		// The size the eye sees: the font size scaled by the character's
		// matrix (Chromium scales by 0.75 in the CTM).
		if m, err := p.FPDFText_GetMatrix(&requests.FPDFText_GetMatrix{TextPage: tp.TextPage, Index: i}); err == nil {
			x := m.Matrix
			size.FontSize *= math.Sqrt(math.Abs(float64(x.A*x.D - x.B*x.C)))
		}
		col, _ := p.FPDFText_GetFillColor(&requests.FPDFText_GetFillColor{TextPage: tp.TextPage, Index: i})
		font, _ := p.FPDFText_GetFontInfo(&requests.FPDFText_GetFontInfo{TextPage: tp.TextPage, Index: i})
		st = charStyle{font: font.FontName, size: round2(size.FontSize), color: fmt.Sprintf("#%02x%02x%02x", col.R, col.G, col.B)}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// BenchmarkFill measures filling two pieces of a one-page form: analysis,
// operator removal, the overlay and the stamp.
func BenchmarkFill(b *testing.B) {
	e := testEngine(b)
	pdf := readFixture(b, "chromium-invoice.pdf")
	a, err := e.Analyze(pdf, DefaultLimits)
	if err != nil {
		b.Fatal(err)
	}
	fills := []Fill{{PieceID: a.Pieces[4].ID, Text: "INV-2026-0999"}, {PieceID: a.Pieces[6].ID, Text: "Acme Ltd"}}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := e.Fill(pdf, fills, DefaultLimits); err != nil {
			b.Fatal(err)
		}
	}
}

// TestFillAligns sets a shorter invoice number, right-aligned like the
// original (the top right of the page), in the embedded font and in a
// substitute: the rendered ink ends where the original's did.
func TestFillAligns(t *testing.T) {
	e := testEngine(t)
	orig := readFixture(t, "chromium-invoice.pdf")
	a, err := e.Analyze(orig, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	number, ok := findPiece(a, "INV-2026-0142")
	if !ok {
		t.Fatal("no invoice number")
	}
	// The rightmost inked pixel in the piece's band of a 72 dpi render.
	inkRight := func(pdf []byte) int {
		img, err := e.PageImage(pdf, 1, 72, DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		right := -1
		for y := int(number.Box.Y); y <= int(number.Box.Y+number.Box.H); y++ {
			for x := int(number.Box.X) - 40; x <= int(number.Box.X+number.Box.W)+10; x++ {
				if r, g, b, _ := img.At(x, y).RGBA(); r>>8 < 128 && g>>8 < 128 && b>>8 < 128 {
					right = max(right, x)
				}
			}
		}
		return right
	}
	want := inkRight(orig)
	for _, c := range []struct{ text, font string }{{"INV-2026-01", "embedded"}, {"INV-Ø1", "substitute"}} {
		out, report, err := e.Fill(orig, []Fill{{PieceID: number.ID, Text: c.text, Align: "right"}}, DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		if report[0].Substituted != (c.font == "substitute") {
			t.Fatalf("%q: %+v, want the %s font", c.text, report[0], c.font)
		}
		if got := inkRight(out); got < want-1 || got > want+1 {
			t.Errorf("%q right-aligned in the %s font ends at x=%d; the original ended at %d", c.text, c.font, got, want)
		}
		left, _, err := e.Fill(orig, []Fill{{PieceID: number.ID, Text: c.text}}, DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		if got := inkRight(left); got > want-10 {
			t.Errorf("%q left-aligned ends at x=%d, near the original's end %d: the test proves nothing", c.text, got, want)
		}
	}
}

// TestFillInPlaceKeepsTheRestOfTheLine writes a longer label in place of
// "Consignee:", which Ghostscript set in one TJ with its value, under
// character spacing, word spacing and horizontal scaling: the value after
// it in the same operator stays where it was, to a fraction of a point,
// and keeps its size.
func TestFillInPlaceKeepsTheRestOfTheLine(t *testing.T) {
	e := testEngine(t)
	orig := withTextState(t, readFixture(t, "corpus/ghostscript-rotated.pdf"), 1, "1.5 Tc 4 Tw 80 Tz ")
	a, err := e.Analyze(orig, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	label, ok1 := findPiece(a, "Consignee:")
	value, ok2 := findPiece(a, "Borealis Timber AB")
	if !ok1 || !ok2 || label.Parts[0].Rank != value.Parts[0].Rank {
		t.Fatalf("the label and its value are not in one operator: %s", pieceTexts(a))
	}
	if label.Stretch < 0.79 || label.Stretch > 0.81 || label.Size != 11 {
		t.Fatalf("a piece set at Tz 80: size %v stretch %v, want 11 and 0.8", label.Size, label.Stretch)
	}
	for _, text := range []string{"Consign:", "Consignee B:"} {
		out, report, err := e.Fill(orig, []Fill{{PieceID: label.ID, Text: text}}, DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		if report[0].Substituted {
			t.Fatalf("%q: %+v, want it in the embedded font", text, report[0])
		}
		b, err := e.Analyze(out, DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		after, ok := findPiece(b, "Borealis Timber AB")
		if !ok {
			t.Fatalf("%q: the value is gone: %s", text, pieceTexts(b))
		}
		if math.Abs(after.Box.X-value.Box.X) > 0.3 || after.Size != value.Size {
			t.Errorf("%q: the value moved from x=%v to x=%v (size %v → %v)", text, value.Box.X, after.Box.X, value.Size, after.Size)
		}
		if _, ok := findPiece(b, strings.Join(strings.Fields(text), " ")); !ok {
			t.Errorf("%q not among %s", text, pieceTexts(b))
		}
	}
}

// withTextState puts state operators before the rank-th text operator of
// page 1.
func withTextState(t *testing.T, pdf []byte, rank int, state string) []byte {
	t.Helper()
	ctx, err := readForEdit(pdf)
	if err != nil {
		t.Fatal(err)
	}
	d, _, _, err := ctx.PageDict(1, false)
	if err != nil {
		t.Fatal(err)
	}
	ref := d["Contents"].(types.IndirectRef)
	sd, _, err := ctx.DereferenceStreamDict(ref)
	if err != nil {
		t.Fatal(err)
	}
	if err := sd.Decode(); err != nil {
		t.Fatal(err)
	}
	ops, err := textOps(sd.Content, &textState{})
	if err != nil {
		t.Fatal(err)
	}
	at := ops[rank].start
	sd.Content = append(append(append([]byte(nil), sd.Content[:at]...), state...), sd.Content[at:]...)
	if err := sd.Encode(); err != nil {
		t.Fatal(err)
	}
	entry, _ := ctx.FindTableEntryLight(ref.ObjectNumber.Value())
	entry.Object = *sd
	var out bytes.Buffer
	if err := api.WriteContext(ctx, &out); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestFillFindsAPieceByItsText: a field marked on a piece by id and text
// still fills that text when the id now names another piece (a newer
// analysis numbering pieces otherwise), and is refused when the text is
// gone.
func TestFillFindsAPieceByItsText(t *testing.T) {
	e := testEngine(t)
	orig := readFixture(t, "chromium-invoice.pdf")
	a, err := e.Analyze(orig, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	number, _ := findPiece(a, "INV-2026-0142")
	other := a.Pieces[0]
	if other.ID == number.ID {
		other = a.Pieces[1]
	}
	out, report, err := e.Fill(orig, []Fill{{PieceID: other.ID, Text: "INV-2026-0999", Expect: "INV-2026-0142"}}, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	text := pdfText(t, out)
	if !strings.Contains(text, "INV-2026-0999") || !strings.Contains(text, other.Text) || report[0].PieceID != other.ID {
		t.Fatalf("filled %+v; the text:\n%s", report, text)
	}
	if _, _, err := e.Fill(orig, []Fill{{PieceID: number.ID, Text: "x", Expect: "INV-1999-0000"}}, DefaultLimits); !errors.Is(err, ErrNoPiece) {
		t.Fatalf("a piece whose text is gone: %v", err)
	}
}
