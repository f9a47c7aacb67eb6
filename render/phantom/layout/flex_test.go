package layout

import (
	"strings"
	"testing"
)

// TestNestedFlexCostsLinearTime: flex containers nested in one another lay
// their items out again at stretched heights only a few levels deep, so
// twice the nesting costs about twice the work, not its square or worse.
func TestNestedFlexCostsLinearTime(t *testing.T) {
	work := 0
	testHookWork = func(n int) { work = n }
	defer func() { testHookWork = nil }()
	nested := func(depth int, dir string) string {
		open := `<div style="display:flex;flex-direction:` + dir + `;min-height:20px"><div style="flex:1;padding:1px">item</div><div style="display:flex;flex:1;flex-direction:` + dir + `">`
		return strings.Repeat(open, depth) + "x" + strings.Repeat("</div></div>", depth)
	}
	for _, dir := range []string{"row", "column"} {
		costs := map[int]int{}
		for _, depth := range []int{50, 100} {
			if _, err := layoutString(t, nested(depth, dir), Options{}); err != nil {
				t.Fatalf("%s, %d deep: %v", dir, depth, err)
			}
			costs[depth] = work
		}
		if costs[50] == 0 {
			t.Fatal("the work hook was not called")
		}
		if r := float64(costs[100]) / float64(costs[50]); r > 2.5 {
			t.Errorf("%s flex nested 100 deep costs %.1f times the work of 50 deep (%d and %d units), want about 2", dir, r, costs[100], costs[50])
		}
	}
}
