// Package pdftemplate reads an uploaded PDF's text as the pieces a person would
// mark as fields (words joined into runs on one line), each with its page,
// box, font family, size and colour. It drives PDFium compiled to
// WebAssembly (go-pdfium), so a malformed file can fail but not take the
// node down: PDFium runs inside the WebAssembly sandbox.
package pdftemplate

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"reflect"
	"runtime"
	"runtime/debug"
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
	"github.com/tetratelabs/wazero/api"

	"github.com/platen/platen/internal/memory"
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
	errRecovered = errors.New("it reached a fault in the PDF reader")
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
	cfg     Config
	once    sync.Once
	started atomic.Bool
	pool    pdfium.Pool
	err     error
	// used, when set, sees each instance's module after its use, closed:
	// the tests' view of the pool.
	used func(mod api.Module)

	// analyses keeps the analyses of the PDFs filled lately, by their
	// sha256: a template's upload never changes, and reading every glyph
	// of it again is most of a fill's time.
	mu          sync.Mutex
	analyses    map[[32]byte]*Analysis
	cachedPages int
	// passed holds the sums of PDFs that passed check.
	passed map[[32]byte]struct{}
}

// analysisCachePages bounds the pages of the analyses kept (a page of a
// thousand glyphs takes some 60 KB); when full the cache is emptied.
const analysisCachePages = 1000

// Config configures an Engine: its instances and the limits on what
// reading one PDF may cost (docs/operator.md "Uploaded PDFs").
type Config struct {
	// Instances is how many PDFium instances may run at once.
	Instances int
	// CacheDir, when set, keeps the compiled module on disk, so a node
	// that starts again does not compile PDFium again.
	CacheDir string
	// MaxDepth is how deep arrays and dictionaries may nest. pdfcpu
	// parses them recursively (a million levels took 12 s and 1 GB), and
	// PDFium's own parser gives up past 64 direct levels, so no PDF that
	// PDFium reads whole comes near 100; the forms and certificates of
	// the tests nest at most 6 deep.
	MaxDepth int
	// MaxObjects is how many objects a PDF may have, object streams'
	// included. A 50-page form with its fonts has a few thousand; 100,000
	// keeps the cross-reference tables and pdfcpu's object map to tens
	// of megabytes.
	MaxObjects int
	// MaxInflatedBytes bounds what all of a PDF's compressed streams
	// expand to, images' and fonts' included. A 20 MB upload of Flate
	// images at a usual 3 to 10 times expands to at most 200 MB; 256 MiB
	// is counted in about a quarter of a second, where the 1 GiB bomb cost
	// PDFium 40 s and 3.5 GB.
	MaxInflatedBytes int64
	// MaxContentBytes bounds the PDF syntax in its streams, inflated:
	// what PDFium parses to read the pages (content streams, forms) and
	// pdfcpu to read the objects (object streams). PDFium parses a page's
	// content whole, at some 25 MB a second here, in one call that the
	// time limit cannot cut short. A page of dense text is 10 to 100 KB,
	// the corpus's largest is under 2 MB in all; 32 MiB is a second and a
	// half of PDFium.
	MaxContentBytes int64
	// MemoryLimitBytes is the most memory one PDFium instance may take
	// (WebAssembly pages of 64 KiB); the module would otherwise grow to
	// 2 GiB, and the 1 GiB bomb took the node to 3.5 GB. An instance starts
	// at 18 MiB; analysing any PDF of the tests leaves it there, and a page
	// image at 300 dpi takes it to 37 MiB. 256 MiB is seven times that, and
	// the default four instances bound PDFium's memory to 1 GiB.
	MemoryLimitBytes int64
	// Timeout bounds one analysis, one fill and one page image: PDFium is
	// stopped when it passes. A 50-page PDF reads in a few seconds; the
	// nesting bombs ran 12 to 40 s.
	Timeout time.Duration
}

// DefaultConfig is the configuration a node runs with unless told
// otherwise; each field's comment gives the reason for its default.
func DefaultConfig() Config {
	return Config{
		// One instance a core, up to four: PDFium is single-threaded, and
		// each instance can hold MemoryLimitBytes.
		Instances:        min(runtime.NumCPU(), 4),
		MaxDepth:         100,
		MaxObjects:       100_000,
		MaxInflatedBytes: 256 << 20,
		MaxContentBytes:  32 << 20,
		MemoryLimitBytes: 256 << 20,
		Timeout:          20 * time.Second,
	}
}

// ConfigError is a setting of Config that cannot work; Field names it.
type ConfigError struct {
	Field string
	Msg   string
}

func (e *ConfigError) Error() string { return "pdf templates: " + e.Msg }

// Validate reports a configuration that cannot work, as a *ConfigError.
func (c Config) Validate() error {
	for _, r := range []struct {
		bad   bool
		field string
		msg   string
	}{
		{c.Instances < 1, "Instances", "instances must be at least 1"},
		{c.MaxDepth < 8, "MaxDepth", "the nesting limit must be at least 8 (an ordinary page nests 3 to 6 deep)"},
		{c.MaxObjects < 100, "MaxObjects", "the object limit must be at least 100"},
		{c.MaxInflatedBytes < 1<<20, "MaxInflatedBytes", "the limit on inflated streams must be at least 1 MiB"},
		{c.MaxContentBytes < 1<<20 || c.MaxContentBytes > c.MaxInflatedBytes, "MaxContentBytes", "the limit on content must be at least 1 MiB and at most the limit on inflated streams"},
		{c.MemoryLimitBytes < 64<<20 || c.MemoryLimitBytes > 2<<30, "MemoryLimitBytes", "the memory limit must be from 64 MiB (PDFium starts at 18) to 2 GiB (the most its module asks for)"},
		{c.Timeout < time.Second, "Timeout", "the timeout must be at least 1s"},
	} {
		if r.bad {
			return &ConfigError{Field: r.field, Msg: r.msg}
		}
	}
	return nil
}

// New returns an engine that compiles PDFium at its first use: a node that
// never sees an uploaded PDF never pays for it, and with CacheDir set only
// a node's very first use compiles. Zero limits take their defaults.
func New(cfg Config) *Engine {
	def := DefaultConfig()
	if cfg.Instances <= 0 {
		cfg.Instances = def.Instances
	}
	if cfg.MaxDepth <= 0 {
		cfg.MaxDepth = def.MaxDepth
	}
	if cfg.MaxObjects <= 0 {
		cfg.MaxObjects = def.MaxObjects
	}
	if cfg.MaxInflatedBytes <= 0 {
		cfg.MaxInflatedBytes = def.MaxInflatedBytes
	}
	if cfg.MaxContentBytes <= 0 {
		cfg.MaxContentBytes = def.MaxContentBytes
	}
	if cfg.MemoryLimitBytes <= 0 {
		cfg.MemoryLimitBytes = def.MemoryLimitBytes
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = def.Timeout
	}
	return &Engine{cfg: cfg}
}

// Compiled returns an engine with PDFium compiled now (a second or two
// without a warm cache), for programs and tests that use it at once.
func Compiled(cfg Config) (*Engine, error) {
	e := New(cfg)
	e.init()
	return e, e.err
}

// init compiles PDFium once; callers wait until it is done.
func (e *Engine) init() {
	e.once.Do(func() {
		e.started.Store(true)
		// Each instance may grow to the memory limit and no further.
		// wazero's WithCloseOnContextDone would let closing a module stop
		// the call under way too, but it starts a goroutine for every call
		// into the module, and an analysis makes some 25,000 (a few per
		// glyph): it took the invoice's from 190 to 530 ms. So the time
		// limit closes the module between calls (with), and the one long
		// call, a page's content, is bounded by the check's limit on
		// what streams inflate to and by the memory limit.
		rc := wazero.NewRuntimeConfig().
			WithMemoryLimitPages(uint32(min(e.cfg.MemoryLimitBytes>>16, 65536)))
		if e.cfg.CacheDir != "" {
			cache, err := wazero.NewCompilationCacheWithDir(e.cfg.CacheDir)
			if err != nil {
				e.err = fmt.Errorf("pdfium: compilation cache: %w", err)
				return
			}
			rc = rc.WithCompilationCache(cache)
		}
		// ReuseWorkers false: an instance is closed after each use, its
		// memory with it, and the pool starts a fresh one (some 20 ms),
		// so no use inherits another's memory, failed or not.
		e.pool, e.err = webassembly.Init(webassembly.Config{MinIdle: 1, MaxIdle: e.cfg.Instances, MaxTotal: e.cfg.Instances,
			RuntimeConfig: rc, ReuseWorkers: false})
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

// exitTimeout is the exit code an instance's module is closed with when
// its time runs out.
const exitTimeout = 124

// releaseAbove is how much memory an instance may have ended with before
// the node hands the garbage back to the system at once: a one-page
// analysis ends near 30 MiB, and Go would otherwise keep a grown heap's
// pages until its next collections (the 1 GiB bomb left 3.5 GB behind).
const releaseAbove = 96 << 20

// with runs f on a fresh instance from the pool, until deadline: then
// the instance's module is closed, and PDFium's next call fails. The
// instance is closed after f, whatever happened, never returned to the
// pool. A panic in f (a malformed file reaching a bug) is an
// ErrUnreadable; running out of time or memory is an ErrTooComplex.
func (e *Engine) with(deadline time.Time, f func(p pdfium.Pdfium) error) (err error) {
	e.init()
	if e.err != nil {
		return e.err
	}
	waited := time.Now()
	inst, err := e.pool.GetInstance(30 * time.Second)
	if err != nil {
		slog.Warn("pdftemplate: no PDFium instance", "err", err)
		return ErrBusy
	}
	// Nor is the wait for an instance, which other PDFs hold.
	deadline = deadline.Add(time.Since(waited))
	mod := moduleOf(inst)
	var timedOut atomic.Bool
	timer := time.AfterFunc(time.Until(deadline), func() {
		timedOut.Store(true)
		if mod != nil {
			mod.CloseWithExitCode(context.Background(), exitTimeout)
		}
	})
	defer func() {
		r := recover()
		timer.Stop()
		var size uint32
		if mod != nil && mod.Memory() != nil {
			size = mod.Memory().Size()
		}
		// Closing invalidates the instance (ReuseWorkers is false): its
		// module is closed and the pool makes a new one.
		inst.Close()
		switch {
		case timedOut.Load():
			err = tooComplex("reading it took longer than %s", e.cfg.Timeout)
		case r != nil:
			err = recovered(r)
		case err != nil && int64(size) > e.cfg.MemoryLimitBytes-(8<<20):
			slog.Warn("pdftemplate: a PDF ran PDFium out of memory", "bytes", size)
			err = tooComplex("reading it needs more than %s of memory", megabytes(e.cfg.MemoryLimitBytes))
		}
		if int64(size) > releaseAbove {
			memory.Release()
		}
		if e.used != nil && mod != nil {
			e.used(mod)
		}
	}()
	return f(inst)
}

// moduleOf is the WebAssembly module an instance runs, to close it when
// its time runs out and to read its memory. go-pdfium keeps it in an
// exported field of a type in an internal package, which only reflection
// reaches; nil if a later version moves it (the tests would fail).
func moduleOf(inst pdfium.Pdfium) api.Module {
	v := reflect.ValueOf(inst.GetImplementation())
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil
	}
	f := v.FieldByName("Module")
	if !f.IsValid() || !f.CanInterface() {
		return nil
	}
	m, _ := f.Interface().(api.Module)
	return m
}

// unreadable is an ErrUnreadable for a file PDFium or pdfcpu refused:
// the reader's own words (a WebAssembly stack trace, a Go error chain)
// go to the log, the caller gets plain ones.
func unreadable(what string, err error) error {
	slog.Warn("pdftemplate: a PDF could not be read", "step", what, "err", err)
	return fmt.Errorf("%w: %s", ErrUnreadable, what)
}

// recovered is the ErrUnreadable of a panic a file caused: the panic
// and its stack go to the log.
func recovered(r any) error {
	slog.Error("pdftemplate: a PDF reached a panic", "panic", r, "stack", string(debug.Stack()))
	return fmt.Errorf("%w: %w", ErrUnreadable, errRecovered)
}

// deadline is when a use that starts now must end. PDFium is compiled
// first: compiling it at a node's first use is not the PDF's cost.
func (e *Engine) deadline() time.Time {
	e.init()
	return time.Now().Add(e.cfg.Timeout)
}

// checkOnce runs check on a PDF unless it passed lately: a fill and a
// page image read a stored upload again, which passed when it came.
func (e *Engine) checkOnce(pdf []byte) error {
	sum := sha256.Sum256(pdf)
	e.mu.Lock()
	_, ok := e.passed[sum]
	e.mu.Unlock()
	if ok {
		return nil
	}
	if _, err := check(pdf, e.cfg); err != nil {
		return err
	}
	e.mu.Lock()
	if e.passed == nil || len(e.passed) >= passedCacheSize {
		e.passed = map[[32]byte]struct{}{}
	}
	e.passed[sum] = struct{}{}
	e.mu.Unlock()
	return nil
}

// passedCacheSize bounds the sums kept of PDFs that passed the check.
const passedCacheSize = 10_000

// withDoc checks an upload against the limits, opens it on an instance and
// runs f with its page count. Encrypted, unreadable and oversized files are
// refused with their errors.
func (e *Engine) withDoc(deadline time.Time, pdf []byte, lim Limits, f func(p pdfium.Pdfium, doc references.FPDF_DOCUMENT, pages int) error) error {
	if len(pdf) > lim.MaxBytes {
		return fmt.Errorf("%w: %d bytes; the limit is %d", ErrTooLarge, len(pdf), lim.MaxBytes)
	}
	if !strings.HasPrefix(strings.TrimLeft(string(pdf[:min(len(pdf), 1024)]), "\x00\t\r\n "), "%PDF-") {
		return fmt.Errorf("%w: it does not start with %%PDF-", ErrUnreadable)
	}
	if err := e.checkOnce(pdf); err != nil {
		return err
	}
	return e.with(deadline, func(p pdfium.Pdfium) error {
		doc, err := p.OpenDocument(&requests.OpenDocument{File: &pdf})
		if err != nil {
			if errors.Is(err, pdferrors.ErrPassword) {
				return ErrEncrypted
			}
			return unreadable("PDFium cannot open it", err)
		}
		defer p.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc.Document})
		count, err := p.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: doc.Document})
		if err != nil {
			return unreadable("its pages cannot be counted", err)
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
func (e *Engine) analysis(deadline time.Time, pdf []byte, lim Limits) (*Analysis, error) {
	sum := sha256.Sum256(pdf)
	e.mu.Lock()
	a, ok := e.analyses[sum]
	e.mu.Unlock()
	if ok {
		return a, nil
	}
	a, err := e.analyze(deadline, pdf, lim)
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

// Analyze reads every page's text pieces, within the engine's limits.
func (e *Engine) Analyze(pdf []byte, lim Limits) (*Analysis, error) {
	return e.analyze(e.deadline(), pdf, lim)
}

func (e *Engine) analyze(deadline time.Time, pdf []byte, lim Limits) (*Analysis, error) {
	var out *Analysis
	err := e.withDoc(deadline, pdf, lim, func(p pdfium.Pdfium, doc references.FPDF_DOCUMENT, pages int) error {
		out = &Analysis{}
		for i := 0; i < pages; i++ {
			page, pieces, err := readPage(p, doc, i)
			if err != nil {
				return unreadable(fmt.Sprintf("page %d cannot be read", i+1), err)
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
