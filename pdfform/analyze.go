// Package pdfform reads an uploaded PDF's text as the pieces a person would
// mark as fields (words joined into runs on one line), each with its page,
// box, font family, size and colour. It drives PDFium compiled to
// WebAssembly (go-pdfium), so a malformed file can fail but not take the
// node down: PDFium runs inside the WebAssembly sandbox.
package pdfform

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/enums"
	pdferrors "github.com/klippa-app/go-pdfium/errors"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
	"github.com/klippa-app/go-pdfium/webassembly"
	"github.com/tetratelabs/wazero"
)

// Refusals of an upload.
var (
	// ErrEncrypted is a PDF that needs a password.
	ErrEncrypted = errors.New("the PDF is encrypted; upload it without a password")
	// ErrUnreadable is a file PDFium cannot read as a PDF.
	ErrUnreadable = errors.New("the file is not a readable PDF")
	// ErrTooLarge is a PDF over the limits on size or pages.
	ErrTooLarge = errors.New("the PDF is too large")
)

// Limits bound what an upload may be.
type Limits struct {
	MaxBytes int
	MaxPages int
}

// DefaultLimits are generous for forms and certificates.
var DefaultLimits = Limits{MaxBytes: 20 << 20, MaxPages: 50}

// Box is a rectangle in points, from the page's top-left corner, the way
// a page image shows it.
type Box struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}

// Piece is a run of text on one line in one font, size and colour.
type Piece struct {
	ID   string `json:"id"`
	Page int    `json:"page"` // from 1
	Text string `json:"text"`
	Box  Box    `json:"box"`
	// Font is the font's family name; Size is in points, after the text
	// matrix (what the eye sees); Color is #rrggbb.
	Font  string  `json:"font"`
	Size  float64 `json:"size"`
	Color string  `json:"color"`
	// Bold and Italic are the face, from the font's name and weight.
	Bold   bool `json:"bold,omitempty"`
	Italic bool `json:"italic,omitempty"`
	// Objects are the indexes of the page's text objects the piece is made
	// of; OriginX and Baseline (points from the top left) are where its
	// first glyph stands, where a new value starts.
	Objects           []int   `json:"-"`
	OriginX, Baseline float64 `json:"-"`
	// TextRanks are the objects' places among the page's text objects,
	// which are its content's text-showing operators, in order.
	TextRanks []int `json:"-"`
}

// Page is a page's size in points.
type Page struct {
	Number int     `json:"number"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	// TextObjects is how many text objects the page holds.
	TextObjects int `json:"-"`
}

// Analysis is what an upload holds.
type Analysis struct {
	Pages  []Page  `json:"pages"`
	Pieces []Piece `json:"pieces"`
}

// Engine is a pool of PDFium instances sharing one compiled module.
type Engine struct {
	opts    Options
	once    sync.Once
	started atomic.Bool
	pool    pdfium.Pool
	err     error
}

// Options configure an Engine.
type Options struct {
	// Instances is how many PDFium instances may run at once.
	Instances int
	// CacheDir, when set, keeps the compiled module on disk, so a node
	// that starts again does not compile PDFium again.
	CacheDir string
	// Lazy compiles PDFium at the first use rather than at Start.
	Lazy bool
}

// New compiles PDFium (a second or two without a warm cache) and keeps up
// to instances of it.
func New(instances int) (*Engine, error) {
	e := &Engine{opts: Options{Instances: instances}}
	e.init()
	return e, e.err
}

// Start begins compiling PDFium in the background, or with Lazy at the
// first use, and returns at once: a node serves while it compiles, and the
// first use waits for it.
func Start(opts Options) *Engine {
	e := &Engine{opts: opts}
	if !opts.Lazy {
		go e.init()
	}
	return e
}

// init compiles PDFium once; callers wait until it is done.
func (e *Engine) init() {
	e.once.Do(func() {
		e.started.Store(true)
		instances := max(e.opts.Instances, 1)
		rc := wazero.NewRuntimeConfig()
		if e.opts.CacheDir != "" {
			cache, err := wazero.NewCompilationCacheWithDir(e.opts.CacheDir)
			if err != nil {
				e.err = fmt.Errorf("pdfium: compilation cache: %w", err)
				return
			}
			rc = rc.WithCompilationCache(cache)
		}
		e.pool, e.err = webassembly.Init(webassembly.Config{MinIdle: 1, MaxIdle: instances, MaxTotal: instances, RuntimeConfig: rc})
		if e.err != nil {
			e.err = fmt.Errorf("pdfium: %w", e.err)
		}
	})
}

// Close releases the instances.
func (e *Engine) Close() error {
	if !e.started.Load() {
		return nil
	}
	e.init() // waits for a compile under way
	if e.pool == nil {
		return nil
	}
	return e.pool.Close()
}

// with runs f on an instance from the pool. A panic in f (a malformed file
// reaching a bug) is an ErrUnreadable, and the instance it ran on is killed
// rather than reused.
func (e *Engine) with(f func(p pdfium.Pdfium) error) (err error) {
	e.init()
	if e.err != nil {
		return e.err
	}
	inst, err := e.pool.GetInstance(30 * time.Second)
	if err != nil {
		return fmt.Errorf("pdfium: no instance free: %w", err)
	}
	defer func() {
		if r := recover(); r != nil {
			inst.Kill()
			err = fmt.Errorf("%w: %v", ErrUnreadable, r)
			return
		}
		inst.Close()
	}()
	return f(inst)
}

// withDoc checks an upload against the limits, opens it on an instance and
// runs f with its page count. Encrypted, unreadable and oversized files are
// refused with their errors.
func (e *Engine) withDoc(pdf []byte, lim Limits, f func(p pdfium.Pdfium, doc references.FPDF_DOCUMENT, pages int) error) error {
	if len(pdf) > lim.MaxBytes {
		return fmt.Errorf("%w: %d bytes; the limit is %d", ErrTooLarge, len(pdf), lim.MaxBytes)
	}
	if !strings.HasPrefix(strings.TrimLeft(string(pdf[:min(len(pdf), 1024)]), "\x00\t\r\n "), "%PDF-") {
		return fmt.Errorf("%w: it does not start with %%PDF-", ErrUnreadable)
	}
	return e.with(func(p pdfium.Pdfium) error {
		doc, err := p.OpenDocument(&requests.OpenDocument{File: &pdf})
		if err != nil {
			if errors.Is(err, pdferrors.ErrPassword) {
				return ErrEncrypted
			}
			return fmt.Errorf("%w: %v", ErrUnreadable, err)
		}
		defer p.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc.Document})
		count, err := p.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: doc.Document})
		if err != nil {
			return fmt.Errorf("%w: %v", ErrUnreadable, err)
		}
		if count.PageCount < 1 {
			return fmt.Errorf("%w: it has no pages", ErrUnreadable)
		}
		if count.PageCount > lim.MaxPages {
			return fmt.Errorf("%w: %d pages; the limit is %d", ErrTooLarge, count.PageCount, lim.MaxPages)
		}
		return f(p, doc.Document, count.PageCount)
	})
}

// Analyze reads every page's text pieces.
func (e *Engine) Analyze(pdf []byte, lim Limits) (*Analysis, error) {
	var out *Analysis
	err := e.withDoc(pdf, lim, func(p pdfium.Pdfium, doc references.FPDF_DOCUMENT, pages int) error {
		out = &Analysis{}
		for i := 0; i < pages; i++ {
			page, pieces, err := readPage(p, doc, i)
			if err != nil {
				return fmt.Errorf("%w: page %d: %v", ErrUnreadable, i+1, err)
			}
			out.Pages = append(out.Pages, page)
			out.Pieces = append(out.Pieces, pieces...)
		}
		return nil
	})
	return out, err
}

// glyphRun is one text object as read.
type glyphRun struct {
	index                    int
	text                     string
	font                     string
	size                     float64
	color                    string
	left, bottom, right, top float64
	originX, baseline        float64
	rank                     int
	bold, italic             bool
}

func readPage(p pdfium.Pdfium, doc references.FPDF_DOCUMENT, index int) (Page, []Piece, error) {
	size, err := p.GetPageSize(&requests.GetPageSize{Page: requests.Page{ByIndex: &requests.PageByIndex{Document: doc, Index: index}}})
	if err != nil {
		return Page{}, nil, err
	}
	page := Page{Number: index + 1, Width: size.Width, Height: size.Height}
	loaded, err := p.FPDF_LoadPage(&requests.FPDF_LoadPage{Document: doc, Index: index})
	if err != nil {
		return page, nil, err
	}
	defer p.FPDF_ClosePage(&requests.FPDF_ClosePage{Page: loaded.Page})
	ref := requests.Page{ByReference: &loaded.Page}
	text, err := p.FPDFText_LoadPage(&requests.FPDFText_LoadPage{Page: ref})
	if err != nil {
		return page, nil, err
	}
	defer p.FPDFText_ClosePage(&requests.FPDFText_ClosePage{TextPage: text.TextPage})
	n, err := p.FPDFPage_CountObjects(&requests.FPDFPage_CountObjects{Page: ref})
	if err != nil {
		return page, nil, err
	}
	var runs []glyphRun
	for j := 0; j < n.Count; j++ {
		obj, err := p.FPDFPage_GetObject(&requests.FPDFPage_GetObject{Page: ref, Index: j})
		if err != nil {
			return page, nil, err
		}
		kind, err := p.FPDFPageObj_GetType(&requests.FPDFPageObj_GetType{PageObject: obj.PageObject})
		if err != nil || kind.Type != enums.FPDF_PAGEOBJ_TEXT {
			continue
		}
		r, ok := readRun(p, obj.PageObject, text.TextPage, page.Height)
		if ok {
			r.index, r.rank = j, page.TextObjects
			runs = append(runs, r)
		}
		page.TextObjects++
	}
	return page, joinRuns(runs, page.Number), nil
}

func readRun(p pdfium.Pdfium, obj references.FPDF_PAGEOBJECT, tp references.FPDF_TEXTPAGE, pageHeight float64) (glyphRun, bool) {
	t, err := p.FPDFTextObj_GetText(&requests.FPDFTextObj_GetText{PageObject: obj, TextPage: tp})
	if err != nil {
		return glyphRun{}, false
	}
	sz, err := p.FPDFTextObj_GetFontSize(&requests.FPDFTextObj_GetFontSize{PageObject: obj})
	if err != nil {
		return glyphRun{}, false
	}
	m, err := p.FPDFPageObj_GetMatrix(&requests.FPDFPageObj_GetMatrix{PageObject: obj})
	if err != nil {
		return glyphRun{}, false
	}
	b, err := p.FPDFPageObj_GetBounds(&requests.FPDFPageObj_GetBounds{PageObject: obj})
	if err != nil {
		return glyphRun{}, false
	}
	r := glyphRun{text: t.Text, color: "#000000",
		// The size the eye sees: the font size scaled by the text matrix.
		size:     round2(float64(sz.FontSize) * math.Sqrt(math.Abs(float64(m.Matrix.A*m.Matrix.D-m.Matrix.B*m.Matrix.C)))),
		left:     float64(b.Left),
		right:    float64(b.Right),
		top:      pageHeight - float64(b.Top),
		bottom:   pageHeight - float64(b.Bottom),
		originX:  float64(m.Matrix.E),
		baseline: pageHeight - float64(m.Matrix.F),
	}
	if f, err := p.FPDFTextObj_GetFont(&requests.FPDFTextObj_GetFont{PageObject: obj}); err == nil {
		if fam, err := p.FPDFFont_GetFamilyName(&requests.FPDFFont_GetFamilyName{Font: f.Font}); err == nil {
			r.font = fam.FamilyName
		}
		if base, err := p.FPDFFont_GetBaseFontName(&requests.FPDFFont_GetBaseFontName{Font: f.Font}); err == nil {
			name := strings.ToLower(base.BaseFontName)
			r.bold = strings.Contains(name, "bold") || strings.Contains(name, "black") || strings.Contains(name, "heavy")
			r.italic = strings.Contains(name, "italic") || strings.Contains(name, "oblique")
		}
		if w, err := p.FPDFFont_GetWeight(&requests.FPDFFont_GetWeight{Font: f.Font}); err == nil && w.Weight >= 600 {
			r.bold = true
		}
	}
	if c, err := p.FPDFPageObj_GetFillColor(&requests.FPDFPageObj_GetFillColor{PageObject: obj}); err == nil {
		r.color = fmt.Sprintf("#%02x%02x%02x", c.FillColor.R, c.FillColor.G, c.FillColor.B)
	}
	return r, true
}

// joinRuns joins text objects into pieces: consecutive objects on the same
// baseline in the same font, size and colour, with gaps no wider than a
// word space. A wider gap (a column, a tab stop) starts a new piece.
func joinRuns(runs []glyphRun, page int) []Piece {
	var out []Piece
	var cur *Piece
	var last glyphRun
	flush := func() {
		if cur != nil {
			cur.Text = strings.Join(strings.Fields(cur.Text), " ")
			if cur.Text != "" {
				cur.ID = fmt.Sprintf("p%d-%d", page, len(out)+1)
				cur.Box = Box{X: round2(cur.Box.X), Y: round2(cur.Box.Y), W: round2(cur.Box.W), H: round2(cur.Box.H)}
				out = append(out, *cur)
			}
		}
		cur = nil
	}
	for _, r := range runs {
		empty := strings.TrimFunc(r.text, unicode.IsSpace) == ""
		if cur != nil && continues(last, r) {
			cur.Text += r.text
			cur.Objects = append(cur.Objects, r.index)
			cur.TextRanks = append(cur.TextRanks, r.rank)
			if !empty {
				x2 := max(cur.Box.X+cur.Box.W, r.right)
				y2 := max(cur.Box.Y+cur.Box.H, r.bottom)
				cur.Box.X, cur.Box.Y = min(cur.Box.X, r.left), min(cur.Box.Y, r.top)
				cur.Box.W, cur.Box.H = x2-cur.Box.X, y2-cur.Box.Y
			}
			if !empty || r.right > last.right {
				last = r
			}
			continue
		}
		if empty && cur == nil {
			continue
		}
		flush()
		if empty {
			continue
		}
		cur = &Piece{Page: page, Text: r.text, Font: r.font, Size: r.size, Color: r.color, Objects: []int{r.index}, TextRanks: []int{r.rank},
			OriginX: r.originX, Baseline: r.baseline, Bold: r.bold, Italic: r.italic,
			Box: Box{X: r.left, Y: r.top, W: r.right - r.left, H: r.bottom - r.top}}
		last = r
	}
	flush()
	return out
}

// continues reports whether r carries on the run that ended with last.
func continues(last, r glyphRun) bool {
	if r.font != last.font || r.color != last.color || r.bold != last.bold || r.italic != last.italic || math.Abs(r.size-last.size) > 0.05 {
		return false
	}
	if math.Abs(r.baseline-last.baseline) > 0.2*r.size {
		return false
	}
	gap := r.left - last.right
	return gap > -0.5*r.size && gap < 0.6*r.size
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }
