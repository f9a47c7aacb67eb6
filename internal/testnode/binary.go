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
func BuildBinary(pkgDir string) (string, func(), error) {
	dir, err := os.MkdirTemp("", "platen-bin")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.RemoveAll(dir) }
	bin := filepath.Join(dir, "platen")
	if out, err := exec.Command("go", "build", "-race", "-o", bin, pkgDir).CombinedOutput(); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("build platen: %v\n%s", err, out)
	}
	return bin, cleanup, nil
}
