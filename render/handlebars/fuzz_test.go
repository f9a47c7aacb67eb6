package handlebars

import (
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// fuzzData has objects of one key only: raymond visits an object's keys in
// random order.
const fuzzData = `{"a":[1,2,{"b":"x<&"}],"o":{"k":"v"},"s":"x'\"","n":0,"t":true,"nil":null,"e":[]}`

// FuzzParse: parsing never panics and never leaves the lexer's goroutine
// behind; a template this engine fills within its limits and raymond fills
// without error prints the same in both.
func FuzzParse(f *testing.F) {
	for _, src := range diffCases {
		f.Add(src)
	}
	for _, src := range []string{"{{#each a}}{{#each ../a}}{{@index}}{{/each}}{{/each}}", "{{#if", "{{{{r}}}}x{{{{/r}}}}",
		"{{> p}}", "{{a.[b c].d}}", "{{#with o as |x|}}{{x.k}}{{/with}}", "{{!-- x --}}\n{{#if t}}\n y\n{{/if}}"} {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		before := runtime.NumGoroutine()
		tpl, err := Parse(src, diffHelpers())
		goroutinesBackTo(t, before)
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("%q: %v is not a syntax error", src, err)
			}
			return
		}
		got, err := tpl.Exec(decode(t, fuzzData), Run{Limits: Limits{Steps: 20_000, Bytes: 1 << 20}})
		if errors.Is(err, ErrLimit) || blockHelperOutsideBlock(tpl) {
			// raymond would run as long as the template asks; and a
			// block helper in {{x}} or (x) runs raymond's enclosing block,
			// where this engine prints nothing.
			return
		}
		want, werr := oracle(src, decode(t, fuzzData), raymondHelpers(), nil)
		if werr != nil {
			return
		}
		var he *HelperError
		if errors.As(err, &he) && strings.Contains(he.Msg, " takes ") {
			// raymond lets a helper's options parameter take a missing
			// value in its place, and calls it with no options.
			return
		}
		if err != nil {
			t.Fatalf("%q: raymond fills it, this engine fails: %v", src, err)
		}
		if got != want {
			t.Fatalf("%q:\n got %q\nwant %q", src, got, want)
		}
	})
}

// blockHelperOutsideBlock says whether a helper that runs a block (a
// built-in block helper, or raw, which calls Fn) is called other than at
// the head of a block.
func blockHelperOutsideBlock(t *Template) bool {
	blockHelpers := []string{"if", "unless", "with", "each", "equal", "raw"}
	var inExpr func(e *expr, head bool) bool
	inExpr = func(e *expr, head bool) bool {
		if !head && slices.Contains(blockHelpers, e.helperName()) {
			return true
		}
		for _, o := range e.params {
			if s, ok := o.(*subexpr); ok && inExpr(s.expr, false) {
				return true
			}
		}
		for _, a := range e.hash {
			if s, ok := a.val.(*subexpr); ok && inExpr(s.expr, false) {
				return true
			}
		}
		return false
	}
	var inProgram func(p *program) bool
	inProgram = func(p *program) bool {
		if p == nil {
			return false
		}
		for _, s := range p.body {
			switch s := s.(type) {
			case *mustache:
				if inExpr(s.expr, false) {
					return true
				}
			case *block:
				if inExpr(s.expr, true) || inProgram(s.prog) || inProgram(s.inverse) {
					return true
				}
			}
		}
		return false
	}
	return inProgram(t.root)
}
