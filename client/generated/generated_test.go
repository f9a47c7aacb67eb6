// Package generated_test makes clients of Platen with third-party
// generators, from the OpenAPI document a node serves, with each
// generator's default settings and no hand edits, and runs a first PDF with
// each against that node: oapi-codegen for Go, openapi-typescript with
// openapi-fetch for TypeScript. An integrator meets Platen this way before
// reading a line of its docs; these tests keep that first meeting working.
package generated_test

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/platen/platen/internal/testnode"
)

// oapiCodegen is the generator, at the version its testdata module's
// go.sum was made with.
const oapiCodegen = "github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2"

func TestOapiCodegenClientMakesAFirstPDF(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a generator and a program (about a minute); make test runs it")
	}
	n := testnode.Start(t, nil)
	dir := t.TempDir()
	for _, f := range []string{"main.go", "go.mod", "go.sum"} {
		copyFile(t, filepath.Join("testdata", "gofirst", f), filepath.Join(dir, f))
	}
	writeSpec(t, n, filepath.Join(dir, "openapi.json"))
	if err := os.MkdirAll(filepath.Join(dir, "platenapi"), 0o755); err != nil {
		t.Fatal(err)
	}
	run(t, dir, "go", "run", oapiCodegen, "-package", "platenapi", "-o", "platenapi/platenapi.gen.go", "openapi.json")
	run(t, dir, "go", "build", "-o", "first", ".")
	out := run(t, dir, "./first", n.URL, n.Key, "first.pdf")
	checkFirstPDF(t, out, filepath.Join(dir, "first.pdf"))
}

func TestOpenapiTypescriptClientMakesAFirstPDF(t *testing.T) {
	if testing.Short() {
		t.Skip("installs npm packages and compiles TypeScript; make test runs it")
	}
	for _, bin := range []string{"node", "npm"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Fatalf("%s is not installed (scripts/install-deps.sh --test installs it)", bin)
		}
	}
	tools, err := filepath.Abs(filepath.Join("..", "..", "tools", "openapi"))
	if err != nil {
		t.Fatal(err)
	}
	if testnode.Stale(filepath.Join(tools, "node_modules", ".package-lock.json"), filepath.Join(tools, "package-lock.json"), filepath.Join(tools, "package.json")) {
		run(t, tools, "npm", "ci", "--no-audit", "--no-fund")
	}
	n := testnode.Start(t, nil)
	dir := t.TempDir()
	for _, f := range []string{"first.ts", "tsconfig.json"} {
		copyFile(t, filepath.Join("testdata", "tsfirst", f), filepath.Join(dir, f))
	}
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"type": "module", "private": true}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(tools, "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	writeSpec(t, n, filepath.Join(dir, "openapi.json"))
	bin := filepath.Join(tools, "node_modules", ".bin")
	run(t, dir, filepath.Join(bin, "openapi-typescript"), "openapi.json", "-o", "schema.d.ts")
	run(t, dir, filepath.Join(bin, "tsc"), "-p", ".")
	out := run(t, dir, "node", "dist/first.js", n.URL, n.Key, "first.pdf")
	checkFirstPDF(t, out, filepath.Join(dir, "first.pdf"))
}

// writeSpec saves the document the node serves, as a generator reads it.
func writeSpec(t *testing.T, n *testnode.Node, path string) {
	t.Helper()
	res, err := http.Get(n.URL + "/v1/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	spec, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("GET /v1/openapi.json: HTTP %d %v", res.StatusCode, err)
	}
	if err := os.WriteFile(path, spec, 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkFirstPDF reads what the program printed and the PDF it saved: a
// completed document of the invoice starter's sample data.
func checkFirstPDF(t *testing.T, out, path string) {
	t.Helper()
	if !regexp.MustCompile(`^doc_[0-9a-z]{26} completed [1-9]\d* page\(s\) \d+ bytes\n$`).MatchString(out) {
		t.Errorf("the program printed %q", out)
	}
	pdf, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("the download is not a PDF: %.40q", pdf)
	}
	text, err := exec.Command("pdftotext", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	if !strings.Contains(strings.ToLower(string(text)), "invoice") {
		t.Errorf("the PDF does not read as an invoice:\n%s", text)
	}
}

func run(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	t.Logf("%s %s: %s", filepath.Base(name), strings.Join(args, " "), time.Since(start).Round(time.Millisecond))
	return stdout.String()
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
