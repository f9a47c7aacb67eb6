package memory

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/platen/platen/internal/poll"
)

// TestReleaseReturnsTheHeapToTheSystem grows the heap by 256 MiB, drops it
// and asks for releases as refusals would, together: the pages go back to
// the system (HeapReleased grows by most of them) and the state ends idle.
func TestReleaseReturnsTheHeapToTheSystem(t *testing.T) {
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	garbage := make([][]byte, 256)
	for i := range garbage {
		garbage[i] = make([]byte, 1<<20)
		garbage[i][0] = 1
	}
	runtime.KeepAlive(garbage)
	garbage = nil
	for i := 0; i < 4; i++ {
		Release()
	}
	poll.Until(t, 3*time.Second, func() error {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		if m.HeapReleased < before.HeapReleased+200<<20 || state.Load() != idle {
			return fmt.Errorf("released %d MiB more, state %d", (m.HeapReleased-before.HeapReleased)>>20, state.Load())
		}
		return nil
	})
}
