package actors

import (
	"errors"
	"testing"

	"github.com/platen/platen/internal/fault"
)

// TestAdmitDocumentOffloadsOnlyWhenLoadedBeyondPeers: a document renders on
// the node that took it until that node has two rounds queued and a round
// more than its least loaded peer, or its queue is full; then it goes to the
// least loaded peer.
func TestAdmitDocumentOffloadsOnlyWhenLoadedBeyondPeers(t *testing.T) {
	f := newFixture(t) // node n1, queue of 10
	loads := map[string]int64{"n1": 0, "n2": 3, "n3": 1}
	f.sys.SetRemote(Remote{RenderPages: 2, AppliedIndex: f.store.AppliedIndex, Loads: func() map[string]int64 { return loads }})

	var releases []func()
	admit := func() string {
		t.Helper()
		node, release, err := f.sys.AdmitDocument()
		if err != nil {
			t.Fatal(err)
		}
		releases = append(releases, release)
		return node
	}
	// Up to 2 rounds (4) here; at 4 in flight with the least loaded peer at
	// 1, 4 > 1+2: the fifth goes to n3.
	for i := 0; i < 4; i++ {
		if node := admit(); node != "n1" {
			t.Fatalf("document %d placed on %s with %d in flight here", i, node, f.sys.InFlight())
		}
	}
	if node := admit(); node != "n3" {
		t.Fatalf("loaded node kept the document; placed on %s", node)
	}
	if f.sys.InFlight() != 4 {
		t.Fatalf("an offloaded document took a place here: %d in flight", f.sys.InFlight())
	}
	// Peers as loaded as this node: it keeps its documents until its queue
	// is full, then hands them to the least loaded peer with room.
	loads["n2"], loads["n3"] = 9, 8
	for f.sys.InFlight() < 10 {
		if node := admit(); node != "n1" {
			t.Fatalf("placed on %s though the peers are as loaded", node)
		}
	}
	if node := admit(); node != "n3" {
		t.Fatalf("a full node placed on %s", node)
	}
	loads["n2"], loads["n3"] = 10, 10
	if _, _, err := f.sys.AdmitDocument(); !errors.Is(err, fault.ErrOverloaded) {
		t.Fatalf("every queue full: %v", err)
	}
	for _, r := range releases {
		r()
	}
	if f.sys.InFlight() != 0 {
		t.Fatalf("%d places left after release", f.sys.InFlight())
	}
}
