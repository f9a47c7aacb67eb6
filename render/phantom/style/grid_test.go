package style

import (
	"fmt"
	"strings"
	"testing"
)

// showGrid describes a style's grid container and item properties.
func showGrid(c *Computed) string {
	var b strings.Builder
	tl := func(name string, t *TrackList) {
		fmt.Fprintf(&b, "%s[%s", name, t)
		if t != nil {
			fmt.Fprintf(&b, " names%v", t.Names)
			if t.RepeatAt >= 0 {
				fmt.Fprintf(&b, " repeat@%d %s x%v fit=%v after%v", t.RepeatAt, (&TrackList{Sizes: t.Repeat}).String(), t.RepeatNames, t.AutoFit, t.AfterRepeat)
			}
		}
		b.WriteString("] ")
	}
	tl("cols", c.GridTemplateColumns)
	tl("rows", c.GridTemplateRows)
	if a := c.GridTemplateAreas; a != nil {
		fmt.Fprintf(&b, "areas %dx%d", a.Rows, a.Cols)
		for _, n := range []string{"a", "b", "c", "head", "main"} {
			if g, ok := a.Areas[n]; ok {
				fmt.Fprintf(&b, " %s%v", n, g)
			}
		}
		b.WriteString(" ")
	}
	if c.GridAutoRows != nil || c.GridAutoColumns != nil {
		fmt.Fprintf(&b, "auto %v/%v ", (&TrackList{Sizes: c.GridAutoRows}), (&TrackList{Sizes: c.GridAutoColumns}))
	}
	fmt.Fprintf(&b, "flow %d lines %v %v %v %v justify %d/%d", c.GridAutoFlow, c.GridRowStart, c.GridRowEnd, c.GridColumnStart, c.GridColumnEnd, c.JustifyItems, c.JustifySelf)
	return b.String()
}

// TestGridValues reads the grid properties as CSS Grid Layout 1 gives
// them: track lists with repeat(), minmax(), fit-content() and line names,
// automatic repetitions, areas, line placements and their shorthands,
// grid-template and grid; an invalid value is dropped whole.
func TestGridValues(t *testing.T) {
	for _, tc := range []struct{ css, want string }{
		{"grid-template-columns: 100px 1fr 2fr", "cols[100px 1fr 2fr names[[] [] [] []]] rows[none] flow 0 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 0/1"},
		{"grid-template-columns: repeat(3, minmax(0, 1fr))", "cols[minmax(0px,1fr) minmax(0px,1fr) minmax(0px,1fr) names[[] [] [] []]] rows[none] flow 0 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 0/1"},
		{"grid-template-columns: [a] 1em [b c] auto [d]", "cols[16px auto names[[a] [b c] [d]]] rows[none] flow 0 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 0/1"},
		{"grid-template-columns: [x] repeat(2, [a] 10px [b]) [y] 20%", "cols[10px 10px 20% names[[x a] [b a] [b y] []]] rows[none] flow 0 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 0/1"},
		{"grid-template-columns: fit-content(150px) min-content max-content", "cols[fit-content(150px) min-content max-content names[[] [] [] []]] rows[none] flow 0 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 0/1"},
		{"grid-template-columns: [s] 50px repeat(auto-fill, [r] minmax(120px, 1fr) [q]) [e] 1fr", "cols[50px 1fr names[[s] [] []] repeat@1 minmax(120px,1fr) x[[r] [q]] fit=false after[e]] rows[none] flow 0 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 0/1"},
		{"grid-template-rows: repeat(auto-fit, 40px)", "cols[none] rows[ names[[]] repeat@0 40px x[[] []] fit=true after[]] flow 0 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 0/1"},
		{`grid-template-areas: 'a a b' 'c . b'`, "cols[none] rows[none] areas 2x3 a{0 0 1 2} b{0 2 2 3} c{1 0 2 1} flow 0 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 0/1"},
		{"grid-auto-rows: minmax(30px, auto); grid-auto-flow: column dense", "cols[none] rows[none] auto minmax(30px,auto)/ flow 3 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 0/1"},
		{"grid-column: span 2 / span 2", "cols[none] rows[none] flow 0 lines {false 0 } {false 0 } {true 2 } {true 2 } justify 0/1"},
		{"grid-column: 2 / -1; grid-row: foo", "cols[none] rows[none] flow 0 lines {false 0 foo} {false 0 foo} {false 2 } {false -1 } justify 0/1"},
		{"grid-row: 3 a / span b", "cols[none] rows[none] flow 0 lines {false 3 a} {true 1 b} {false 0 } {false 0 } justify 0/1"},
		{"grid-area: head", "cols[none] rows[none] flow 0 lines {false 0 head} {false 0 head} {false 0 head} {false 0 head} justify 0/1"},
		{"grid-area: 1 / 2 / 3", "cols[none] rows[none] flow 0 lines {false 1 } {false 3 } {false 2 } {false 0 } justify 0/1"},
		{"grid-column-start: 99999", "cols[none] rows[none] flow 0 lines {false 0 } {false 0 } {false 1000 } {false 0 } justify 0/1"},
		{"grid-template: auto 50px / 1fr 3fr", "cols[1fr 3fr names[[] [] []]] rows[auto 50px names[[] [] []]] flow 0 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 0/1"},
		{`grid-template: [top] 'a b' 30px [mid] 'c c' / 100px 1fr`, "cols[100px 1fr names[[] [] []]] rows[30px auto names[[top] [mid] []]] areas 2x2 a{0 0 1 1} b{0 1 1 2} c{1 0 2 2} flow 0 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 0/1"},
		{"grid: auto-flow dense 40px / 1fr 1fr", "cols[1fr 1fr names[[] [] []]] rows[none] auto 40px/ flow 2 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 0/1"},
		{"grid: 100px / auto-flow", "cols[none] rows[100px names[[] []]] flow 1 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 0/1"},
		{"justify-items: center; justify-self: end", "cols[none] rows[none] flow 0 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 11/6"},
		{"justify-items: legacy center", "cols[none] rows[none] flow 0 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 0/1"},
		{"place-items: end center", "cols[none] rows[none] flow 0 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 11/1"},
		{"place-self: auto right", "cols[none] rows[none] flow 0 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 0/10"},
		// Invalid: dropped, and so nothing is set.
		{"grid-template-columns: 1fr -1fr", "cols[none] rows[none] flow 0 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 0/1"},
		{"grid-template-columns: minmax(1fr, 100px)", "cols[none] rows[none] flow 0 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 0/1"},
		{"grid-template-columns: repeat(auto-fill, 1fr)", "cols[none] rows[none] flow 0 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 0/1"},
		{"grid-template-columns: repeat(auto-fill, 10px) repeat(auto-fit, 10px)", "cols[none] rows[none] flow 0 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 0/1"},
		{"grid-template-columns: repeat(0, 10px)", "cols[none] rows[none] flow 0 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 0/1"},
		{`grid-template-areas: 'a b a'`, "cols[none] rows[none] flow 0 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 0/1"},
		{`grid-template-areas: 'a b' 'c'`, "cols[none] rows[none] flow 0 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 0/1"},
		{"grid-column: 0", "cols[none] rows[none] flow 0 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 0/1"},
		{"grid-column: span -2", "cols[none] rows[none] flow 0 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 0/1"},
		{"grid-row: 1 / 2 / 3", "cols[none] rows[none] flow 0 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 0/1"},
		{"grid-auto-flow: row column", "cols[none] rows[none] flow 0 lines {false 0 } {false 0 } {false 0 } {false 0 } justify 0/1"},
	} {
		s := styleOf(t, `<!DOCTYPE html><html><body><div id=g style="display: grid; `+tc.css+`">x</div></body></html>`, "g")
		if got := showGrid(s); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.css, got, tc.want)
		}
	}
}

// TestGridTrackLimit: a template of more tracks than phantom lays out is
// handed to Chromium, not expanded.
func TestGridTrackLimit(t *testing.T) {
	r, _ := compute(t, `<!DOCTYPE html><style>#g { display: grid; grid-template-columns: repeat(100000, 1px) }</style><div id=g>x</div>`)
	if got := fmt.Sprint(featureNames(r)); got != "[grid-template:tracks @ #g]" {
		t.Errorf("features %s", got)
	}
}

// TestTrackListExpand repeats an automatic repetition with its line names.
func TestTrackListExpand(t *testing.T) {
	s := styleOf(t, `<!DOCTYPE html><html><body><div id=g style="display: grid; grid-template-columns: [s] 50px [m] repeat(auto-fill, [r] 10px [q]) [e] 1fr [z]">x</div></body></html>`, "g")
	sizes, names := s.GridTemplateColumns.Expand(3)
	got := fmt.Sprint((&TrackList{Sizes: sizes}).String(), names)
	if want := "50px 10px 10px 10px 1fr[[s] [m r] [q r] [q r] [q e] [z]]"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
