package style

import (
	"fmt"
	"testing"
)

// TestBoxShadowValues reads box-shadow as CSS Backgrounds 3 gives it: two
// to four lengths in a row, an optional colour (currentColor by default)
// and inset in any order, comma-separated, first on top; an invalid value
// is dropped and the earlier declaration stands.
func TestBoxShadowValues(t *testing.T) {
	for _, tc := range []struct{ css, want string }{
		{"0 4px 12px rgba(0,0,0,.5)", "[{0 4 12 0 0,0,0,0.5 false}]"},
		{"inset 0 0 10px #00f", "[{0 0 10 0 0,0,1,1 true}]"},
		{"6px 6px 0 2px #c00", "[{6 6 0 2 0.8,0,0,1 false}]"},
		{"0 10px 8px -6px #000", "[{0 10 8 -6 0,0,0,1 false}]"},
		{"3px 3px red, -3px -3px 0 blue inset", "[{3 3 0 0 1,0,0,1 false} {-3 -3 0 0 0,0,1,1 true}]"},
		{"1px 2px", "[{1 2 0 0 0,0.502,0,1 false}]"}, // currentColor: the element's green
		{"1em 0 0.5em", "[{10 0 5 0 0,0.502,0,1 false}]"},
		{"none", "[]"},
		// Invalid: the earlier 9px shadow stands.
		{"1px", "[{9 9 0 0 0,0,0,1 false}]"},
		{"1px 2px 3px 4px 5px", "[{9 9 0 0 0,0,0,1 false}]"},
		{"1px 2px -3px", "[{9 9 0 0 0,0,0,1 false}]"},
		{"1px red 2px", "[{9 9 0 0 0,0,0,1 false}]"},
		{"inset inset 1px 2px", "[{9 9 0 0 0,0,0,1 false}]"},
		{"1px 2px 10%", "[{9 9 0 0 0,0,0,1 false}]"},
	} {
		r, root := compute(t, `<!DOCTYPE html><html><body><div style="color: #008000; font-size: 10px; box-shadow: 9px 9px black; box-shadow: `+tc.css+`">x</div></body></html>`)
		div := root.FirstChild.NextSibling.LastChild.FirstChild
		var got []string
		for _, sh := range r.Style(div).BoxShadow {
			c := sh.Color
			got = append(got, fmt.Sprintf("{%g %g %g %g %.3g,%.3g,%.3g,%.3g %v}", sh.X, sh.Y, sh.Blur, sh.Spread, c.R, c.G, c.B, c.A, sh.Inset))
		}
		if s := fmt.Sprint(got); s != tc.want {
			t.Errorf("box-shadow: %s: got %s, want %s", tc.css, s, tc.want)
		}
	}
}
