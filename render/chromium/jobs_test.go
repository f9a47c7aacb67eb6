package chromium

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/platen/platen/render"
)

// TestRefusalOfAnEarlierJobIsDropped drives a page's recorder as its
// request handler does, with an event of one document handled after the
// next document began: that refusal must not reach the next document's
// report, and nothing is recorded between jobs.
func TestRefusalOfAnEarlierJobIsDropped(t *testing.T) {
	pg := &page{}
	first := pg.begin()
	pg.refuse(pg.current(), "https://a.example/first")
	late := pg.current() // an event of the first job, handled late
	if got := pg.end(first); !slices.Equal(got, []string{"https://a.example/first"}) {
		t.Fatalf("first job refused %q", got)
	}
	pg.refuse(pg.current(), "https://a.example/between") // no job under way
	second := pg.begin()
	pg.refuse(late, "https://a.example/customer-42/print-only.png")
	pg.refuse(pg.current(), "https://b.example/second")
	if got := pg.end(second); !slices.Equal(got, []string{"https://b.example/second"}) {
		t.Fatalf("second job refused %q, want only its own", got)
	}
	if got := pg.end(first); got != nil {
		t.Fatalf("ending a stale job returned %q", got)
	}
}

// TestTwoDocumentsOnOnePageKeepTheirOwnFailedAssets prints, on a single
// reused page, a document whose print-only background is refused, then
// documents that ask for nothing: their reports name no failed asset.
func TestTwoDocumentsOnOnePageKeepTheirOwnFailedAssets(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Pages = 1
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for i := 0; i < 5; i++ {
		var fa render.Findings
		_, err := renderWithin(t, e, 20*time.Second, render.Job{Geometry: a4(), Findings: &fa,
			HTML: `<style>@media print { body { background: url(http://127.0.0.1:9/org-a/customer-42.png) } }</style><p>org A</p><img src="http://127.0.0.1:9/org-a/logo.png">`})
		if err != nil {
			t.Fatal(err)
		}
		if len(fa.FailedAssets) == 0 {
			t.Fatal("org A's document names no failed asset")
		}
		var fb render.Findings
		_, err = renderWithin(t, e, 20*time.Second, render.Job{Geometry: a4(), Findings: &fb, HTML: `<p>org B</p>`})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range fb.FailedAssets {
			if strings.Contains(a.URL, "org-a") {
				t.Fatalf("round %d: org B's report names org A's asset %q", i, a.URL)
			}
		}
		if len(fb.FailedAssets) != 0 {
			t.Fatalf("round %d: org B's report names %v", i, fb.FailedAssets)
		}
	}
}
