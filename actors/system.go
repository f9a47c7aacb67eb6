package actors

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/anthdm/hollywood/actor"

	"github.com/platen/platen/cluster"
	"github.com/platen/platen/internal/fault"
)

// Placement tells which node owns an actor's key.
type Placement interface {
	Owner(key string) cluster.Member
	IsLocal(key string) bool
	// Self is this node; Members the live ones, this node among them.
	Self() cluster.Member
	Members() []cluster.Member
	// Ranked orders the live members by their claim on key, strongest first.
	Ranked(key string) []cluster.Member
	// Down are the members this node found dead before gossip did.
	Down() []string
}

// System finds or starts the actor that owns a key and asks it things.
type System struct {
	engine    *actor.Engine
	placement Placement
	deps      OrgDeps
	docs      DocDeps
	hooks     HookDeps
	timeout   time.Duration
	tracker   docTracker
	// identities caches the signing keys this node has opened (signing.go).
	identities identities
	// ctx ends when the System stops; renders in flight give up and their
	// documents stay pending for the next start.
	ctx    context.Context
	cancel context.CancelFunc

	// remote, when set, reaches actors other nodes own.
	remote    *Remote
	roundTrip bool

	mu        sync.Mutex // guards orgs and endpoints
	orgs      map[string]*actor.PID
	endpoints map[string]*actor.PID
	spawns    uint64
}

// NewSystem returns a System on engine. timeout bounds every request.
func NewSystem(engine *actor.Engine, placement Placement, deps OrgDeps, docs DocDeps, timeout time.Duration) *System {
	if docs.Logger == nil {
		docs.Logger = slog.Default()
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &System{engine: engine, placement: placement, deps: deps, docs: docs, timeout: timeout, ctx: ctx, cancel: cancel,
		orgs: map[string]*actor.PID{}, endpoints: map[string]*actor.PID{}, tracker: docTracker{running: map[string]bool{}, waiters: map[string][]chan struct{}{}, waitOrg: map[string]string{}}}
	return s
}

// NodeID is the id of the node the System runs on.
func (s *System) NodeID() string { return s.placement.Self().ID }

// Rebalance follows a change of the live members: actors this node no
// longer owns stop (their new owner starts them from the replicated state),
// and work this node now owns resumes: deliveries of its endpoints, and
// documents of its organisations whose rendering node has gone.
func (s *System) Rebalance() {
	s.mu.Lock()
	var gone []*actor.PID
	for id, pid := range s.orgs {
		if !s.placement.IsLocal(id) {
			gone = append(gone, pid)
			delete(s.orgs, id)
		}
	}
	for id, pid := range s.endpoints {
		if !s.placement.IsLocal(id) {
			gone = append(gone, pid)
			delete(s.endpoints, id)
		}
	}
	s.mu.Unlock()
	for _, pid := range gone {
		s.engine.Poison(pid)
	}
	if s.hooks.Store != nil {
		if err := s.WakePendingEndpoints(); err != nil {
			s.docs.Logger.Error("rebalance: cannot wake endpoints", "err", err)
		}
	}
	if n, err := s.ResumePending(); err != nil {
		s.docs.Logger.Error("rebalance: cannot resume documents", "err", err)
	} else if n > 0 {
		s.docs.Logger.Info("documents taken over from nodes that left", "documents", n)
	}
}

// ErrNotOwner is returned when another node owns the actor asked for and this
// node cannot reach it.
var ErrNotOwner = errors.New("owned by another node")

// ErrNoAnswer is returned when an actor did not answer in time. The request
// may still take effect: an actor drops a request whose deadline has passed
// only if it has not yet proposed it.
var ErrNoAnswer = errors.New("no answer in time; the outcome is unknown")

// request carries a message and the time after which its asker has gone.
type request struct {
	msg      any
	deadline time.Time
}

// org returns the local org actor for orgID, starting it if needed.
func (s *System) org(orgID string) (*actor.PID, error) {
	if !s.placement.IsLocal(orgID) {
		return nil, fmt.Errorf("%w: %w", fault.ErrUnavailable, ErrNotOwner)
	}
	s.mu.Lock()
	pid, ok := s.orgs[orgID]
	s.mu.Unlock()
	if ok {
		return pid, nil
	}
	if s.remote != nil && s.remote.CatchUp != nil {
		// The org may have moved here from a node that died: its last
		// writes are committed but perhaps not yet applied here, and an
		// actor started from older state would have its first write
		// refused as stale (which is safe, and a 503 to its caller).
		if err := s.remote.CatchUp(s.timeout / 4); err != nil {
			s.docs.Logger.Info("org actor starts without catching up with the leader", "org", orgID, "err", err)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if pid, ok := s.orgs[orgID]; ok {
		return pid, nil
	}
	// A spawn-unique id: an earlier actor of this org, stopped when the org
	// moved away, may still be leaving hollywood's registry.
	s.spawns++
	pid = s.engine.Spawn(newOrgActor(orgID, s.deps), "org", actor.WithID(fmt.Sprintf("%s.%d", orgID, s.spawns)), actor.WithMiddleware(Recover))
	s.orgs[orgID] = pid
	return pid, nil
}

func (s *System) askUntil(pid *actor.PID, msg any, deadline time.Time) (any, error) {
	wait := time.Until(deadline)
	res, err := s.engine.Request(pid, request{msg: msg, deadline: deadline}, wait).Result()
	if err != nil {
		return nil, fmt.Errorf("%w: %s did not answer in %s", ErrNoAnswer, pid.ID, wait.Round(time.Millisecond))
	}
	r, ok := res.(Reply)
	if !ok {
		return nil, fmt.Errorf("actors: %s answered %T", pid.ID, res)
	}
	return r.Value, r.Err
}

// Stop stops every actor, letting each finish the messages it has. Renders
// in flight are abandoned; their documents resume on the next start.
func (s *System) Stop() {
	s.cancel()
	s.mu.Lock()
	pids := make([]*actor.PID, 0, len(s.orgs)+len(s.endpoints))
	for _, pid := range s.endpoints {
		pids = append(pids, pid)
	}
	for _, pid := range s.orgs {
		pids = append(pids, pid)
	}
	s.orgs, s.endpoints = map[string]*actor.PID{}, map[string]*actor.PID{}
	s.mu.Unlock()
	for _, pid := range pids {
		<-s.engine.Poison(pid).Done()
	}
}
