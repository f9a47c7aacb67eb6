// Package tier sorts tests into two tiers. The full tier (make test, what CI
// runs) runs every test with the race detector. The fast tier (make
// test-fast: go test -short) is for the inner loop: it leaves out the tests
// that start node processes and clusters, heal or restart browsers, or render
// documents by the dozen, and finishes in under two minutes here.
package tier

import "testing"

// Full marks a test that only the full tier runs; the fast tier skips it and
// says why.
func Full(t testing.TB, why string) {
	t.Helper()
	if testing.Short() {
		t.Skip("full tier only (make test): " + why)
	}
}
