package render

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/internal/memory"
	"github.com/platen/platen/pdf"
	"github.com/platen/platen/pdftemplate"
	"github.com/platen/platen/sign"
)

// Renderer turns a checked version and data into a finished PDF: it checks
// the data, fills the markup, picks the engine, prints, counts the pages and
// stamps a watermark when asked. Its queue is bounded: beyond Capacity waiting
// renders it refuses with fault.ErrOverloaded rather than grow.
type Renderer struct {
	engines map[string]Engine
	slots   chan struct{}
	// choices keeps the engine choice of versions' own samples (Choose).
	choices choiceCache
	cfg     RendererConfig
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
	// PreviewTimeout bounds a render a person waits for in the console or
	// on a dry run (Request.Preview): a preview, a dry run. It is at most
	// Timeout.
	PreviewTimeout time.Duration
	// MaxPages ends a runaway document (docs/design.md "Limits": 2,000).
	MaxPages int
	// DefaultEngine is what a document that names no engine gets: "auto"
	// (phantom when it supports everything the document uses, else
	// chromium; also what "" means), "phantom" or "chromium".
	DefaultEngine string
	// Fill bounds each fill of a template's markup (DefaultFillLimits).
	Fill FillLimits
}

// DefaultRendererConfig returns the limits of docs/design.md "Limits" and a
// queue of 64: at about 20 documents a second on two cores, a full queue
// drains in a few seconds, within any client's patience. The default engine
// is auto: phantom meets its quality bar on the golden corpus
// (render/phantom/corpus), and chromium prints what phantom does not support.
// A preview gets 20 s: someone is waiting at the console for it, every
// starter and golden document prints in well under a second on either
// engine, and a preview that needs more than 20 s is better answered with a
// reason than with a spinner; a document gets the full 60 s, as nobody
// watches it render.
func DefaultRendererConfig() RendererConfig {
	return RendererConfig{Capacity: 64, Timeout: 60 * time.Second, PreviewTimeout: 20 * time.Second, MaxPages: 2000, DefaultEngine: DefaultAuto, Fill: DefaultFillLimits()}
}

// DefaultAuto is the platform default of docs/design.md "Engines": phantom
// for what it supports, chromium for the rest.
const DefaultAuto = "auto"

// Validate checks the settings.
func (c RendererConfig) Validate() error {
	switch c.DefaultEngine {
	case "", DefaultAuto, EnginePhantom, EngineChromium:
	default:
		return fmt.Errorf("the default engine must be auto, phantom or chromium, not %q", c.DefaultEngine)
	}
	if c.PreviewTimeout <= 0 || (c.Timeout > 0 && c.PreviewTimeout > c.Timeout) {
		return fmt.Errorf("the preview timeout must be positive and at most the render timeout (%s), not %s", c.Timeout, c.PreviewTimeout)
	}
	return c.Fill.Validate()
}

// budget is how long req may render: a preview's budget is shorter than a
// document's, as a person waits for it.
func (r *Renderer) budget(req Request) (time.Duration, string) {
	if req.Preview && r.cfg.PreviewTimeout > 0 && r.cfg.PreviewTimeout < r.cfg.Timeout {
		return r.cfg.PreviewTimeout, "preview"
	}
	return r.cfg.Timeout, "document"
}

// seconds writes a budget as a person reads it: "20 s", "1.5 s".
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}

// NewRenderer returns a renderer over the given engines. A node without one
// of them renders everything with the other, and each document says so.
func NewRenderer(cfg RendererConfig, engines ...Engine) *Renderer {
	r := &Renderer{engines: map[string]Engine{}, slots: make(chan struct{}, cfg.Capacity), cfg: cfg}
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
	// PDFA overrides the manifest's PDF/A level; empty keeps it.
	PDFA string
	// PDFUA "1" asks for PDF/UA-1 whatever the manifest says; empty keeps
	// the manifest's.
	PDFUA string
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
	// Preview marks a render a person waits for (a preview, a dry run): it
	// gets PreviewTimeout rather than Timeout.
	Preview bool
	// Org is the organisation the render is for, and OrgPages how many of
	// the Chromium pages it may hold at once (its plan's share; 0 is the
	// node's default): see Job.
	Org      string
	OrgPages int
	// Sign, when set, signs the finished PDF: the last step, after the
	// watermark and PDF/A (docs/signatures.md).
	Sign *Signing
}

// Signing is the signature a render ends with.
type Signing struct {
	Identity         *sign.Identity
	CertificateID    string
	Reason, Location string
	Visible          bool
	// TSA, when set, time-stamps the signature (PAdES B-T).
	TSA *sign.TSA
}

// ErrSign is a document that could not be signed: its certificate could
// not be used, or the time-stamp authority did not answer.
var ErrSign = errors.New("the document could not be signed")

// Watermark is what a watermarked document carries.
type Watermark struct {
	Text, Notice string
	// embed stamps it in fonts the PDF embeds, for PDF/A.
	embed bool
}

// Result is a finished PDF.
type Result struct {
	PDF    []byte
	Pages  int
	Engine string
	// EngineReason says why that engine rendered the document.
	EngineReason string
	Duration     time.Duration
	// Report is the render's report; on an error, Render returns a Result
	// with only its Report, which says where the render stopped.
	Report Report
	// Signature is a signed document's.
	Signature *sign.Signature
	// conform is the job whose PDF/A conformance is checked once the PDF
	// is final.
	conform *Job
}

// ErrTooManyPages is a document over the page cap.
var ErrTooManyPages = errors.New("too many pages")

// ErrTimeout is a render that ran over its time budget.
var ErrTimeout = errors.New("render timed out")

// Render checks the data and produces the PDF. A payload that breaks the
// schema is a fault.ErrPayload refusal; a template that cannot be filled or
// printed is ErrFill or ErrRender. The result's Report is filled whether or
// not the render succeeds: on an error it says at which stage.
func (r *Renderer) Render(ctx context.Context, req Request) (Result, error) {
	start := time.Now()
	rep := NewReport()
	sw := &stopwatch{rep: &rep}
	res, err := r.render(ctx, req, sw, start)
	if err == nil && req.Sign != nil {
		res, err = r.sign(ctx, req, res, sw)
	}
	if err == nil && res.conform != nil {
		rep.Conformance = checkConformance(res.PDF, *res.conform, req.Version.Manifest.EInvoice, res.Signature)
	} else if err == nil && res.Signature != nil {
		rep.Conformance = checkConformance(res.PDF, Job{}, nil, res.Signature)
	}
	stage := sw.stop()
	if res.Engine != "" {
		rep.Engine, rep.EngineReason = res.Engine, res.EngineReason
	}
	if err != nil {
		rep.Failed(stage)
		if errors.Is(err, ErrTooManyPages) || errors.Is(err, ErrTimeout) {
			// A render refused for its size may have grown the heap to its
			// limits (a layout up to the page cap); a fill over its budget
			// has already released its own (execBudget).
			memory.Release()
		}
		return Result{Report: rep}, err
	}
	rep.Fields = res.Report.Fields
	res.Report = rep
	return res, nil
}

func (r *Renderer) render(ctx context.Context, req Request, sw *stopwatch, start time.Time) (Result, error) {
	if req.Data == nil {
		req.Data = map[string]any{}
	}
	if req.Version.PDF != nil {
		return r.renderPDFTemplate(ctx, req, sw, start)
	}
	sw.enter(StageFilling)
	if err := req.Version.Manifest.DataSchema.Validate(req.Data); err != nil {
		return Result{}, err
	}
	if err := checkEngineName(req.Engine); err != nil {
		return Result{}, err
	}
	sw.enter(StageQueued)
	release, err := r.slot(ctx, req.Queue)
	if err != nil {
		return Result{}, err
	}
	defer release()
	budget, what := r.budget(req)
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()

	sw.enter(StageFilling)
	job, err := r.job(req)
	if err != nil {
		return Result{}, err
	}
	job.Org, job.OrgPages = req.Org, req.OrgPages
	sw.enter(StageRendering)
	found := &Findings{}
	job.Findings = found
	engine, choice, err := r.choose(ctx, req, job)
	if err != nil {
		return Result{}, err
	}
	sw.rep.Engine, sw.rep.EngineReason = choice.Engine, choice.Reason
	out, pages, err := printJob(ctx, engine, job)
	if err != nil && choice.auto && choice.Engine == EnginePhantom && errors.Is(err, ErrRender) && !errors.Is(err, ErrTooManyPages) && ctx.Err() == nil {
		// The default chose phantom and phantom failed on this document:
		// the default owes the caller a document, and chromium prints
		// what phantom supports too.
		if c, ok := r.engines[EngineChromium]; ok {
			engine = c
			choice = Choice{Engine: EngineChromium, Reason: "the platform default: phantom failed on this document, so chromium printed it"}
			sw.rep.Engine, sw.rep.EngineReason = choice.Engine, choice.Reason
			*found = Findings{}
			out, pages, err = printJob(ctx, engine, job)
		}
	}
	// A render past its budget is refused even when the engine finished
	// it (phantom looks at the clock between pages and boxes, not after
	// the last): the outcome does not depend on where the clock was read.
	// The deadline is read, not only ctx.Err(): the timer that sets the
	// error may not have run yet on a busy machine.
	dl, _ := ctx.Deadline()
	late := ctx.Err() != nil || !time.Now().Before(dl)
	if err != nil || late {
		sw.rep.found(found)
		if late {
			return Result{}, fmt.Errorf("%w: the %s took longer than %s to render", ErrTimeout, what, seconds(budget))
		}
		return Result{}, err
	}
	sw.rep.found(found)
	res := Result{Engine: choice.Engine, EngineReason: choice.Reason}
	sw.enter(StageCounting)
	wm := req.Watermark
	if wm != nil && job.PDFA != "" {
		embedded := *wm
		embedded.embed = true
		wm = &embedded
	}
	if pages < 0 {
		res, err = r.finish(out, wm, res, start, sw)
	} else {
		res, err = r.finishCounted(out, pages, wm, res, start, sw)
	}
	if err == nil && (job.PDFA != "" || job.PDFUA) {
		res.conform = &job
	}
	return res, err
}

// sign signs the finished PDF, the last step: nothing changes it after.
// The signature time is the node's clock; a B-T signature's time-stamp is
// the authority's.
func (r *Renderer) sign(ctx context.Context, req Request, res Result, sw *stopwatch) (Result, error) {
	sw.enter(StageSigning)
	s := req.Sign
	pdfa := res.conform != nil
	signed, sig, err := sign.PDF(ctx, res.PDF, sign.Options{Identity: s.Identity, Reason: s.Reason, Location: s.Location,
		Visible: s.Visible, EmbedFonts: pdfa, Time: time.Now(), TSA: s.TSA})
	if err != nil {
		// No PDF was made: the report describes none.
		sw.rep.Bytes, sw.rep.SHA256 = 0, ""
		return Result{}, fmt.Errorf("%w: %w", ErrSign, err)
	}
	sw.rep.Output(signed)
	res.PDF, res.Signature = signed, &sig
	return res, nil
}

// printJob runs one engine on the job; pages is -1 when the engine does not
// count them itself.
func printJob(ctx context.Context, e Engine, job Job) ([]byte, int, error) {
	if pc, ok := e.(PageCounter); ok {
		return pc.RenderCounted(ctx, job)
	}
	out, err := e.Render(ctx, job)
	return out, -1, err
}

// A PageCounter is an engine that knows how many pages it printed. The
// renderer then takes its count instead of reading the PDF back with pdfcpu
// to count them, which costs about as much as writing a phantom letter
// (a quarter of its render); the page cap is checked on the count all the
// same.
type PageCounter interface {
	// RenderCounted is Render that also returns the PDF's page count.
	RenderCounted(ctx context.Context, job Job) (pdf []byte, pages int, err error)
}

// job fills the version's markup, header and footer with the data: the job
// an engine prints.
func (r *Renderer) job(req Request) (Job, error) {
	opt := FillOptions{CacheKey: req.CacheKey, Now: req.Now, Limits: r.cfg.Fill}
	var attachments []Attachment
	var xmp string
	if e := req.Version.Manifest.EInvoice; e != nil {
		var err error
		if req.Data, attachments, xmp, err = eInvoiceJob(e, req.Data); err != nil {
			return Job{}, err
		}
	}
	filled, err := Fill(req.Version, req.Data, opt)
	if err != nil {
		return Job{}, err
	}
	// Data can write CSS too: the filled page is checked as the sample's
	// was at save.
	if err := checkPageRules(filled); err != nil {
		return Job{}, fmt.Errorf("%w: %v", ErrFill, err)
	}
	header, footer, err := FillHeaderFooter(req.Version, req.Data, opt)
	if err != nil {
		return Job{}, err
	}
	g := req.Version.Manifest.Geometry()
	pdfa := req.Version.Manifest.PDFA
	if req.PDFA != "" {
		pdfa = req.PDFA
	}
	pdfua := req.Version.Manifest.PDFUA == "1" || req.PDFUA == "1"
	page := Document(filled, g, "")
	if req.Version.Manifest.TaggedPDF || pdfua {
		page = withLang(page, req.Version.Manifest.Locale)
	}
	return Job{HTML: page, Geometry: g, Tagged: req.Version.Manifest.TaggedPDF || pdfua, PDFA: pdfa, PDFUA: pdfua,
		Attachments: attachments, XMP: xmp, Header: header, Footer: footer}, nil
}

// finish counts a printed or filled PDF's pages against the cap, stamps
// the watermark when asked, and completes res.
func (r *Renderer) finish(out []byte, w *Watermark, res Result, start time.Time, sw *stopwatch) (Result, error) {
	pages, err := pdf.PageCount(out)
	if err != nil {
		return Result{}, fmt.Errorf("%w: %v", ErrRender, err)
	}
	return r.finishCounted(out, pages, w, res, start, sw)
}

// finishCounted is finish with the PDF's pages already counted.
// The watermark's stamping is timed as rendering, and the sha256 as
// counting.
func (r *Renderer) finishCounted(out []byte, pages int, w *Watermark, res Result, start time.Time, sw *stopwatch) (Result, error) {
	if pages > r.cfg.MaxPages {
		return Result{}, fmt.Errorf("%w: %d pages; a document may have at most %d", ErrTooManyPages, pages, r.cfg.MaxPages)
	}
	if w != nil {
		sw.enter(StageRendering)
		var err error
		stamp := pdf.Watermark
		if w.embed {
			stamp = pdf.WatermarkEmbedded
		}
		if out, err = stamp(out, w.Text, w.Notice); err != nil {
			return Result{}, fmt.Errorf("%w: %v", ErrRender, err)
		}
		sw.enter(StageCounting)
	}
	sw.rep.Output(out)
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

// Choice is the engine a document gets and why (docs/design.md "Engines").
type Choice struct {
	Engine string `json:"engine"`
	Reason string `json:"reason"`
	// auto is set when the platform default chose.
	auto bool
}

// chooseTimeout bounds the support check of Choose, which runs on a
// request's path outside the render queue.
const chooseTimeout = 5 * time.Second

// Choose says which engine would render the version with data, and why,
// without printing: what saving a version reports for its sample data.
// The answer for a version's own sample is kept (req.CacheKey names the
// immutable version), so reading a version again costs nothing.
func (r *Renderer) Choose(req Request) (Choice, error) {
	if req.Version.PDF != nil {
		return Choice{Engine: EnginePDFium, Reason: pdfiumReason}, nil
	}
	if req.Data == nil {
		req.Data = map[string]any{}
	}
	if err := checkEngineName(req.Engine); err != nil {
		return Choice{}, err
	}
	key := ""
	if req.CacheKey != "" && req.Engine == "" && req.PDFA == "" && req.PDFUA == "" {
		key = req.CacheKey
		if c, ok := r.choices.get(key); ok {
			return c, nil
		}
	}
	job, err := r.job(req)
	if err != nil {
		return Choice{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), chooseTimeout)
	defer cancel()
	_, c, err := r.choose(ctx, req, job)
	if err == nil && key != "" && ctx.Err() == nil {
		r.choices.put(key, c)
	}
	return c, err
}

// pdfiumReason is why a template made from an uploaded PDF gets pdfium.
const pdfiumReason = "a template made from an uploaded PDF is filled in the PDF itself"

func checkEngineName(name string) error {
	switch name {
	case "", EnginePhantom, EngineChromium:
		return nil
	}
	return fault.Invalid("engine", "must be phantom or chromium")
}

// choose picks the engine for a filled job: the request's, else the
// manifest's, else the platform default. A name always gets that engine
// when this node has it; the default gives phantom only what it supports.
// This is the one place the rule lives.
func (r *Renderer) choose(ctx context.Context, req Request, job Job) (Engine, Choice, error) {
	if job.PDFA != "" || job.PDFUA {
		return r.choosePDFA(ctx, req, job)
	}
	name, why := req.Engine, "asked for by the request"
	if name == "" {
		name, why = req.Version.Manifest.Engine, "asked for by the template"
	}
	if name == "" {
		name, why = r.cfg.DefaultEngine, "the platform default"
	}
	if name == "" || name == DefaultAuto { // "": a zero config gets the shipped default
		return r.auto(ctx, job)
	}
	e, ok := r.engines[name]
	if !ok {
		other := EngineChromium
		if name == EngineChromium {
			other = EnginePhantom
		}
		if e, ok = r.engines[other]; !ok {
			return nil, Choice{}, fmt.Errorf("%w: no engine can render documents on this node", ErrRender)
		}
		return e, Choice{Engine: other, Reason: fmt.Sprintf("%s is %s, which this node does not run", why, name)}, nil
	}
	reason := why
	if j, ok := e.(Judge); ok {
		if missing := j.Unsupported(ctx, job); len(missing) > 0 {
			reason += "; " + name + " ignored what it does not support: " + listed(missing)
		}
	}
	return e, Choice{Engine: name, Reason: reason}, nil
}

// choosePDFA chooses the engine of a PDF/A document: phantom writes it,
// so a request that names chromium, or a document using what phantom does
// not support, is refused with the reason (Chromium's output is not made
// to conform: it writes a PDF 1.5 key into files labelled 1.4, for one).
func (r *Renderer) choosePDFA(ctx context.Context, req Request, job Job) (Engine, Choice, error) {
	level := Standards(job.PDFA, job.PDFUA)
	if req.Engine == EngineChromium {
		return nil, Choice{}, fmt.Errorf("%w: the template asks for %s, which phantom writes, and the request names chromium", ErrRender, level)
	}
	p, ok := r.engines[EnginePhantom]
	if !ok {
		return nil, Choice{}, fmt.Errorf("%w: the template asks for %s, which phantom writes, and this node does not run phantom", ErrRender, level)
	}
	if j, ok := p.(Judge); ok {
		if missing := j.Unsupported(ctx, job); len(missing) > 0 {
			return nil, Choice{}, fmt.Errorf("%w: the template asks for %s, which phantom writes, and phantom does not support %s; remove it or drop %s", ErrRender, level, listed(missing), standardKeys(job))
		}
	}
	return p, Choice{Engine: EnginePhantom, Reason: level + " is written by phantom"}, nil
}

// Standards names the standards a document claims: "PDF/A-3b",
// "PDF/UA-1", "PDF/A-3b and PDF/UA-1".
func Standards(pdfa string, pdfua bool) string {
	var s []string
	if pdfa != "" {
		s = append(s, "PDF/A-"+pdfa)
	}
	if pdfua {
		s = append(s, "PDF/UA-1")
	}
	return strings.Join(s, " and ")
}

// standardKeys is the manifest keys that ask for a job's standards.
func standardKeys(job Job) string {
	switch {
	case job.PDFA != "" && job.PDFUA:
		return "pdfa and pdfua"
	case job.PDFUA:
		return "pdfua"
	}
	return "pdfa"
}

// auto is the platform default: phantom when it supports everything the
// job uses, chromium otherwise, saying what sent it there.
func (r *Renderer) auto(ctx context.Context, job Job) (Engine, Choice, error) {
	p, hasP := r.engines[EnginePhantom]
	c, hasC := r.engines[EngineChromium]
	switch {
	case hasP && !hasC:
		return p, Choice{Engine: EnginePhantom, Reason: "the platform default; chromium does not run on this node"}, nil
	case !hasP && !hasC:
		return nil, Choice{}, fmt.Errorf("%w: no engine can render documents on this node", ErrRender)
	case !hasP:
		return c, Choice{Engine: EngineChromium, Reason: "the platform default; phantom does not run on this node"}, nil
	}
	j, ok := p.(Judge)
	if !ok {
		return p, Choice{Engine: EnginePhantom, Reason: "the platform default", auto: true}, nil
	}
	missing := j.Unsupported(ctx, job)
	if len(missing) == 0 {
		return p, Choice{Engine: EnginePhantom, Reason: "the platform default: phantom supports everything the document uses", auto: true}, nil
	}
	return c, Choice{Engine: EngineChromium, Reason: "the platform default: phantom does not support " + listed(missing), auto: true}, nil
}

// listed names at most five items, and at most 400 bytes of them: a reason
// travels in records, events and headers, and a document with thousands of
// unknown properties must not make it big.
func listed(items []string) string {
	const shown, maxBytes = 5, 400
	list := items
	if len(list) > shown {
		list = append(list[:shown:shown], fmt.Sprintf("and %d more", len(items)-shown))
	}
	s := strings.Join(list, ", ")
	if len(s) > maxBytes {
		cut := maxBytes
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// choiceCache keeps the engine choice of versions' own samples, by version
// key: versions and their samples never change. Bounded; when full it
// starts again, which costs only a support check per version.
type choiceCache struct {
	mu sync.Mutex // guards m
	m  map[string]Choice
}

const choicesKept = 4096

func (c *choiceCache) get(key string) (Choice, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch, ok := c.m[key]
	return ch, ok
}

func (c *choiceCache) put(key string, ch Choice) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= choicesKept {
		c.m = map[string]Choice{}
	}
	c.m[key] = ch
}
