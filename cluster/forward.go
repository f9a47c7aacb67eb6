package cluster

import (
	"context"
	"encoding/json"
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

func (f *forwarder) enqueue(data []byte) Pending {
	done := make(chan outcome, 1)
	select {
	case <-f.r.done:
		done <- outcome{err: fmt.Errorf("%w: the node is stopping", ErrNotLeader)}
		return Pending{remote: done, store: f.r.store}
	default:
	}
	f.mu.Lock()
	f.queue = append(f.queue, forwardItem{data: data, done: done})
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

func (f *forwarder) send(batch []forwardItem) {
	fail := func(err error) {
		for _, it := range batch {
			it.done <- outcome{err: err}
		}
	}
	leaderAddr, leaderID := f.r.raft.LeaderWithID()
	switch {
	case leaderAddr == "":
		fail(fmt.Errorf("%w: no leader", ErrNotLeader))
		return
	}
	req := forwardRequest{Commands: make([][]byte, len(batch))}
	for i, it := range batch {
		req.Commands[i] = it.data
	}
	if string(leaderID) == f.r.id {
		// Became the leader since the proposal: apply here.
		for i, res := range f.r.applyInOrder(req.Commands) {
			batch[i].done <- outcome{index: res.Index, err: res.Err.Err()}
		}
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var resp forwardResponse
	if err := f.peers.Call(ctx, string(leaderAddr), ApplyPath, req, &resp); err != nil {
		fail(err)
		return
	}
	if len(resp.Results) != len(batch) {
		fail(fmt.Errorf("%w: the leader answered %d results for %d commands", ErrOutcomeUnknown, len(resp.Results), len(batch)))
		return
	}
	for i, it := range batch {
		it.done <- outcome{index: resp.Results[i].Index, err: resp.Results[i].Err.Err()}
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
