// Package poll waits in tests for something that happens asynchronously —
// a cluster electing a leader, a document finishing, a webhook arriving —
// by asking again until it holds or a deadline passes, as nats-server's
// checkFor does. Tests never sleep a fixed time and hope.
package poll

import (
	"testing"
	"time"
)

// Interval is how often Until asks. Short enough that a test waits little
// longer than the thing it waits for; long enough not to load a busy
// machine.
const Interval = 20 * time.Millisecond

// Until calls check every Interval until it returns nil, and fails the test
// with check's last error if that does not happen within total.
func Until(t testing.TB, total time.Duration, check func() error) {
	t.Helper()
	if err := Wait(total, Interval, check); err != nil {
		t.Fatalf("not within %s: %v", total, err)
	}
}

// Wait calls check every interval until it returns nil, and returns check's
// last error if that does not happen within total. For tests that must do
// something of their own when the wait fails, and for loops outside a test.
func Wait(total, interval time.Duration, check func() error) error {
	deadline := time.Now().Add(total)
	for {
		err := check()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(interval)
	}
}
