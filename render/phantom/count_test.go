package phantom

import (
	"context"
	"testing"

	"github.com/platen/platen/pdf"
	"github.com/platen/platen/render"
)

// TestRenderCountedAgreesWithPDF checks the count the renderer takes
// instead of reading the PDF back: it is the PDF's own page count.
func TestRenderCountedAgreesWithPDF(t *testing.T) {
	e, err := New(Config{Workers: 1, MaxPages: 100})
	if err != nil {
		t.Fatal(err)
	}
	g := a4()
	for _, body := range []string{
		"<p>one page</p>",
		`<p>one</p><p style="break-before: page">two</p><p style="break-before: page">three</p>`,
	} {
		out, n, err := e.RenderCounted(context.Background(), render.Job{HTML: render.Document(body, g, ""), Geometry: g})
		if err != nil {
			t.Fatal(err)
		}
		want, err := pdf.PageCount(out)
		if err != nil {
			t.Fatal(err)
		}
		if n != want {
			t.Errorf("%s: counted %d pages, the PDF has %d", body, n, want)
		}
	}
}
