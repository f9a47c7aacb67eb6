package hostile

import (
	"bytes"
	"compress/zlib"
	"io"
	"os/exec"
	"regexp"
	"testing"
)

// TestFlateBombInflatesToWhatItSays reads the bomb's stream back: the
// limits' tests rely on its size.
func TestFlateBombInflatesToWhatItSays(t *testing.T) {
	const want = 64 << 20
	b := FlateBombPDF(want)
	start := bytes.Index(b, []byte("stream\n")) + len("stream\n")
	r, err := zlib.NewReader(bytes.NewReader(b[start:]))
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, r)
	if err != nil || n != want {
		t.Fatalf("inflated %d bytes (%v), want %d", n, err, want)
	}
	if len(b) > want/500 {
		t.Fatalf("the bomb is %d bytes: not a bomb", len(b))
	}
}

// TestPDFsAreReadable checks with poppler that the generated files are
// PDFs a reader opens, so that a refusal of them is the limits' doing.
func TestPDFsAreReadable(t *testing.T) {
	if _, err := exec.LookPath("pdfinfo"); err != nil {
		t.Fatal("pdfinfo (poppler-utils) is not installed; scripts/install-deps.sh --test installs it")
	}
	for name, b := range map[string][]byte{"small": SmallPDF(), "dict": NestedDictPDF(10), "array": NestedArrayPDF(10), "objects": ManyObjectsPDF(100), "bomb": FlateBombPDF(1 << 20)} {
		cmd := exec.Command("pdfinfo", "-")
		cmd.Stdin = bytes.NewReader(b)
		if out, err := cmd.CombinedOutput(); err != nil || !regexp.MustCompile(`(?m)^Pages:\s+1$`).Match(out) {
			t.Errorf("%s: pdfinfo: %v\n%s", name, err, out)
		}
	}
}
