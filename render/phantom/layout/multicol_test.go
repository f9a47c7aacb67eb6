package layout

import (
	"testing"
)

// TestColumnsBounded: columns that a huge block would multiply without
// end stop at the column cap, and a container past its page's end takes
// one fill to count its rows.
func TestColumnsBounded(t *testing.T) {
	var work int
	testHookWork = func(w int) { work = w }
	defer func() { testHookWork = nil }()
	for _, markup := range []string{
		`<div style="columns:20;height:10px;overflow:hidden"><div style="height:1000000000px">tall</div></div><p>after</p>`,
		`<div style="columns:20"><div style="height:1000000000px">tall</div></div><p>after</p>`,
		`<div style="columns:1000;column-width:1px;column-gap:0"><p>` + lorem + lorem + lorem + `</p></div>`,
	} {
		_, _, run, _ := ltLayoutDoc(t, markup, ltGeometry(""), Options{MaxPages: 2000})
		if _, err := run(); err != nil && err != ErrTooManyPages {
			t.Errorf("%.40s: %v", markup, err)
		}
		t.Logf("%.40s: %d work units", markup, work)
		if work > 5_000_000 {
			t.Errorf("%.40s: %d work units", markup, work)
		}
	}
}
