package cluster

import (
	"hash/fnv"
	"sort"
	"sync"
	"time"
)

// Member is a live node as placement sees it.
type Member struct {
	// ID is the node's stable identifier.
	ID string
	// Addr is where the node's actors are reached.
	Addr string
	// Run names the member's process (Meta.Run): a restarted node is a new
	// run, which a mark of the old one's death does not cover. Not shown
	// in the operator API's placement.
	Run string `json:"-"`
}

// Rendezvous places keys on members by highest random weight: every member
// scores hash(member, key) and the highest wins. When a member leaves, only
// the keys it owned move; every node computes the same answer from the same
// member list without talking to the others.
//
// A member whose cluster port refused a connection is marked down
// (MarkDown) and left out at once, without waiting for gossip to declare
// it dead: a refused connection means no process listens there.
type Rendezvous struct {
	self Member
	now  func() time.Time

	mu      sync.RWMutex // guards members and down
	members []Member
	// down are members marked down, by id: the run marked and until when
	// the mark holds.
	down map[string]downMark
}

type downMark struct {
	run   string
	until time.Time
}

// DownFor is how long a mark of a refused connection holds without gossip
// agreeing: well past gossip's own verdict on a dead node (memberlist's
// suspicion, under 3 s on a LAN), so a dead node stays out until gossip
// removes it; a node that refused one connection yet is alive (a listener
// restarting, a firewall's reject) is trusted again after it.
const DownFor = 10 * time.Second

// NewRendezvous returns placement over self alone.
func NewRendezvous(self Member) *Rendezvous {
	return &Rendezvous{self: self, now: time.Now, members: []Member{self}, down: map[string]downMark{}}
}

// Self is this node.
func (r *Rendezvous) Self() Member { return r.self }

// SetMembers replaces the live member list. Self is always kept: a node that
// can answer is alive. A down mark ends when its member is gone from the
// list or back as another run.
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
	for id, d := range r.down {
		if m, ok := r.member(id); !ok || m.Run != d.run {
			delete(r.down, id)
		}
	}
	r.mu.Unlock()
}

// member finds a member by id; r.mu is held.
func (r *Rendezvous) member(id string) (Member, bool) {
	for _, m := range r.members {
		if m.ID == id {
			return m, true
		}
	}
	return Member{}, false
}

// MarkDown leaves the member whose actors are reached at addr out of
// placement: a connection to it was refused. It reports whether that
// changed the members placement sees; self is never marked.
func (r *Rendezvous) MarkDown(addr string) (id string, changed bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range r.members {
		if m.Addr != addr || m.ID == r.self.ID {
			continue
		}
		_, was := r.down[m.ID]
		was = was && r.isDown(m)
		r.down[m.ID] = downMark{run: m.Run, until: r.now().Add(DownFor)}
		return m.ID, !was
	}
	return "", false
}

// isDown reports whether m is marked down; r.mu is held.
func (r *Rendezvous) isDown(m Member) bool {
	d, ok := r.down[m.ID]
	return ok && d.run == m.Run && r.now().Before(d.until)
}

// Down returns the ids of the members marked down, to tell the peers that
// are asked in their place.
func (r *Rendezvous) Down() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []string
	for _, m := range r.members {
		if r.isDown(m) {
			out = append(out, m.ID)
		}
	}
	return out
}

// Members returns the live members, ordered by id: those gossip lists,
// less those marked down.
func (r *Rendezvous) Members() []Member {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.live()
}

// live is Members; r.mu is held.
func (r *Rendezvous) live() []Member {
	out := make([]Member, 0, len(r.members))
	for _, m := range r.members {
		if !r.isDown(m) {
			out = append(out, m)
		}
	}
	return out
}

// Owner returns the member that owns key.
func (r *Rendezvous) Owner(key string) Member {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var best Member
	var bestScore uint64
	for i, m := range r.live() {
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
