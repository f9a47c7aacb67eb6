package starters

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/platen/platen/render"
	"github.com/platen/platen/render/chromium"
	"github.com/platen/platen/render/phantom"
)

// TestEveryStarterRendersItsSample renders each starter with its sample data
// on real Chromium (a PDF/A starter, the e-invoice, on phantom, which writes
// PDF/A) and checks the page count and text its expect.json gives.
func TestEveryStarterRendersItsSample(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 8 {
		t.Fatalf("%d starters; the library promises at least eight", len(all))
	}
	eng, err := chromium.New(chromium.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	renderer := render.NewRenderer(render.DefaultRendererConfig(), eng)
	ph, err := phantom.New(phantom.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	archival := render.NewRenderer(render.DefaultRendererConfig(), eng, ph)
	for _, st := range all {
		t.Run(st.Slug, func(t *testing.T) {
			if st.Name == "" || st.Description == "" {
				t.Fatal("meta.json lacks a name or description")
			}
			checked, err := st.Version.Check()
			if err != nil {
				t.Fatalf("the starter does not pass the checks a user's version must: %v", err)
			}
			if len(checked.Manifest.DataSchema) == 0 {
				t.Fatal("no data schema")
			}
			raw, err := fs.ReadFile(library, "library/"+st.Slug+"/expect.json")
			if err != nil {
				t.Fatal(err)
			}
			var want struct {
				Pages int      `json:"pages"`
				Text  []string `json:"text"`
			}
			if err := json.Unmarshal(raw, &want); err != nil || want.Pages < 1 || len(want.Text) < 3 {
				t.Fatalf("expect.json must give pages and at least three texts: %v", err)
			}
			r := renderer
			if checked.Manifest.PDFA != "" {
				r = archival
			}
			res, err := r.Render(context.Background(), render.Request{Version: checked, Data: checked.Sample,
				Now: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)})
			if err != nil {
				t.Fatal(err)
			}
			if c := res.Report.Conformance; checked.Manifest.PDFA != "" && (c == nil || c.Failed != 0 || c.Checked < 30) {
				t.Errorf("the PDF/A starter's conformance report: %+v", c)
			}
			if res.Pages != want.Pages {
				t.Errorf("%d pages, want %d", res.Pages, want.Pages)
			}
			cmd := exec.Command("pdftotext", "-layout", "-", "-")
			cmd.Stdin = bytes.NewReader(res.PDF)
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			text := squash(string(out))
			for _, w := range want.Text {
				if !strings.Contains(text, squash(w)) {
					t.Errorf("the PDF's text lacks %q", w)
				}
			}
		})
	}
}

// squash folds runs of white space, so layout spacing does not matter.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }
