package render

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/pdf"
	"github.com/platen/platen/pdftemplate"
)

// Renderer turns a checked version and data into a finished PDF: it checks
// the data, fills the markup, picks the engine, prints, counts the pages and
// stamps a watermark when asked. Its queue is bounded: beyond Capacity waiting
// renders it refuses with fault.ErrOverloaded rather than grow.
type Renderer struct {
	engines map[string]Engine
	// fallback renders what names an engine that does not exist yet.
	fallback string
	slots    chan struct{}
	cfg      RendererConfig
	// pdfTemplates fills templates made from an uploaded PDF.
	pdfTemplates *pdftemplate.Engine
}

// EnginePDFium is the engine that fills templates made from an uploaded PDF.
const EnginePDFium = "pdfium"

// SetPDFTemplates gives the renderer the engine that fills templates made from an
// uploaded PDF. It is set once, before the renderer is used.
func (r *Renderer) SetPDFTemplates(e *pdftemplate.Engine) { r.pdfTemplates = e }

// RendererConfig is the render service's settings.
type RendererConfig struct {
	// Capacity is how many renders may be running or waiting at once.
	Capacity int
	// Timeout bounds one render (docs/design.md "Limits": 60 s).
	Timeout time.Duration
	// MaxPages ends a runaway document (docs/design.md "Limits": 2,000).
	MaxPages int
}

// DefaultRendererConfig returns the limits of docs/design.md "Limits" and a queue of 64:
// at about 20 documents a second on two cores, a full queue drains in a few
// seconds, within any client's patience.
func DefaultRendererConfig() RendererConfig {
	return RendererConfig{Capacity: 64, Timeout: 60 * time.Second, MaxPages: 2000}
}

// NewRenderer returns a renderer over the given engines. Until the phantom
// engine exists, requests for it (and for the default) render with chromium.
func NewRenderer(cfg RendererConfig, engines ...Engine) *Renderer {
	r := &Renderer{engines: map[string]Engine{}, slots: make(chan struct{}, cfg.Capacity), cfg: cfg, fallback: EngineChromium}
	for _, e := range engines {
		r.engines[e.Name()] = e
	}
	return r
}

// Request is one render.
type Request struct {
	Version *Checked
	Data    map[string]any
	// Engine overrides the manifest's engine; empty keeps it.
	Engine string
	// CacheKey identifies the immutable version for the template cache.
	CacheKey string
	// Watermark, when set, is stamped on every page: big diagonal text and
	// a line of notice.
	Watermark *Watermark
	Now       time.Time
	// Queue makes the render wait for a free slot (documents, admitted
	// earlier); without it a full queue refuses at once (previews).
	Queue bool
	// Source is the uploaded PDF of a PDF template's version.
	Source []byte
}

// Watermark is what a watermarked document carries.
type Watermark struct{ Text, Notice string }

// Result is a finished PDF.
type Result struct {
	PDF      []byte
	Pages    int
	Engine   string
	Duration time.Duration
	// Report says how a PDF template's fields were set.
	Report []FieldReport
}

// ErrTooManyPages is a document over the page cap.
var ErrTooManyPages = errors.New("too many pages")

// ErrTimeout is a render that ran over its time budget.
var ErrTimeout = errors.New("render timed out")

// Render checks the data and produces the PDF. A payload that breaks the
// schema is a fault.ErrPayload refusal; a template that cannot be filled or
// printed is ErrFill or ErrRender.
func (r *Renderer) Render(ctx context.Context, req Request) (Result, error) {
	start := time.Now()
	if req.Data == nil {
		req.Data = map[string]any{}
	}
	if req.Version.PDF != nil {
		return r.renderPDFTemplate(ctx, req, start)
	}
	if err := req.Version.Manifest.DataSchema.Validate(req.Data); err != nil {
		return Result{}, err
	}
	engine, err := r.engine(req.Engine, req.Version.Manifest.Engine)
	if err != nil {
		return Result{}, err
	}
	release, err := r.slot(ctx, req.Queue)
	if err != nil {
		return Result{}, err
	}
	defer release()
	ctx, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()

	opt := FillOptions{CacheKey: req.CacheKey, Now: req.Now}
	filled, err := Fill(req.Version, req.Data, opt)
	if err != nil {
		return Result{}, err
	}
	header, footer, err := FillHeaderFooter(req.Version, req.Data, opt)
	if err != nil {
		return Result{}, err
	}
	g := req.Version.Manifest.Geometry()
	out, err := engine.Render(ctx, Job{HTML: Document(filled, g, ""), Geometry: g, Tagged: req.Version.Manifest.TaggedPDF, Header: header, Footer: footer})
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, fmt.Errorf("%w: the document took longer than %s to render", ErrTimeout, r.cfg.Timeout)
		}
		return Result{}, err
	}
	return r.finish(out, req.Watermark, Result{Engine: engine.Name()}, start)
}

// finish counts a printed or filled PDF's pages against the cap, stamps
// the watermark when asked, and completes res.
func (r *Renderer) finish(out []byte, w *Watermark, res Result, start time.Time) (Result, error) {
	pages, err := pdf.PageCount(out)
	if err != nil {
		return Result{}, fmt.Errorf("%w: %v", ErrRender, err)
	}
	if pages > r.cfg.MaxPages {
		return Result{}, fmt.Errorf("%w: %d pages; a document may have at most %d", ErrTooManyPages, pages, r.cfg.MaxPages)
	}
	if w != nil {
		if out, err = pdf.Watermark(out, w.Text, w.Notice); err != nil {
			return Result{}, fmt.Errorf("%w: %v", ErrRender, err)
		}
	}
	res.PDF, res.Pages, res.Duration = out, pages, time.Since(start)
	return res, nil
}

// slot takes a place in the bounded queue, waiting for one when queue is
// set, and returns the function that gives it back.
func (r *Renderer) slot(ctx context.Context, queue bool) (release func(), err error) {
	if queue {
		select {
		case r.slots <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	} else {
		select {
		case r.slots <- struct{}{}:
		default:
			return nil, fmt.Errorf("%w: %d renders are already running or waiting", fault.ErrOverloaded, r.cfg.Capacity)
		}
	}
	return func() { <-r.slots }, nil
}

// engine picks the engine: the request's, else the manifest's, else the
// platform default; a name without an engine yet falls back to chromium.
func (r *Renderer) engine(requested, manifest string) (Engine, error) {
	name := requested
	if name == "" {
		name = manifest
	}
	switch name {
	case "", EnginePhantom, EngineChromium:
	default:
		return nil, fault.Invalid("engine", "must be phantom or chromium")
	}
	if e, ok := r.engines[name]; ok {
		return e, nil
	}
	if e, ok := r.engines[r.fallback]; ok {
		return e, nil
	}
	return nil, fmt.Errorf("%w: no engine can render documents on this node", ErrRender)
}
