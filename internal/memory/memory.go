// Package memory hands a node's garbage back to the system after work that
// grew the heap and was refused: a fill over its byte budget, a document
// laid out to the page cap, a PDF whose reader ran to its memory limit. Go
// returns freed pages only gradually (its scavenger), so without this a
// node that refused four 64 MB fills kept their memory for minutes, and
// what a limit bounds looked unbounded from outside (docs/operator.md
// "Limits").
package memory

import (
	"runtime/debug"
	"sync/atomic"
)

// state is idle, running, or running with another release asked for
// meanwhile, which runs once the current one ends: refusals that come
// together free their memory at different moments, and the last must not
// be skipped.
var state atomic.Int32

const (
	idle = iota
	running
	again
)

// Release collects garbage and returns the free pages to the system, in
// the background, one collection at a time. A full collection costs
// milliseconds: it is for after a refusal, never on the path of an
// ordinary request.
func Release() {
	for {
		switch state.Load() {
		case idle:
			if state.CompareAndSwap(idle, running) {
				go release()
				return
			}
		case running:
			if state.CompareAndSwap(running, again) {
				return
			}
		default:
			return
		}
	}
}

func release() {
	for {
		debug.FreeOSMemory()
		if state.CompareAndSwap(running, idle) {
			return
		}
		state.Store(running) // it was again: once more
	}
}
