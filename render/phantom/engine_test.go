package phantom

import (
	"context"
	"encoding/base64"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/platen/platen/render"
)

var (
	engineOnce sync.Once
	engine     *Engine
	engineErr  error
)

func testEngine(t *testing.T) *Engine {
	t.Helper()
	engineOnce.Do(func() { engine, engineErr = New(DefaultConfig()) })
	if engineErr != nil {
		t.Fatal(engineErr)
	}
	return engine
}

func a4() render.Geometry {
	m, _ := render.ParseManifest([]byte(`{"pageSize":"A4","margins":{"top":"10mm","right":"10mm","bottom":"10mm","left":"10mm"}}`), "m")
	return m.Geometry()
}

func job(markup string) render.Job {
	g := a4()
	return render.Job{HTML: render.Document(markup, g, ""), Geometry: g}
}

// pdfText is the text poppler extracts from a PDF.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "out.pdf")
	if err := os.WriteFile(f, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", f, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}

func TestRenderPrintsSearchableText(t *testing.T) {
	e := testEngine(t)
	pdf, err := e.Render(context.Background(), job(`<h1>Invoice INV-7</h1><p>Total due: <b>€1,234.50</b></p>`))
	if err != nil {
		t.Fatal(err)
	}
	text := pdfText(t, pdf)
	for _, want := range []string{"Invoice INV-7", "Total due: €1,234.50"} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF's text %q lacks %q", text, want)
		}
	}
	again, err := e.Render(context.Background(), job(`<h1>Invoice INV-7</h1><p>Total due: <b>€1,234.50</b></p>`))
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(pdf) {
		t.Error("the same job gave different bytes")
	}
}

func TestUnsupportedNamesWhatGoesToChromium(t *testing.T) {
	e := testEngine(t)
	cases := []struct {
		markup string
		want   []string
	}{
		{`<div style="display:-webkit-box"><p>a</p></div>`, []string{"display:-webkit-box"}},
		{`<style>.g{display:grid;grid-template-columns:subgrid}</style><div class="g">a</div>`, []string{"grid-template:subgrid"}},
		{`<style>svg path{fill:red}</style><p><svg viewBox="0 0 2 2"><path d="M0 0h2v2z"/></svg></p>`, []string{"inline <svg>:css at svg path"}},
		{`<style>.icon{stroke:blue}</style><p class="icon"><svg viewBox="0 0 2 2"><path d="M0 0h2v2z"/></svg></p>`, []string{"inline <svg>:css at .icon"}},
		{`<p><svg viewBox="0 0 20 20"><text x="1 5" y="10">ab</text></svg></p>`, []string{"svg:text at svg"}},
		{`<p>a</p><script>document.write("b")</script>`, []string{"script"}},
		{`<canvas id="c"></canvas>`, []string{"element:canvas at canvas"}},
		{`<div style="transform:rotateY(20deg)">a</div>`, []string{"transform"}},
		{`<style>@font-face{font-family:X;src:url(data:font/woff2;base64,AAAA)}</style><p style="font-family:X">a</p>`, []string{"@font-face"}},
		{`<style>@page{margin:20mm} @page :first{margin:20mm 60mm}</style><p>a</p>`, []string{"@page:width"}},
		{`<style>@page{margin:10mm} @page :left{margin-left:30mm}</style><p>a</p>`, []string{"@page:width"}},
		{`<style>@page wide{size:A4 landscape} .w{page:wide}</style><p>a</p><div class="w">b</div>`, []string{"@page:width"}},
	}
	for _, c := range cases {
		got := strings.Join(e.Unsupported(context.Background(), job(c.markup)), "; ")
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: unsupported %q lacks %q", c.markup, got, w)
			}
		}
	}
	plain := `<table><tr><td style="display:inline-block;border:1px solid">a</td></tr></table><ol><li>b</li></ol><p style="position:absolute;top:10mm">c</p>` +
		`<style>*{box-sizing:border-box;border:0 solid} svg{display:block;vertical-align:middle} .g{display:grid;grid-template-columns:1fr auto}</style>` +
		`<div class="g"><p style="color:green"><svg class="h-5" width="20" height="20" viewBox="0 0 20 20" fill="currentColor"><path d="M0 0h20v20z"/></svg></p><p>d</p></div>`
	if got := e.Unsupported(context.Background(), job(plain)); len(got) != 0 {
		t.Errorf("a document of tables, lists and positioning was judged unsupported: %v", got)
	}
	firstTaller := `<style>@page{margin:20mm} @page :first{margin-top:60mm; @top-left{content:"x"}}</style><p>a</p>`
	if got := e.Unsupported(context.Background(), job(firstTaller)); len(got) != 0 {
		t.Errorf("a first page as wide as the others was judged unsupported: %v", got)
	}
}

func TestRenderStopsAtThePageCap(t *testing.T) {
	e, err := New(Config{Workers: 1, MaxPages: 3})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Render(context.Background(), job(strings.Repeat(`<div style="break-before:page">page</div>`, 10)))
	if !errors.Is(err, render.ErrTooManyPages) {
		t.Fatalf("ten pages under a cap of three: %v, want ErrTooManyPages", err)
	}
}

func TestRenderHonoursTheDeadline(t *testing.T) {
	e := testEngine(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	<-ctx.Done()
	if _, err := e.Render(ctx, job(`<p>late</p>`)); err == nil {
		t.Fatal("a render past its deadline succeeded")
	}
}

func TestRenderRefusesRunawayNesting(t *testing.T) {
	e := testEngine(t)
	deep := strings.Repeat("<div>", 5000) + "x" + strings.Repeat("</div>", 5000)
	if _, err := e.Render(context.Background(), job(deep)); !errors.Is(err, render.ErrRender) {
		t.Fatalf("5,000 nested divs: %v, want ErrRender", err)
	}
	if got := e.Unsupported(context.Background(), job(deep)); len(got) == 0 {
		t.Error("5,000 nested divs were judged supported")
	}
}

// TestConcurrentRenders runs more renders than workers at once, under the
// race detector: each worker's shaper must stay its own.
func TestConcurrentRenders(t *testing.T) {
	e := testEngine(t)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			markup := `<p style="font-family:serif">Document ` + strings.Repeat("text ", 50*(i+1)) + `</p><p style="font-family:monospace">mono</p>`
			pdf, err := e.Render(context.Background(), job(markup))
			if err == nil && !strings.Contains(pdfText(t, pdf), "Document") {
				err = errors.New("text missing")
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// TestUnsupportedNamesNoData: a reason travels into records, events and
// headers, where a document's data never goes; ids and classes are often
// filled from the data, so a reason names tags only.
func TestUnsupportedNamesNoData(t *testing.T) {
	e := testEngine(t)
	got := strings.Join(e.Unsupported(context.Background(), job(
		`<div id="cust-Jane-Doe" class="jane@example.com" style="display:grid">a</div><p class="secret-42" style="colr:red">b</p><canvas id="x-secret"></canvas>`)), "; ")
	if got == "" {
		t.Fatal("nothing unsupported found")
	}
	for _, leak := range []string{"Jane", "jane@", "secret"} {
		if strings.Contains(got, leak) {
			t.Errorf("the reason %q carries %q from the data", got, leak)
		}
	}
}

// TestWebFontsRenderInPhantom: a document whose @font-face fonts are data:
// URIs phantom reads is phantom's, prints in them (embedded, subset), and
// renders alike when several render it at once; the machine's shapers are
// untouched by it.
func TestWebFontsRenderInPhantom(t *testing.T) {
	e := testEngine(t)
	ttf, err := os.ReadFile("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")
	if err != nil {
		t.Fatal(err)
	}
	markup := `<style>@font-face{font-family:"Brand";src:url(data:font/ttf;base64,` + base64.StdEncoding.EncodeToString(ttf) +
		`) format("truetype")}</style><p style="font-family:Brand,Arial">Invoice INV-7</p><p>Total due</p>`
	if got := e.Unsupported(context.Background(), job(markup)); len(got) != 0 {
		t.Fatalf("a document with a readable web font goes to Chromium: %v", got)
	}
	var wg sync.WaitGroup
	pdfs := make([][]byte, 3)
	for i := range pdfs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pdf, err := e.Render(context.Background(), job(markup))
			if err != nil {
				t.Error(err)
			}
			pdfs[i] = pdf
		}()
	}
	wg.Wait()
	for _, pdf := range pdfs[1:] {
		if string(pdf) != string(pdfs[0]) {
			t.Fatal("renders at once gave different bytes")
		}
	}
	f := filepath.Join(t.TempDir(), "web.pdf")
	if err := os.WriteFile(f, pdfs[0], 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdffonts", f).Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "+DejaVuSerif") {
		t.Errorf("the web font is not embedded:\n%s", out)
	}
	// The same family name in another document is not the web font.
	pdf, err := e.Render(context.Background(), job(`<p style="font-family:Brand,'Liberation Mono'">Invoice</p>`))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ = exec.Command("pdffonts", f).Output()
	if strings.Contains(string(out), "DejaVuSerif") || !strings.Contains(string(out), "LiberationMono") {
		t.Errorf("a later document without the web font prints in:\n%s", out)
	}
}

// TestPDFAJob: a job that asks for PDF/A gets a file that claims it, in
// its XMP metadata, with an output intent; a plain job gets neither.
func TestPDFAJob(t *testing.T) {
	e := testEngine(t)
	j := job(`<h1>Invoice INV-7</h1><p>Total due</p>`)
	j.PDFA = "3u"
	pdf, err := e.Render(context.Background(), j)
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "a.pdf")
	if err := os.WriteFile(f, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	meta, err := exec.Command("pdfinfo", "-meta", f).Output()
	if err != nil {
		t.Fatal(err)
	}
	if m := string(meta); !strings.Contains(m, "<pdfaid:part>3</pdfaid:part>") || !strings.Contains(m, "<pdfaid:conformance>U</pdfaid:conformance>") {
		t.Errorf("the XMP does not claim PDF/A-3u:\n%s", m)
	}
	plain, err := e.Render(context.Background(), job(`<h1>Invoice INV-7</h1><p>Total due</p>`))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, plain, 0o644); err != nil {
		t.Fatal(err)
	}
	if meta, _ := exec.Command("pdfinfo", "-meta", f).Output(); strings.Contains(string(meta), "pdfaid") {
		t.Error("a plain job claims PDF/A")
	}
}
