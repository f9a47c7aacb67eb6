package main

import (
	"errors"
	"io"
	"testing"
)

// TestWatchHelpIsNotAnError: watch -h prints its flags and exits 0, as the
// other commands do, not "platen: flag: help requested" and 1.
func TestWatchHelpIsNotAnError(t *testing.T) {
	if err := watch([]string{"-h"}, io.Discard); !errors.Is(err, errHelp) {
		t.Fatalf("watch -h: %v, want errHelp", err)
	}
}
