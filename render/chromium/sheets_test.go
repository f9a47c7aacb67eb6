package chromium

import (
	"context"
	"testing"

	"github.com/platen/platen/pdf"
	"github.com/platen/platen/render"
)

// TestOneSheetIsOnePage: sheets make exactly their pages, whatever follows
// the last one, and content overflowing a sheet is cut, not paginated.
func TestOneSheetIsOnePage(t *testing.T) {
	e, err := New(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	cases := []struct {
		body  string
		pages int
	}{
		{`<div class="sheet">a</div>`, 1},
		{`<div class="sheet">a</div><div class="sheet">b</div><div></div><p></p>`, 2},
		{`<div class="sheet" style="padding:20mm"><div style="height:900mm">tall</div></div>`, 1},
		{`<section><div class="sheet">a</div></section><section><div class="sheet">b</div><div class="sheet">c</div></section>`, 3},
	}
	for _, landscape := range []bool{false, true} {
		m, _ := render.ParseManifest([]byte(map[bool]string{false: `{"pageSize":"A4"}`, true: `{"pageSize":"Letter","orientation":"landscape"}`}[landscape]), "m")
		for _, c := range cases {
			out, err := e.Render(context.Background(), render.Job{HTML: render.Document("<html><head></head><body>"+c.body+"</body></html>", m.Geometry(), ""), Geometry: m.Geometry()})
			if err != nil {
				t.Fatal(err)
			}
			if n, _ := pdf.PageCount(out); n != c.pages {
				t.Errorf("landscape %v, %s: %d pages, want %d", landscape, c.body, n, c.pages)
			}
		}
	}
}
