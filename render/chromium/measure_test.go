package chromium

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/platen/platen/render"
)

// hostile are documents whose print would hold a page for longer than the
// render timeout (measure.go): each must be refused by the measure, with
// the words that say why.
var hostile = []struct {
	name, html string
	words      []string
}{
	{"a 1e12 px box", `<div class="box" style="height:1e12px;background:red">x</div>`,
		[]string{"would print more than 2,000 pages", "an element (div.box) is 8,878 m tall", "longer than 2,000 pages of 297 mm"}},
	{"a box pushed down by a transform", `<div style="transform:scale(1e6);width:10px;height:10px">x</div>`,
		[]string{"would print more than 2,000 pages", "an element (div) is", "tall"}},
	{"a box placed 1e12 px down", `<p>top</p><div style="position:absolute;top:1e12px">x</div>`,
		[]string{"would print more than 2,000 pages", "its content is about", "pages long"}},
	{"10,000 sheets", strings.Repeat(`<div class="sheet">page</div>`, 10000),
		[]string{"would print more than 2,000 pages", "its content is about 10,000 pages long"}},
	{"10,000 page breaks", strings.Repeat(`<div style="break-after:page">x</div>`, 10000),
		[]string{"would print more than 2,000 pages", "breaks to a new page at least 2,001 times"}},
	{"10,000 legacy page breaks, nested", `<main>` + strings.Repeat(`<section><p style="page-break-before:always">x</p></section>`, 10000) + `</main>`,
		[]string{"would print more than 2,000 pages", "breaks to a new page at least 2,001 times"}},
}

// TestHostileDocumentsAreRefusedBeforeTheirPrint sends each hostile
// document to real Chromium with the full render budget: each must be
// refused by the measure (render.ErrTooManyPages with its words), not by
// the budget running out.
func TestHostileDocumentsAreRefusedBeforeTheirPrint(t *testing.T) {
	e, err := New(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, h := range hostile {
		t.Run(h.name, func(t *testing.T) {
			_, err := renderWithin(t, e, 60*time.Second, render.Job{HTML: render.Document(h.html, a4(), ""), Geometry: a4()})
			if !errors.Is(err, render.ErrTooManyPages) {
				t.Fatalf("got %v, want a refusal of the measure (render.ErrTooManyPages)", err)
			}
			for _, w := range h.words {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("refusal %q does not say %q", err, w)
				}
			}
		})
	}
}

// TestDocumentsWithinTheCapPrint checks that the measure refuses nothing
// that prints within the cap: clipped boxes of absurd size (a sheet's
// overflow is hidden), a box absurdly wide, and a document of exactly the
// cap's sheets under a small cap.
func TestDocumentsWithinTheCapPrint(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxPages = 30
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	docs := map[string]struct {
		html  string
		pages int
	}{
		"a tall box in a sheet":   {`<div class="sheet"><div style="height:1e12px">x</div></div>`, 1},
		"a tall box clipped":      {`<div style="height:100px;overflow:hidden"><div style="height:1e12px">x</div></div>`, 1},
		"a wide box":              {`<div style="width:1e12px;height:10px">x</div>`, 1},
		"30 sheets, the cap":      {strings.Repeat(`<div class="sheet">s</div>`, 30), 30},
		"29 breaks, the cap":      {strings.Repeat(`<div style="break-after:page">b</div>`, 29) + `<div>last</div>`, 30},
		"breaks hidden or inline": {strings.Repeat(`<div style="display:none;break-before:page">h</div><span style="break-before:page">i</span>`, 100), 1},
	}
	for name, d := range docs {
		t.Run(name, func(t *testing.T) {
			out, err := renderWithin(t, e, 60*time.Second, render.Job{HTML: render.Document(d.html, a4(), ""), Geometry: a4()})
			if err != nil {
				t.Fatal(err)
			}
			if n := bytes.Count(pdfText(t, out), []byte("\f")); n != d.pages {
				t.Fatalf("printed %d pages, want %d", n, d.pages)
			}
		})
	}
}

// TestMeasuredRefusalsOverSmallCap refuses, under a cap of 20, a document
// of 60 pages of paragraphs: the length the measure finds is the length of
// the sheet's width (fitViewport), not of a browser window's.
func TestMeasuredRefusalsOverSmallCap(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxPages = 20
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	para := `<p>` + strings.Repeat("lorem ipsum dolor sit amet, consectetur adipiscing elit ", 40) + `</p>`
	// 15 paragraphs of 40 phrases fill about three A4 pages; 300 of them about 60.
	fits := strings.Repeat(para, 15)
	out, err := renderWithin(t, e, 60*time.Second, render.Job{HTML: render.Document(fits, a4(), ""), Geometry: a4()})
	if err != nil {
		t.Fatal(err)
	}
	printed := bytes.Count(pdfText(t, out), []byte("\f"))
	_, err = renderWithin(t, e, 60*time.Second, render.Job{HTML: render.Document(strings.Repeat(fits, 20), a4(), ""), Geometry: a4()})
	if !errors.Is(err, render.ErrTooManyPages) || !strings.Contains(err.Error(), "its content is about") {
		t.Fatalf("%d pages (20 × %d printed) passed the cap of 20: %v", 20*printed, printed, err)
	}
}

// TestRefusedPagePrintsTheNextDocument refuses a document on an engine of
// one page, then prints an ordinary one on it: the next document is
// printed whole, on its own page size, with nothing of the refused one.
func TestRefusedPagePrintsTheNextDocument(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Pages = 1
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, h := range hostile[:1] {
		_, err := renderWithin(t, e, 60*time.Second, render.Job{HTML: render.Document(`<p>refused words</p>`+h.html, a4(), ""), Geometry: a4()})
		if !errors.Is(err, render.ErrTooManyPages) {
			t.Fatalf("%s: %v", h.name, err)
		}
		out, err := renderWithin(t, e, 60*time.Second, render.Job{HTML: render.Document(`<p>the next document</p>`, a4(), ""), Geometry: a4()})
		if err != nil {
			t.Fatal(err)
		}
		text := pdfText(t, out)
		if !bytes.Contains(text, []byte("the next document")) || bytes.Contains(text, []byte("refused words")) {
			t.Fatalf("the next document printed %q", text)
		}
		if n := bytes.Count(text, []byte("\f")); n != 1 {
			t.Fatalf("the next document printed %d pages, want 1", n)
		}
	}
}

// pdfText is the PDF's text as pdftotext reads it, a form feed after each
// page.
func pdfText(t *testing.T, pdf []byte) []byte {
	t.Helper()
	cmd := exec.Command("pdftotext", "-layout", "-", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftotext (scripts/install-deps.sh --test installs it): %v", err)
	}
	return out
}

func TestRefusalWords(t *testing.T) {
	g := a4()
	cases := []struct {
		name  string
		m     measured
		words string // "" means no refusal
	}{
		{"fits", measured{Pages: 2000, Breaks: 1999}, ""},
		{"long", measured{Pages: 2001}, "too many pages: the document would print more than 2,000 pages: its content is about 2,001 pages long; send less data or split it into several documents"},
		{"tall element", measured{Pages: 29891, Tall: "div#hero", TallPx: 33554428}, "an element (div#hero) is 8,878 m tall, longer than 2,000 pages of 297 mm; make it smaller"},
		{"a label the refusal may not quote", measured{Pages: 29891, Tall: `div.a"b`, TallPx: 33554428}, "its content is about 29,891 pages long"},
		{"breaks", measured{Pages: 3, Breaks: 2000}, "breaks to a new page at least 2,000 times"},
	}
	for _, c := range cases {
		err := c.m.refusal(2000, g)
		switch {
		case c.words == "" && err != nil:
			t.Errorf("%s: refused: %v", c.name, err)
		case c.words != "" && (err == nil || !errors.Is(err, render.ErrTooManyPages) || !strings.Contains(err.Error(), c.words)):
			t.Errorf("%s: got %v, want %q", c.name, err, c.words)
		}
	}
}

// TestPreviewBudget renders through the renderer a document that passes
// the measure but prints slowly: as a preview it is refused at the
// preview's budget with words that say so.
func TestPreviewBudget(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxPages = 0 // no measure: the print itself must run out the budget
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	rc := render.DefaultRendererConfig()
	rc.PreviewTimeout = 2 * time.Second
	r := render.NewRenderer(rc, e)
	v, err := render.Version{HTML: strings.Repeat(`<div class="sheet">page</div>`, 10000), Manifest: []byte(`{"pageSize":"A4"}`)}.Check()
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Render(context.Background(), render.Request{Version: v, Preview: true, Now: time.Now()})
	if !errors.Is(err, render.ErrTimeout) || !strings.Contains(err.Error(), "the preview took longer than 2 s to render") {
		t.Fatalf("got %v, want the preview's budget", err)
	}
}
