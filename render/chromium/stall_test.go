package chromium

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/platen/platen/internal/tier"
	"github.com/platen/platen/render"
)

// hangLimit is how long a call may take before a test calls it hung: far
// beyond any budget the tests give, so it only ever catches a hang.
const hangLimit = 90 * time.Second

// renderWithin renders with budget and fails the test if Render has not
// returned hangLimit later.
func renderWithin(t *testing.T, e *Engine, budget time.Duration, job render.Job) ([]byte, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	type result struct {
		pdf []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		pdf, err := e.Render(ctx, job)
		done <- result{pdf, err}
	}()
	select {
	case r := <-done:
		return r.pdf, r.err
	case <-time.After(hangLimit):
		t.Fatalf("Render hung: no answer %s after its %s budget", hangLimit, budget)
		return nil, nil
	}
}

// TestPendingImagesDoNotStallThePrint renders, again and again, documents
// whose images are still loading when the engine waits for them: external
// images (their requests are refused, a round trip through the engine's
// request handler) and lazy ones below the fold. With scripts off, an
// image's load and error handlers never run, so a wait built on them never
// ended and the render ran out its whole budget.
func TestPendingImagesDoNotStallThePrint(t *testing.T) {
	e, err := New(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	docs := []string{
		`<p>external</p><img src="http://127.0.0.1:9/a.png"><img src="http://127.0.0.1:9/b.png"><img src="https://example.com/c.png">`,
		`<style>@font-face{font-family:X;src:url(http://127.0.0.1:9/x.woff2)}body{font-family:X}</style><p>font then images</p><img src="http://127.0.0.1:9/d.png">`,
		`<p>lazy</p><div style="height:500mm"></div><img loading="lazy" src="http://127.0.0.1:9/lazy.png"><img loading="lazy" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==">`,
		`<p>broken and empty</p><img><img src=""><img src="data:image/png;base64,AAAA">`,
	}
	for i := 0; i < 10; i++ {
		for _, d := range docs {
			pdf, err := renderWithin(t, e, 20*time.Second, render.Job{HTML: d, Geometry: a4()})
			if err != nil {
				t.Fatalf("round %d, %.20s…: %v", i, d, err)
			}
			if !strings.HasPrefix(string(pdf), "%PDF") {
				t.Fatal("no PDF")
			}
		}
	}
}

// TestFrozenBrowserEndsALargeRender freezes the browser and sends it a
// document larger than the socket's buffers: the write that carries it can
// never finish. The render must still end at its budget, and the pool heal.
func TestFrozenBrowserEndsALargeRender(t *testing.T) {
	tier.Full(t, "freezes a browser and waits out its budget")
	cfg := DefaultConfig()
	cfg.ProbeTimeout = 500 * time.Millisecond
	cfg.StallTimeout = time.Second
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	renderEventually(t, e, 1)
	old := e.ProcessTree()
	for _, p := range old {
		syscall.Kill(p, syscall.SIGSTOP)
	}
	big := "<p>" + strings.Repeat("filler text ", 3<<20) + "</p>" // 36 MB
	if _, err := renderWithin(t, e, 3*time.Second, render.Job{HTML: big, Geometry: a4()}); err == nil {
		t.Fatal("a render on a frozen browser succeeded")
	}
	renderEventually(t, e, 4)
	if e.Restarts() < 1 {
		t.Fatal("frozen browser not replaced")
	}
	assertGone(t, old)
}

// TestBrowserThatNeverStartsEndsTheRender starts a "browser" that never
// answers: the render ends at its budget with an error, the process the
// engine started is stopped, and the next render tries again.
func TestBrowserThatNeverStartsEndsTheRender(t *testing.T) {
	tier.Full(t, "waits out a browser that never starts")
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	bin := filepath.Join(dir, "chromium")
	script := fmt.Sprintf("#!/bin/sh\necho $$ >> %s\nexec sleep 600\n", pidFile)
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Bin = bin
	cfg.StartTimeout = 2 * time.Second
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for i := 0; i < 2; i++ {
		_, err := renderWithin(t, e, 10*time.Second, render.Job{HTML: "<p>x</p>", Geometry: a4()})
		if !errors.Is(err, render.ErrRender) {
			t.Fatalf("render %d: %v, want a render error", i, err)
		}
	}
	raw, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range strings.Fields(string(raw)) {
		p, _ := strconv.Atoi(f)
		pids = append(pids, p)
	}
	if len(pids) != 2 {
		t.Fatalf("started %d times, want once per render: %v", len(pids), pids)
	}
	assertGone(t, pids)
}
