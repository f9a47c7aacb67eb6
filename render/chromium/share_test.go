package chromium

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/platen/platen/render"
)

// TestSharesWaitInOrderPerOrganisation drives the shares as renders do:
// an organisation at its share waits, its renders in the order they came,
// while another organisation takes a place at once; a render that gives up
// leaves the queue, and a render without an organisation is not held.
func TestSharesWaitInOrderPerOrganisation(t *testing.T) {
	s := newShares(1, 2)
	bg := context.Background()
	if err := s.acquire(bg, "a", 0); err != nil {
		t.Fatal(err)
	}
	order := make(chan int, 3)
	for i := 1; i <= 2; i++ {
		go func() {
			if err := s.acquire(bg, "a", 0); err == nil {
				order <- i
			}
		}()
		waitFor(t, func() bool { _, w := s.count("a"); return w == i })
	}
	gaveUp, cancel := context.WithCancel(bg)
	gone := make(chan error, 1)
	go func() { gone <- s.acquire(gaveUp, "a", 0) }()
	waitFor(t, func() bool { _, w := s.count("a"); return w == 3 })
	if err := s.acquire(bg, "b", 0); err != nil { // another organisation is not held up
		t.Fatal(err)
	}
	if err := s.acquire(bg, "", 0); err != nil { // nor a render for no organisation
		t.Fatal(err)
	}
	cancel()
	if err := <-gone; !errors.Is(err, render.ErrRender) {
		t.Fatalf("a render that gave up got %v", err)
	}
	if h, w := s.count("a"); h != 1 || w != 2 {
		t.Fatalf("a holds %d and waits %d, want 1 and 2", h, w)
	}
	s.release("a")
	if got := <-order; got != 1 {
		t.Fatalf("render %d went first, want 1", got)
	}
	s.release("a")
	if got := <-order; got != 2 {
		t.Fatalf("render %d went second, want 2", got)
	}
	s.release("a")
	s.release("b")
	if h, w := s.count("a"); h != 0 || w != 0 {
		t.Fatalf("a holds %d and waits %d after every release", h, w)
	}
	// A plan's share of 2 lets two through; a share above the pool is the pool.
	if s.of(2) != 2 || s.of(9) != 2 || s.of(0) != 1 {
		t.Fatalf("shares of 2, 9, 0: %d %d %d", s.of(2), s.of(9), s.of(0))
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in 30 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestOneOrganisationCannotHoldEveryPage has organisation A hold its share
// of a two-page engine with a document whose print runs for minutes, and
// a second document of A wait behind it; organisation B's document still
// gets the other page and prints while A's are held.
func TestOneOrganisationCannotHoldEveryPage(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Pages = 2
	cfg.MaxPages = 0 // no measure: A's print is slow, not refused
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	r := render.NewRenderer(render.DefaultRendererConfig(), e)
	// 10,000 sheets written out, not filled from data: the fill has a
	// budget of its own, which a loop of 10,000 may outrun under -race.
	slow, err := render.Version{HTML: strings.Repeat(`<div class="sheet">slow page</div>`, 10000), Manifest: []byte(`{"pageSize":"A4"}`)}.Check()
	if err != nil {
		t.Fatal(err)
	}
	ctxA, cancelA := context.WithCancel(context.Background())
	defer cancelA()
	doneA := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := r.Render(ctxA, render.Request{Version: slow, Org: "org_a", Queue: true, Now: time.Now()})
			doneA <- err
		}()
	}
	waitFor(t, func() bool {
		if len(doneA) > 0 {
			t.Fatalf("A's document ended before it held its share: %v", <-doneA)
		}
		h, w := e.shares.count("org_a")
		return h == 1 && w == 1
	})

	quick, err := render.Version{HTML: `<p>{{name}}</p>`, Manifest: []byte(`{"pageSize":"A4"}`)}.Check()
	if err != nil {
		t.Fatal(err)
	}
	ctxB, cancelB := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancelB()
	res, err := r.Render(ctxB, render.Request{Version: quick, Data: map[string]any{"name": "organisation B's document"}, Org: "org_b", Queue: true, Now: time.Now()})
	if err != nil {
		t.Fatalf("B's document, while A holds its share: %v", err)
	}
	if !bytes.Contains(pdfText(t, res.PDF), []byte("organisation B's document")) {
		t.Fatal("B's document printed without its text")
	}
	if h, w := e.shares.count("org_a"); h != 1 || w != 1 || len(doneA) != 0 {
		t.Fatalf("A's documents ended before B's printed (holds %d, waits %d, %d ended): the test proves nothing", h, w, len(doneA))
	}
	cancelA()
	for range 2 {
		if err := <-doneA; err == nil {
			t.Fatal("A's cancelled document printed")
		}
	}
}
