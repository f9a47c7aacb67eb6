// Package leak recognises internal detail in text meant for a client: stack
// traces, file paths of the node, Go's network and runtime error texts,
// addresses of peers, the cluster's internal routes and the WebAssembly
// runtime's traces. The transport replaces such a message with fixed words
// and logs the original with the request id (docs/api.md "Errors"); the
// hostile-input tests run every refusal they provoke through it.
//
// It is a net under the rule, not the rule: a refusal's words are written
// for people where it is made. A message this package flags is a bug at its
// source, which the log names.
package leak

import "regexp"

// patterns are the kinds of internal detail, each with the name Find reports.
var patterns = []struct {
	name string
	re   *regexp.Regexp
}{
	{"a stack trace", regexp.MustCompile(`goroutine \d+|\.go:\d+|\bpanic\(|runtime\.\w+\(|\+0x[0-9a-f]+\b`)},
	{"a WebAssembly trace", regexp.MustCompile(`(?i)wasm (stack|backtrace|error)|\bwazero\b|\.wasm\b|wasm-function\[`)},
	{"a file path of the node", regexp.MustCompile(`(^|[\s"'(=:])/(root|home|tmp|work|usr|var|etc|proc|opt|srv|run)/`)},
	{"a Go network error", regexp.MustCompile(`\b(dial|read|write) (tcp|udp|unix)\b|\blookup \S+ on \S+|connection refused|connection reset by peer|broken pipe|i/o timeout|\bunexpected EOF\b|use of closed network connection`)},
	{"a Go context error", regexp.MustCompile(`context deadline exceeded|context canceled`)},
	{"a Go runtime error", regexp.MustCompile(`runtime error:|invalid memory address|nil pointer dereference|%!\w\(`)},
	{"a peer address", regexp.MustCompile(`\b(\d{1,3}\.){3}\d{1,3}:\d{2,5}\b|\[[0-9a-fA-F:]+\]:\d{2,5}`)},
	{"an internal route", regexp.MustCompile(`/peer/v\d+/|/raft/`)},
}

// Find names the first kind of internal detail in msg, or returns "" when
// it has none.
func Find(msg string) string {
	for _, p := range patterns {
		if p.re.MatchString(msg) {
			return p.name
		}
	}
	return ""
}
