package testnode

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// BuildBinary builds the platen command in pkgDir (a path to cmd/platen
// from the calling test's package) with the race detector, for tests that
// run real node processes. It returns the binary and a function that
// removes it; TestMain calls it once for the package.
func BuildBinary(pkgDir string, flags ...string) (string, func(), error) {
	return build(pkgDir, append([]string{"-race"}, flags...)...)
}

// BuildPlainBinary builds the platen command without the race detector,
// for a test that measures a node's CPU and memory: the detector's shadow
// memory stays resident after the heap is handed back, and it slows every
// step several times.
func BuildPlainBinary(pkgDir string) (string, func(), error) { return build(pkgDir) }

func build(pkgDir string, flags ...string) (string, func(), error) {
	dir, err := os.MkdirTemp("", "platen-bin")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.RemoveAll(dir) }
	bin := filepath.Join(dir, "platen")
	if out, err := exec.Command("go", append(append([]string{"build"}, flags...), "-o", bin, pkgDir)...).CombinedOutput(); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("build platen: %v\n%s", err, out)
	}
	return bin, cleanup, nil
}

// Stale reports whether target is missing or older than any of sources, as
// make would: the tests that install npm packages run npm ci only then.
func Stale(target string, sources ...string) bool {
	ti, err := os.Stat(target)
	if err != nil {
		return true
	}
	for _, s := range sources {
		if si, err := os.Stat(s); err == nil && si.ModTime().After(ti.ModTime()) {
			return true
		}
	}
	return false
}
