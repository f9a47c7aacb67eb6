package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/hashicorp/raft"

	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/storage"
)

// Commands proposed on a follower go to the leader through the peer API. One
// goroutine sends them in the order they were proposed, in batches: while one
// batch is on its way, the next gathers. Order matters because an org actor
// pipelines commands that carry consecutive org versions.

// ApplyPath is where a leader takes commands forwarded by followers.
const ApplyPath = "/peer/v1/raft/apply"

// maxForwardBatch bounds the commands in one forwarded batch, and
// maxForwardBytes their size (one command alone may exceed it).
const (
	maxForwardBatch = 256
	maxForwardBytes = 16 << 20
	// maxApplyBody bounds what a leader reads of one batch: a batch of
	// maxForwardBytes, or one command of the largest size, in base64.
	maxApplyBody = 128 << 20
)

type forwardRequest struct {
	Commands [][]byte `json:"commands"`
}

type forwardResult struct {
	Index uint64     `json:"index"`
	Err   fault.Wire `json:"err"`
}

type forwardResponse struct {
	Results []forwardResult `json:"results"`
}

type outcome struct {
	index uint64
	err   error
}

type forwardItem struct {
	data []byte
	done chan outcome
	// repeatable marks a command the state machine refuses once it has
	// been applied: it names the org or endpoint version it was decided
	// on, so a second copy is refused as stale.
	repeatable bool
	// resent is set once the command went to a leader with an unknown
	// outcome and is being sent again.
	resent bool
}

type forwarder struct {
	r     *Replicator
	peers *Peers

	mu    sync.Mutex // guards queue
	queue []forwardItem
	kick  chan struct{}
}

// ForwardTo makes proposals on a follower go to the leader through peers.
// Without it a follower refuses them with ErrNotLeader.
func (r *Replicator) ForwardTo(peers *Peers) {
	f := &forwarder{r: r, peers: peers, kick: make(chan struct{}, 1)}
	r.fwd.Store(f)
	go f.loop()
}

func (f *forwarder) enqueue(data []byte, repeatable bool) Pending {
	done := make(chan outcome, 1)
	select {
	case <-f.r.done:
		done <- outcome{err: fmt.Errorf("%w: the node is stopping", ErrNotLeader)}
		return Pending{remote: done, store: f.r.store}
	default:
	}
	f.mu.Lock()
	f.queue = append(f.queue, forwardItem{data: data, done: done, repeatable: repeatable})
	f.mu.Unlock()
	select {
	case f.kick <- struct{}{}:
	default:
	}
	return Pending{remote: done, store: f.r.store}
}

func (f *forwarder) loop() {
	for {
		select {
		case <-f.r.done:
			f.mu.Lock()
			q := f.queue
			f.queue = nil
			f.mu.Unlock()
			for _, it := range q {
				it.done <- outcome{err: fmt.Errorf("%w: the node is stopping", ErrNotLeader)}
			}
			return
		case <-f.kick:
		}
		for {
			f.mu.Lock()
			n, size := 0, 0
			for n < len(f.queue) && n < maxForwardBatch && (n == 0 || size+len(f.queue[n].data) <= maxForwardBytes) {
				size += len(f.queue[n].data)
				n++
			}
			batch := f.queue[:n:n]
			f.queue = f.queue[n:]
			f.mu.Unlock()
			if n == 0 {
				break
			}
			f.send(batch)
		}
	}
}

// leaderWait bounds how long a forwarded batch waits for a leader that
// takes it: several elections' worth at any timing profile, and the
// request timeout's default (node.Config.RequestTimeout).
const leaderWait = 10 * time.Second

// pollLeader is how often a batch waiting for a leader looks again.
const pollLeader = 10 * time.Millisecond

// send delivers a batch to the leader, in order, and tells each command's
// outcome. A leader that dies does not fail the batch: it waits, up to
// leaderWait, for the next leader and sends what is left there.
//   - A refused or failed dial, or a leader that answers it no longer
//     leads: nothing was appended; the commands go to the next leader.
//   - A call broken after it was sent, or a command whose leader lost its
//     leadership after appending it: it may still be committed. A
//     repeatable command is sent again (if the first copy was applied, the
//     state machine refuses the second as stale, and that refusal is
//     answered as an unknown outcome, since the first copy may stand); any
//     other is answered ErrOutcomeUnknown.
func (f *forwarder) send(batch []forwardItem) {
	deadline := time.Now().Add(leaderWait)
	left := batch
	// avoid is a leader address that failed us, until avoidUntil: raft
	// names a dead leader until its followers' heartbeat timeouts pass.
	var avoid raft.ServerAddress
	var avoidUntil time.Time
	for len(left) > 0 {
		leaderAddr, leaderID := f.r.raft.LeaderWithID()
		if leaderAddr == "" || (leaderAddr == avoid && time.Now().Before(avoidUntil)) {
			if time.Now().After(deadline) {
				for i := range left {
					err := fmt.Errorf("%w: no leader took the change in %s", ErrNotLeader, leaderWait)
					if left[i].resent {
						err = ErrOutcomeUnknown
					}
					left[i].done <- outcome{err: err}
				}
				return
			}
			time.Sleep(pollLeader)
			continue
		}
		cmds := make([][]byte, len(left))
		for i, it := range left {
			cmds[i] = it.data
		}
		var results []forwardResult
		if string(leaderID) == f.r.id {
			// Became the leader since the proposal: apply here.
			results = f.r.applyInOrder(cmds)
		} else {
			ctx, cancel := context.WithDeadline(context.Background(), deadline)
			var resp forwardResponse
			err := f.peers.Call(ctx, string(leaderAddr), ApplyPath, forwardRequest{Commands: cmds}, &resp)
			cancel()
			switch {
			case err == nil && len(resp.Results) == len(left):
				results = resp.Results
			case err == nil:
				f.peers.log.Warn("the raft leader answered a forwarded batch out of protocol", "leader", leaderID, "results", len(resp.Results), "commands", len(left))
				err = ErrOutcomeUnknown
				fallthrough
			default:
				avoid, avoidUntil = leaderAddr, time.Now().Add(2*f.r.heartbeat)
				if errors.Is(err, ErrPeerUnreachable) {
					continue // not delivered: the next leader takes it
				}
				results = make([]forwardResult, len(left))
				for i := range results {
					results[i].Err = fault.ToWire(ErrOutcomeUnknown)
				}
			}
		}
		var again []forwardItem
		for i := range left {
			it := &left[i]
			err := results[i].Err.Err()
			switch {
			case errors.Is(err, ErrNotLeader):
				// Not appended: the next leader takes it.
				avoid, avoidUntil = leaderAddr, time.Now().Add(2*f.r.heartbeat)
				again = append(again, *it)
				continue
			case errors.Is(err, ErrOutcomeUnknown) && it.repeatable:
				it.resent = true
				again = append(again, *it)
				continue
			case it.resent && (errors.Is(err, storage.ErrStale) || errors.Is(err, storage.ErrConflict)):
				// The first copy may be what made this one stale.
				err = ErrOutcomeUnknown
			}
			it.done <- outcome{index: results[i].Index, err: err}
		}
		left = again
	}
}

// ServeApply is the leader's side of forwarding: it appends the commands in
// order and answers each one's outcome and log index.
func (r *Replicator) ServeApply(w http.ResponseWriter, req *http.Request) {
	var in forwardRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, req.Body, maxApplyBody)).Decode(&in); err != nil {
		// Nothing was appended; the proposer's caller may retry.
		WriteJSON(w, nil, fmt.Errorf("%w: the leader could not read the batch: %v", fault.ErrUnavailable, err))
		return
	}
	WriteJSON(w, forwardResponse{Results: r.applyInOrder(in.Commands)}, nil)
}

// applyInOrder appends commands in order, without waiting between them,
// then waits for each one's outcome and log index.
func (r *Replicator) applyInOrder(cmds [][]byte) []forwardResult {
	futures := make([]raft.ApplyFuture, len(cmds))
	for i, data := range cmds {
		futures[i] = r.raft.Apply(data, 5*time.Second)
	}
	out := make([]forwardResult, len(futures))
	for i, f := range futures {
		out[i].Err = fault.ToWire(Pending{f: f}.Wait())
		if f.Error() == nil {
			out[i].Index = f.Index()
		}
	}
	return out
}

// waitLocal waits for a write committed through the leader to be applied
// here, so that this node reads its own writes.
func waitLocal(store *storage.Store, o outcome) error {
	if o.err != nil {
		return o.err
	}
	store.WaitApplied(o.index, 10*time.Second)
	return nil
}

// IndexPath is where the leader tells its commit index.
const IndexPath = "/peer/v1/raft/index"

// ServeIndex tells a follower the leader's commit index.
func (r *Replicator) ServeIndex(w http.ResponseWriter, _ *http.Request) {
	// A deposed leader that has not noticed yet would tell a stale index.
	if r.raft.State() != raft.Leader || r.raft.VerifyLeader().Error() != nil {
		WriteJSON(w, nil, fmt.Errorf("%w: ask the leader", ErrNotLeader))
		return
	}
	WriteJSON(w, map[string]uint64{"index": r.raft.CommitIndex()}, nil)
}

// catchUps lets concurrent CatchUp calls share trips to the leader: at most
// one is on its way; calls that arrive meanwhile share the next one, which
// starts after them, so each still sees every write acknowledged before it.
type catchUps struct {
	mu        sync.Mutex
	cur, next *catchUpTrip
}

type catchUpTrip struct {
	done chan struct{}
	err  error
}

// CatchUp waits until this node has applied everything the leader had
// committed when asked: after it, a read here sees every write acknowledged
// before the call (raft's read-index, done from a follower).
func (r *Replicator) CatchUp(timeout time.Duration) error {
	if r.raft.State() == raft.Leader {
		return nil
	}
	c := &r.catchUps
	c.mu.Lock()
	if c.cur == nil {
		trip := &catchUpTrip{done: make(chan struct{})}
		c.cur = trip
		c.mu.Unlock()
		r.runCatchUp(trip, timeout)
		return trip.err
	}
	if c.next == nil {
		c.next = &catchUpTrip{done: make(chan struct{})}
	}
	trip := c.next
	c.mu.Unlock()
	<-trip.done
	return trip.err
}

func (r *Replicator) runCatchUp(trip *catchUpTrip, timeout time.Duration) {
	trip.err = r.catchUpOnce(timeout)
	c := &r.catchUps
	c.mu.Lock()
	close(trip.done)
	c.cur, c.next = c.next, nil
	next := c.cur
	c.mu.Unlock()
	if next != nil {
		go r.runCatchUp(next, timeout)
	}
}

func (r *Replicator) catchUpOnce(timeout time.Duration) error {
	if r.raft.State() == raft.Leader {
		return nil
	}
	f := r.fwd.Load()
	leader, _ := r.raft.LeaderWithID()
	if f == nil || leader == "" {
		return fmt.Errorf("%w: no leader to catch up with", ErrNotLeader)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var out struct {
		Index uint64 `json:"index"`
	}
	if err := f.peers.Call(ctx, string(leader), IndexPath, struct{}{}, &out); err != nil {
		return err
	}
	if !r.store.WaitApplied(out.Index, timeout) {
		return fmt.Errorf("%w: not caught up with index %d in %s", ErrOutcomeUnknown, out.Index, timeout)
	}
	return nil
}
