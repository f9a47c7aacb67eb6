package corpus

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/platen/platen/internal/pdfstruct"
	"github.com/platen/platen/pdf"
)

// markupFreeRules are the PDF/UA rules a tagged document must pass
// whatever its markup says: that content is all tagged or an artifact and
// never nested wrongly, that the structure uses standard types in their
// places, and that links are tagged. (A page without a title or alt text
// fails others: that is the template's, refused when it asks for PDF/UA.)
var markupFreeRules = []string{"6.2-1", "7.1-1", "7.1-2", "7.1-3", "7.1-4", "7.1-5", "7.1-11", "7.1-12",
	"7.2-3", "7.2-4", "7.2-8", "7.2-9", "7.2-10", "7.2-17", "7.2-18", "7.2-19", "7.2-20",
	"7.18.3-1", "7.18.5-1", "7.18.5-2", "7.21.4.1-1", "7.21.7-1"}

// TestCorpusTagged: every golden and real-world document phantom prints,
// printed tagged,
// passes the PDF/UA rules that do not depend on its markup, has a
// structure tree a reader that is not Platen's (qpdf) can walk, and looks
// exactly as it does untagged.
func TestCorpusTagged(t *testing.T) {
	p, err := newPhantom()
	if err != nil {
		t.Fatal(err)
	}
	real, err := LoadDir(os.DirFS(realWorldDir))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range append(selected(loadCorpus(t)), selected(real)...) {
		if d.HandOff || strings.HasPrefix(d.Name, HandOffPrefix) {
			continue
		}
		plain, err := p.Render(context.Background(), d.Job)
		if err != nil {
			continue // what phantom cannot print goes to Chromium; TestCorpus holds that
		}
		job := d.Job
		job.Tagged = true
		tagged, err := p.Render(context.Background(), job)
		if err != nil {
			t.Errorf("%s: tagged: %v", d.Name, err)
			continue
		}
		n++
		checks, err := pdf.CheckPDFUA(tagged)
		if err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		for _, c := range checks {
			for _, id := range markupFreeRules {
				if c.ID == id && !c.Passed {
					t.Errorf("%s: fails %s: %s", d.Name, c.ID, c.Detail)
				}
			}
		}
		s, err := pdfstruct.Read(tagged)
		if err != nil || s.Root == nil || s.Root.Role != "Document" || s.PagesWithStructParents != s.Pages || s.ParentTreeKeys != s.NextKey {
			t.Errorf("%s: the structure tree: %+v %v", d.Name, s, err)
		}
		a, errA := render72(context.Background(), plain)
		b, errB := render72(context.Background(), tagged)
		if errA != nil || errB != nil || len(a) != len(b) {
			t.Fatalf("%s: rasterize: %v %v", d.Name, errA, errB)
		}
		for i := range a {
			if string(a[i].Pix) != string(b[i].Pix) {
				t.Errorf("%s: page %d looks different tagged", d.Name, i+1)
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d documents were printed tagged", n)
	}
	t.Logf("%d golden and real-world documents printed tagged", n)
}
