package cluster

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/platen/platen/internal/poll"
	"github.com/platen/platen/internal/tier"
)

func startMember(t *testing.T, id string, key []byte) (*Membership, *Rendezvous) {
	t.Helper()
	p := NewRendezvous(Member{ID: id, Addr: "actors-" + id})
	m, err := StartMembership(MembershipConfig{NodeID: id, Bind: "127.0.0.1:0", Key: key,
		Meta: func() Meta { return Meta{Actors: "actors-" + id, HTTP: "http-" + id, Ready: true} }}, p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Leave(time.Second) })
	return m, p
}

func waitMembers(t *testing.T, m *Membership, n int) {
	t.Helper()
	poll.Until(t, 15*time.Second, func() error {
		if got := len(m.Members()); got != n {
			return fmt.Errorf("%d members, want %d", got, n)
		}
		return nil
	})
}

func TestMembershipFeedsPlacementOnEveryNode(t *testing.T) {
	key := bytes.Repeat([]byte{1}, 32)
	m1, p1 := startMember(t, "n1", key)
	m2, p2 := startMember(t, "n2", key)
	m3, p3 := startMember(t, "n3", key)
	for _, m := range []*Membership{m2, m3} {
		if _, err := m.Join([]string{m1.Addr()}); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range []*Membership{m1, m2, m3} {
		waitMembers(t, m, 3)
	}
	if meta := m1.Members()["n2"]; meta.HTTP != "http-n2" {
		t.Fatalf("meta of n2 as n1 sees it: %+v", meta)
	}
	owners := map[string]int{}
	for i := 0; i < 300; i++ {
		k := fmt.Sprint("org_", i)
		o := p1.Owner(k)
		if p2.Owner(k) != o || p3.Owner(k) != o {
			t.Fatalf("nodes disagree on the owner of %s", k)
		}
		owners[o.ID]++
	}
	if len(owners) != 3 || p1.Owner("org_1").Addr == "" {
		t.Fatalf("keys placed on %v", owners)
	}
	// n3 leaves: its keys move, the others stay.
	if err := m3.Leave(time.Second); err != nil {
		t.Fatal(err)
	}
	waitMembers(t, m1, 2)
	waitMembers(t, m2, 2)
	for i := 0; i < 300; i++ {
		if o := p1.Owner(fmt.Sprint("org_", i)); o.ID == "n3" {
			t.Fatal("a key still placed on the node that left")
		}
	}
}

func TestMembershipRefusesANodeWithoutTheKey(t *testing.T) {
	m1, _ := startMember(t, "n1", bytes.Repeat([]byte{1}, 32))
	intruder, _ := startMember(t, "x", bytes.Repeat([]byte{2}, 32))
	if n, err := intruder.Join([]string{m1.Addr()}); err == nil && n > 0 {
		time.Sleep(500 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond)
	if got := len(m1.Members()); got != 1 {
		t.Fatalf("a node with another key joined: %d members", got)
	}
	if _, err := StartMembership(MembershipConfig{NodeID: "y", Bind: "127.0.0.1:0", Key: []byte("short")}, NewRendezvous(Member{ID: "y"})); err == nil {
		t.Fatal("a short key accepted")
	}
}

// TestIsolatedMemberIsDroppedAndReturns cuts one member's gossip off with
// the fault transport: the others stop placing keys on it, and it comes back
// once its network does and it joins again.
func TestIsolatedMemberIsDroppedAndReturns(t *testing.T) {
	tier.Full(t, "waits for gossip to drop and readmit a member")
	key := bytes.Repeat([]byte{1}, 32)
	ms := make([]*Membership, 3)
	ps := make([]*Rendezvous, 3)
	for i := range ms {
		id := fmt.Sprint("n", i)
		ps[i] = NewRendezvous(Member{ID: id, Addr: "actors-" + id})
		m, err := StartMembership(MembershipConfig{NodeID: id, Bind: "127.0.0.1:0", Key: key, Faults: true,
			Meta: func() Meta { return Meta{Actors: "actors-" + id, Ready: true} }}, ps[i])
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { m.Leave(time.Second) })
		ms[i] = m
	}
	for _, m := range ms[1:] {
		if _, err := m.Join([]string{ms[0].Addr()}); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range ms {
		waitMembers(t, m, 3)
	}
	cut := time.Now()
	ms[2].Faults().Isolate(true)
	waitMembers(t, ms[0], 2)
	waitMembers(t, ms[1], 2)
	t.Logf("an isolated member was dropped by the others after %s", time.Since(cut).Round(10*time.Millisecond))
	for i := 0; i < 100; i++ {
		if o := ps[0].Owner(fmt.Sprint("org_", i)); o.ID == "n2" {
			t.Fatal("a key still placed on the isolated member")
		}
	}
	ms[2].Faults().Isolate(false)
	if _, err := ms[2].Join([]string{ms[0].Addr()}); err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		waitMembers(t, m, 3)
	}
}
