// Package crash marks the points where a test kills the node, to prove that
// a crash between two steps loses nothing acknowledged (docs/design.md
// "Consistency"). In a normal build At does nothing and costs nothing; a
// binary built with the crashpoints tag kills itself with SIGKILL at the
// point PLATEN_CRASH_AT names, as kill -9 would.
package crash

// Points on the path of a document recorded once (actors/record.go).
const (
	// Reserved: the document is reserved, not rendered.
	Reserved = "record.reserved"
	// Rendered: the PDF is made, nothing is written.
	Rendered = "record.rendered"
	// Applying: the command is in the raft log, synced, and its batch is
	// not committed.
	Applying = "record.applying"
	// Recorded: the command is applied, the caller not answered.
	Recorded = "record.recorded"
)
