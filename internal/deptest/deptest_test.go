// Package deptest guards the one direction dependencies point, for every
// package of the module (docs/architecture.md "The parts"):
//
//	cmd, node → transport → app → actors → cluster → storage → the domain rules (billing, accounts, webhooks, links, auth)
//	                                actors → render → its parts (schema, render/handlebars, pdftemplate, einvoice, pdf)
//
// The engines plug into render (render/phantom's adapter, render/chromium)
// and only node names them; phantom's core (layout, style, pdfw, fonts,
// draw, images) imports nothing of Platen. Nothing imports node or cmd.
package deptest

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const mod = "github.com/platen/platen/"

// layers are the module's packages, lowest first: a package may import only
// packages of its own layer or a lower one (Go refuses cycles). A prefix ending in "/" stands for the packages
// under it. A new package must be given its place here.
var layers = [][]string{
	// Leaves: formats, rules and helpers with no state and no Platen
	// dependency but these.
	{"internal/clock", "internal/crash", "internal/fault", "internal/ids", "internal/leak", "internal/memory", "internal/seal",
		"internal/lcs", "internal/poll", "internal/hostile", "internal/pdfbomb", "internal/tier",
		"accounts", "billing", "webhooks", "webhooks/verify", "links", "einvoice", "pdf", "render/handlebars",
		"console", "render/phantom/layout", "render/phantom/style", "render/phantom/pdfw", "render/phantom/fonts",
		"render/phantom/draw", "render/phantom/images"},
	{"internal/jsonbody", "schema", "pdftemplate", "auth", "sign"},
	{"render", "storage"},
	{"render/phantom", "render/chromium", "starters", "cluster"},
	{"actors"},
	{"app"},
	{"transport"},
	{"node"},
	// What runs or tests a node, and the clients (which import only
	// webhooks/verify: TestClientImportsNoServerPackage).
	{"cmd/", "internal/contract", "internal/testnode", "internal/faultproxy", "bench/", "client", "client/",
		"internal/deptest", "internal/pdfstruct", "sign/signtest", "e2e", "docs", "render/phantom/corpus", "render/phantom/internal/"},
}

// layer is a package's place in layers, or -1.
func layer(pkg string) int {
	for i, l := range layers {
		for _, p := range l {
			if pkg == p || strings.HasSuffix(p, "/") && strings.HasPrefix(pkg, p) {
				return i
			}
		}
	}
	return -1
}

func TestDependencyDirection(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, mod+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], mod)
		at := layer(pkg)
		if at < 0 {
			t.Errorf("%s has no place in layers: give it one", pkg)
			continue
		}
		seen++
		for _, dep := range fields[1:] {
			if !strings.HasPrefix(dep, mod) {
				continue
			}
			d := strings.TrimPrefix(dep, mod)
			if dl := layer(d); dl > at {
				t.Errorf("%s (layer %d) imports %s (layer %d): dependencies point down", pkg, at, d, dl)
			}
		}
	}
	if seen < 40 {
		t.Fatalf("checked %d packages: go list failed or the module moved", seen)
	}
}

// TestGuardedEdges names the edges docs/architecture.md promises, so that a
// change of layers that allowed one fails here too.
func TestGuardedEdges(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", mod+"webhooks", mod+"render", mod+"schema").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	server := []string{"storage", "cluster", "actors", "app", "transport", "node", "auth"}
	for _, dep := range strings.Fields(string(out)) {
		if slices.Contains(server, strings.TrimPrefix(dep, mod)) {
			t.Errorf("webhooks, render or schema depends on the server package %s", strings.TrimPrefix(dep, mod))
		}
	}
	for _, core := range []string{"layout", "style", "pdfw", "fonts", "draw", "images"} {
		out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", mod+"render/phantom/"+core).Output()
		if err != nil {
			t.Fatalf("go list: %v", err)
		}
		for _, dep := range strings.Fields(string(out)) {
			if strings.HasPrefix(dep, mod) && !strings.HasPrefix(dep, mod+"render/phantom/") {
				t.Errorf("phantom's core (%s) imports %s", core, strings.TrimPrefix(dep, mod))
			}
		}
	}
}

// clientMayImport is what of this module the Go client (package client,
// imported by users' programs) may import: the stdlib-only signature check.
// Anything else would pull the server into their binaries.
var clientMayImport = []string{"webhooks/verify"}

func TestClientImportsNoServerPackage(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", mod+"client/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) == 0 {
		t.Fatal("go list named no packages: the client moved or go list failed")
	}
	for _, dep := range deps {
		if !strings.HasPrefix(dep, mod) {
			continue
		}
		pkg := strings.TrimPrefix(dep, mod)
		if pkg == "client" || strings.HasPrefix(pkg, "client/") || slices.Contains(clientMayImport, pkg) {
			continue
		}
		t.Errorf("the client imports %s", pkg)
	}
}
