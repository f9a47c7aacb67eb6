package cluster

import (
	"fmt"
	"testing"
)

func TestSingleNodeOwnsEverything(t *testing.T) {
	r := NewRendezvous(Member{ID: "n1", Addr: "a1"})
	for i := 0; i < 100; i++ {
		if !r.IsLocal(fmt.Sprintf("org_%d", i)) {
			t.Fatal("a lone node does not own a key")
		}
	}
}

func TestRendezvousSpreadsAndMovesOnlyTheLeaversKeys(t *testing.T) {
	members := []Member{{ID: "n1"}, {ID: "n2"}, {ID: "n3"}, {ID: "n4"}}
	r := NewRendezvous(members[0])
	r.SetMembers(members)
	other := NewRendezvous(members[2]) // another node computes the same answers
	other.SetMembers(members)

	const keys = 20000
	before := map[string]string{}
	count := map[string]int{}
	for i := 0; i < keys; i++ {
		k := fmt.Sprintf("org_%d", i)
		o := r.Owner(k).ID
		if other.Owner(k).ID != o {
			t.Fatalf("nodes disagree on %s", k)
		}
		before[k] = o
		count[o]++
	}
	for _, m := range members {
		if share := float64(count[m.ID]) / keys; share < 0.2 || share > 0.3 {
			t.Errorf("%s owns %.2f of keys, want about 0.25", m.ID, share)
		}
	}

	r.SetMembers([]Member{{ID: "n1"}, {ID: "n2"}, {ID: "n4"}}) // n3 leaves
	for k, o := range before {
		now := r.Owner(k).ID
		if o != "n3" && now != o {
			t.Fatalf("%s moved from %s to %s though its owner stayed", k, o, now)
		}
		if now == "n3" {
			t.Fatalf("%s still placed on the departed node", k)
		}
	}
}

func TestSetMembersKeepsSelf(t *testing.T) {
	r := NewRendezvous(Member{ID: "n1"})
	r.SetMembers([]Member{{ID: "n2"}})
	if got := r.Members(); len(got) != 2 || got[0].ID != "n1" {
		t.Fatalf("members %+v", got)
	}
}
