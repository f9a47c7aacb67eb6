package cluster

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"

	"github.com/platen/platen/storage"
)

// RaftConfig configures a node's raft replica.
type RaftConfig struct {
	// NodeID is the node's stable id; it is the raft server id.
	NodeID string
	// Bind is the address raft listens on for its peers.
	Bind string
	// Advertise is the address peers dial; empty means Bind's resolved address.
	Advertise string
	// Dir holds the raft log database and snapshots.
	Dir string
	// Blobs, when set, is where the state machine writes the files commands
	// carry; those the log holds and the folder lacks are written again
	// before raft starts (storage.RepairBlobs).
	Blobs *storage.Blobs
	// SnapshotThreshold is how many new entries trigger a snapshot; the log
	// before it is then compacted.
	SnapshotThreshold uint64
	// SnapshotInterval is how often raft checks whether to snapshot.
	SnapshotInterval time.Duration
	// TrailingLogs is how many entries are kept after a snapshot, so a briefly
	// absent follower catches up from the log instead of a whole snapshot.
	TrailingLogs uint64
	// LogOutput receives raft's own warnings, a line each; nil means stderr.
	LogOutput io.Writer
	// Stream, when set, carries raft instead of plain TCP on Bind: the
	// cluster port's TLS stream (PeerPort.Raft).
	Stream raft.StreamLayer
	// Join, when set, starts the replica with no configuration of its own:
	// it waits for a leader to add it. Unset, a replica with no raft state
	// bootstraps a one-voter cluster of itself (the embedded default).
	Join bool
	// Alone marks a node that never has peers (started without a cluster
	// key). Raft's timeouts exist to tell a dead leader from a slow one;
	// with no other voter there is neither, so they are cut to soloTimeout
	// and the node leads about a tenth of a second after it starts, not one
	// to two seconds.
	Alone bool
	// Timings are the election and commit timeouts of a node with peers.
	Timings Timings
}

// soloTimeout is the heartbeat, election and lease timeout of a replica
// that is alone: the wait before it elects itself.
const soloTimeout = 100 * time.Millisecond

// DefaultRaftConfig returns defaults for a node whose id and addresses the
// caller fills in.
func DefaultRaftConfig() RaftConfig {
	return RaftConfig{
		// A snapshot copies the whole state database; every 8k commands keeps
		// the log short without snapshotting continuously under load.
		SnapshotThreshold: 8192,
		SnapshotInterval:  30 * time.Second,
		// Raft's own default; a few seconds of heavy writes.
		TrailingLogs: 10240,
		Timings:      LANTimings(),
	}
}

// Validate reports what is missing or wrong.
func (c RaftConfig) Validate() error {
	switch {
	case c.NodeID == "":
		return errors.New("raft: node id is required")
	case c.Bind == "":
		return errors.New("raft: bind address is required")
	case c.Dir == "":
		return errors.New("raft: directory is required")
	case c.SnapshotThreshold == 0:
		return errors.New("raft: snapshot threshold must be positive")
	}
	return c.Timings.Validate()
}

// Replicator is a node's raft replica: it proposes commands and applies the
// committed log to the store.
type Replicator struct {
	raft      *raft.Raft
	store     *storage.Store
	logs      *storage.LogStore
	transport *raft.NetworkTransport
	// caughtUpTerm is the term in which this node, as leader, has applied a
	// barrier: everything committed before its leadership is in the store.
	caughtUpTerm atomic.Uint64
	done         chan struct{}
	id           string
	// fwd, when set, sends a follower's proposals to the leader.
	fwd      atomic.Pointer[forwarder]
	catchUps catchUps
	// heartbeat is raft's heartbeat timeout: a follower takes a silent
	// leader for dead within two of them.
	heartbeat time.Duration
}

// ErrNotLeader is returned when a command is proposed on a node that does not
// lead: it was not appended, and the caller may retry on the leader.
var ErrNotLeader = errors.New("not the raft leader")

// ErrOutcomeUnknown is returned when leadership was lost after a command was
// appended: it may still commit. The caller must read before retrying.
var ErrOutcomeUnknown = errors.New("outcome unknown: leadership changed after the change was logged; it may still take effect")

// StartRaft opens the raft log in cfg.Dir and starts the replica over store. A
// node with no raft state bootstraps a one-voter cluster of itself.
func StartRaft(cfg RaftConfig, store *storage.Store) (*Replicator, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	out := cfg.LogOutput
	if out == nil {
		out = os.Stderr
	}
	logger := hclog.New(&hclog.LoggerOptions{Name: "raft", Level: hclog.Warn, Output: out, DisableTime: true})

	if err := os.MkdirAll(cfg.Dir, 0o700); err != nil {
		return nil, err
	}
	logs, err := storage.OpenLogStore(filepath.Join(cfg.Dir, "log"))
	if err != nil {
		return nil, err
	}
	if cfg.Blobs != nil {
		if n, err := storage.RepairBlobs(logs, cfg.Blobs, store); err != nil {
			logs.Close()
			return nil, fmt.Errorf("write the blobs the raft log carries: %w", err)
		} else if n > 0 {
			logger.Warn("wrote again the blobs the raft log carries that were missing", "blobs", n)
		}
		store.SetBlobWriter(cfg.Blobs)
	}
	snaps, err := raft.NewFileSnapshotStoreWithLogger(filepath.Join(cfg.Dir, "snapshots"), 2, logger)
	if err != nil {
		logs.Close()
		return nil, err
	}
	var advertise net.Addr
	if cfg.Advertise != "" {
		if advertise, err = net.ResolveTCPAddr("tcp", cfg.Advertise); err != nil {
			logs.Close()
			return nil, fmt.Errorf("raft advertise address: %w", err)
		}
	}
	var transport *raft.NetworkTransport
	if cfg.Stream != nil {
		transport = raft.NewNetworkTransportWithLogger(cfg.Stream, 3, 10*time.Second, logger)
	} else if transport, err = raft.NewTCPTransportWithLogger(cfg.Bind, advertise, 3, 10*time.Second, logger); err != nil {
		logs.Close()
		return nil, fmt.Errorf("raft transport on %s: %w", cfg.Bind, err)
	}

	rc := raft.DefaultConfig()
	rc.LocalID = raft.ServerID(cfg.NodeID)
	rc.Logger = logger
	rc.SnapshotThreshold = cfg.SnapshotThreshold
	rc.SnapshotInterval = cfg.SnapshotInterval
	rc.TrailingLogs = cfg.TrailingLogs
	t := cfg.Timings
	rc.HeartbeatTimeout, rc.ElectionTimeout, rc.LeaderLeaseTimeout, rc.CommitTimeout = t.Heartbeat, t.Election, t.LeaderLease, t.Commit
	if cfg.Alone {
		rc.HeartbeatTimeout, rc.ElectionTimeout, rc.LeaderLeaseTimeout = soloTimeout, soloTimeout, soloTimeout
	}
	// The store keeps its own applied index on disk; restoring the snapshot at
	// every start would rewrite the whole database for nothing.
	rc.NoSnapshotRestoreOnStart = !store.NeedsSnapshotRestore()
	rc.BatchApplyCh = true

	existing, err := raft.HasExistingState(logs, logs, snaps)
	if err != nil {
		transport.Close()
		logs.Close()
		return nil, err
	}
	if err := checkStoreBehindLog(store, logs, snaps); err != nil {
		transport.Close()
		logs.Close()
		return nil, err
	}
	if !existing && !cfg.Join {
		boot := raft.Configuration{Servers: []raft.Server{{
			ID: rc.LocalID, Address: transport.LocalAddr(), Suffrage: raft.Voter,
		}}}
		if err := raft.BootstrapCluster(rc, logs, logs, snaps, transport, boot); err != nil {
			transport.Close()
			logs.Close()
			return nil, fmt.Errorf("raft bootstrap: %w", err)
		}
	}
	r, err := raft.NewRaft(rc, store, logs, logs, snaps, transport)
	if err != nil {
		transport.Close()
		logs.Close()
		return nil, err
	}
	rep := &Replicator{raft: r, store: store, logs: logs, transport: transport, done: make(chan struct{}), id: cfg.NodeID, heartbeat: rc.HeartbeatTimeout}
	go rep.watchLeadership()
	if !cfg.Alone {
		go rep.watchDeadLeader(cfg.Timings, logger)
	}
	return rep, nil
}

// watchDeadLeader cuts short a follower's wait for a leader that has died.
// Raft's followers stand for election only after a heartbeat timeout of
// silence, randomised up to twice that, and a follower that still counts the
// dead leader refuses the others' votes until its own timer ends; at three
// nodes an election therefore waited for the later of two random timers,
// 1.3 to 2 s at LAN timings. Here a follower that has missed three
// heartbeats dials the leader's port; a refused connection means no process
// listens there, and once the leader has been silent for the leader lease
// (the shortest timeout raft allows a heartbeat timeout to be), the follower
// lowers its heartbeat timeout to it, which raft takes as a cue to look now:
// it stands at once. Every follower does the same at about the same moment,
// so none refuses the others' votes. The heartbeat timeout is put back when
// a leader is known again. A leader that is alive but slow accepts the
// connection and is waited for as before.
func (r *Replicator) watchDeadLeader(t Timings, logger hclog.Logger) {
	every := t.Heartbeat / 10 // raft's interval between heartbeats
	tick := time.NewTicker(every)
	defer tick.Stop()
	var dead raft.ServerAddress // the leader found dead
	shortened := false
	setHeartbeat := func(d time.Duration) bool {
		rc := r.raft.ReloadableConfig()
		rc.HeartbeatTimeout = d
		if err := r.raft.ReloadConfig(rc); err != nil {
			logger.Warn("cannot change the heartbeat timeout", "error", err)
			return false
		}
		return true
	}
	for {
		select {
		case <-r.done:
			return
		case <-tick.C:
		}
		leader, _ := r.raft.LeaderWithID()
		follower := r.raft.State() == raft.Follower
		if leader != dead || !follower {
			dead = ""
			if shortened && setHeartbeat(t.Heartbeat) {
				shortened = false
			}
		}
		if !follower || leader == "" {
			continue
		}
		silent := time.Since(r.raft.LastContact())
		if silent < 3*every {
			continue
		}
		if dead == "" {
			if !refuses(string(leader), every) {
				continue
			}
			dead = leader
			logger.Warn("the leader's port refuses connections; standing for election without waiting out the heartbeat timeout", "leader", leader)
		}
		if !shortened && silent >= t.LeaderLease && t.LeaderLease < t.Heartbeat {
			shortened = setHeartbeat(t.LeaderLease)
		}
	}
}

// refuses reports whether a connection to addr is refused: nothing listens.
func refuses(addr string, timeout time.Duration) bool {
	conn, err := net.DialTimeout("tcp", addr, timeout)
	if err == nil {
		conn.Close()
		return false
	}
	return isRefused(err)
}

// watchLeadership applies a barrier each time this node becomes leader: until
// it has, entries from earlier terms may be committed but not yet applied, and
// the commit index alone does not show it (after a snapshot restore it equals
// the snapshot's index).
func (r *Replicator) watchLeadership() {
	for {
		select {
		case <-r.done:
			return
		case leader := <-r.raft.LeaderCh():
			if !leader {
				continue
			}
			term := r.raft.CurrentTerm()
			if err := r.raft.Barrier(time.Minute).Error(); err == nil && r.raft.CurrentTerm() == term {
				r.caughtUpTerm.Store(term)
			}
		}
	}
}

// checkStoreBehindLog refuses a store that has applied more than the raft log
// and snapshots hold: the raft folder was lost or replaced, and raft would
// hand out indexes the store skips as already applied, acknowledging writes
// that are never made.
func checkStoreBehindLog(store *storage.Store, logs *storage.LogStore, snaps raft.SnapshotStore) error {
	applied := store.AppliedIndex()
	if applied == 0 {
		return nil
	}
	last, err := logs.LastIndex()
	if err != nil {
		return err
	}
	metas, err := snaps.List()
	if err != nil {
		return err
	}
	if len(metas) > 0 && metas[0].Index > last {
		last = metas[0].Index
	}
	if applied > last {
		return fmt.Errorf("the state database has applied index %d but the raft log and snapshots end at %d: "+
			"the raft folder was lost or replaced; restore it, or move the state folder away to rebuild from the log", applied, last)
	}
	return nil
}

// Pending is a proposed command whose outcome is not known yet: appended to
// this node's log, or forwarded to the leader.
type Pending struct {
	f      raft.ApplyFuture
	remote <-chan outcome
	store  *storage.Store
}

// Wait blocks until the command is applied or refused. A nil error means it
// is durable in the log and applied to this node's store.
func (p Pending) Wait() error {
	if p.remote != nil {
		return waitLocal(p.store, <-p.remote)
	}
	if err := p.f.Error(); err != nil {
		switch {
		case errors.Is(err, raft.ErrNotLeader), errors.Is(err, raft.ErrRaftShutdown):
			return fmt.Errorf("%w: %v", ErrNotLeader, err)
		case errors.Is(err, raft.ErrLeadershipLost):
			return fmt.Errorf("%w: %v", ErrOutcomeUnknown, err)
		}
		return err
	}
	res, ok := p.f.Response().(storage.Result)
	if !ok {
		return fmt.Errorf("raft: unexpected apply response %T", p.f.Response())
	}
	return res.Err
}

// Propose appends a command to the raft log without waiting for it; raft
// batches concurrent proposals into one disk write. timeout bounds the wait
// to enqueue.
func (r *Replicator) Propose(c *storage.Command, timeout time.Duration) (Pending, error) {
	data, err := storage.EncodeCommand(c)
	if err != nil {
		return Pending{}, err
	}
	if f := r.fwd.Load(); f != nil && r.raft.State() != raft.Leader {
		// A command with an org or endpoint version is refused once
		// applied, so the forwarder may send it again after its leader
		// dies (consistency rule 1).
		return f.enqueue(data, c.Expect != 0 && (c.OrgID != "" || c.EndpointID != "")), nil
	}
	return Pending{f: r.raft.Apply(data, timeout)}, nil
}

// Apply proposes a command and waits for its outcome.
func (r *Replicator) Apply(c *storage.Command, timeout time.Duration) error {
	p, err := r.Propose(c, timeout)
	if err != nil {
		return err
	}
	return p.Wait()
}

// Ready reports whether the replica has a leader and has applied everything
// committed, so local reads see every acknowledged write. A leader is ready
// once its barrier of this term is applied; a follower once it has applied
// what the leader told it is committed.
func (r *Replicator) Ready() bool {
	if r.raft.State() == raft.Leader {
		return r.caughtUpTerm.Load() == r.raft.CurrentTerm()
	}
	if addr, _ := r.raft.LeaderWithID(); addr == "" {
		return false
	}
	commit := r.raft.CommitIndex()
	return commit > 0 && r.raft.AppliedIndex() >= commit
}

// WaitReady blocks until Ready or the timeout passes.
func (r *Replicator) WaitReady(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for !r.Ready() {
		if time.Now().After(deadline) {
			return fmt.Errorf("raft not ready after %s (state %s)", timeout, r.raft.State())
		}
		time.Sleep(10 * time.Millisecond)
	}
	return nil
}

// AddVoter makes a server a voter; only the leader can. Adding a server that
// is already a voter at that address changes nothing.
func (r *Replicator) AddVoter(id, addr string, timeout time.Duration) error {
	return r.leaderOnly(r.raft.AddVoter(raft.ServerID(id), raft.ServerAddress(addr), 0, timeout).Error())
}

// AddNonvoter adds a server that receives the log but does not vote.
func (r *Replicator) AddNonvoter(id, addr string, timeout time.Duration) error {
	return r.leaderOnly(r.raft.AddNonvoter(raft.ServerID(id), raft.ServerAddress(addr), 0, timeout).Error())
}

// RemoveServer removes a server from the configuration; only the leader can.
func (r *Replicator) RemoveServer(id string, timeout time.Duration) error {
	return r.leaderOnly(r.raft.RemoveServer(raft.ServerID(id), 0, timeout).Error())
}

// Leader returns the current leader's id and address, empty when there is none.
func (r *Replicator) Leader() (id, addr string) {
	a, i := r.raft.LeaderWithID()
	return string(i), string(a)
}

// IsLeader reports whether this replica leads.
func (r *Replicator) IsLeader() bool { return r.raft.State() == raft.Leader }

func (r *Replicator) leaderOnly(err error) error {
	if errors.Is(err, raft.ErrNotLeader) {
		return fmt.Errorf("%w: %v", ErrNotLeader, err)
	}
	return err
}

// Snapshot takes a snapshot now and compacts the log behind it.
func (r *Replicator) Snapshot() error { return r.raft.Snapshot().Error() }

// Stats returns raft's own counters, for the operator API.
func (r *Replicator) Stats() map[string]string { return r.raft.Stats() }

// State is the replica's raft role.
func (r *Replicator) State() string { return r.raft.State().String() }

// Addr is the raft transport's address.
func (r *Replicator) Addr() string { return string(r.transport.LocalAddr()) }

// Servers returns the raft configuration's servers.
func (r *Replicator) Servers() ([]raft.Server, error) {
	f := r.raft.GetConfiguration()
	if err := f.Error(); err != nil {
		return nil, err
	}
	return f.Configuration().Servers, nil
}

// Shutdown stops raft and closes the log. The store is the caller's to close.
func (r *Replicator) Shutdown() error {
	close(r.done)
	err := r.raft.Shutdown().Error()
	if cerr := r.transport.Close(); err == nil {
		err = cerr
	}
	if cerr := r.logs.Close(); err == nil {
		err = cerr
	}
	return err
}
