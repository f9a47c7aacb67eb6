package render_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aymerick/raymond"

	"github.com/platen/platen/render"
	"github.com/platen/platen/render/handlebars"
	"github.com/platen/platen/render/phantom/corpus"
)

// documents are every starter and every golden document, as the corpus
// fills them.
func documents(t *testing.T) []corpus.Document {
	t.Helper()
	docs, err := corpus.Load("phantom/corpus/testdata")
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) < 10 {
		t.Fatalf("only %d documents", len(docs))
	}
	return docs
}

// raymondFill fills src as Platen filled it before render/handlebars: with
// raymond, the same helpers and the same context.
func raymondFill(t *testing.T, src string, c *render.Checked, ctx map[string]any) string {
	t.Helper()
	tpl, err := raymond.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	tpl.RegisterHelpers(render.Helpers(c))
	frame := raymond.NewDataFrame()
	frame.Set("now", corpus.FillTime)
	out, err := tpl.ExecWith(ctx, frame)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFillMatchesRaymond holds every starter's and golden document's
// markup, header and footer, filled with its sample data, to what raymond
// printed, byte for byte.
func TestFillMatchesRaymond(t *testing.T) {
	for _, d := range documents(t) {
		c := d.Checked
		got, err := render.Fill(c, c.Sample, render.FillOptions{Now: corpus.FillTime})
		if err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		if want := raymondFill(t, c.HTML, c, render.FillContext(c, c.Sample)); got != want {
			t.Errorf("%s: the markup fills differently from raymond:\n%s", d.Name, firstDifference(got, want))
		}
		header, footer, err := render.FillHeaderFooter(c, c.Sample, render.FillOptions{Now: corpus.FillTime})
		if err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		for _, hf := range []struct{ src, got string }{{c.Manifest.Header, header}, {c.Manifest.Footer, footer}} {
			if hf.src == "" {
				continue
			}
			if want := raymondFill(t, hf.src, c, render.HeaderFooterContext(c, c.Sample)); !strings.HasSuffix(hf.got, want+"</div>") {
				t.Errorf("%s: the header or footer fills differently from raymond: %q, want it to end %q", d.Name, hf.got, want)
			}
		}
	}
}

func firstDifference(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-60)
	return "ours:    …" + got[from:min(len(got), i+60)] + "\nraymond: …" + want[from:min(len(want), i+60)]
}

// TestFillLimitsLeaveRoom measures the steps and bytes every starter and
// golden document spends (markup, header and footer together) and holds
// the default limits to at least ten times the most any of them spends.
func TestFillLimitsLeaveRoom(t *testing.T) {
	var most handlebars.Spent
	var mostSteps, mostBytes string
	for _, d := range documents(t) {
		sp, err := render.FillSpent(d.Checked, d.Checked.Sample, corpus.FillTime)
		if err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		if sp.Steps > most.Steps {
			most.Steps, mostSteps = sp.Steps, d.Name
		}
		if sp.Bytes > most.Bytes {
			most.Bytes, mostBytes = sp.Bytes, d.Name
		}
	}
	def := render.DefaultFillLimits()
	t.Logf("most steps: %d (%s), limit %d; most bytes: %d (%s), limit %d", most.Steps, mostSteps, def.Steps, most.Bytes, mostBytes, def.Bytes)
	if most.Steps*10 > def.Steps || most.Bytes*10 > def.Bytes {
		t.Fatalf("the default fill limits leave less than ten times room: most steps %d (%s) of %d, most bytes %d (%s) of %d",
			most.Steps, mostSteps, def.Steps, most.Bytes, mostBytes, def.Bytes)
	}
}

// TestFillTripleLoopIsRefused sends the hostile template of issue 24, a
// loop over 1,000 items inside two more over the same items, with and
// without text inside: the fill is refused by its steps or bytes limit
// with words that name the limit and the loop, and leaves no goroutine
// behind it.
func TestFillTripleLoopIsRefused(t *testing.T) {
	items := make([]any, 1000)
	for i := range items {
		items[i] = map[string]any{"n": float64(i)}
	}
	before := runtime.NumGoroutine()
	for _, tc := range []struct{ inner, words string }{
		{"", "too costly for its data: the template repeats more than 2,000,000 steps (in the {{#each @root.items}} at line 1); repeat less (loops inside loops multiply) or send less data"},
		{"<p>row {{n}} of a long line of text" + strings.Repeat(" and more", 30) + "</p>", "the filled markup is over 64 MB (in the {{#each @root.items}} at line 1)"},
		{"{{json @root.items}}", "the filled markup is over 64 MB (in the {{#each @root.items}} at line 1)"},
	} {
		c, err := render.Version{HTML: "x", Manifest: []byte(`{"pageSize":"A4"}`)}.Check()
		if err != nil {
			t.Fatal(err)
		}
		c.HTML = `{{#each items}}{{#each @root.items}}{{#each @root.items}}` + tc.inner + `{{/each}}{{/each}}{{/each}}`
		// The default steps and bytes, and time enough for either to pass
		// first on a loaded machine.
		_, err = render.Fill(c, map[string]any{"items": items}, render.FillOptions{Limits: render.FillLimits{Time: time.Minute}})
		if !errors.Is(err, render.ErrFillBudget) || !errors.Is(err, render.ErrFill) || !errors.Is(err, handlebars.ErrLimit) || !strings.Contains(err.Error(), tc.words) {
			t.Errorf("%q: %v, want ErrFill saying %q", tc.inner, err, tc.words)
		}
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Fatalf("%d goroutines after the refusals, %d before", n, before)
	}
}

// TestRepoTemplatesMatchRaymond fills every Go string literal with a
// mustache in the repository's tests, with Platen's helpers and some data,
// with both engines: where raymond fills it, the output is the same; where
// raymond parses it, so does this engine, unless it is a partial.
func TestRepoTemplatesMatchRaymond(t *testing.T) {
	var srcs []string
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil && strings.Contains(s, "{{") && len(s) < 1<<16 {
					srcs = append(srcs, s)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(srcs) < 50 {
		t.Fatalf("only %d templates found", len(srcs))
	}
	c, err := render.Version{HTML: "x", Manifest: []byte(`{"pageSize":"A4"}`)}.Check()
	if err != nil {
		t.Fatal(err)
	}
	data := `{"name":"Ann <&>","total":1234.5,"items":[{"name":"a","price":2,"qty":3}],"customer":{"name":"B"},"rows":[1,2],"paid":true}`
	compared := 0
	for _, src := range srcs {
		var ctx map[string]any
		if err := json.Unmarshal([]byte(data), &ctx); err != nil {
			t.Fatal(err)
		}
		rtpl, rerr := raymond.Parse(src)
		ours, oerr := handlebars.Parse(src, render.Helpers(c))
		if rerr != nil {
			continue
		}
		if oerr != nil {
			if !strings.Contains(oerr.Error(), "partials") {
				t.Errorf("%q: raymond parses it, this engine: %v", src, oerr)
			}
			continue
		}
		rtpl.RegisterHelpers(render.Helpers(c))
		frame := raymond.NewDataFrame()
		frame.Set("now", corpus.FillTime)
		want, rerr := func() (out string, err error) {
			defer func() {
				if v := recover(); v != nil {
					err = fmt.Errorf("%v", v)
				}
			}()
			return rtpl.ExecWith(ctx, frame)
		}()
		got, oerr := ours.Exec(ctx, handlebars.Run{Data: map[string]any{"now": corpus.FillTime}, Limits: handlebars.Limits{Steps: 1_000_000}})
		if rerr != nil || oerr != nil {
			continue
		}
		compared++
		if got != want {
			t.Errorf("%q:\n%s", src, firstDifference(got, want))
		}
	}
	t.Logf("%d templates found in tests, %d filled and compared", len(srcs), compared)
}
