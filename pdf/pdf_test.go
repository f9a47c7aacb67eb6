package pdf

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// sample is a two-page PDF made by Chromium, kept small in testdata.
func sample(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/two-pages.pdf")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestPageCount(t *testing.T) {
	n, err := PageCount(sample(t))
	if err != nil || n != 2 {
		t.Fatalf("PageCount = %d, %v", n, err)
	}
	if _, err := PageCount([]byte("%PDF-1.4 broken")); err == nil {
		t.Fatal("a broken PDF has a page count")
	}
}

func TestWatermarkIsReadableOnEveryPage(t *testing.T) {
	out, err := Watermark(sample(t), "SANDBOX", "Sandbox document: not for production use")
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := PageCount(out); n != 2 {
		t.Fatalf("watermarked PDF has %d pages", n)
	}
	cmd := exec.Command("pdftotext", "-", "-")
	cmd.Stdin = bytes.NewReader(out)
	text, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	pages := strings.Split(string(text), "\f")
	for i := 0; i < 2; i++ {
		if !strings.Contains(pages[i], "Sandbox document: not for production use") || !strings.Contains(pages[i], "Page") {
			t.Fatalf("page %d text lacks the notice or its own content:\n%s", i+1, pages[i])
		}
	}
}
