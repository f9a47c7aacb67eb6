package cluster

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/hashicorp/memberlist"
)

// Meta is what a node tells the others about itself in gossip. It must stay
// within memberlist's 512 bytes.
type Meta struct {
	// Actors is where the node's actors are reached.
	Actors string `json:"a,omitempty"`
	// Raft and HTTP are the node's raft and HTTP addresses.
	Raft string `json:"r,omitempty"`
	HTTP string `json:"h,omitempty"`
	// Load is the node's documents queued or rendering.
	Load int64 `json:"l"`
	// Ready is set once the node serves its actors: until then it is a
	// member, but placement puts nothing on it.
	Ready bool `json:"ready,omitempty"`
	// Run is random for each start of the node's process: a node the
	// operator removed is added again only by a new run.
	Run string `json:"run,omitempty"`
}

// MembershipConfig configures a node's gossip membership.
type MembershipConfig struct {
	// NodeID names the node in the cluster.
	NodeID string
	// Bind is where gossip listens (TCP and UDP).
	Bind string
	// Key is the cluster key (16, 24 or 32 bytes): gossip is encrypted with it
	// and a node without it cannot join.
	Key []byte
	// Meta returns the node's current meta; it is read at each gossip round.
	Meta func() Meta
	// LogOutput receives memberlist's log; nil discards it.
	LogOutput io.Writer
	// Faults, when set, puts a FaultTransport under gossip (tests).
	Faults bool
	// OnChange, when set, is called after each change of the members. It
	// must not block.
	OnChange func()
	// Timings are the probe and gossip rates; the zero value means LANTimings.
	Timings Timings
}

// Membership is a node's view of who is alive, kept by memberlist, and the
// placement it feeds: every join, update and leave changes the members that
// rendezvous hashing places keys on.
type Membership struct {
	ml        *memberlist.Memberlist
	faults    *FaultTransport
	placement *Rendezvous
	onChange  func()

	mu      sync.Mutex // guards members
	members map[string]Meta

	left    sync.Once
	leftErr error
}

// StartMembership starts gossip on cfg.Bind; the node is a cluster of one
// until Join.
func StartMembership(cfg MembershipConfig, placement *Rendezvous) (*Membership, error) {
	switch len(cfg.Key) {
	case 16, 24, 32:
	default:
		return nil, errors.New("membership: the cluster key must be 16, 24 or 32 bytes")
	}
	host, portStr, err := net.SplitHostPort(cfg.Bind)
	if err != nil {
		return nil, fmt.Errorf("membership: gossip address: %w", err)
	}
	port, _ := strconv.Atoi(portStr)
	m := &Membership{placement: placement, members: map[string]Meta{}, onChange: cfg.OnChange}
	mc := memberlist.DefaultLANConfig()
	mc.Name = cfg.NodeID
	mc.BindAddr, mc.BindPort = host, port
	mc.AdvertiseAddr, mc.AdvertisePort = host, port
	t := cfg.Timings
	if t == (Timings{}) {
		t = LANTimings()
	}
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("membership: %w", err)
	}
	mc.ProbeInterval, mc.ProbeTimeout, mc.SuspicionMult, mc.GossipInterval = t.ProbeInterval, t.ProbeTimeout, t.SuspicionMult, t.GossipInterval
	// A join through a dead address gives up after this, not memberlist's 10 s.
	mc.TCPTimeout = 3 * time.Second
	mc.SecretKey = cfg.Key
	mc.GossipVerifyIncoming, mc.GossipVerifyOutgoing = true, true
	mc.LogOutput = cfg.LogOutput
	if mc.LogOutput == nil {
		mc.LogOutput = io.Discard
	}
	if cfg.Faults {
		nt, err := memberlist.NewNetTransport(&memberlist.NetTransportConfig{BindAddrs: []string{host}, BindPort: port,
			Logger: log.New(mc.LogOutput, "", log.LstdFlags)})
		if err != nil {
			return nil, fmt.Errorf("membership: %w", err)
		}
		mc.BindPort, mc.AdvertisePort = nt.GetAutoBindPort(), nt.GetAutoBindPort()
		m.faults = newFaultTransport(nt)
		mc.Transport = m.faults
	}
	mc.Delegate = metaDelegate{meta: cfg.Meta}
	mc.Events = (*memberEvents)(m)
	if m.ml, err = memberlist.Create(mc); err != nil {
		return nil, fmt.Errorf("membership: %w", err)
	}
	return m, nil
}

// Faults is the fault seam under gossip, nil unless configured.
func (m *Membership) Faults() *FaultTransport { return m.faults }

// Addr is the gossip address the node listens on.
func (m *Membership) Addr() string {
	n := m.ml.LocalNode()
	return net.JoinHostPort(n.Addr.String(), strconv.Itoa(int(n.Port)))
}

// Join contacts peers (gossip addresses) and returns how many answered.
func (m *Membership) Join(peers []string) (int, error) { return m.ml.Join(peers) }

// Members returns the live members and their meta, ordered by id.
func (m *Membership) Members() map[string]Meta {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]Meta, len(m.members))
	for k, v := range m.members {
		out[k] = v
	}
	return out
}

// UpdateMeta gossips the node's meta again now, rather than at the next round.
func (m *Membership) UpdateMeta() error { return m.ml.UpdateNode(5 * time.Second) }

// Leave tells the others the node is going, then stops gossip. It may be
// called again: memberlist itself panics on a Leave after its Shutdown.
func (m *Membership) Leave(timeout time.Duration) error {
	m.left.Do(func() {
		m.leftErr = m.ml.Leave(timeout)
		if err := m.ml.Shutdown(); m.leftErr == nil {
			m.leftErr = err
		}
	})
	return m.leftErr
}

// memberEvents keeps the member table from memberlist's events. memberlist
// calls them holding its own lock, so they must not call back into it.
type memberEvents Membership

func (e *memberEvents) set(n *memberlist.Node, alive bool) {
	m := (*Membership)(e)
	m.mu.Lock()
	if alive {
		var meta Meta
		_ = json.Unmarshal(n.Meta, &meta)
		m.members[n.Name] = meta
	} else {
		delete(m.members, n.Name)
	}
	list := make([]Member, 0, len(m.members))
	for id, meta := range m.members {
		if meta.Ready {
			list = append(list, Member{ID: id, Addr: meta.Actors, Run: meta.Run})
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	// The placement changes under the member table's lock, so whoever sees
	// a member in Members also finds it placed.
	before := m.placement.Members()
	m.placement.SetMembers(list)
	m.mu.Unlock()
	// A change of load alone moves nothing.
	if m.onChange != nil && !slices.Equal(before, m.placement.Members()) {
		m.onChange()
	}
}

func (e *memberEvents) NotifyJoin(n *memberlist.Node)   { e.set(n, true) }
func (e *memberEvents) NotifyUpdate(n *memberlist.Node) { e.set(n, true) }
func (e *memberEvents) NotifyLeave(n *memberlist.Node)  { e.set(n, false) }

// metaDelegate hands memberlist the node's meta.
type metaDelegate struct{ meta func() Meta }

func (d metaDelegate) NodeMeta(limit int) []byte {
	if d.meta == nil {
		return nil
	}
	b, err := json.Marshal(d.meta())
	if err != nil || len(b) > limit {
		return nil
	}
	return b
}
func (metaDelegate) NotifyMsg([]byte)                           {}
func (metaDelegate) GetBroadcasts(overhead, limit int) [][]byte { return nil }
func (metaDelegate) LocalState(join bool) []byte                { return nil }
func (metaDelegate) MergeRemoteState(buf []byte, join bool)     {}
