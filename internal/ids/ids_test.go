package ids

import (
	"sort"
	"testing"
	"time"
)

func TestNewSortsByTimeAndIsWellFormed(t *testing.T) {
	base := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	var made []string
	for i := 0; i < 200; i++ {
		id := New(Document, base.Add(time.Duration(i)*time.Millisecond))
		if !HasKind(id, Document) {
			t.Fatalf("%q is not a well-formed document id", id)
		}
		made = append(made, id)
	}
	if !sort.StringsAreSorted(made) {
		t.Fatalf("ids made at increasing times do not sort: %v", made[:5])
	}
	if HasKind(made[0], Org) {
		t.Fatalf("%q reported as an org id", made[0])
	}
}

func TestNewIsUniqueWithinOneMillisecond(t *testing.T) {
	at := time.Unix(1700000000, 0)
	seen := map[string]bool{}
	for i := 0; i < 10000; i++ {
		id := New(Key, at)
		if seen[id] {
			t.Fatalf("duplicate id %q", id)
		}
		seen[id] = true
	}
}

func TestHasKindRejects(t *testing.T) {
	for _, id := range []string{"", "doc_", "doc_0123", "org_" + "0123456789abcdefghjkmnpqrs", "doc_0123456789abcdefghjkmnpqrU", "doc_0123456789abcdefghjkmnpqri"} {
		if HasKind(id, Document) {
			t.Errorf("HasKind(%q) = true", id)
		}
	}
}

func TestDerive(t *testing.T) {
	src := New(Event, time.Unix(1700000000, 0))
	a, b := Derive(Delivery, src, "whk_1"), Derive(Delivery, src, "whk_2")
	if a != Derive(Delivery, src, "whk_1") || a == b || !HasKind(a, Delivery) || a[4:14] != src[4:14] {
		t.Fatalf("derived %s %s from %s", a, b, src)
	}
}

func TestIdsOfOneMillisecondSortInTheOrderMade(t *testing.T) {
	at := time.Unix(1800000000, 0)
	prev := New(Template, at)
	for i := 0; i < 5000; i++ {
		id := New(Template, at)
		if id <= prev {
			t.Fatalf("%s made after %s sorts before it", id, prev)
		}
		prev = id
	}
	// A clock that goes back still sorts after.
	if id := New(Template, at.Add(-time.Hour)); id <= prev {
		t.Fatalf("%s after a clock step back sorts before %s", id, prev)
	}
}
