package corpus

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/platen/platen/internal/tier"
)

// perturbation is a change to a corpus document and what the comparison of
// its Chromium render with the unchanged one must find.
type perturbation struct {
	doc, name string
	// edit changes the wrapped markup.
	edit func(html string) string
	// check judges the comparison; bar is DefaultBar's verdict.
	check func(t *testing.T, r *Result, bar []string)
}

// withStyle adds a style sheet after the document's own.
func withStyle(css string) func(string) string {
	return func(html string) string { return strings.Replace(html, "</head>", "<style>"+css+"</style></head>", 1) }
}

// shifted moves the whole body left and up: left and up, because content
// pushed past the right or bottom edge makes Chromium shrink the page to fit.
func shifted(x, y float64) func(string) string {
	return withStyle(fmt.Sprintf("body{position:relative;left:%gpx;top:%gpx}", -x, -y))
}

func passes(t *testing.T, r *Result, bar []string) {
	t.Helper()
	if len(bar) > 0 {
		t.Errorf("must meet the bar: %v", bar)
	}
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s %.3f, want %.3f ± %g", what, got, want, tol)
	}
}

// wordsUnchanged is a perturbation only the pixels can see.
func wordsUnchanged(t *testing.T, r *Result) {
	t.Helper()
	if r.Median != 0 || r.Within != 1 || r.Matched != r.RefWords || r.RefWords != r.GotWords {
		t.Errorf("the words must not change: median %g, within %g, matched %d of %d/%d", r.Median, r.Within, r.Matched, r.RefWords, r.GotWords)
	}
}

func pixelsAbove(t *testing.T, r *Result) {
	t.Helper()
	if r.PixelMax <= MaxPixelShare {
		t.Errorf("pixel share %.2f %% is within the bar's %g %%: the difference goes unseen", 100*r.PixelMax, 100*MaxPixelShare)
	}
}

// TestComparisonOnPerturbedRenders renders corpus documents with Chromium,
// changed in ways a reader cannot see and in ways they can, and checks that
// the comparison with the unchanged render finds what it claims: a shift
// in points, a missing word as one word, an extra page, and what only the
// pixels can show (a missing border, image or background, another face or
// weight). The sub-pixel cases are the measurements behind DefaultBar's
// thresholds; the test logs every figure, and with -report DIR writes each
// case side by side into DIR/perturbed.
func TestComparisonOnPerturbedRenders(t *testing.T) {
	tier.Full(t, "renders a dozen documents with Chromium")
	cases := []perturbation{
		{"business-letter", "unchanged", func(s string) string { return s }, func(t *testing.T, r *Result, bar []string) {
			if d := selfDifferences(r); len(d) > 0 {
				t.Error(d)
			}
		}},
		{"business-letter", "shifted 0.25 px left and up", shifted(0.25, 0.25), func(t *testing.T, r *Result, bar []string) {
			passes(t, r, bar)
			if r.Median == 0 {
				t.Error("a shift of 0.19 pt must show in the median")
			}
		}},
		{"fonts-families", "shifted 0.5 px left", shifted(0.5, 0), func(t *testing.T, r *Result, bar []string) {
			passes(t, r, bar)
			near(t, "median", r.Median, 0.375, 0.02)
			near(t, "xMin offset", r.Offset[0], -0.375, 0.02)
		}},
		{"images", "shifted 0.5 px left and up", shifted(0.5, 0.5), func(t *testing.T, r *Result, bar []string) {
			if r.PixelMax > MaxPixelShare {
				t.Errorf("pixel share %.2f %%: images resampled half a pixel away must stay within the bar", 100*r.PixelMax)
			}
		}},
		{"business-letter", "shifted 3 px left and up", shifted(3, 3), func(t *testing.T, r *Result, bar []string) {
			near(t, "median", r.Median, 2.25, 0.05)
			if r.Within != 0 || len(bar) == 0 {
				t.Errorf("every word moved 2.25 pt: within %g, bar %v", r.Within, bar)
			}
			pixelsAbove(t, r)
		}},
		{"business-letter", "a word missing", func(s string) string { return strings.Replace(s, "</b> RIBA<br>", "</b><br>", 1) },
			func(t *testing.T, r *Result, bar []string) {
				if r.Matched != r.RefWords-1 || r.GotWords != r.RefWords-1 || len(r.Missing) != 1 || !strings.Contains(r.Missing[0], "RIBA") {
					t.Errorf("matched %d of %d, missing %v: want exactly RIBA missing", r.Matched, r.RefWords, r.Missing)
				}
				if r.Median != 0 || len(r.Worst) != 0 {
					t.Errorf("no other word moved: median %g, worst %v", r.Median, r.Worst)
				}
				near(t, "within", r.Within, float64(r.RefWords-1)/float64(r.RefWords), 1e-9)
			}},
		{"business-letter", "an extra page", func(s string) string {
			return strings.Replace(s, "</body>", `<div style="break-before: page">Appendix A</div></body>`, 1)
		}, func(t *testing.T, r *Result, bar []string) {
			if r.GotPages != r.RefPages+1 || len(bar) == 0 || len(r.Extra) != 2 {
				t.Errorf("pages %d/%d, extra %v, bar %v", r.RefPages, r.GotPages, r.Extra, bar)
			}
		}},
		{"business-letter", "another face", withStyle("*{font-family:'DejaVu Sans' !important}"), func(t *testing.T, r *Result, bar []string) {
			if r.Within > 0.5 {
				t.Errorf("within %g: a document set in another face moves most words", r.Within)
			}
			pixelsAbove(t, r)
		}},
		{"business-letter", "bold", withStyle("*{font-weight:bold !important}"), func(t *testing.T, r *Result, bar []string) {
			pixelsAbove(t, r)
		}},
		{"business-invoice", "no borders", withStyle("*{border-color:transparent !important}"), func(t *testing.T, r *Result, bar []string) {
			wordsUnchanged(t, r)
			pixelsAbove(t, r)
		}},
		{"business-invoice", "no logo", withStyle("img{visibility:hidden !important}"), func(t *testing.T, r *Result, bar []string) {
			wordsUnchanged(t, r)
			pixelsAbove(t, r)
		}},
		{"backgrounds", "no backgrounds", withStyle("*{background:none !important}"), func(t *testing.T, r *Result, bar []string) {
			wordsUnchanged(t, r)
			pixelsAbove(t, r)
		}},
	}
	docs := map[string]Document{}
	for _, d := range loadCorpus(t) {
		docs[d.Name] = d
	}
	eng := chromiumEngine(t)
	ctx := context.Background()
	analyze := func(t *testing.T, html string, d Document) *Analysis {
		t.Helper()
		job := d.Job
		job.HTML = html
		pdf, err := eng.Render(ctx, job)
		if err != nil {
			t.Fatal(err)
		}
		a, err := Analyze(ctx, pdf, true)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	refs := map[string]*Analysis{}
	bar := DefaultBar()
	var table strings.Builder
	fmt.Fprintf(&table, "%-18s %-30s %9s %8s %8s %s\n", "document", "change", "median pt", "within %", "pixel %", "bar")
	for _, c := range cases {
		t.Run(c.doc+"/"+c.name, func(t *testing.T) {
			d, ok := docs[c.doc]
			if !ok {
				t.Fatalf("no corpus document %s", c.doc)
			}
			if refs[c.doc] == nil {
				refs[c.doc] = analyze(t, d.Job.HTML, d)
			}
			changed := c.edit(d.Job.HTML)
			if changed == d.Job.HTML && c.name != "unchanged" {
				t.Fatal("the edit changed nothing: the document no longer has what it edits")
			}
			got := analyze(t, changed, d)
			r := Compare(refs[c.doc], got, bar.WithinPt, bar.PageSizeTolerancePt)
			if *reportDir != "" {
				dir := filepath.Join(*reportDir, "perturbed")
				f := filepath.Join(dir, strings.ReplaceAll(c.doc+"-"+c.name, " ", "-")+".png")
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := WritePNG(f, SideBySide(refs[c.doc], got, max(r.PixelPage, 0), "chromium", "changed")); err != nil {
					t.Fatal(err)
				}
			}
			f := bar.Failures(r)
			fmt.Fprintf(&table, "%-18s %-30s %9s %8.1f %8.2f %d failures\n", c.doc, c.name, fmtPt(r.Median), 100*r.Within, 100*r.PixelMax, len(f))
			c.check(t, r, f)
		})
	}
	t.Logf("\n%s", table.String())
}
