package pdftemplate

import (
	"bytes"
	"errors"
	"os"
	"sync"
	"testing"

	"math/rand"
	"strings"
	"time"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/enums"
	"github.com/klippa-app/go-pdfium/requests"
	"github.com/klippa-app/go-pdfium/structs"
	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/platen/platen/internal/tier"
)

var (
	engineOnce sync.Once
	engine     *Engine
	engineErr  error
)

// testEngine is one real PDFium (WebAssembly) for the package's tests:
// compiling it takes seconds.
func testEngine(t testing.TB) *Engine {
	t.Helper()
	engineOnce.Do(func() { engine, engineErr = Compiled(Config{Instances: 2}) })
	if engineErr != nil {
		t.Fatal(engineErr)
	}
	return engine
}

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestAnalyzeJoinsGlyphsIntoPieces reads a PDF that Chromium printed (the
// invoice starter): PDFium sees one text object per glyph there, and the
// pieces are whole runs with the size the eye sees (16 pt × 0.75 = 12 pt).
func TestAnalyzeJoinsGlyphsIntoPieces(t *testing.T) {
	a, err := testEngine(t).Analyze(readFixture(t, "chromium-invoice.pdf"), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Pages) != 1 || a.Pages[0].Width < 590 || a.Pages[0].Width > 600 || a.Pages[0].Height < 835 || a.Pages[0].Height > 845 {
		t.Fatalf("pages %+v, want one A4 page", a.Pages)
	}
	var seller *Piece
	for i, p := range a.Pieces {
		if p.Text == "Halden & Rowe Studio Ltd" && seller == nil {
			seller = &a.Pieces[i]
		}
		if p.Font == "" || p.Size <= 0 || p.Box.W <= 0 || p.Box.H <= 0 || p.Box.X < 0 || p.Box.Y < 0 ||
			p.Box.X+p.Box.W > a.Pages[0].Width || p.Box.Y+p.Box.H > a.Pages[0].Height || len(p.Parts) == 0 {
			t.Errorf("piece %+v is not well formed", p)
		}
	}
	if seller == nil {
		var texts []string
		for _, p := range a.Pieces[:min(len(a.Pieces), 15)] {
			texts = append(texts, p.Text)
		}
		t.Fatalf("the seller's name is not one piece; first pieces: %q", texts)
	}
	if seller.Size != 12 || seller.Font != "Liberation Sans" || seller.Color != "#1b2426" || len(seller.Parts) < 10 {
		t.Fatalf("seller piece %+v", *seller)
	}
	// Near the top left of the page, as a page image shows it.
	if seller.Box.Y > 60 || seller.Box.X < 90 || seller.Box.X > 110 {
		t.Fatalf("seller box %+v is not where the page shows it", seller.Box)
	}
	t.Logf("%d pieces on the page", len(a.Pieces))
}

func TestAnalyzeRefusesWhatItCannotUse(t *testing.T) {
	e := testEngine(t)
	good := readFixture(t, "chromium-invoice.pdf")

	var enc bytes.Buffer
	if err := api.Encrypt(bytes.NewReader(good), &enc, model.NewAESConfiguration("secret", "owner", 256)); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		pdf  []byte
		lim  Limits
		want error
	}{
		{"encrypted", enc.Bytes(), DefaultLimits, ErrEncrypted},
		{"not a PDF", []byte("hello, world"), DefaultLimits, ErrUnreadable},
		{"a PDF header and garbage", append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte{0xde, 0xad}, 500)...), DefaultLimits, ErrUnreadable},
		{"over the byte limit", good, Limits{MaxBytes: 1000, MaxPages: 50}, ErrTooLarge},
		{"over the page limit", good, Limits{MaxBytes: 1 << 20, MaxPages: 0}, ErrTooLarge},
	}
	for _, c := range cases {
		if _, err := e.Analyze(c.pdf, c.lim); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	// A truncated file is repaired or refused, never a crash.
	if _, err := e.Analyze(good[:len(good)/2], DefaultLimits); err != nil && !errors.Is(err, ErrUnreadable) {
		t.Errorf("truncated: %v", err)
	}
}

// FuzzAnalyze feeds mutated PDFs to the parser: it may refuse them, but
// must neither panic nor hang.
func FuzzAnalyze(f *testing.F) {
	good := readFixture(f, "chromium-invoice.pdf")
	f.Add(good)
	f.Add(good[:len(good)/3])
	f.Add([]byte("%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF"))
	for _, c := range corpus[1:] {
		f.Add(readFixture(f, c.file))
	}
	e := testEngine(f)
	f.Fuzz(func(t *testing.T, pdf []byte) {
		lim := Limits{MaxBytes: 1 << 20, MaxPages: 5}
		a, err := e.Analyze(pdf, lim)
		if err != nil {
			return
		}
		if len(a.Pages) == 0 {
			t.Fatal("no error and no pages")
		}
		// What an upload that passed goes through: the editability check
		// and a fill. Either may refuse; neither may crash.
		if _, _, err := Editable(pdf, a); err != nil || len(a.Pieces) == 0 {
			return
		}
		e.Fill(pdf, []Fill{{PieceID: a.Pieces[0].ID, Text: "Fuzz 123"}, {PieceID: a.Pieces[len(a.Pieces)-1].ID, Text: ""}}, lim)
	})
}

// BenchmarkAnalyze measures the analysis of a one-page invoice (about 1,000
// glyphs) on a warm instance.
func BenchmarkAnalyze(b *testing.B) {
	e := testEngine(b)
	pdf := readFixture(b, "chromium-invoice.pdf")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := e.Analyze(pdf, DefaultLimits); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzContent feeds arbitrary content streams to the operator scanner and
// the operator rewriter: a malformed page may be refused, never crash.
func FuzzContent(f *testing.F) {
	f.Add([]byte("BT /F1 12 Tf 1 0 0 1 50 700 Tm [(Consignee:)-4032.91(Borealis)]TJ T*(x)' 1 2 (y)\" ET"), 1)
	f.Add([]byte("q BT /F2 9 Tf <0041 0042>Tj ET Q BI /W 1 ID \x00\x01 EI (a\\(b\\)c\\101) Tj"), 2)
	f.Add([]byte("[(unterminated"), 1)
	f.Fuzz(func(t *testing.T, content []byte, width int) {
		ops, err := textOps(content, &textState{})
		if err != nil {
			return
		}
		width = 1 + abs(width)%2
		// Each operator with its first glyph cut out and a value written
		// there: the result is still a content stream whose text
		// operators are where they were, one for one.
		edits := map[int][]byte{}
		for rank, op := range ops {
			glyphs := 0
			args, err := parseOperands(content[op.start:op.end])
			if err != nil {
				continue
			}
			for _, a := range args {
				if a.isStr {
					glyphs += len(a.str) / width
				}
			}
			b, err := rewriteTextOp(content, op, width, []Part{{From: 0, To: 1, Advance: 500, Glyphs: glyphs}}, []insertion{{from: 0, tj: []byte("<0102> -333 <03>"), advance: 300}})
			if err == nil {
				edits[rank] = b
			}
		}
		if len(edits) == 0 {
			return
		}
		edited := editTextOps(content, ops, edits)
		again, err := textOps(edited, &textState{})
		if err != nil {
			t.Fatalf("the edited content cannot be read: %v\n%q", err, edited)
		}
		if len(again) != len(ops) {
			t.Fatalf("%d text operators became %d:\n%q\n%q", len(ops), len(again), content, edited)
		}
	})
}

// TestMalformedUploadsAreRefusedNotFatal runs damaged copies of the corpus
// (bytes overwritten, files cut short; a fixed seed, so the same ones each
// run) through what an upload goes through: analysis, the editability
// check and a fill. Each may be refused; none may panic or hang. FuzzAnalyze
// explores further when run with -fuzz.
func TestMalformedUploadsAreRefusedNotFatal(t *testing.T) {
	tier.Full(t, "feeds dozens of damaged PDFs through analysis and fill")
	e := testEngine(t)
	var seeds [][]byte
	for _, c := range corpus {
		seeds = append(seeds, readFixture(t, c.file))
	}
	rng := rand.New(rand.NewSource(7))
	refused, filled := 0, 0
	for n := 0; n < 60; n++ {
		b := append([]byte(nil), seeds[rng.Intn(len(seeds))]...)
		for k := 0; k < 1+rng.Intn(20); k++ {
			b[rng.Intn(len(b))] = byte(rng.Intn(256))
		}
		if rng.Intn(4) == 0 {
			b = b[:rng.Intn(len(b))]
		}
		done := make(chan error, 1)
		go func() {
			lim := Limits{MaxBytes: 1 << 20, MaxPages: 5}
			a, err := e.Analyze(b, lim)
			if err == nil && len(a.Pieces) == 0 {
				err = errors.New("no pieces")
			}
			if err == nil {
				_, _, err = Editable(b, a)
			}
			if err == nil {
				_, _, err = e.Fill(b, []Fill{{PieceID: a.Pieces[0].ID, Text: "Fuzz 123"}}, lim)
			}
			done <- err
		}()
		select {
		case err := <-done:
			if errors.Is(err, errRecovered) {
				t.Fatalf("damaged input %d reached a panic: %v", n, err)
			}
			if err != nil {
				refused++
			} else {
				filled++
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("damaged input %d: no answer in 30 s", n)
		}
	}
	t.Logf("%d damaged uploads: %d refused, %d filled", refused+filled, refused, filled)
	if refused == 0 || filled == 0 {
		t.Fatalf("%d refused, %d filled: the damage should break some and spare some", refused, filled)
	}
}

// TestInvisibleTextIsNotAPiece: the OCR layer over a scanned page is text
// drawn invisibly over an image; what shows is the image, so it is no piece.
func TestInvisibleTextIsNotAPiece(t *testing.T) {
	e := testEngine(t)
	var pdf []byte
	err := e.with(e.deadline(), func(p pdfium.Pdfium) error {
		doc, err := p.FPDF_CreateNewDocument(&requests.FPDF_CreateNewDocument{})
		if err != nil {
			return err
		}
		defer p.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc.Document})
		page, err := p.FPDFPage_New(&requests.FPDFPage_New{Document: doc.Document, PageIndex: 0, Width: 300, Height: 200})
		if err != nil {
			return err
		}
		ref := requests.Page{ByReference: &page.Page}
		font, err := p.FPDFText_LoadStandardFont(&requests.FPDFText_LoadStandardFont{Document: doc.Document, Font: "Helvetica"})
		if err != nil {
			return err
		}
		for i, text := range []string{"Shown on the page", "Read by OCR"} {
			obj, err := p.FPDFPageObj_CreateTextObj(&requests.FPDFPageObj_CreateTextObj{Document: doc.Document, Font: font.Font, FontSize: 12})
			if err != nil {
				return err
			}
			p.FPDFText_SetText(&requests.FPDFText_SetText{PageObject: obj.PageObject, Text: text})
			if i == 1 {
				p.FPDFTextObj_SetTextRenderMode(&requests.FPDFTextObj_SetTextRenderMode{PageObject: obj.PageObject, TextRenderMode: enums.FPDF_TEXTRENDERMODE_INVISIBLE})
			}
			p.FPDFPageObj_Transform(&requests.FPDFPageObj_Transform{PageObject: obj.PageObject, Transform: structs.FPDF_FS_MATRIX{A: 1, D: 1, E: 20, F: float32(150 - 50*i)}})
			p.FPDFPage_InsertObject(&requests.FPDFPage_InsertObject{Page: ref, PageObject: obj.PageObject})
		}
		p.FPDFPage_GenerateContent(&requests.FPDFPage_GenerateContent{Page: ref})
		var buf bytes.Buffer
		if _, err := p.FPDF_SaveAsCopy(&requests.FPDF_SaveAsCopy{Document: doc.Document, FileWriter: &buf}); err != nil {
			return err
		}
		pdf = buf.Bytes()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pdfText(t, pdf), "Read by OCR") {
		t.Fatal("the invisible text is not in the PDF's text: the test proves nothing")
	}
	a, err := e.Analyze(pdf, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Pieces) != 1 || a.Pieces[0].Text != "Shown on the page" {
		t.Fatalf("pieces %s, want only the visible text", pieceTexts(a))
	}
}
