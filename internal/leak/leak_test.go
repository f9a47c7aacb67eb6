package leak

import "testing"

func TestFind(t *testing.T) {
	for _, c := range []struct {
		msg, want string
	}{
		{"price: must be at least 0", ""},
		{"the template repeats more than 1,000,000 times", ""},
		{"url: https://hooks.example.com/x must resolve to a public address", ""},
		{"use POST /v1/templates/{id}/versions to save a version", ""},
		{"the PDF is not readable: wasm error: unreachable\nwasm stack trace:\n\t.$123(i32)", "a WebAssembly trace"},
		{"goroutine 7 [running]:\nmain.main()\n\t/work/main/x.go:12 +0x1d", "a stack trace"},
		{"open /root/data/blobs/ab/cd: no such file", "a file path of the node"},
		{`Post "https://127.0.0.2:7001/peer/v1/actors/ask": dial tcp 127.0.0.2:7001: connect: connection refused`, "a Go network error"},
		{"forwarding to 10.0.0.7:8300 failed", "a peer address"},
		{"asking /peer/v1/actors/ask failed", "an internal route"},
		{"context deadline exceeded", "a Go context error"},
		{"runtime error: index out of range [3] with length 2", "a Go runtime error"},
	} {
		if got := Find(c.msg); got != c.want {
			t.Errorf("Find(%q) = %q, want %q", c.msg, got, c.want)
		}
	}
}
