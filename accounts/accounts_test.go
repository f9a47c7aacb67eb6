package accounts

import (
	"testing"
	"time"
)

func TestThrottleSlowsThenLocksAndForgets(t *testing.T) {
	at := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	var run int
	var last time.Time
	for i := 1; i <= LockAfter; i++ {
		if d := SignInDelay(run, last, at); (run >= SlowAfter) != (d == SlowDelay) {
			t.Fatalf("before failure %d (run %d): delay %v", i, run, d)
		}
		var until time.Time
		run, until = AfterFailure(run, last, at)
		last = at
		if locked := !until.IsZero(); locked != (i == LockAfter) || (locked && !until.Equal(at.Add(LockFor))) {
			t.Fatalf("failure %d: locked until %v", i, until)
		}
		at = at.Add(time.Second)
	}
	// An hour after the last failure the run starts again.
	later := last.Add(FailuresForget + time.Second)
	if d := SignInDelay(run, last, later); d != 0 {
		t.Fatalf("delay after the run is forgotten: %v", d)
	}
	if r, until := AfterFailure(run, last, later); r != 1 || !until.IsZero() {
		t.Fatalf("a failure after the run is forgotten: run %d, until %v", r, until)
	}
}
