package layout

import (
	"strings"
	"testing"
)

// TestManyFloatsCostLittle: a label sheet of floats (thirty labels a page
// over fifty pages) costs work in proportion to its floats' rows, not to
// their count cubed.
func TestManyFloatsCostLittle(t *testing.T) {
	work := 0
	testHookWork = func(n int) { work = n }
	defer func() { testHookWork = nil }()
	sheet := func(n int) string {
		return `<style>.label{float:left;width:33%;height:90px;overflow:hidden}</style>` + strings.Repeat(`<div class="label">Label</div>`, n)
	}
	costs := map[int]int{}
	for _, n := range []int{750, 1500} {
		if _, err := layoutString(t, sheet(n), Options{MaxPages: 2000}); err != nil {
			t.Fatalf("%d labels: %v", n, err)
		}
		costs[n] = work
	}
	if r := float64(costs[1500]) / float64(costs[750]); r > 2.5 {
		t.Errorf("1,500 floated labels cost %.1f times the work of 750 (%d and %d units), want about 2", r, costs[1500], costs[750])
	}
}
