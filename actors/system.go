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
	// ctx ends when the System stops; renders in flight give up and their
	// documents stay pending for the next start.
	ctx    context.Context
	cancel context.CancelFunc

	mu        sync.Mutex // guards orgs and endpoints
	orgs      map[string]*actor.PID
	endpoints map[string]*actor.PID
}

// NewSystem returns a System on engine. timeout bounds every request.
func NewSystem(engine *actor.Engine, placement Placement, deps OrgDeps, docs DocDeps, timeout time.Duration) *System {
	if docs.Logger == nil {
		docs.Logger = slog.Default()
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &System{engine: engine, placement: placement, deps: deps, docs: docs, timeout: timeout, ctx: ctx, cancel: cancel,
		orgs: map[string]*actor.PID{}, endpoints: map[string]*actor.PID{}, tracker: docTracker{running: map[string]bool{}, waiters: map[string][]chan struct{}{}}}
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
		return nil, fmt.Errorf("%w: %w: org %s is owned by node %s", fault.ErrUnavailable, ErrNotOwner, orgID, s.placement.Owner(orgID).ID)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if pid, ok := s.orgs[orgID]; ok {
		return pid, nil
	}
	pid := s.engine.Spawn(newOrgActor(orgID, s.deps), "org", actor.WithID(orgID), actor.WithMiddleware(Recover))
	s.orgs[orgID] = pid
	return pid, nil
}

// AskOrg sends msg to the org's actor and waits for its Reply.
func (s *System) AskOrg(orgID string, msg any) (any, error) {
	pid, err := s.org(orgID)
	if err != nil {
		return nil, err
	}
	return s.ask(pid, msg)
}

func (s *System) ask(pid *actor.PID, msg any) (any, error) {
	res, err := s.engine.Request(pid, request{msg: msg, deadline: time.Now().Add(s.timeout)}, s.timeout).Result()
	if err != nil {
		return nil, fmt.Errorf("%w: %s did not answer in %s", ErrNoAnswer, pid.ID, s.timeout)
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
