package phantom

import (
	"context"
	"testing"
	"time"

	"github.com/platen/platen/internal/pdfstruct"
	"github.com/platen/platen/render"
	"github.com/platen/platen/starters"
)

// TestStartersArePDFUA: every starter, filled with its sample data, renders
// as PDF/UA-1, alone and with PDF/A-3b, and passes every PDF/UA rule (and
// PDF/A rule) Platen checks; its structure tree starts with an H1 and every
// figure has alt text.
func TestStartersArePDFUA(t *testing.T) {
	e := testEngine(t)
	all, err := starters.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range all {
		c, err := st.Version.Check()
		if err != nil {
			t.Fatal(err)
		}
		r := render.NewRenderer(render.DefaultRendererConfig(), e)
		if err := r.CheckAccessibleVersion(c, c.Sample, "html"); err != nil {
			t.Errorf("%s: %v", st.Slug, err)
			continue
		}
		for _, pdfa := range []string{"", "3b"} {
			if c.Manifest.EInvoice != nil && pdfa == "" {
				continue // an e-invoice is always PDF/A-3
			}
			m := c.Manifest
			m.PDFUA, m.PDFA = "1", pdfa
			if c.Manifest.EInvoice != nil {
				m.PDFA = ""
			}
			v := *c
			v.Manifest = m
			res, err := r.Render(context.Background(), render.Request{Version: &v, Data: c.Sample, PDFA: pdfa, Now: time.Date(2026, 12, 5, 9, 0, 0, 0, time.UTC)})
			if err != nil {
				t.Fatalf("%s %s: %v", st.Slug, pdfa, err)
			}
			conf := res.Report.Conformance
			if conf == nil || conf.PDFUA != "PDF/UA-1" || conf.Failed != 0 {
				t.Errorf("%s (PDF/A %q): %+v", st.Slug, pdfa, conf)
				continue
			}
			d, err := pdfstruct.Read(res.PDF)
			if err != nil {
				t.Fatal(err)
			}
			first := ""
			figures, withAlt := 0, 0
			d.Root.Walk(func(e *pdfstruct.Elem, _ int) {
				if first == "" && len(e.Role) == 2 && e.Role[0] == 'H' {
					first = e.Role
				}
				if e.Role == "Figure" {
					figures++
					if e.Alt != nil && *e.Alt != "" {
						withAlt++
					}
				}
			})
			if first != "H1" && first != "" || figures != withAlt {
				t.Errorf("%s: first heading %q, %d of %d figures with alt", st.Slug, first, withAlt, figures)
			}
		}
	}
}
