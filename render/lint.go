package render

import (
	"fmt"
	"slices"

	"github.com/platen/platen/render/handlebars"
)

// lint parses markup (a header or footer) and reports what lintCalls does.
func lint(src string) error {
	tpl, err := handlebars.Parse(src, nil)
	if err != nil {
		return err
	}
	return lintCalls(tpl)
}

// lintCalls reports the first call of a helper that does not exist. Handlebars.js
// refuses such a call when it runs; Handlebars prints nothing for an unknown
// name instead, which would hide a typo such as formatCurency until a
// customer saw the blank. A name with parameters or hash arguments, or in a
// subexpression, is a call. (Partials are refused when the markup is
// parsed: a template cannot register any.)
func lintCalls(tpl *handlebars.Template) error {
	for _, c := range tpl.Calls() {
		if !slices.Contains(HelperNames, c.Name) && !slices.Contains(handlebars.BuiltinNames(), c.Name) {
			return fmt.Errorf("line %d: unknown helper %q", c.Line, c.Name)
		}
	}
	return nil
}
