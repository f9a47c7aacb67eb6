package phantom

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"golang.org/x/net/html"

	"github.com/platen/platen/render"
	"github.com/platen/platen/render/phantom/draw"
	"github.com/platen/platen/render/phantom/fonts"
	"github.com/platen/platen/render/phantom/images"
	"github.com/platen/platen/render/phantom/layout"
	"github.com/platen/platen/render/phantom/pdfw"
	"github.com/platen/platen/render/phantom/style"
)

// Config is the engine's settings.
type Config struct {
	// Workers is how many documents lay out at once. Phantom is pure CPU
	// work, so more workers than cores only take turns.
	Workers int
	// MaxPages stops a runaway document while it is laid out, rather than
	// after: the renderer's own cap (docs/design.md "Limits") is checked on
	// the finished PDF, and a document over it would otherwise be laid out
	// to the end first.
	MaxPages int
}

// DefaultConfig returns one worker per core and the platform's page cap.
func DefaultConfig() Config {
	return Config{Workers: max(runtime.NumCPU(), 1), MaxPages: render.DefaultRendererConfig().MaxPages}
}

// Engine prints documents in process: it parses the HTML, computes the
// style, lays the document out into pages and writes the PDF. It is safe
// for concurrent use; each worker owns a font shaper, because shaping faces
// are not safe to share between goroutines.
type Engine struct {
	cfg     Config
	lib     *fonts.Library
	shapers chan *fonts.Shaper
	// prepared keeps the last few documents the support check parsed and
	// styled, so the render that follows it does not do that again.
	prepared preparedCache
}

// New returns an engine over the machine's fonts.
func New(cfg Config) (*Engine, error) {
	if cfg.Workers < 1 {
		cfg.Workers = 1
	}
	lib, err := fonts.Default()
	if err != nil {
		return nil, fmt.Errorf("phantom: fonts: %w", err)
	}
	e := &Engine{cfg: cfg, lib: lib, shapers: make(chan *fonts.Shaper, cfg.Workers)}
	for range cfg.Workers {
		e.shapers <- lib.NewShaper()
	}
	return e, nil
}

// Name is the engine's name as documents record it.
func (e *Engine) Name() string { return render.EnginePhantom }

// Unsupported lists what the job uses that phantom does not lay out
// (render.Judge): the platform default hands such a document to chromium.
// A check that cannot take a worker within ctx, or that fails, says so:
// the document then goes to chromium too.
func (e *Engine) Unsupported(ctx context.Context, job render.Job) (out []string) {
	defer func() {
		if r := recover(); r != nil {
			out = []string{"phantom's support check failed"}
		}
	}()
	sh, err := e.take(ctx)
	if err != nil {
		return []string{"phantom's support check did not finish in time"}
	}
	defer e.put(sh)
	p, err := e.prepare(job, sh)
	if err != nil {
		return []string{"markup phantom cannot read"}
	}
	return p.unsupported
}

// Render prints one document. It honours ctx's deadline between pages and
// every few hundred boxes, and stops at the page cap.
func (e *Engine) Render(ctx context.Context, job render.Job) ([]byte, error) {
	out, _, err := e.RenderCounted(ctx, job)
	return out, err
}

// RenderCounted is Render that also says how many pages it printed
// (render.PageCounter), so the renderer need not parse the PDF again to
// count them.
func (e *Engine) RenderCounted(ctx context.Context, job render.Job) (pdf []byte, pages int, err error) {
	// A fault in phantom fails its document, never the node: the engine runs
	// in the node's process, where Chromium's crashes stay in the browser's.
	defer func() {
		if r := recover(); r != nil {
			pdf, pages, err = nil, 0, fmt.Errorf("%w: phantom failed on this document (%v)", render.ErrRender, r)
		}
	}()
	sh, err := e.take(ctx)
	if err != nil {
		return nil, 0, err
	}
	defer e.put(sh)
	p, err := e.prepare(job, sh)
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %v", render.ErrRender, err)
	}
	if p.lib != nil {
		sh = p.lib.NewShaper() // the pooled one goes back to the pool
	}
	opt := layout.Options{MaxPages: e.cfg.MaxPages, Header: job.Header, Footer: job.Footer, Tagged: job.Tagged}
	opt.Restyle = func(w, h float64) (*style.Result, error) { return style.Compute(p.doc, styleOptions(job, sh, w, h)) }
	if f := job.Findings; f != nil {
		sh.Track()
		opt.OnImageError = func(src string, err error) { f.AddFailedAsset(src, imageFailure(err)) }
	}
	doc, err := layout.Layout(ctx, p.doc, p.style, sh, opt)
	switch {
	case errors.Is(err, layout.ErrTooManyPages):
		return nil, 0, fmt.Errorf("%w: the document would print more than %s pages; send less data or split it into several documents", render.ErrTooManyPages, render.Grouped(e.cfg.MaxPages))
	case err != nil && ctx.Err() != nil:
		return nil, 0, ctx.Err()
	case err != nil:
		return nil, 0, fmt.Errorf("%w: %v", render.ErrRender, err)
	}
	if f := job.Findings; f != nil {
		f.Fonts = findFonts(doc, sh)
	}
	var out bytes.Buffer
	wopt := pdfw.Options{PDFA: pdfw.Conformance(job.PDFA), PDFUA: job.PDFUA, XMP: job.XMP}
	for _, a := range job.Attachments {
		wopt.Attachments = append(wopt.Attachments, pdfw.Attachment{Name: a.Name, Description: a.Description, MIME: a.MIME, Relationship: a.Relationship, Data: a.Data})
	}
	if err := pdfw.Write(&out, doc, wopt); err != nil {
		if errors.Is(err, pdfw.ErrPDFACMYK) {
			return nil, 0, fmt.Errorf("%w: %w: %v", render.ErrRender, render.ErrNotPDFA, err)
		}
		return nil, 0, fmt.Errorf("%w: write the PDF: %v", render.ErrRender, err)
	}
	return out.Bytes(), len(doc.Pages), nil
}

// findFonts is a laid-out document's fonts for its report: the families of
// the faces its text is drawn in, as the PDF embeds them, and the families
// its font lists asked for first and did not get (the shaper's record since
// Track).
func findFonts(doc *draw.Document, sh *fonts.Shaper) render.Fonts {
	out := render.Fonts{Used: []string{}, Substituted: []render.Substitution{}}
	var last *draw.Font
	for _, pg := range doc.Pages {
		for _, op := range pg.Ops {
			var f *draw.Font
			switch t := op.(type) {
			case draw.Text:
				f = t.Font
			case *draw.Text:
				f = t.Font
			}
			if f == nil || f == last {
				continue
			}
			last = f
			if fam := f.Family; fam != "" && !slices.Contains(out.Used, fam) {
				out.Used = append(out.Used, fam)
			}
		}
	}
	slices.Sort(out.Used)
	for _, s := range sh.Substitutions() {
		out.Substituted = append(out.Substituted, render.Substitution{Requested: s.Requested, Used: s.Used})
	}
	return out
}

// imageFailure is why an image did not load, as a report says it.
func imageFailure(err error) string {
	if errors.Is(err, images.ErrNotDataURI) {
		return render.ReasonNotFetched
	}
	return render.ReasonUndecodable + ": " + err.Error()
}

func (e *Engine) take(ctx context.Context) (*fonts.Shaper, error) {
	select {
	case sh := <-e.shapers:
		return sh, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (e *Engine) put(sh *fonts.Shaper) { e.shapers <- sh }

// styleOptions are the options a job's style is computed with; vw and vh,
// when not zero, are the viewport a shrunk document is laid out in.
func styleOptions(job render.Job, sh *fonts.Shaper, vw, vh float64) style.Options {
	g := job.Geometry
	return style.Options{
		PageWidth: g.SheetWidthMM() * pxPerMM, PageHeight: g.SheetHeightMM() * pxPerMM,
		ViewportWidth: vw, ViewportHeight: vh,
		LocalFont: sh.HasLocal,
		FontMetrics: func(families []string, weight int, fs style.FontStyle, size float64) (float64, float64) {
			m := sh.Metrics(fonts.Query{Families: families, Weight: weight, Style: fs, Stretch: 100}, size)
			return m.XHeight, m.ZeroWidth
		},
	}
}

// prepared is a parsed and styled document, read-only once made.
type prepared struct {
	doc         *html.Node
	style       *style.Result
	unsupported []string
	// lib is the machine's fonts with the document's web fonts, nil when
	// it has none; each render shapes with a shaper of its own from it.
	lib *fonts.Library
}

// prepare parses and styles the job's markup, or returns what the support
// check made of the same markup a moment ago.
func (e *Engine) prepare(job render.Job, sh *fonts.Shaper) (*prepared, error) {
	if p := e.prepared.get(job.HTML); p != nil {
		return p, nil
	}
	doc, err := html.Parse(strings.NewReader(job.HTML))
	if err != nil {
		return nil, err
	}
	if depth(doc, 0) > maxDepth {
		return nil, fmt.Errorf("elements nest more than %d deep", maxDepth)
	}
	st, err := style.Compute(doc, styleOptions(job, sh, 0, 0))
	if err != nil {
		return nil, err
	}
	p := &prepared{doc: doc, style: st}
	var unreadable []string
	if wfs := st.WebFonts(); len(wfs) > 0 {
		// The document's @font-face fonts given as data: URIs: its style
		// is computed again with them (ex and ch measure its fonts).
		faces := make([]fonts.WebFace, 0, len(wfs))
		for _, w := range wfs {
			_, data, err := images.DecodeDataURI(w.Data)
			if err != nil {
				unreadable = append(unreadable, w.Family)
				continue
			}
			faces = append(faces, fonts.WebFace{Family: w.Family, Data: data, WeightMin: w.WeightMin, WeightMax: w.WeightMax, Style: w.Style, Ranges: w.Ranges})
		}
		lib, bad := e.lib.WithWebFaces(faces)
		unreadable = append(unreadable, bad...)
		if st, err = style.Compute(doc, styleOptions(job, lib.NewShaper(), 0, 0)); err != nil {
			return nil, err
		}
		p.style, p.lib = st, lib
	}
	p.unsupported = unsupported(doc, p.style)
	for _, fam := range unreadable {
		// A font phantom cannot read may be one Chromium reads.
		p.unsupported = append(p.unsupported, "@font-face:unreadable at "+fam)
	}
	if len(job.HTML) <= preparedMaxBytes {
		e.prepared.put(job.HTML, p)
	}
	return p, nil
}

// pxPerMM converts millimetres to CSS pixels (96 per inch).
const pxPerMM = 96 / 25.4

// depth is how deep n's elements nest, counted up to just past maxDepth.
func depth(n *html.Node, d int) int {
	if d > maxDepth {
		return d
	}
	deepest := d
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			deepest = max(deepest, depth(c, d+1))
		}
	}
	return deepest
}

// preparedCache holds the last few prepared documents by their markup. It
// is small: it only bridges the support check and the render that follows
// it, a moment later on the same node.
type preparedCache struct {
	mu    sync.Mutex // guards order and byKey
	order []string
	byKey map[string]*prepared
}

// preparedKept and preparedMaxBytes bound what the cache holds: a few
// documents of ordinary size; a bigger one is parsed again for its render.
const (
	preparedKept     = 8
	preparedMaxBytes = 256 << 10
)

func (c *preparedCache) get(key string) *prepared {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.byKey[key]
}

func (c *preparedCache) put(key string, p *prepared) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKey == nil {
		c.byKey = map[string]*prepared{}
	}
	if _, ok := c.byKey[key]; ok {
		return
	}
	if len(c.order) == preparedKept {
		delete(c.byKey, c.order[0])
		c.order = c.order[1:]
	}
	c.order = append(c.order, key)
	c.byKey[key] = p
}
