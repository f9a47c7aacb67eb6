package render

import (
	"errors"
	"strings"
	"testing"

	"github.com/platen/platen/internal/fault"
)

// TestPageRuleSizesAreBounded: an @page size outside the manifest's 20 to
// 2,000 mm is refused at save naming the field and the rule, however it is
// written (units, comments, escapes, calc()), and at render time when the
// data writes it; sizes within the bounds, names and orientations pass.
func TestPageRuleSizesAreBounded(t *testing.T) {
	for _, css := range []string{
		`@page { size: 0mm; }`, `@page { size: 100000mm 297mm }`, `@page :first { margin: 0; size: 10mm }`,
		`@PAGE{size:1in 300in}`, `@page { /* */ s\69 ze: 1e6px }`, `@p\61 ge { size: 5cm 1mm }`,
		`@page { size: calc(10000mm) }`, `@page { size: var(--w) }`, `@page { @top-center { content: "x" } size: 5mm }`,
	} {
		_, err := Version{HTML: "<style>" + css + "</style><p>x</p>"}.Check()
		var fe *fault.FieldError
		if !errors.As(err, &fe) || fe.Field != "html" || !strings.Contains(err.Error(), "between 20mm and 2000mm") || !strings.Contains(err.Error(), "@page { size:") {
			t.Errorf("%s: got %v", css, err)
		}
	}
	for _, css := range []string{
		`@page { size: A4 landscape; margin: 10mm }`, `@page { size: 210mm 297mm }`, `@page { size: 8.5in 11in !important }`,
		`@page { size: auto }`, `@page :first { @top-center { content: "size: 1mm" } }`, `@pagex { size: 1mm }`, `p { size: 1mm }`,
	} {
		if _, err := (Version{HTML: "<style>" + css + "</style><p>x</p>"}).Check(); err != nil {
			t.Errorf("%s: %v", css, err)
		}
	}
	c := checked(t, `<style>@page { size: {{w}} }</style>`, `{}`, nil)
	r := NewRenderer(DefaultRendererConfig())
	_, err := r.job(Request{Version: c, Data: map[string]any{"w": "1mm"}})
	if !errors.Is(err, ErrFill) || !strings.Contains(err.Error(), "between 20mm and 2000mm") {
		t.Errorf("render time: %v", err)
	}
}
