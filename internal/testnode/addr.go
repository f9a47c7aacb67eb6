package testnode

import (
	"fmt"
	"math/rand/v2"
	"net"
	"testing"
)

// FreeAddr returns a free port on a loopback address of its own
// (127.A.B.C, never 127.0.0.1), for a node process or server a test starts.
// The port is free only until it is closed here: on 127.0.0.1 the kernel
// handed it again to the next outgoing connection or test listener often
// enough to fail a node's start ("the raft address … is in use") in a CI
// run. No other socket binds these addresses, and connections to them leave
// from 127.0.0.1.
func FreeAddr(t testing.TB) string {
	t.Helper()
	host := fmt.Sprintf("127.%d.%d.%d", 1+rand.IntN(254), rand.IntN(256), 1+rand.IntN(254))
	l, err := net.Listen("tcp", host+":0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}
