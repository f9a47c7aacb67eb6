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
}

// DefaultConfig returns Debian's Chromium with two pages: one per core here;
// more pages than cores only queue inside Chromium. A browser is recycled
// after 2,000 renders or above 1.5 GiB; a one-page invoice leaves it near
// 300 MB, so either is a sign of growth, not of normal work.
func DefaultConfig() Config {
	return Config{Bin: "/usr/bin/chromium", Pages: 2, Logger: slog.Default(), RecycleAfter: 2000,
		RecycleAboveBytes: 1536 << 20, ProbeTimeout: 3 * time.Second}
}

// memoryCheckEvery is how many renders pass between two memory checks:
// reading every process's smaps costs a few milliseconds.
const memoryCheckEvery = 50

// Engine prints documents on a pool of Chromium pages.
type Engine struct {
	cfg     Config
	dataDir string

	mu       sync.Mutex // guards launcher, browser, started and closed
	launcher *launcher.Launcher
	browser  *rod.Browser
	started  bool
	closed   bool
	// renders counts renders on the current browser; active those running.
	renders int
	active  int
	// recycle is set when the browser should be restarted once idle.
	recycle bool
	// restarts counts browser restarts, for tests and metrics.
	restarts int

	pages chan *page
}

// page is a pooled tab and the goroutine that blocks its requests.
type page struct {
	p      *rod.Page
	b      *rod.Browser // the browser it belongs to
	cancel context.CancelFunc
}

var _ render.Engine = (*Engine)(nil)

// New returns an engine; Chromium starts on the first Render, or at Start.
func New(cfg Config) (*Engine, error) {
	if cfg.Pages < 1 {
		return nil, errors.New("chromium: at least one page")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if _, err := os.Stat(cfg.Bin); err != nil {
		return nil, fmt.Errorf("chromium: %s not found (scripts/install-deps.sh installs it): %w", cfg.Bin, err)
	}
	dir, err := os.MkdirTemp("", "platen-chromium-")
	if err != nil {
		return nil, err
	}
	return &Engine{cfg: cfg, dataDir: dir, pages: make(chan *page, cfg.Pages)}, nil
}

// Start launches Chromium now unless it runs already; a failed start is tried
// again by the next Render.
func (e *Engine) Start() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return ErrClosed
	}
	if e.started {
		return nil
	}
	if err := e.startLocked(); err != nil {
		return err
	}
	e.started = true
	return nil
}

// Name is "chromium".
func (e *Engine) Name() string { return render.EngineChromium }

// startLocked launches the browser and fills the pool; e.mu is held.
func (e *Engine) startLocked() error {
	l := launcher.New().Bin(e.cfg.Bin).Headless(true).NoSandbox(true).Leakless(true).UserDataDir(e.dataDir).
		Set("disable-gpu").Set("disable-background-networking").Set("disable-component-update").
		Set("disable-sync").Set("no-first-run").Set("disable-default-apps").Set("disable-extensions").
		Set("disable-quic").Set("mute-audio").Set("disable-breakpad").Set("disable-dev-shm-usage").
		// Nothing leaves: a proxy that does not exist, no loopback bypass,
		// no name resolution, no WebRTC around the proxy.
		Set("proxy-server", "127.0.0.1:9").Set("proxy-bypass-list", "<-loopback>").
		Set("host-resolver-rules", "MAP * ~NOTFOUND").
		Set("force-webrtc-ip-handling-policy", "disable_non_proxied_udp")
	u, err := l.Launch()
	if err != nil {
		return fmt.Errorf("chromium: launch: %w", err)
	}
	b := rod.New().ControlURL(u)
	if err := b.Connect(); err != nil {
		l.Kill()
		return fmt.Errorf("chromium: connect: %w", err)
	}
	e.launcher, e.browser = l, b
	for i := 0; i < e.cfg.Pages; i++ {
		p, err := e.newPage(b)
		if err != nil {
			l.Kill()
			return err
		}
		e.pages <- p
	}
	return nil
}

// newPage opens a locked-down tab.
func (e *Engine) newPage(b *rod.Browser) (*page, error) {
	p, err := b.Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		return nil, fmt.Errorf("chromium: new page: %w", err)
	}
	if err := (proto.EmulationSetScriptExecutionDisabled{Value: true}).Call(p); err != nil {
		p.Close()
		return nil, fmt.Errorf("chromium: disable scripts: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	guarded := p.Context(ctx)
	wait := guarded.EachEvent(func(ev *proto.FetchRequestPaused) {
		if strings.HasPrefix(ev.Request.URL, "data:") {
			_ = proto.FetchContinueRequest{RequestID: ev.RequestID}.Call(guarded)
			return
		}
		_ = proto.FetchFailRequest{RequestID: ev.RequestID, ErrorReason: proto.NetworkErrorReasonBlockedByClient}.Call(guarded)
	})
	go wait()
	if err := (proto.FetchEnable{Patterns: []*proto.FetchRequestPattern{{URLPattern: "*"}}}).Call(p); err != nil {
		cancel()
		p.Close()
		return nil, fmt.Errorf("chromium: enable request blocking: %w", err)
	}
	return &page{p: p, b: b, cancel: cancel}, nil
}

// ErrClosed is returned by Render after Close.
var ErrClosed = errors.New("chromium engine closed")

// Render prints one document on a pooled page.
func (e *Engine) Render(ctx context.Context, job render.Job) ([]byte, error) {
	if err := e.Start(); err != nil {
		return nil, fmt.Errorf("%w: %v", render.ErrRender, err)
	}
	e.maybeRecycle()
	var pg *page
	select {
	case pg = <-e.pages:
	case <-ctx.Done():
		return nil, fmt.Errorf("%w: waited for a free page: %v", render.ErrRender, ctx.Err())
	}
	if pg == nil {
		return nil, ErrClosed
	}
	e.mu.Lock()
	e.active++
	e.mu.Unlock()
	defer e.rendered()
	pdf, err := e.print(ctx, pg, job)
	if err != nil {
		// The page may be wedged or its browser gone: replace it.
		pg = e.heal(pg)
	}
	if pg != nil {
		e.pages <- pg
	}
	return pdf, err
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
	if e.launcher != nil {
		pid = e.launcher.PID()
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
func (e *Engine) maybeRecycle() {
	e.mu.Lock()
	due := e.recycle && e.active == 0 && !e.closed
	e.mu.Unlock()
	if !due {
		return
	}
	if err := e.restart(); err != nil {
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

func (e *Engine) print(ctx context.Context, pg *page, job render.Job) ([]byte, error) {
	p := pg.p.Context(ctx)
	if err := p.SetDocumentContent(noRefresh(job.HTML)); err != nil {
		return nil, fmt.Errorf("%w: load document: %v", render.ErrRender, err)
	}
	// Images decode and fonts load after the content is set; printing before
	// they are ready drops them.
	if _, err := p.Evaluate(rod.Eval(`() => document.fonts.ready.then(() => Promise.all(
		Array.from(document.images).map(i => i.complete ? null : new Promise(r => { i.onload = i.onerror = r }))))`).ByPromise()); err != nil {
		return nil, fmt.Errorf("%w: wait for fonts and images: %v", render.ErrRender, err)
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
	// Free the document's memory before the page waits for its next job.
	_ = pg.p.Timeout(e.cfg.ProbeTimeout).SetDocumentContent("")
	return pdf, nil
}

// heal replaces a page after a failed render; if the browser itself is gone
// it restarts the browser. It returns the page to put back in the pool, or nil
// when the engine is closed or the browser restart put fresh pages in.
func (e *Engine) heal(pg *page) *page {
	pg.cancel()
	// The browser may be frozen: nothing here may wait on it for long.
	_ = pg.p.Timeout(e.cfg.ProbeTimeout).Close()
	e.mu.Lock()
	b, closed := e.browser, e.closed
	e.mu.Unlock()
	if closed || pg.b != b {
		// Closed, or a restart already refilled the pool with pages of a new browser.
		return nil
	}
	if _, err := (proto.BrowserGetVersion{}).Call(b.Timeout(e.cfg.ProbeTimeout)); err == nil {
		if np, err := e.newPage(b); err == nil {
			return np
		}
	}
	e.cfg.Logger.Warn("chromium: browser not answering; restarting it")
	if err := e.restart(); err != nil {
		e.cfg.Logger.Error("chromium: restart failed", "err", err)
	}
	return nil
}

// restart kills the browser and starts a fresh one with a full pool. Pages
// still out with other renders belong to the dead browser: their renders fail
// and heal drops them.
func (e *Engine) restart() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return ErrClosed
	}
	if e.launcher != nil {
		e.launcher.Kill()
	}
	e.renders, e.recycle = 0, false
	e.restarts++
	// Drain the pool: its pages belong to the dead browser.
	for drained := false; !drained; {
		select {
		case pg := <-e.pages:
			pg.cancel()
		default:
			drained = true
		}
	}
	return e.startLocked()
}

// Close stops the browser it started, by pid, and removes its profile.
func (e *Engine) Close() error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil
	}
	e.closed = true
	b, l := e.browser, e.launcher
	e.mu.Unlock()
	done := make(chan struct{})
	go func() {
		if b != nil {
			_ = b.Close()
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
	}
	if l != nil {
		l.Kill()
		l.Cleanup()
	}
	return os.RemoveAll(e.dataDir)
}

// PID is the browser's process id.
func (e *Engine) PID() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.launcher == nil {
		return 0
	}
	return e.launcher.PID()
}

// refreshRE matches a <meta http-equiv="refresh"> element.
var refreshRE = regexp.MustCompile(`(?is)<meta\b[^>]*http-equiv\s*=\s*["']?\s*refresh[^>]*>`)

// noRefresh removes meta refreshes: with scripts off they are the one way a
// document navigates by itself, and a navigation while the page prints
// fails the render (its target is gone), whether or not the request it
// makes is blocked.
func noRefresh(html string) string { return refreshRE.ReplaceAllString(html, "") }
