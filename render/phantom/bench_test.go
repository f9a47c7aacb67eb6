package phantom

import (
	"bytes"
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/platen/platen/pdf"
	"github.com/platen/platen/render"
	"github.com/platen/platen/render/phantom/draw"
	"github.com/platen/platen/render/phantom/layout"
	"github.com/platen/platen/render/phantom/pdfw"
	"github.com/platen/platen/render/phantom/style"
	"github.com/platen/platen/starters"
)

// benchStarters are the documents the engine's speed is held to (issue 15:
// a one-page letter, an invoice, a statement), filled with their sample
// data as the REST API fills them.
var benchStarters = []string{"letter", "invoice", "statement"}

// BenchmarkStages breaks a starter's render into the stages a document goes
// through, each alone, so a profile's share can be read against a stage's
// time: fill (Handlebars), parse (HTML), style (cascade), support (the
// check on the styled tree), layout, write (the PDF), pagecount (pdfcpu
// reading the PDF back, what the renderer does without the engine's count),
// engine (Engine.Render from the markup, parse and style cached by the
// support check as in production), engine-tagged (the same, tagged: the
// structure tree, marks and artifacts) and renderer (render.Renderer.Render from
// the data: the whole render path of a REST request). cpu-ms/op is the
// process's CPU time per document, less inflated than wall time on a busy
// machine.
func BenchmarkStages(b *testing.B) {
	e, err := New(Config{Workers: 1, MaxPages: 2000})
	if err != nil {
		b.Fatal(err)
	}
	all, err := starters.All()
	if err != nil {
		b.Fatal(err)
	}
	for _, slug := range benchStarters {
		var c *render.Checked
		for _, st := range all {
			if st.Slug == slug {
				if c, err = st.Version.Check(); err != nil {
					b.Fatal(err)
				}
			}
		}
		if c == nil {
			b.Fatalf("no starter %s", slug)
		}
		opt := render.FillOptions{CacheKey: "bench/" + slug, Now: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)}
		filled, err := render.Fill(c, c.Sample, opt)
		if err != nil {
			b.Fatal(err)
		}
		header, footer, err := render.FillHeaderFooter(c, c.Sample, opt)
		if err != nil {
			b.Fatal(err)
		}
		g := c.Manifest.Geometry()
		job := render.Job{HTML: render.Document(filled, g, ""), Geometry: g, Header: header, Footer: footer}
		sh := <-e.shapers
		p, err := e.prepare(job, sh)
		e.shapers <- sh
		if err != nil {
			b.Fatal(err)
		}
		lay := func() *layoutResult {
			sh := <-e.shapers
			defer func() { e.shapers <- sh }()
			doc, err := layout.Layout(context.Background(), p.doc, p.style, sh, layout.Options{MaxPages: 2000, Header: header, Footer: footer})
			if err != nil {
				b.Fatal(err)
			}
			return &layoutResult{doc}
		}
		laid := lay()
		var out bytes.Buffer
		if err := pdfw.Write(&out, laid.doc, pdfw.Options{}); err != nil {
			b.Fatal(err)
		}
		printed := out.Bytes()
		r := render.NewRenderer(render.DefaultRendererConfig(), e)
		req := render.Request{Version: c, Data: c.Sample, Engine: render.EnginePhantom, CacheKey: opt.CacheKey, Now: opt.Now}

		stages := []struct {
			name string
			run  func()
		}{
			{"fill", func() {
				if _, err := render.Fill(c, c.Sample, opt); err != nil {
					b.Fatal(err)
				}
			}},
			{"parse", func() {
				if _, err := html.Parse(strings.NewReader(job.HTML)); err != nil {
					b.Fatal(err)
				}
			}},
			{"style", func() {
				if _, err := style.Compute(p.doc, style.Options{PageWidth: g.SheetWidthMM() * pxPerMM, PageHeight: g.SheetHeightMM() * pxPerMM}); err != nil {
					b.Fatal(err)
				}
			}},
			{"support", func() { unsupported(p.doc, p.style) }},
			{"layout", func() { lay() }},
			{"write", func() {
				out.Reset()
				if err := pdfw.Write(&out, laid.doc, pdfw.Options{}); err != nil {
					b.Fatal(err)
				}
			}},
			{"pagecount", func() {
				if _, err := pdf.PageCount(printed); err != nil {
					b.Fatal(err)
				}
			}},
			{"engine", func() {
				if _, err := e.Render(context.Background(), job); err != nil {
					b.Fatal(err)
				}
			}},
			{"engine-tagged", func() {
				tagged := job
				tagged.Tagged = true
				if _, err := e.Render(context.Background(), tagged); err != nil {
					b.Fatal(err)
				}
			}},
			{"renderer", func() {
				if _, err := r.Render(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}},
		}
		for _, s := range stages {
			b.Run(slug+"/"+s.name, func(b *testing.B) {
				b.ReportAllocs()
				cpu0 := processCPU(b)
				for b.Loop() {
					s.run()
				}
				b.ReportMetric(float64(processCPU(b)-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
			})
		}
	}
}

type layoutResult struct{ doc *draw.Document }

func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
