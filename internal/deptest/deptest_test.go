// Package deptest guards the direction of dependencies that STYLE.md asks
// for: transport → app → actors → domain packages → storage, with node and cmd
// wiring everything and nothing importing them.
package deptest

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const mod = "github.com/platen/platen/"

// forbidden maps a package to the packages it must not import, directly or not.
var forbidden = map[string][]string{
	"billing":   {"storage", "actors", "transport", "node", "cluster", "auth"},
	"accounts":  {"storage", "actors", "app", "transport", "node", "cluster", "auth"},
	"storage":   {"actors", "transport", "node", "cluster", "auth"},
	"cluster":   {"actors", "transport", "node"},
	"actors":    {"app", "transport", "node"},
	"app":       {"transport", "node"},
	"auth":      {"actors", "transport", "node", "storage", "cluster"},
	"transport": {"node"},
}

func TestDependencyDirection(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Deps " "}}`, mod+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], mod)
		bad, ok := forbidden[pkg]
		if !ok {
			continue
		}
		seen++
		for _, dep := range fields[1:] {
			for _, b := range bad {
				if dep == mod+b || strings.HasPrefix(dep, mod+b+"/") {
					t.Errorf("%s imports %s", pkg, strings.TrimPrefix(dep, mod))
				}
			}
		}
	}
	if seen != len(forbidden) {
		t.Fatalf("checked %d of %d guarded packages: a package moved or go list failed", seen, len(forbidden))
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
