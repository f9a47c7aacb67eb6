package corpus

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/platen/platen/internal/tier"
	"github.com/platen/platen/render"
	"github.com/platen/platen/render/chromium"
	"github.com/platen/platen/starters"
)

var reportDir = flag.String("report", "", "TestCorpus writes side-by-side PNGs of the worst cases into this folder and prints the table of every document")

var only = flag.String("only", "", "TestCorpus and TestRealWorld render only the documents whose names contain one of these comma-separated words (and then assert no share)")

// selected is docs cut down to -only's choice.
func selected(docs []Document) []Document {
	if *only == "" {
		return docs
	}
	var out []Document
	for _, d := range docs {
		for _, w := range strings.Split(*only, ",") {
			if w != "" && strings.Contains(d.Name, w) {
				out = append(out, d)
				break
			}
		}
	}
	return out
}

// shared is the Chromium engine of the test binary: started once, by the
// first test that needs it, and closed by TestMain.
var shared struct {
	once sync.Once
	eng  *chromium.Engine
	err  error
}

func chromiumEngine(t testing.TB) *chromium.Engine {
	t.Helper()
	shared.once.Do(func() {
		shared.eng, shared.err = chromium.New(chromium.DefaultConfig())
		if shared.err == nil {
			shared.err = shared.eng.Start()
		}
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.eng
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.eng != nil {
		shared.eng.Close()
	}
	os.Exit(code)
}

// corpus is the corpus loaded once for the test binary.
var corpus struct {
	once sync.Once
	docs []Document
	err  error
}

func loadCorpus(t testing.TB) []Document {
	t.Helper()
	corpus.once.Do(func() { corpus.docs, corpus.err = Load("testdata") })
	if corpus.err != nil {
		t.Fatal(corpus.err)
	}
	return corpus.docs
}

// TestCorpusContents checks what the corpus holds: at least 40 documents,
// every starter, and hand-offs for grid and columns; each one fills and wraps,
// and each template folder of the corpus with sample data passes the checks
// a user's version must (the starters' own test checks theirs; a bare .html
// file has no schema, and filling it proved it compiles).
func TestCorpusContents(t *testing.T) {
	docs := loadCorpus(t)
	if len(docs) < 40 {
		t.Errorf("%d documents; the corpus promises at least 40", len(docs))
	}
	names := map[string]bool{}
	handOffs := 0
	for _, d := range docs {
		if names[d.Name] {
			t.Errorf("two documents named %s", d.Name)
		}
		names[d.Name] = true
		if d.HandOff {
			handOffs++
		}
		if !strings.Contains(d.Job.HTML, `data-platen="sheets"`) {
			t.Errorf("%s is not wrapped by render.Document", d.Name)
		}
		if folder := !strings.HasPrefix(d.Name, "starter/") && len(d.Checked.SampleData) > 0; folder {
			if _, err := d.Checked.Version.Check(); err != nil {
				t.Errorf("%s: %v", d.Name, err)
			}
		}
	}
	all, err := starters.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range all {
		if !names["starter/"+st.Slug] {
			t.Errorf("starter %s is not in the corpus", st.Slug)
		}
	}
	for _, n := range []string{"handoff-subgrid", "handoff-column-span"} {
		if !names[n] {
			t.Errorf("no hand-off document %s", n)
		}
	}
	if handOffs >= len(docs)/4 {
		t.Errorf("%d of %d documents are hand-offs: the corpus is for what phantom renders", handOffs, len(docs))
	}
}

// TestCorpus renders every document with Chromium and with the candidate
// engine (-candidate: Chromium itself, the comparison's zero, until the
// coordinator makes it phantom) and holds each compared document to the
// bar; it checks the platform default's choice of every document with
// phantom. With -report DIR it writes the worst cases side by side and
// prints the table.
func TestCorpus(t *testing.T) {
	tier.Full(t, "renders about fifty documents with two engines and compares them with poppler")
	start := time.Now()
	docs := selected(loadCorpus(t))
	ref := chromiumEngine(t)
	p, err := newPhantom()
	if err != nil {
		t.Fatal(err)
	}
	got, isPhantom, err := candidate(ref, p)
	if err != nil {
		t.Fatal(err)
	}
	cfg := render.DefaultRendererConfig()
	cfg.DefaultEngine = render.DefaultAuto
	choose := render.NewRenderer(cfg, ref, p)
	entries := renderAll(t, docs, ref, got, corpusWorkers())
	bar := DefaultBar()
	for i := range entries {
		e := &entries[i]
		if e.Result != nil && !e.HandOff {
			e.Failures = bar.Failures(e.Result)
			if !isPhantom {
				e.Failures = append(e.Failures, selfDifferences(e.Result)...)
			}
		}
	}
	for i, d := range docs {
		e := entries[i]
		t.Run(d.Name, func(t *testing.T) {
			if e.Err != nil {
				t.Fatal(e.Err)
			}
			checkChoice(t, d, choose)
			if d.HandOff {
				return
			}
			for _, f := range e.Failures {
				t.Error(f)
			}
			if len(e.Failures) > 0 {
				r := e.Result
				t.Logf("missing %v, extra %v; median edge offsets (xMin yMin xMax yMax) %.2f pt", r.Missing, r.Extra, r.Offset)
				for _, w := range r.Worst {
					t.Logf("worst word %q page %d: %.2f pt (%.1f,%.1f)-(%.1f,%.1f) → (%.1f,%.1f)-(%.1f,%.1f)", w.Text, w.Page+1, w.Displaced,
						w.Ref.XMin, w.Ref.YMin, w.Ref.XMax, w.Ref.YMax, w.Got.XMin, w.Got.YMin, w.Got.XMax, w.Got.YMax)
				}
			}
		})
	}
	var table bytes.Buffer
	WriteTable(&table, entries)
	t.Logf("%d documents in %s (candidate: %s)\n%s", len(docs), time.Since(start).Round(time.Millisecond), got.Name(), table.String())
	if *reportDir != "" {
		gotName := got.Name()
		if !isPhantom {
			gotName += "-2"
		}
		files, err := WriteReport(*reportDir, entries, 5, ref.Name(), gotName)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("%s\n%d documents in %s. The worst pages side by side (%s | %s | difference), %d files:\n  %s\nEvery PDF: %s\n",
			table.String(), len(docs), time.Since(start).Round(time.Millisecond), ref.Name(), gotName, len(files),
			strings.Join(files, "\n  "), filepath.Join(*reportDir, "pdf"))
	}
}

// checkChoice holds the platform default's choice (render.Renderer.Choose
// with the default "auto", over Chromium and phantom) to the corpus:
// Chromium for a hand-off document, saying what phantom lacks, and phantom
// for every other.
func checkChoice(t *testing.T, d Document, choose *render.Renderer) {
	t.Helper()
	c, err := choose.Choose(render.Request{Version: d.Checked, Data: d.Checked.Sample, Now: FillTime})
	switch {
	case err != nil:
		t.Errorf("the default cannot choose: %v", err)
	case d.HandOff && c.Engine != render.EngineChromium:
		t.Errorf("the default picks %s for a document it must hand to Chromium (%s)", c.Engine, c.Reason)
	case d.HandOff && !strings.Contains(c.Reason, "does not support"):
		t.Errorf("the default hands the document to Chromium without saying what phantom lacks: %s", c.Reason)
	case !d.HandOff && c.Engine != render.EnginePhantom:
		t.Errorf("the default picks %s for a corpus document phantom must render: %s", c.Engine, c.Reason)
	}
}

// selfDifferences is what the comparison of Chromium against itself may
// not find: anything at all.
func selfDifferences(r *Result) []string {
	var out []string
	if r.Matched != r.RefWords || r.Matched != r.GotWords {
		out = append(out, fmt.Sprintf("Chromium against itself: %d of %d/%d words matched", r.Matched, r.RefWords, r.GotWords))
	}
	if r.Median != 0 || r.Within != 1 || r.PixelMax != 0 {
		out = append(out, fmt.Sprintf("Chromium against itself: median %g pt, within %g, pixels %g", r.Median, r.Within, r.PixelMax))
	}
	return out
}

// corpusWorkers is how many documents are in flight at once: Chromium
// prints two at a time and poppler's four processes a document wait on
// the CPU, so a few more than the cores keep both busy.
func corpusWorkers() int { return runtime.GOMAXPROCS(0) + 2 }

// renderAll renders and analyses every document, workers at a time, and
// compares the documents that are not hand-offs. Hand-offs are printed by
// the reference only, to show they print.
func renderAll(t *testing.T, docs []Document, ref, got render.Engine, workers int) []Entry {
	entries := make([]Entry, len(docs))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				entries[i] = renderOne(docs[i], ref, got)
			}
		}()
	}
	for i := range docs {
		next <- i
	}
	close(next)
	wg.Wait()
	return entries
}

func renderOne(d Document, ref, got render.Engine) (e Entry) {
	e = Entry{Name: d.Name, HandOff: d.HandOff}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var err error
	t0 := time.Now()
	e.RefPDF, err = ref.Render(ctx, d.Job)
	e.RefTime = time.Since(t0)
	if err != nil {
		e.Err = fmt.Errorf("%s: %w", ref.Name(), err)
		return e
	}
	if d.HandOff {
		if e.Ref, err = Analyze(ctx, e.RefPDF, false); err == nil && len(e.Ref.Pages) == 0 {
			err = fmt.Errorf("%s printed no page", ref.Name())
		}
		e.Err = err
		return e
	}
	t0 = time.Now()
	e.GotPDF, err = got.Render(ctx, d.Job)
	e.GotTime = time.Since(t0)
	if err != nil {
		e.Err = fmt.Errorf("%s: %w", got.Name(), err)
		return e
	}
	var gotErr error
	done := make(chan struct{})
	go func() {
		e.Got, gotErr = Analyze(ctx, e.GotPDF, true)
		close(done)
	}()
	e.Ref, err = Analyze(ctx, e.RefPDF, true)
	<-done
	if err == nil {
		err = gotErr
	}
	if err != nil {
		e.Err = err
		return e
	}
	bar := DefaultBar()
	e.Result = Compare(e.Ref, e.Got, bar.WithinPt, bar.PageSizeTolerancePt)
	return e
}
