// Package pdfform reads an uploaded PDF's text as the pieces a person would
// mark as fields (words joined into runs on one line), each with its page,
// box, font family, size and colour. It drives PDFium compiled to
// WebAssembly (go-pdfium), so a malformed file can fail but not take the
// node down: PDFium runs inside the WebAssembly sandbox.
package pdftemplate

import (
	"crypto/sha256"
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
	// ErrBusy is every PDFium instance taken for longer than a caller waits.
	ErrBusy = errors.New("every PDF reader is busy")
	// errRecovered marks an ErrUnreadable that was a panic, recovered: a
	// bug that a file reached, which the tests look for.
	errRecovered = errors.New("recovered from a panic")
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
	// Bold and Italic are the face, from the font's name, weight and flags;
	// Serif and Mono its kind, from its flags.
	Bold   bool `json:"bold,omitempty"`
	Italic bool `json:"italic,omitempty"`
	Serif  bool `json:"-"`
	Mono   bool `json:"-"`
	// Parts are the pieces of the page's text-showing operators the piece
	// is made of.
	Parts []Part `json:"-"`
	// Origin is where the piece's first glyph stands, in user space, and
	// Dir the unit vector of its text's x axis: where and which way a new
	// value starts.
	Origin, Dir [2]float64 `json:"-"`
	// Stretch is how much wider than its size its glyphs are set (the
	// horizontal scaling): a width in thousandths of the size is
	// width/1000 × Size × Stretch points.
	Stretch float64 `json:"-"`
}

// Part is the glyphs [From, To) of one text-showing operator, the Rank-th
// of its page. Whole says they are all of its glyphs; otherwise Advance is
// how far they move the text position, in thousandths of the font size
// (what a TJ adjustment counts in).
type Part struct {
	Rank     int
	From, To int
	Whole    bool
	Advance  float64
	// Glyphs is how many glyphs the operator shows; Object is its index
	// among the page's objects.
	Glyphs int
	Object int
}

// Page is one page of an upload, in points as displayed.
type Page struct {
	Number int     `json:"number"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	// TextObjects is how many text objects the page holds.
	TextObjects int `json:"-"`
	// Geom maps user space to the page as displayed.
	Geom pageGeom `json:"-"`
}

// pageGeom maps a page's user space to the page as displayed, in points
// from its top-left corner: the crop box's corners and the page's
// rotation (quarter turns clockwise).
type pageGeom struct {
	Rot        int
	L, B, R, T float64
}

func (g pageGeom) display(x, y float64) (float64, float64) {
	switch g.Rot {
	case 1:
		return y - g.B, x - g.L
	case 2:
		return g.R - x, y - g.B
	case 3:
		return g.T - y, g.R - x
	}
	return x - g.L, g.T - y
}

// box maps a user-space rectangle to a displayed one: left, top, right,
// bottom.
func (g pageGeom) box(l, b, r, t float64) (float64, float64, float64, float64) {
	x1, y1 := g.display(l, b)
	x2, y2 := g.display(r, t)
	return min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)
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

	// analyses keeps the analyses of the PDFs filled lately, by their
	// sha256: a template's upload never changes, and reading every glyph
	// of it again is most of a fill's time.
	mu          sync.Mutex
	analyses    map[[32]byte]*Analysis
	cachedPages int
}

// analysisCachePages bounds the pages of the analyses kept (a page of a
// thousand glyphs takes some 60 KB); when full the cache is emptied.
const analysisCachePages = 1000

// Options configure an Engine.
type Options struct {
	// Instances is how many PDFium instances may run at once.
	Instances int
	// CacheDir, when set, keeps the compiled module on disk, so a node
	// that starts again does not compile PDFium again.
	CacheDir string
}

// New returns an engine that compiles PDFium at its first use: a node that
// never sees an uploaded PDF never pays for it, and with CacheDir set only
// a node's very first use compiles.
func New(opts Options) *Engine { return &Engine{opts: opts} }

// Compiled returns an engine with PDFium compiled now (a second or two
// without a warm cache), for programs and tests that use it at once.
func Compiled(opts Options) (*Engine, error) {
	e := New(opts)
	e.init()
	return e, e.err
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
		return fmt.Errorf("%w: %v", ErrBusy, err)
	}
	defer func() {
		if r := recover(); r != nil {
			inst.Kill()
			err = fmt.Errorf("%w: %w: %v", ErrUnreadable, errRecovered, r)
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

// analysis is Analyze through the cache, for the filler; the analysis
// it returns is shared and must not be changed.
func (e *Engine) analysis(pdf []byte, lim Limits) (*Analysis, error) {
	sum := sha256.Sum256(pdf)
	e.mu.Lock()
	a, ok := e.analyses[sum]
	e.mu.Unlock()
	if ok {
		return a, nil
	}
	a, err := e.Analyze(pdf, lim)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	if e.analyses == nil || e.cachedPages+len(a.Pages) > analysisCachePages {
		e.analyses, e.cachedPages = map[[32]byte]*Analysis{}, 0
	}
	e.analyses[sum] = a
	e.cachedPages += len(a.Pages)
	e.mu.Unlock()
	return a, nil
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

// glyphRun is the glyphs of one text object between gaps: a word or words
// on a line, in one style, in display coordinates.
type glyphRun struct {
	text                     string
	style                    objStyle
	left, top, right, bottom float64
	// y is the first glyph's baseline as displayed.
	y    float64
	part Part
	// origin and dir are the first glyph's origin and the text's direction
	// in user space.
	origin, dir [2]float64
}

// objStyle is what a text object's glyphs share.
type objStyle struct {
	font                      string
	size, stretch             float64
	color                     string
	bold, italic, serif, mono bool
}

// textObj is one text object of a page and its glyphs.
type textObj struct {
	rank  int
	index int // among the page's objects
	style objStyle
	// tf is the font size operand; scale and yscale the lengths of the
	// text matrix's (and the CTM's) axes, x with the horizontal scaling;
	// dir its x axis in user space.
	tf, scale, yscale float64
	dir               [2]float64
	font              references.FPDF_FONT
	hasFont           bool
	bounds            [4]float64 // left, bottom, right, top in user space
	text              string
	chars             []char
}

// char is one character of the text page: a glyph, or two or more
// characters from one glyph (a ligature), which share the glyph's number.
type char struct {
	r rune
	// gen is a space PDFium made up for a gap: text, not a glyph.
	gen   bool
	glyph int
	x, y  float64    // origin, user space
	box   [4]float64 // left, bottom, right, top, user space
}

func readPage(p pdfium.Pdfium, doc references.FPDF_DOCUMENT, index int) (Page, []Piece, error) {
	pageRef := requests.Page{ByIndex: &requests.PageByIndex{Document: doc, Index: index}}
	size, err := p.GetPageSize(&requests.GetPageSize{Page: pageRef})
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
	if rot, err := p.FPDFPage_GetRotation(&requests.FPDFPage_GetRotation{Page: ref}); err == nil {
		page.Geom.Rot = int(rot.PageRotation)
	}
	bb, err := p.FPDF_GetPageBoundingBox(&requests.FPDF_GetPageBoundingBox{Page: ref})
	if err != nil {
		return page, nil, err
	}
	page.Geom.L, page.Geom.B, page.Geom.R, page.Geom.T = float64(bb.Rect.Left), float64(bb.Rect.Bottom), float64(bb.Rect.Right), float64(bb.Rect.Top)
	text, err := p.FPDFText_LoadPage(&requests.FPDFText_LoadPage{Page: ref})
	if err != nil {
		return page, nil, err
	}
	defer p.FPDFText_ClosePage(&requests.FPDFText_ClosePage{TextPage: text.TextPage})
	n, err := p.FPDFPage_CountObjects(&requests.FPDFPage_CountObjects{Page: ref})
	if err != nil {
		return page, nil, err
	}
	var objs []*textObj
	byKey := map[objKey][]*textObj{}
	for j := 0; j < n.Count; j++ {
		obj, err := p.FPDFPage_GetObject(&requests.FPDFPage_GetObject{Page: ref, Index: j})
		if err != nil {
			return page, nil, err
		}
		kind, err := p.FPDFPageObj_GetType(&requests.FPDFPageObj_GetType{PageObject: obj.PageObject})
		if err != nil || kind.Type != enums.FPDF_PAGEOBJ_TEXT {
			continue
		}
		if o, key, ok := readObject(p, obj.PageObject, text.TextPage); ok {
			o.rank, o.index = page.TextObjects, j
			byKey[key] = append(byKey[key], o)
			// Invisible text (the OCR layer over a scanned page) is not a
			// piece: what shows is the image under it.
			if m, err := p.FPDFTextObj_GetTextRenderMode(&requests.FPDFTextObj_GetTextRenderMode{PageObject: obj.PageObject}); err != nil || m.TextRenderMode != enums.FPDF_TEXTRENDERMODE_INVISIBLE {
				objs = append(objs, o)
			}
		}
		page.TextObjects++
	}
	readChars(p, text.TextPage, byKey)
	var runs []glyphRun
	for _, o := range objs {
		runs = append(runs, o.runs(p, page.Geom)...)
	}
	return page, joinRuns(runs, page.Number), nil
}

// objKey tells a page's text objects apart: the text page names a
// character's object by a new handle, so objects are matched by matrix
// and bounds.
type objKey [10]float32

func keyOf(p pdfium.Pdfium, obj references.FPDF_PAGEOBJECT) (objKey, bool) {
	m, err := p.FPDFPageObj_GetMatrix(&requests.FPDFPageObj_GetMatrix{PageObject: obj})
	if err != nil {
		return objKey{}, false
	}
	b, err := p.FPDFPageObj_GetBounds(&requests.FPDFPageObj_GetBounds{PageObject: obj})
	if err != nil {
		return objKey{}, false
	}
	x := m.Matrix
	return objKey{x.A, x.B, x.C, x.D, x.E, x.F, b.Left, b.Bottom, b.Right, b.Top}, true
}

// readObject reads a text object's style and place.
func readObject(p pdfium.Pdfium, obj references.FPDF_PAGEOBJECT, tp references.FPDF_TEXTPAGE) (*textObj, objKey, bool) {
	key, ok := keyOf(p, obj)
	if !ok {
		return nil, key, false
	}
	t, err := p.FPDFTextObj_GetText(&requests.FPDFTextObj_GetText{PageObject: obj, TextPage: tp})
	if err != nil {
		return nil, key, false
	}
	sz, err := p.FPDFTextObj_GetFontSize(&requests.FPDFTextObj_GetFontSize{PageObject: obj})
	if err != nil {
		return nil, key, false
	}
	a, b, c, d := float64(key[0]), float64(key[1]), float64(key[2]), float64(key[3])
	// The matrix's x axis carries the horizontal scaling (Tz) as well as
	// the text matrix and CTM; its y axis gives the size the eye sees.
	o := &textObj{text: t.Text, tf: float64(sz.FontSize), scale: math.Hypot(a, b), yscale: math.Hypot(c, d),
		bounds: [4]float64{float64(key[6]), float64(key[7]), float64(key[8]), float64(key[9])}}
	if l := math.Hypot(a, b); l > 0 {
		o.dir = [2]float64{a / l, b / l}
	} else {
		o.dir = [2]float64{1, 0}
	}
	// The size the eye sees: the font size scaled by the text matrix.
	o.style = objStyle{size: round2(o.tf * o.yscale), color: "#000000"}
	if o.yscale > 0 {
		o.style.stretch = round2(o.scale / o.yscale)
	}
	if f, err := p.FPDFTextObj_GetFont(&requests.FPDFTextObj_GetFont{PageObject: obj}); err == nil {
		o.font, o.hasFont = f.Font, true
		if fam, err := p.FPDFFont_GetFamilyName(&requests.FPDFFont_GetFamilyName{Font: f.Font}); err == nil {
			o.style.font = fam.FamilyName
		}
		if base, err := p.FPDFFont_GetBaseFontName(&requests.FPDFFont_GetBaseFontName{Font: f.Font}); err == nil {
			o.style.bold, o.style.italic = faceOf(base.BaseFontName)
		}
		if w, err := p.FPDFFont_GetWeight(&requests.FPDFFont_GetWeight{Font: f.Font}); err == nil && w.Weight >= 600 {
			o.style.bold = true
		}
		if fl, err := p.FPDFFont_GetFlags(&requests.FPDFFont_GetFlags{Font: f.Font}); err == nil {
			o.style.italic = o.style.italic || fl.Italic
			o.style.bold = o.style.bold || fl.ForceBold
			o.style.serif, o.style.mono = fl.Serif, fl.FixedPitch
		}
	}
	if c, err := p.FPDFPageObj_GetFillColor(&requests.FPDFPageObj_GetFillColor{PageObject: obj}); err == nil {
		o.style.color = fmt.Sprintf("#%02x%02x%02x", c.FillColor.R, c.FillColor.G, c.FillColor.B)
	}
	return o, key, true
}

// faceOf reads bold and italic from a font's PostScript name, TeX's
// (CMBX12, CMTI12) included.
func faceOf(base string) (bold, italic bool) {
	name := strings.ToLower(base)
	if i := strings.IndexByte(name, '+'); i >= 0 {
		name = name[i+1:] // a subset's tag
	}
	bold = strings.Contains(name, "bold") || strings.Contains(name, "black") || strings.Contains(name, "heavy") || strings.Contains(name, "semibold")
	italic = strings.Contains(name, "italic") || strings.Contains(name, "oblique")
	if strings.HasPrefix(name, "cm") || strings.HasPrefix(name, "lm") {
		bold = bold || strings.Contains(name, "bx") || strings.HasPrefix(name, "cmb")
		italic = italic || strings.Contains(name, "ti") || strings.Contains(name, "sl")
	}
	return bold, italic
}

// readChars gives each text object its characters, in order. A character
// whose object cannot be told (two objects alike) is left out, and so is
// a character PDFium made up (a space for a gap).
func readChars(p pdfium.Pdfium, tp references.FPDF_TEXTPAGE, byKey map[objKey][]*textObj) {
	count, err := p.FPDFText_CountChars(&requests.FPDFText_CountChars{TextPage: tp})
	if err != nil {
		return
	}
	for i := 0; i < count.Count; i++ {
		g, err := p.FPDFText_IsGenerated(&requests.FPDFText_IsGenerated{TextPage: tp, Index: i})
		if err != nil {
			continue
		}
		obj, err := p.FPDFText_GetTextObject(&requests.FPDFText_GetTextObject{TextPage: tp, Index: i})
		if err != nil {
			continue
		}
		key, ok := keyOf(p, obj.TextObject)
		if !ok || len(byKey[key]) != 1 {
			continue
		}
		o := byKey[key][0]
		u, err := p.FPDFText_GetUnicode(&requests.FPDFText_GetUnicode{TextPage: tp, Index: i})
		if err != nil {
			continue
		}
		if g.IsGenerated {
			if n := len(o.chars); n > 0 && unicode.IsSpace(rune(u.Unicode)) {
				o.chars = append(o.chars, char{r: ' ', gen: true, glyph: o.chars[n-1].glyph})
			}
			continue
		}
		org, err := p.FPDFText_GetCharOrigin(&requests.FPDFText_GetCharOrigin{TextPage: tp, Index: i})
		if err != nil {
			continue
		}
		box, err := p.FPDFText_GetCharBox(&requests.FPDFText_GetCharBox{TextPage: tp, Index: i})
		if err != nil {
			continue
		}
		c := char{r: rune(u.Unicode), x: org.X, y: org.Y, box: [4]float64{box.Left, box.Bottom, box.Right, box.Top}}
		// The characters of a ligature share their glyph's origin.
		if last, ok := o.lastGlyph(); ok {
			c.glyph = last.glyph + 1
			if math.Abs(last.x-c.x) < 1e-3 && math.Abs(last.y-c.y) < 1e-3 {
				c.glyph = last.glyph
			}
		}
		o.chars = append(o.chars, c)
	}
}

// lastGlyph is the object's last character that is a glyph.
func (o *textObj) lastGlyph() (char, bool) {
	for i := len(o.chars) - 1; i >= 0; i-- {
		if !o.chars[i].gen {
			return o.chars[i], true
		}
	}
	return char{}, false
}

// runs splits a text object into runs at gaps wider than a word space
// (a column, a tab stop: Ghostscript and TeX set a whole line, cells and
// all, in one TJ). An object whose characters are not all known is one
// run.
func (o *textObj) runs(p pdfium.Pdfium, g pageGeom) []glyphRun {
	whole := func() glyphRun {
		r := glyphRun{text: o.text, style: o.style, dir: o.dir, part: Part{Rank: o.rank, Whole: true, Object: o.index}}
		r.left, r.top, r.right, r.bottom = g.box(o.bounds[0], o.bounds[1], o.bounds[2], o.bounds[3])
		if len(o.chars) > 0 {
			r.origin = [2]float64{o.chars[0].x, o.chars[0].y}
		} else {
			r.origin = [2]float64{o.bounds[0], o.bounds[1]}
		}
		_, r.y = g.display(r.origin[0], r.origin[1])
		return r
	}
	noSpace := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsSpace(r) {
				return -1
			}
			return r
		}, s)
	}
	var known strings.Builder
	for _, c := range o.chars {
		known.WriteRune(c.r)
	}
	last, ok := o.lastGlyph()
	if !ok || o.tf <= 0 || o.scale <= 0 || o.yscale <= 0 || noSpace(known.String()) != noSpace(o.text) {
		return []glyphRun{whole()}
	}
	along := func(x, y float64) float64 { return x*o.dir[0] + y*o.dir[1] }
	extent := func(c char) float64 {
		return max(along(c.box[0], c.box[1]), along(c.box[2], c.box[1]), along(c.box[0], c.box[3]), along(c.box[2], c.box[3]))
	}
	glyphs := last.glyph + 1
	var runs []glyphRun
	start := 0
	end := math.Inf(-1) // the far edge of the glyphs so far
	flush := func(to int) {
		seg := o.chars[start:to]
		first, ok := firstGlyph(seg)
		if !ok {
			return
		}
		r := glyphRun{style: o.style, dir: o.dir, origin: [2]float64{first.x, first.y}}
		var sb strings.Builder
		l, b, rr, t := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		lastSeg := first
		for _, c := range seg {
			sb.WriteRune(c.r)
			if c.gen {
				continue
			}
			lastSeg = c
			if unicode.IsSpace(c.r) || c.box[2] <= c.box[0] {
				continue
			}
			l, b, rr, t = min(l, c.box[0]), min(b, c.box[1]), max(rr, c.box[2]), max(t, c.box[3])
		}
		if math.IsInf(l, 0) {
			return
		}
		r.text = sb.String()
		r.left, r.top, r.right, r.bottom = g.box(l, b, rr, t)
		_, r.y = g.display(r.origin[0], r.origin[1])
		r.part = Part{Rank: o.rank, From: first.glyph, To: lastSeg.glyph + 1, Whole: first.glyph == 0 && lastSeg.glyph+1 == glyphs, Glyphs: glyphs, Object: o.index}
		if next, ok := firstGlyph(o.chars[to:]); ok {
			r.part.Advance = along(next.x-first.x, next.y-first.y)
		} else {
			r.part.Advance = along(lastSeg.x-first.x, lastSeg.y-first.y) + o.glyphWidth(p, uint32(lastSeg.r))
		}
		// In thousandths of the font size, in text space.
		r.part.Advance = r.part.Advance / o.scale / o.tf * 1000
		runs = append(runs, r)
	}
	spaces := 0 // space glyphs since the last glyph
	for i, c := range o.chars {
		if c.gen {
			continue
		}
		if unicode.IsSpace(c.r) {
			spaces++
			continue
		}
		// A gap wider than a word space starts a run; a gap with space
		// glyphs in it is as wide as they are (word spacing may widen
		// them) and more before it counts.
		pos := along(c.x, c.y)
		if !math.IsInf(end, -1) && i > start && pos-end > 0.6*o.style.size*float64(1+spaces) {
			flush(i)
			start = i
		}
		end, spaces = max(end, extent(c), pos), 0
	}
	flush(len(o.chars))
	switch {
	case len(runs) == 0:
		return []glyphRun{whole()}
	case len(runs) == 1 && runs[0].part.Whole:
		// The object's own text keeps the spaces PDFium sees between
		// objects (Chromium sets a glyph an object).
		runs[0].text = o.text
	}
	return runs
}

// firstGlyph is the first character of cs that is a glyph.
func firstGlyph(cs []char) (char, bool) {
	for _, c := range cs {
		if !c.gen {
			return c, true
		}
	}
	return char{}, false
}

// glyphWidth is how far a glyph moves the text position, in user space.
func (o *textObj) glyphWidth(p pdfium.Pdfium, u uint32) float64 {
	if !o.hasFont {
		return 0
	}
	req := &paddedGlyphWidth{req: requests.FPDFFont_GetGlyphWidth{Font: o.font, Glyph: u, FontSize: float32(o.tf)}}
	w, err := p.FPDFFont_GetGlyphWidth(&req.req)
	if err != nil {
		return 0
	}
	return float64(w.GlyphWidth) * o.scale
}

// joinRuns joins runs into pieces: consecutive runs on the same baseline
// in the same font, size and colour, with gaps no wider than a word space.
// A wider gap (a column, a tab stop) starts a new piece.
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
			cur.Parts = append(cur.Parts, r.part)
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
		st := r.style
		cur = &Piece{Page: page, Text: r.text, Font: st.font, Size: st.size, Color: st.color, Bold: st.bold, Italic: st.italic,
			Serif: st.serif, Mono: st.mono, Parts: []Part{r.part}, Origin: r.origin, Dir: r.dir, Stretch: st.stretch,
			Box: Box{X: r.left, Y: r.top, W: r.right - r.left, H: r.bottom - r.top}}
		last = r
	}
	flush()
	return out
}

// continues reports whether r carries on the run that ended with last.
func continues(last, r glyphRun) bool {
	if r.style != last.style {
		return false
	}
	if math.Abs(r.y-last.y) > 0.2*r.style.size {
		return false
	}
	gap := r.left - last.right
	return gap > -0.5*r.style.size && gap < 0.6*r.style.size
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// paddedGlyphWidth and paddedGlyphPath hold go-pdfium requests whose 4-byte
// Glyph and FontSize fields it reads 8 bytes at a time: harmless (the
// WebAssembly function takes the low 32 bits), but the read runs past the
// request's end, which checkptr (on under -race) stops the process for. The
// padding keeps the read inside one allocation.
type (
	paddedGlyphWidth struct {
		req requests.FPDFFont_GetGlyphWidth
		_   uint64
	}
	paddedGlyphPath struct {
		req requests.FPDFFont_GetGlyphPath
		_   uint64
	}
)
