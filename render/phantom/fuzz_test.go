package phantom

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/platen/platen/render"
)

// fuzzBudget is the time one fuzzed document may take: far more than any
// real document needs here, and the bound on a runaway.
const fuzzBudget = 3 * time.Second

// FuzzRender feeds arbitrary markup and CSS through the whole engine: the
// support check, style, layout and the PDF writer. A document may fail,
// but only with an error of its own (ErrRender, ErrTooManyPages) within
// the time budget; it must never panic, run past the budget, or grow the
// heap without bound.
//
//	go test -run '^$' -fuzz FuzzRender -fuzztime 10m ./render/phantom/
func FuzzRender(f *testing.F) {
	seeds, _ := filepath.Glob("corpus/testdata/*.html")
	for _, s := range seeds {
		if raw, err := os.ReadFile(s); err == nil && len(raw) < 64<<10 {
			f.Add(string(raw))
		}
	}
	for _, s := range []string{
		`<p style="font: bold 12pt/1.5 serif; letter-spacing: -40px; word-spacing: 1e9px">a b c</p>`,
		`<table><tr><td colspan=1000 rowspan=0>x</td></tr></table>`,
		`<div style="position:absolute;top:-1e308px;left:1e308px;width:1e308px">x</div>`,
		`<style>@page{size:1px 1px;margin:0}</style><p>tiny pages</p>`,
		`<style>p::before{content:counter(a) counters(b,".") attr(x) open-quote}</style><p x="y">q</p>`,
		`<ol start=-2147483648 reversed><li value=2147483647>a<li>b</ol>`,
		`<div style="height:1e9px;break-inside:avoid">tall</div>`,
		`<p dir=rtl>שלום <b>עולם</b> 123 abc</p><p>` + "\u202ereversed\u202c" + `</p>`,
		`<pre style="tab-size:1000000">a	b</pre><p style="white-space:pre-wrap">     ` + "\u00ad\u200b\ufeff" + `</p>`,
		`<img src="data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 0 0'><path d='M0 0L1e9 1e9'/></svg>">`,
	} {
		f.Add(s)
	}
	e, err := New(Config{Workers: 1, MaxPages: 50})
	if err != nil {
		f.Fatal(err)
	}
	g := a4()
	f.Fuzz(func(t *testing.T, markup string) {
		job := render.Job{HTML: render.Document(markup, g, ""), Geometry: g}
		ctx, cancel := context.WithTimeout(context.Background(), fuzzBudget)
		defer cancel()
		start := time.Now()
		_ = e.Unsupported(ctx, job) // parses and styles: timed with the render
		_, err := e.Render(ctx, job)
		if took := time.Since(start); took > fuzzBudget+time.Second {
			t.Fatalf("the check and the render took %s, past their budget of %s", took, fuzzBudget)
		}
		if err != nil && !errors.Is(err, render.ErrRender) && !errors.Is(err, render.ErrTooManyPages) && !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("an error of no known kind: %v", err)
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if ms.HeapInuse > 2<<30 {
			t.Fatalf("the heap holds %d MiB after one document", ms.HeapInuse>>20)
		}
	})
}
