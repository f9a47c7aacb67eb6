package handlebars

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// goroutinesBackTo waits, within a second, for the goroutine count to come
// back to n: a lexer's goroutine ends just after its last token is read.
func goroutinesBackTo(t testing.TB, n int) {
	t.Helper()
	deadline := time.Now().Add(time.Second)
	for runtime.NumGoroutine() > n && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if got := runtime.NumGoroutine(); got > n {
		t.Fatalf("%d goroutines, %d before", got, n)
	}
}

func TestParseErrorsSayWhere(t *testing.T) {
	for _, tc := range []struct{ src, words string }{
		{"<p>\n{{#each items}}\n<li>{{name}}</li>\n", "line 2, column 1: {{#each}} is never closed: expected {{/each}} before the end of the template"},
		// The column counts characters, not bytes, and points at the block's {{.
		{"<ul>\n  <li>é {{#each items}}\n{{#if a}}{{/if}}", "line 2, column 9: {{#each}} is never closed"},
		{"{{#if a}}\n{{#each b}}x{{/if}}", "line 2, column 13: {{/if}} does not close the {{#each}} of line 2, column 1"},
		{"a\n{{/if}}", "line 2, column 1: expected the end of the template, found a {{/…}} that closes no block"},
		{"{{title", "line 1, column 8: a {{ is never closed with }}"},
		{"\n\n  {{> header}}", "line 3, column 3: partials ({{> …}}) are not supported; put the markup in the template"},
		{"{{foo bar=}}", "line 1, column 11: expected "},
		{"{{a/../b}}", `line 1, column 5: "a/.." is not a valid path`},
		{"{{#each items}}{{else}}{{else}}{{/each}}", "line 1, column 24: expected {{/each}} to close the {{#each}} of line 1, column 1, found an {{else}} outside any block"},
	} {
		_, err := Parse(tc.src, nil)
		if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), tc.words) {
			t.Errorf("%q: %v, want %q", tc.src, err, tc.words)
		}
	}
}

// TestDeepNestingIsRefused parses templates nested 100,000 deep, which
// overflowed raymond's stack: each is refused at MaxNesting, and its
// lexer's goroutine ends.
func TestDeepNestingIsRefused(t *testing.T) {
	before := runtime.NumGoroutine()
	// The lexer reads all of each template (that is how its goroutine
	// ends), so only the first, the case of the issue, is 100,000 deep.
	const n, m = 100_000, 5_000
	for _, src := range []string{
		strings.Repeat("{{#a}}", n) + strings.Repeat("{{/a}}", n),
		strings.Repeat("{{^a}}", m) + strings.Repeat("{{/a}}", m),
		"{{x " + strings.Repeat("(a ", m) + strings.Repeat(")", m) + "}}",
		"{{#if a}}" + strings.Repeat("{{else if a}}", m) + "{{/if}}",
	} {
		_, err := Parse(src, nil)
		if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), fmt.Sprintf("nest more than %d deep", MaxNesting)) {
			t.Errorf("%.30q…: %v", src, err)
		}
	}
	// MaxNesting itself is fine.
	if _, err := Parse(strings.Repeat("{{#a}}", MaxNesting)+strings.Repeat("{{/a}}", MaxNesting), nil); err != nil {
		t.Fatal(err)
	}
	goroutinesBackTo(t, before)
}

// TestParseErrorsLeaveNoGoroutine parses 10,000 broken templates in a row:
// raymond left a goroutine holding the source behind each.
func TestParseErrorsLeaveNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	broken := []string{"{{#each x}}" + strings.Repeat("text ", 20), "{{a", "{{/b}}{{c}}{{d}}", "{{#a}}{{/b}}rest{{x}}", "{{> p}}{{more}}", "{{a (b}}"}
	for i := range 10_000 {
		if _, err := Parse(broken[i%len(broken)], nil); err == nil {
			t.Fatalf("%q parsed", broken[i%len(broken)])
		}
	}
	goroutinesBackTo(t, before)
}

// TestTripleLoopIsRefused fills the hostile template of issue 24 over
// 1,000 items: the steps limit, or the bytes limit with text inside, ends
// the fill where it is.
func TestTripleLoopIsRefused(t *testing.T) {
	items := make([]any, 1000)
	for i := range items {
		items[i] = map[string]any{"n": float64(i)}
	}
	before := runtime.NumGoroutine()
	for _, tc := range []struct {
		inner string
		limit Limit
	}{{"", LimitSteps}, {"{{n}} some text to write {{n}}", LimitBytes}} {
		tpl, err := Parse(`{{#each items}}{{#each @root.items}}{{#each @root.items}}`+tc.inner+`{{/each}}{{/each}}{{/each}}`, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = tpl.Exec(map[string]any{"items": items}, Run{Limits: Limits{Steps: 1_000_000, Bytes: 4 << 20, Time: time.Minute}})
		var le *LimitError
		if !errors.As(err, &le) || le.Limit != tc.limit || le.Where != "in the {{#each @root.items}} at line 1" {
			t.Fatalf("%q: %v, want limit %d in the inner loop", tc.inner, err, tc.limit)
		}
	}
	goroutinesBackTo(t, before)
}

func TestTimeLimitStopsTheFill(t *testing.T) {
	items := make([]any, 1000)
	for i := range items {
		items[i] = 1.0
	}
	tpl, err := Parse(`{{#each items}}{{#each ../items}}{{#each ../../items}}{{/each}}{{/each}}{{/each}}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = tpl.Exec(map[string]any{"items": items}, Run{Limits: Limits{Time: 20 * time.Millisecond}})
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != LimitTime || !strings.Contains(err.Error(), "filling took longer than 20ms") {
		t.Fatalf("%v", err)
	}
}

// TestHelperPanicIsAnError: a helper's panic fails its fill, never the
// process; a panic with an error keeps its words, any other is a defect
// whose detail stays in the log.
func TestHelperPanicIsAnError(t *testing.T) {
	helpers := map[string]any{
		"refuse": func() string { panic(errors.New(`asset "x" is not one of this template's assets`)) },
		//lint:ignore SA5000 the helper panics on purpose, to test that a defect fails its fill
		"defect": func() string { var m map[string]int; m["x"] = 1; return "" },
		"fails":  func() (string, error) { return "", errors.New("no such thing") },
	}
	for _, tc := range []struct{ src, words string }{
		{"\n{{refuse}}", `line 2: helper "refuse": asset "x" is not one of this template's assets`},
		{"{{#each list}}{{defect}}{{/each}}", `line 1: helper "defect" failed`},
		{"{{fails}}", `helper "fails": no such thing`},
		{"{{refuse 1}}", `helper "refuse" takes 0 parameters, not 1`},
		{"{{#if}}x{{/if}}", `helper "if" takes 1 parameter, not 0`},
	} {
		tpl, err := Parse(tc.src, helpers)
		if err != nil {
			t.Fatal(err)
		}
		_, err = tpl.Exec(map[string]any{"list": []any{1}}, Run{})
		if !errors.Is(err, ErrHelper) || !strings.Contains(err.Error(), tc.words) || strings.Contains(err.Error(), "goroutine") {
			t.Errorf("%q: %v, want %q", tc.src, err, tc.words)
		}
	}
}

// TestEachOverObjectIsSorted: raymond visits an object's keys in random
// order; this engine in sorted order, so a document prints the same twice.
func TestEachOverObjectIsSorted(t *testing.T) {
	tpl, err := Parse(`{{#each o}}{{@key}}={{this}}{{#if @last}}.{{else}},{{/if}}{{/each}}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := tpl.Exec(map[string]any{"o": map[string]any{"b": 2.0, "c": 3.0, "a": 1.0}}, Run{})
	if err != nil || out != "a=1,b=2,c=3." {
		t.Fatalf("%q %v", out, err)
	}
}

func TestConcurrentFills(t *testing.T) {
	tpl, err := Parse(`{{#each items as |it i|}}{{i}}{{it}}{{@index}}{{/each}}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan string, 8)
	for g := range 8 {
		go func() {
			out, _ := tpl.Exec(map[string]any{"items": []any{g, g}}, Run{})
			done <- fmt.Sprint(g, out)
		}()
	}
	for range 8 {
		s := <-done
		g := s[:1]
		if s != g+"0"+g+"01"+g+"1" {
			t.Fatalf("%q", s)
		}
	}
}
