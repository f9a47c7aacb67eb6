package chromium

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/platen/platen/internal/tier"
	"github.com/platen/platen/render"
)

// renderEventually renders until one succeeds, up to tries attempts: the
// render that meets a dead browser may fail, the pool must heal for the next.
func renderEventually(t *testing.T, e *Engine, tries int) {
	t.Helper()
	var err error
	for i := 0; i < tries; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err = e.Render(ctx, render.Job{HTML: "<p>after</p>", Geometry: a4()})
		cancel()
		if err == nil {
			return
		}
	}
	t.Fatalf("no render succeeded in %d tries: %v", tries, err)
}

func assertGone(t *testing.T, pids []int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		alive := 0
		for _, p := range pids {
			if running(p) {
				alive++
			}
		}
		if alive == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d processes of the old browser still run", alive)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestCrashedBrowserIsReplaced(t *testing.T) {
	e, err := New(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	renderEventually(t, e, 1)
	old := e.ProcessTree()
	if err := syscall.Kill(e.PID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	renderEventually(t, e, 4)
	if e.Restarts() < 1 || e.PID() == old[0] {
		t.Fatalf("browser not restarted: %d restarts, pid %d", e.Restarts(), e.PID())
	}
	assertGone(t, old)
}

func TestHungBrowserIsReplaced(t *testing.T) {
	tier.Full(t, "waits out a hung browser and restarts it")
	cfg := DefaultConfig()
	cfg.ProbeTimeout = 500 * time.Millisecond
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	renderEventually(t, e, 1)
	old := e.ProcessTree()
	for _, p := range old {
		syscall.Kill(p, syscall.SIGSTOP) // frozen, not dead
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	if _, err := e.Render(ctx, render.Job{HTML: "<p>stuck</p>", Geometry: a4()}); err == nil {
		t.Fatal("a render on a frozen browser succeeded")
	}
	cancel()
	renderEventually(t, e, 4)
	if e.Restarts() < 1 {
		t.Fatal("frozen browser not replaced")
	}
	assertGone(t, old)
}

func TestBrowserIsRecycledAfterNRenders(t *testing.T) {
	tier.Full(t, "restarts the browser after many renders")
	cfg := DefaultConfig()
	cfg.RecycleAfter = 5
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	renderEventually(t, e, 1)
	first := e.ProcessTree()
	for i := 0; i < 12; i++ {
		renderEventually(t, e, 1)
	}
	if r := e.Restarts(); r != 2 {
		t.Fatalf("%d restarts in 13 renders with recycling every 5, want 2", r)
	}
	assertGone(t, first)
	if pss := TreePSS(e.PID()); pss < 10<<20 {
		t.Fatalf("browser PSS %d bytes: the measure reads nothing", pss)
	}
}
