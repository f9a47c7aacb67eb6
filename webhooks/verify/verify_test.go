package verify

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/platen/platen/webhooks"
)

// snippet returns the code block of a language from docs/webhooks.md.
func snippet(t *testing.T, lang string) string {
	t.Helper()
	doc, err := os.ReadFile("../../docs/webhooks.md")
	if err != nil {
		t.Fatal(err)
	}
	start := strings.Index(string(doc), "```"+lang+"\n")
	if start < 0 {
		t.Fatalf("no %s snippet in docs/webhooks.md", lang)
	}
	rest := string(doc)[start+len(lang)+4:]
	return rest[:strings.Index(rest, "```")]
}

func TestGoSnippetIsThisCode(t *testing.T) {
	src, _ := os.ReadFile("verify.go")
	fn := string(src)[strings.Index(string(src), "// Verify checks"):]
	if snippet(t, "go") != fn {
		t.Fatal("docs/webhooks.md's Go snippet differs from webhooks/verify/verify.go; copy the code across")
	}
}

func TestVerify(t *testing.T) {
	body := []byte(`{"v":1,"id":"dlv_1","event":"ping"}`)
	now := time.Now()
	h := webhooks.Sign([]byte("whsec_k"), now, body)
	if err := Verify("whsec_k", h, body, now); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"tampered": Verify("whsec_k", h, append(body, ' '), now),
		"stale":    Verify("whsec_k", h, body, now.Add(301*time.Second)),
		"future":   Verify("whsec_k", h, body, now.Add(-301*time.Second)),
		"secret":   Verify("whsec_x", h, body, now),
		"header":   Verify("whsec_k", "v1=abc", body, now),
	} {
		if err == nil {
			t.Errorf("%s: verified", name)
		}
	}
}

// TestNodeAndPythonSnippets runs the other two snippets of the docs against
// a real signature, and against a tampered body.
func TestNodeAndPythonSnippets(t *testing.T) {
	body := `{"v":1,"id":"dlv_1","event":"ping","data":{"x":"é"}}`
	h := webhooks.Sign([]byte("whsec_k"), time.Now(), []byte(body))
	dir := t.TempDir()
	js := snippet(t, "js") + `
const h = process.argv[2], body = Buffer.from(process.argv[3]);
verify("whsec_k", h, body);
let refused = false;
try { verify("whsec_k", h, Buffer.concat([body, Buffer.from(" ")])); } catch (e) { refused = true; }
if (!refused) { throw new Error("tampered body verified"); }
console.log("ok");
`
	py := snippet(t, "python") + `
import sys
h, body = sys.argv[1], sys.argv[2].encode()
verify("whsec_k", h, body)
try:
    verify("whsec_k", h, body + b" ")
except ValueError:
    print("ok")
else:
    raise SystemExit("tampered body verified")
`
	for _, c := range []struct{ bin, file, src string }{{"node", "v.js", js}, {"python3", "v.py", py}} {
		if _, err := exec.LookPath(c.bin); err != nil {
			t.Fatalf("%s is not installed: the snippet cannot be checked", c.bin)
		}
		p := filepath.Join(dir, c.file)
		os.WriteFile(p, []byte(c.src), 0o600)
		out, err := exec.Command(c.bin, p, h, body).CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != "ok" {
			t.Errorf("%s snippet: %v\n%s", c.bin, err, out)
		}
	}
}
