package poll

import (
	"errors"
	"testing"
	"time"
)

func TestWaitReturnsOnceTheCheckHolds(t *testing.T) {
	calls := 0
	err := Wait(5*time.Second, time.Millisecond, func() error {
		if calls++; calls < 3 {
			return errors.New("not yet")
		}
		return nil
	})
	if err != nil || calls != 3 {
		t.Fatalf("err %v after %d calls; want nil after 3", err, calls)
	}
}

func TestWaitGivesTheLastErrorAtTheDeadline(t *testing.T) {
	calls := 0
	err := Wait(30*time.Millisecond, 5*time.Millisecond, func() error {
		calls++
		return errors.New("still not")
	})
	if err == nil || err.Error() != "still not" || calls < 2 {
		t.Fatalf("err %v after %d calls; want the check's own error after several", err, calls)
	}
}
