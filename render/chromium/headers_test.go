package chromium

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/platen/platen/render"
)

// TestHeadersAndFootersOnEveryPage prints a three-page flowing document with
// a header holding an asset image and data, and a footer with page X of Y.
func TestHeadersAndFootersOnEveryPage(t *testing.T) {
	png, err := os.ReadFile("testdata/logo.png")
	if err != nil {
		t.Fatal(err)
	}
	manifest, _ := json.Marshal(map[string]any{
		"pageSize": "A4",
		"header":   `<img src="{{asset "logo.png"}}" style="height:8mm;vertical-align:middle"> <b>ACME Ltd</b> · {{title}}`,
		"footer":   `<div style="text-align:right">Page {{pageNumber}} of {{totalPages}}</div>`,
	})
	var body strings.Builder
	for i := 0; i < 120; i++ {
		body.WriteString("<p>Paragraph " + strconv.Itoa(i) + " of a report long enough to flow over several pages.</p>")
	}
	c, err := render.Version{HTML: "<html><head></head><body>" + body.String() + "</body></html>", Manifest: manifest,
		Assets: map[string]string{"logo.png": "data:image/png;base64," + base64.StdEncoding.EncodeToString(png)}}.Check()
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	res, err := render.NewRenderer(render.DefaultRendererConfig(), e).Render(context.Background(), render.Request{Version: c, Data: map[string]any{"title": "Quarterly report"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Pages < 3 {
		t.Fatalf("%d pages; the test needs at least three", res.Pages)
	}
	pages := strings.Split(run(t, res.PDF, "pdftotext", "-layout", "-", "-"), "\f")
	for i := 0; i < res.Pages; i++ {
		for _, want := range []string{"ACME Ltd · Quarterly report", "Page " + strconv.Itoa(i+1) + " of " + strconv.Itoa(res.Pages)} {
			if !strings.Contains(pages[i], want) {
				t.Errorf("page %d lacks %q:\n%s", i+1, want, pages[i])
			}
		}
	}
	// The logo is an image on every page.
	images := run(t, res.PDF, "pdfimages", "-list", "-")
	for i := 1; i <= res.Pages; i++ {
		if !regexp.MustCompile(`(?m)^\s+` + strconv.Itoa(i) + `\s+\d+\s+image`).MatchString(images) {
			t.Errorf("no image on page %d:\n%s", i, images)
		}
	}
	// The header's text is readable: at least 8 points high.
	bbox := run(t, res.PDF, "pdftotext", "-bbox", "-f", "1", "-l", "1", "-", "-")
	m := regexp.MustCompile(`yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">ACME</word>`).FindStringSubmatch(bbox)
	if m == nil {
		t.Fatalf("no box for the header's text:\n%s", bbox[:min(len(bbox), 800)])
	}
	lo, _ := strconv.ParseFloat(m[1], 64)
	hi, _ := strconv.ParseFloat(m[2], 64)
	if hi-lo < 8 {
		t.Fatalf("header text is %.1f points high", hi-lo)
	}
}

func run(t *testing.T, pdf []byte, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Stdin = bytes.NewReader(pdf)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return string(out)
}
