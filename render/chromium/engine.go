package chromium

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"

	"github.com/platen/platen/render"
)

// Config is the engine's settings.
type Config struct {
	// Bin is the Chromium executable.
	Bin string
	// Pages is how many documents print at once.
	Pages int
	// Logger receives the engine's warnings.
	Logger *slog.Logger
	// RecycleAfter restarts the browser after this many renders, so leaks in
	// a long-lived browser cannot build up.
	RecycleAfter int
	// RecycleAboveBytes restarts the browser when its processes together hold
	// more memory (PSS) than this; checked every few renders.
	RecycleAboveBytes int64
	// ProbeTimeout bounds the check that the browser still answers.
	ProbeTimeout time.Duration
	// StartTimeout bounds a browser's start: the process, its DevTools
	// address, the connection and the pool's pages. A start that takes longer
	// is abandoned and its process killed; the next render starts again.
	StartTimeout time.Duration
	// StallTimeout is how long a write to the browser may make no progress
	// before the browser is taken for frozen and its connection closed.
	StallTimeout time.Duration
	// RenderTimeout bounds a render whose context has no deadline of its own.
	RenderTimeout time.Duration
	// MaxPages is the page cap (render.RendererConfig.MaxPages): a document
	// measured, once laid out, to print more is refused before its print,
	// which would cost far more than the layout (measure.go). 0 measures
	// nothing.
	MaxPages int
	// OrgPages is how many of the pages one organisation's documents may
	// hold at once when their job names no share of its own
	// (render.Job.OrgPages); 0 means half the pages, rounded up. Held to at
	// least 1 and at most Pages.
	OrgPages int
	// Fonts names the machine's fonts in documents' reports; without it a
	// report names fonts by their PostScript names and finds no
	// substitutions. The node gives phantom's font system, which resolves
	// families as Blink does (render/phantom/fonts).
	Fonts FontNames
}

// FontNames is what a document's report needs of the machine's fonts.
type FontNames interface {
	// FamilyOf is the family of the face with a PostScript name.
	FamilyOf(postScriptName string) (family string, ok bool)
	// FirstFamily is the family of the face Blink sets a CSS font-family
	// list in, and whether that face lacks the list's first family, named
	// (not generic): a substitution.
	FirstFamily(families []string) (used string, substituted bool)
}

// DefaultConfig returns Debian's Chromium with two pages: one per core here;
// more pages than cores only queue inside Chromium. A browser is recycled
// after 2,000 renders or above 1.5 GiB; a one-page invoice leaves it near
// 300 MB, so either is a sign of growth, not of normal work. A browser
// starts here in about a second; 30 s is a browser that will not start.
// The page cap is the platform's (docs/design.md "Limits"). An
// organisation holds at most half the pages (OrgPages 0), rounded up: with
// two pages one organisation's slow documents leave the other page to
// everyone else, and with one page there is nothing to share.
func DefaultConfig() Config {
	return Config{Bin: "/usr/bin/chromium", Pages: 2, Logger: slog.Default(), RecycleAfter: 2000,
		RecycleAboveBytes: 1536 << 20, ProbeTimeout: 3 * time.Second, StartTimeout: 30 * time.Second,
		StallTimeout: 10 * time.Second, RenderTimeout: 60 * time.Second, MaxPages: render.DefaultRendererConfig().MaxPages}
}

// DefaultOrgPages is the share of Config.OrgPages 0: half of pages,
// rounded up, at least 1.
func DefaultOrgPages(pages int) int { return max(1, (pages+1)/2) }

// memoryCheckEvery is how many renders pass between two memory checks:
// reading every process's smaps costs a few milliseconds.
const memoryCheckEvery = 50

// Engine prints documents on a pool of Chromium pages.
//
// Nothing in it waits on the browser without a bound: a start is bounded by
// StartTimeout, every call during a render by the render's context, a write
// by StallTimeout, and a render returns at its deadline even while the page
// it used is still being replaced.
type Engine struct {
	cfg     Config
	dataDir string

	// life is held while a browser starts, restarts or stops. It is a
	// channel, not a mutex, so that a render waiting for a start can give
	// up at its deadline.
	life chan struct{}

	mu      sync.Mutex // guards the fields below
	cur     *instance  // the running browser; nil before a start and after a failed one
	started bool
	closed  bool
	// renders counts renders on the current browser; active those running.
	renders int
	active  int
	// recycle is set when the browser should be restarted once idle.
	recycle bool
	// restarts counts browser restarts, for tests and metrics.
	restarts int

	pages chan *page
	// shares holds each organisation to its share of the pages.
	shares *shares
}

// page is a pooled tab and the goroutine that blocks its requests.
type page struct {
	p      *rod.Page
	in     *instance // the browser it belongs to
	cancel context.CancelFunc

	mu sync.Mutex // guards job and refused
	// job is the print under way on the page, 0 between prints: begin
	// and end change it, and a refusal is recorded only for the job that
	// was current when its event reached the page's goroutine. Pages are
	// reused across organisations' documents, and an event of one print
	// (a print-only background URL, say) may be handled after the next
	// print began; it must not land in that document's report.
	job  uint64
	jobs uint64 // the last job handed out
	// refused is what the page asked for and was refused during job: the
	// document's failed assets.
	refused []string
}

// current is the job a request event is handled for: read once, as the
// event arrives, and passed to refuse.
func (pg *page) current() uint64 {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	return pg.job
}

// refuse records a request the page was refused during job; a request of
// another job, or of none, is dropped.
func (pg *page) refuse(job uint64, url string) {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if job == 0 || job != pg.job {
		return
	}
	if len(pg.refused) < 256 {
		pg.refused = append(pg.refused, url)
	}
}

// begin starts a new job on the page, with nothing refused, and returns
// it.
func (pg *page) begin() uint64 {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	pg.jobs++
	pg.job = pg.jobs
	pg.refused = nil
	return pg.job
}

// end closes job and returns what it was refused; from then on the page
// records nothing until the next begin. An end of a job that is no longer
// current returns nothing.
func (pg *page) end(job uint64) []string {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if job != pg.job {
		return nil
	}
	out := pg.refused
	pg.job, pg.refused = 0, nil
	return out
}

var _ render.Engine = (*Engine)(nil)

// New returns an engine; Chromium starts on the first Render, or at Start.
func New(cfg Config) (*Engine, error) {
	if cfg.Pages < 1 {
		return nil, errors.New("chromium: at least one page")
	}
	def := DefaultConfig()
	if cfg.Logger == nil {
		cfg.Logger = def.Logger
	}
	if cfg.ProbeTimeout <= 0 {
		cfg.ProbeTimeout = def.ProbeTimeout
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = def.StartTimeout
	}
	if cfg.StallTimeout <= 0 {
		cfg.StallTimeout = def.StallTimeout
	}
	if cfg.RenderTimeout <= 0 {
		cfg.RenderTimeout = def.RenderTimeout
	}
	if cfg.OrgPages <= 0 {
		cfg.OrgPages = DefaultOrgPages(cfg.Pages)
	}
	if cfg.MaxPages < 0 {
		return nil, errors.New("chromium: the page cap cannot be negative")
	}
	if _, err := os.Stat(cfg.Bin); err != nil {
		return nil, fmt.Errorf("chromium: %s not found (scripts/install-deps.sh installs it): %w", cfg.Bin, err)
	}
	dir, err := os.MkdirTemp("", "platen-chromium-")
	if err != nil {
		return nil, err
	}
	return &Engine{cfg: cfg, dataDir: dir, life: make(chan struct{}, 1), pages: make(chan *page, cfg.Pages),
		shares: newShares(cfg.OrgPages, cfg.Pages)}, nil
}

// Start launches Chromium now unless it runs already, within StartTimeout;
// a failed start is tried again by the next Render.
func (e *Engine) Start() error { return e.start(context.Background()) }

// Name is "chromium".
func (e *Engine) Name() string { return render.EngineChromium }

// hold takes e.life, or gives up when ctx ends first.
func (e *Engine) hold(ctx context.Context) error {
	select {
	case e.life <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("waited for the browser to start: %w", ctx.Err())
	}
}

func (e *Engine) release() { <-e.life }

// start launches the browser unless it runs.
func (e *Engine) start(ctx context.Context) error {
	e.mu.Lock()
	closed, started := e.closed, e.started
	e.mu.Unlock()
	if closed {
		return ErrClosed
	}
	if started {
		return nil
	}
	if err := e.hold(ctx); err != nil {
		return err
	}
	defer e.release()
	return e.startHeld(ctx)
}

// startHeld launches the browser unless it runs, and fills the pool; e.life
// is held.
func (e *Engine) startHeld(ctx context.Context) error {
	e.mu.Lock()
	closed, started := e.closed, e.started
	e.mu.Unlock()
	if closed {
		return ErrClosed
	}
	if started {
		return nil
	}
	in, pages, err := e.launch(ctx)
	if err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed { // cannot happen while e.life is held; kept for safety
		in.kill()
		return ErrClosed
	}
	e.cur, e.started = in, true
	for _, p := range pages {
		select {
		case e.pages <- p:
		default: // drained before every start: cannot happen
			p.cancel()
		}
	}
	return nil
}

// launch starts a browser and opens its pages, within ctx and StartTimeout.
// It changes nothing in e: startHeld installs what it returns.
func (e *Engine) launch(ctx context.Context) (*instance, []*page, error) {
	ctx, cancel := context.WithTimeout(ctx, e.cfg.StartTimeout)
	defer cancel()
	args := launcher.New().Headless(true).NoSandbox(true).UserDataDir(e.dataDir).
		Set("disable-gpu").Set("disable-background-networking").Set("disable-component-update").
		Set("disable-sync").Set("no-first-run").Set("disable-default-apps").Set("disable-extensions").
		Set("disable-quic").Set("mute-audio").Set("disable-breakpad").Set("disable-dev-shm-usage").
		// Nothing leaves: a proxy that does not exist, no loopback bypass,
		// no name resolution, no WebRTC around the proxy.
		Set("proxy-server", "127.0.0.1:9").Set("proxy-bypass-list", "<-loopback>").
		Set("host-resolver-rules", "MAP * ~NOTFOUND").
		Set("force-webrtc-ip-handling-policy", "disable_non_proxied_udp").
		FormatArgs()
	in, u, err := spawn(ctx, e.cfg.Bin, args)
	if err != nil {
		return nil, nil, fmt.Errorf("chromium: launch: %w", err)
	}
	// The browser runs. Should ctx end before the pool is ready, it is
	// killed by its pid, which fails every call still waiting on it.
	watchdog := context.AfterFunc(ctx, in.kill)
	var pages []*page
	fail := func(err error) (*instance, []*page, error) {
		watchdog()
		for _, p := range pages {
			p.cancel()
		}
		in.kill()
		if ctx.Err() != nil {
			err = fmt.Errorf("%w (start took longer than allowed: %v)", err, ctx.Err())
		}
		return nil, nil, err
	}
	ws := &cdp.WebSocket{Dialer: stallDialer{stall: e.cfg.StallTimeout}}
	if err := ws.Connect(ctx, u, nil); err != nil {
		return fail(fmt.Errorf("chromium: connect: %w", err))
	}
	in.b = rod.New().Client(cdp.New().Start(ws))
	if err := in.b.Connect(); err != nil {
		return fail(fmt.Errorf("chromium: connect: %w", err))
	}
	for i := 0; i < e.cfg.Pages; i++ {
		p, err := e.newPage(in)
		if err != nil {
			return fail(err)
		}
		pages = append(pages, p)
	}
	if !watchdog() {
		// ctx ended as the pool became ready: the watchdog is killing it.
		return fail(fmt.Errorf("chromium: start: %w", ctx.Err()))
	}
	return in, pages, nil
}

// newPage opens a locked-down tab. Its calls have no deadline of their own:
// the caller kills the browser when its time is up, which ends them.
func (e *Engine) newPage(in *instance) (*page, error) {
	p, err := in.b.Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		return nil, fmt.Errorf("chromium: new page: %w", err)
	}
	if err := (proto.EmulationSetScriptExecutionDisabled{Value: true}).Call(p); err != nil {
		_ = p.Timeout(e.cfg.ProbeTimeout).Close()
		return nil, fmt.Errorf("chromium: disable scripts: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	guarded := p.Context(ctx)
	pg := &page{p: p, in: in, cancel: cancel}
	wait := guarded.EachEvent(func(ev *proto.FetchRequestPaused) {
		if strings.HasPrefix(ev.Request.URL, "data:") {
			_ = proto.FetchContinueRequest{RequestID: ev.RequestID}.Call(guarded)
			return
		}
		job := pg.current()
		pg.refuse(job, ev.Request.URL) // before the answer, which lets the print go on
		_ = proto.FetchFailRequest{RequestID: ev.RequestID, ErrorReason: proto.NetworkErrorReasonBlockedByClient}.Call(guarded)
	})
	go wait()
	if err := (proto.FetchEnable{Patterns: []*proto.FetchRequestPattern{{URLPattern: "*"}}}).Call(p); err != nil {
		cancel()
		_ = p.Timeout(e.cfg.ProbeTimeout).Close()
		return nil, fmt.Errorf("chromium: enable request blocking: %w", err)
	}
	return pg, nil
}

// ErrClosed is returned by Render after Close.
var ErrClosed = errors.New("chromium engine closed")

// Render prints one document on a pooled page. It returns by ctx's deadline
// (RenderTimeout when ctx has none) whatever the browser does; a page that
// failed is replaced in the background. A job of an organisation that holds
// its share of the pages (job.OrgPages, else OrgPages) waits for one of
// them to come back, behind that organisation's earlier jobs.
func (e *Engine) Render(ctx context.Context, job render.Job) ([]byte, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, e.cfg.RenderTimeout)
		defer cancel()
	}
	e.maybeRecycle(ctx)
	if err := e.start(ctx); err != nil {
		return nil, fmt.Errorf("%w: %v", render.ErrRender, err)
	}
	if err := e.shares.acquire(ctx, job.Org, job.OrgPages); err != nil {
		return nil, err
	}
	pg, err := e.take(ctx)
	if err != nil {
		e.shares.release(job.Org)
		return nil, err
	}
	e.mu.Lock()
	e.active++
	e.mu.Unlock()
	type result struct {
		pdf []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		// The organisation holds the page until it is back in the pool.
		defer e.shares.release(job.Org)
		pdf, err := e.print(ctx, pg, job)
		if err == nil {
			e.put(pg)
			e.rendered()
			done <- result{pdf, nil}
			return
		}
		done <- result{nil, err}
		// The page may be wedged or its browser gone, or hold a document
		// refused before its print: replace it, after the render has its
		// answer.
		e.put(e.heal(pg))
		e.rendered()
	}()
	select {
	case r := <-done:
		return r.pdf, r.err
	case <-ctx.Done():
		select {
		case r := <-done:
			return r.pdf, r.err
		default:
		}
		return nil, fmt.Errorf("%w: %v", render.ErrRender, ctx.Err())
	}
}

// take waits for a free page of the running browser.
func (e *Engine) take(ctx context.Context) (*page, error) {
	for {
		select {
		case pg := <-e.pages:
			e.mu.Lock()
			stale := pg.in != e.cur
			e.mu.Unlock()
			if stale {
				pg.cancel()
				continue
			}
			return pg, nil
		case <-ctx.Done():
			return nil, fmt.Errorf("%w: waited for a free page: %v", render.ErrRender, ctx.Err())
		}
	}
}

// put returns a page to the pool, unless its browser was replaced or the
// engine closed meanwhile.
func (e *Engine) put(pg *page) {
	if pg == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed || pg.in != e.cur {
		pg.cancel()
		return
	}
	select {
	case e.pages <- pg:
	default: // the pool is full: it never is, as it holds one page per slot
		pg.cancel()
	}
}

// rendered counts a finished render and decides whether the browser should be
// recycled before the next.
func (e *Engine) rendered() {
	e.mu.Lock()
	e.active--
	e.renders++
	check := e.renders%memoryCheckEvery == 0
	if e.cfg.RecycleAfter > 0 && e.renders >= e.cfg.RecycleAfter {
		e.recycle = true
	}
	pid := 0
	if e.cur != nil {
		pid = e.cur.pid
	}
	e.mu.Unlock()
	if check && e.cfg.RecycleAboveBytes > 0 && pid > 0 {
		if pss := TreePSS(pid); pss > e.cfg.RecycleAboveBytes {
			e.cfg.Logger.Info("chromium: memory above the recycle threshold", "pss_bytes", pss)
			e.mu.Lock()
			e.recycle = true
			e.mu.Unlock()
		}
	}
}

// maybeRecycle restarts the browser when it is due and nothing renders on it.
func (e *Engine) maybeRecycle(ctx context.Context) {
	e.mu.Lock()
	due := e.recycle && e.active == 0 && !e.closed && e.cur != nil
	cur := e.cur
	e.mu.Unlock()
	if !due {
		return
	}
	if err := e.restart(ctx, cur); err != nil && !errors.Is(err, ErrClosed) {
		e.cfg.Logger.Error("chromium: recycle failed", "err", err)
	}
}

// Restarts is how many times the browser was restarted (healed or recycled).
func (e *Engine) Restarts() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.restarts
}

// printParams is Page.printToPDF's parameters. rod's own struct marks
// generateTaggedPDF omitempty, so false would never be sent and Chromium
// would tag anyway; this one always sends it.
type printParams struct {
	PaperWidth          float64 `json:"paperWidth"`
	PaperHeight         float64 `json:"paperHeight"`
	MarginTop           float64 `json:"marginTop"`
	MarginBottom        float64 `json:"marginBottom"`
	MarginLeft          float64 `json:"marginLeft"`
	MarginRight         float64 `json:"marginRight"`
	PrintBackground     bool    `json:"printBackground"`
	PreferCSSPageSize   bool    `json:"preferCSSPageSize"`
	GenerateTaggedPDF   bool    `json:"generateTaggedPDF"`
	DisplayHeaderFooter bool    `json:"displayHeaderFooter"`
	HeaderTemplate      string  `json:"headerTemplate,omitempty"`
	FooterTemplate      string  `json:"footerTemplate,omitempty"`
}

// emptyHeaderFooter replaces a missing header or footer: left empty, Chromium
// would print its own date and title there.
const emptyHeaderFooter = "<span></span>"

const mmPerInch = 25.4

// assetWait bounds the wait for a document's fonts and images before it
// prints: its own assets are data URIs and settle in milliseconds, and
// anything else is refused at once.
const assetWait = 5 * time.Second

func (e *Engine) print(ctx context.Context, pg *page, job render.Job) ([]byte, error) {
	p := pg.p.Context(ctx)
	jobID := pg.begin()
	defer pg.end(jobID) // a failed print: what it was refused is nobody's
	if err := fitViewport(p, job.Geometry); err != nil {
		return nil, fmt.Errorf("%w: size the page: %v", render.ErrRender, err)
	}
	if err := p.SetDocumentContent(noRefresh(job.HTML)); err != nil {
		return nil, fmt.Errorf("%w: load document: %v", render.ErrRender, err)
	}
	// Images decode and fonts load after the content is set; printing before
	// they are ready drops them. The wait rests on promises the browser
	// settles itself (fonts.ready, and decode(), which settles when an image
	// has loaded or failed): with scripts off, an image's load and error
	// handlers never run, and a wait on them never ended when an image was
	// still loading, as a refused request often is. A lazy image below the
	// fold would not load until scrolled to, and its decode() would not
	// settle: lazy images are made eager first. The wait is bounded all the
	// same (assetWait): an image that has not settled by then is printed as
	// it stands, as a browser would, rather than failing the document.
	if _, err := p.Evaluate(rod.Eval(`() => { for (const i of document.images) if (i.loading === 'lazy') i.loading = 'eager' }`)); err != nil {
		return nil, fmt.Errorf("%w: load lazy images: %v", render.ErrRender, err)
	}
	// The wait answers with the images that failed to decode, for the
	// report.
	wctx, cancel := context.WithTimeout(ctx, assetWait)
	settled, err := pg.p.Context(wctx).Evaluate(rod.Eval(`() => document.fonts.ready.then(() => {
		const imgs = Array.from(document.images);
		return Promise.allSettled(imgs.map(i => i.decode())).then(rs =>
			rs.flatMap((r, n) => r.status === 'rejected' && (imgs[n].currentSrc || imgs[n].src) ? [imgs[n].currentSrc || imgs[n].src] : []));
	})`).ByPromise())
	cancel()
	if err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("%w: wait for fonts and images: %v", render.ErrRender, err)
	}
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return nil, fmt.Errorf("%w: wait for fonts and images: %v", render.ErrRender, err)
	}
	if err := checkPages(ctx, pg.p, job.Geometry, e.cfg.MaxPages); err != nil {
		return nil, err
	}
	g := job.Geometry
	params := printParams{
		PaperWidth: g.WidthMM / mmPerInch, PaperHeight: g.HeightMM / mmPerInch,
		MarginTop: g.MarginTop / mmPerInch, MarginBottom: g.MarginBottom / mmPerInch,
		MarginLeft: g.MarginLeft / mmPerInch, MarginRight: g.MarginRight / mmPerInch,
		PrintBackground: true, PreferCSSPageSize: true, GenerateTaggedPDF: job.Tagged,
	}
	if job.Header != "" || job.Footer != "" {
		params.DisplayHeaderFooter = true
		params.HeaderTemplate, params.FooterTemplate = job.Header, job.Footer
		if params.HeaderTemplate == "" {
			params.HeaderTemplate = emptyHeaderFooter
		}
		if params.FooterTemplate == "" {
			params.FooterTemplate = emptyHeaderFooter
		}
	}
	res, err := p.Call(ctx, string(p.SessionID), "Page.printToPDF", params)
	if err != nil {
		return nil, fmt.Errorf("%w: print: %v", render.ErrRender, err)
	}
	var out struct {
		Data string `json:"data"`
	}
	if err := json.Unmarshal(res, &out); err != nil {
		return nil, fmt.Errorf("%w: print answer: %v", render.ErrRender, err)
	}
	pdf, err := base64.StdEncoding.DecodeString(out.Data)
	if err != nil {
		return nil, fmt.Errorf("%w: print answer: %v", render.ErrRender, err)
	}
	if f := job.Findings; f != nil {
		var broken []string
		if settled != nil {
			for _, v := range settled.Value.Arr() {
				broken = append(broken, v.Str())
			}
		}
		find(f, job, pdf, pg.end(jobID), broken, e.cfg.Fonts)
	}
	// Free the document's memory before the page waits for its next job.
	_ = pg.p.Timeout(e.cfg.ProbeTimeout).SetDocumentContent("")
	return pdf, nil
}

// heal replaces a page after a failed render; if the browser itself is gone
// or frozen it restarts the browser. It returns the page to put back in the
// pool, or nil when the engine is closed or a restart put fresh pages in.
// Every step is bounded: it runs after its render has answered, and the pool
// is short of a page until it ends.
func (e *Engine) heal(pg *page) *page {
	pg.cancel()
	_ = pg.p.Timeout(e.cfg.ProbeTimeout).Close()
	e.mu.Lock()
	cur, closed := e.cur, e.closed
	e.mu.Unlock()
	if closed || pg.in != cur {
		// Closed, or a restart already refilled the pool with pages of a new browser.
		return nil
	}
	if _, err := (proto.BrowserGetVersion{}).Call(cur.b.Timeout(e.cfg.ProbeTimeout)); err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), e.cfg.StartTimeout)
		watchdog := context.AfterFunc(ctx, cur.kill) // a browser that cannot open a tab in that time is stuck
		np, err := e.newPage(cur)
		stopped := watchdog()
		cancel()
		if err == nil && stopped {
			return np
		}
		if err == nil {
			np.cancel()
		}
	}
	e.cfg.Logger.Warn("chromium: browser not answering; restarting it")
	if err := e.restart(context.Background(), cur); err != nil && !errors.Is(err, ErrClosed) {
		e.cfg.Logger.Error("chromium: restart failed", "err", err)
	}
	return nil
}

// restart kills old, when it is still the running browser, and starts a
// fresh one with a full pool, within ctx and StartTimeout. Pages still out
// with other renders belong to the dead browser: their renders fail and put
// drops them. When the start fails the engine is left unstarted, and the
// next render starts it.
func (e *Engine) restart(ctx context.Context, old *instance) error {
	if err := e.hold(ctx); err != nil {
		return err
	}
	defer e.release()
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return ErrClosed
	}
	if e.cur != old {
		// Replaced already, by another restart or a start after a failed one.
		e.mu.Unlock()
		return nil
	}
	e.cur, e.started = nil, false
	e.renders, e.recycle = 0, false
	e.restarts++
	e.drainLocked()
	e.mu.Unlock()
	if old != nil {
		old.kill()
		// The next browser uses the same profile: let this one let go of it.
		old.waitExit(5 * time.Second)
	}
	return e.startHeld(ctx)
}

// drainLocked empties the pool; e.mu is held.
func (e *Engine) drainLocked() {
	for {
		select {
		case pg := <-e.pages:
			pg.cancel()
		default:
			return
		}
	}
}

// Close stops the browser it started, by pid, and removes its profile.
func (e *Engine) Close() error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil
	}
	e.closed = true
	e.mu.Unlock()
	// A start under way ends within StartTimeout; none begins after this.
	e.life <- struct{}{}
	defer e.release()
	e.mu.Lock()
	cur := e.cur
	e.cur, e.started = nil, false
	e.drainLocked()
	e.mu.Unlock()
	if cur != nil {
		_ = cur.b.Timeout(5 * time.Second).Close()
		cur.kill()
		cur.waitExit(5 * time.Second)
	}
	return os.RemoveAll(e.dataDir)
}

// PID is the browser's process id.
func (e *Engine) PID() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cur == nil {
		return 0
	}
	return e.cur.pid
}

// refreshRE matches a <meta http-equiv="refresh"> element.
var refreshRE = regexp.MustCompile(`(?is)<meta\b[^>]*http-equiv\s*=\s*["']?\s*refresh[^>]*>`)

// noRefresh removes meta refreshes: with scripts off they are the one way a
// document navigates by itself, and a navigation while the page prints
// fails the render (its target is gone), whether or not the request it
// makes is blocked.
func noRefresh(html string) string { return refreshRE.ReplaceAllString(html, "") }
