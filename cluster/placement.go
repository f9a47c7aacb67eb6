package cluster

import (
	"hash/fnv"
	"sort"
	"sync"
)

// Member is a live node as placement sees it.
type Member struct {
	// ID is the node's stable identifier.
	ID string
	// Addr is where the node's actors are reached.
	Addr string
}

// Rendezvous places keys on members by highest random weight: every member
// scores hash(member, key) and the highest wins. When a member leaves, only
// the keys it owned move; every node computes the same answer from the same
// member list without talking to the others.
type Rendezvous struct {
	self Member

	mu      sync.RWMutex // guards members
	members []Member
}

// NewRendezvous returns placement over self alone.
func NewRendezvous(self Member) *Rendezvous {
	return &Rendezvous{self: self, members: []Member{self}}
}

// Self is this node.
func (r *Rendezvous) Self() Member { return r.self }

// SetMembers replaces the live member list. Self is always kept: a node that
// can answer is alive.
func (r *Rendezvous) SetMembers(ms []Member) {
	out := []Member{r.self}
	for _, m := range ms {
		if m.ID != r.self.ID {
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	r.mu.Lock()
	r.members = out
	r.mu.Unlock()
}

// Members returns the live members, ordered by id.
func (r *Rendezvous) Members() []Member {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]Member(nil), r.members...)
}

// Owner returns the member that owns key.
func (r *Rendezvous) Owner(key string) Member {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var best Member
	var bestScore uint64
	for i, m := range r.members {
		if s := score(m.ID, key); i == 0 || s > bestScore || (s == bestScore && m.ID < best.ID) {
			best, bestScore = m, s
		}
	}
	return best
}

// IsLocal reports whether this node owns key.
func (r *Rendezvous) IsLocal(key string) bool { return r.Owner(key).ID == r.self.ID }

// score hashes a member and a key together; the final mix spreads FNV's
// weak low bits so that scores of similar ids are independent.
func score(memberID, key string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(memberID))
	h.Write([]byte{0})
	h.Write([]byte(key))
	x := h.Sum64()
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// Ranked returns the live members ordered by their score for key, highest
// first: the owner, then who would own key if the owner left, and so on.
func (r *Rendezvous) Ranked(key string) []Member {
	ms := r.Members()
	sort.SliceStable(ms, func(i, j int) bool {
		si, sj := score(ms[i].ID, key), score(ms[j].ID, key)
		if si != sj {
			return si > sj
		}
		return ms[i].ID < ms[j].ID
	})
	return ms
}
