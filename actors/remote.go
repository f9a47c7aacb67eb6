package actors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"time"

	"github.com/anthdm/hollywood/actor"

	"github.com/platen/platen/cluster"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/storage"
)

// Actors on other nodes are reached through one typed envelope: the message's
// registered type name and its JSON, sent over the cluster port's peer API to
// the node that owns the actor, which asks its local actor and answers with
// the reply in the same form. Delivery is at most once and nothing relies on
// it for durability: the owner's actor proposes to the raft log, and an
// asker that hears nothing treats the outcome as unknown.

// AskPath is where a node takes asks for its actors from its peers.
const AskPath = "/peer/v1/actors/ask"

// Envelope is a message to an actor on another node.
type Envelope struct {
	// Actor is "org" or "endpoint"; Key the organisation or endpoint id.
	Actor string `json:"actor"`
	Key   string `json:"key"`
	// Type names the message's Go type; Body is its JSON.
	Type string          `json:"type"`
	Body json.RawMessage `json:"body"`
	// BudgetMs is how long the asker waits, from when it sent the ask: a
	// duration, so the nodes' clocks need not agree.
	BudgetMs int64 `json:"budgetMs"`
	// Down are the members the asker found dead (a refused connection):
	// the node asked checks each itself and, if it refuses it too, takes
	// over its keys now rather than when gossip declares it dead.
	Down []string `json:"down,omitempty"`
}

// Answer is an actor's reply as it travels back.
type Answer struct {
	Type string          `json:"type,omitempty"`
	Body json.RawMessage `json:"body,omitempty"`
	Err  fault.Wire      `json:"err"`
	// Index is the owner's applied raft index when it answered: the asker
	// waits for its own store to reach it, so it reads what the reply says.
	Index uint64 `json:"index"`
}

// wireTypes are the messages and reply values that may cross between nodes.
var wireTypes = map[string]reflect.Type{}

func init() {
	for _, v := range []any{
		// Messages.
		CreateOrg{}, SetPlan{}, SetRateLimit{}, CreateKey{}, RevokeKey{}, CreditWallet{},
		CreateTemplate{}, SaveVersion{}, ActivateVersion{}, UpdateTemplate{},
		CreateDocument{}, ChangeDocument{}, QuoteDocument{}, CreateEndpoint{}, UpdateEndpoint{},
		CreateSigningCertificate{}, DeleteSigningCertificate{},
		ReserveDocument{}, RecordDocument{}, KeepDocument{}, ReleaseDocument{},
		// Reply values.
		NewKey{}, Credit{}, CreatedDocument{}, Quote{}, NewEndpoint{}, Reservation{},
		storage.Org{}, storage.APIKey{}, storage.Template{}, storage.TemplateVersion{},
		storage.Document{}, storage.Endpoint{}, storage.LedgerEntry{}, storage.SigningCertificate{},
	} {
		t := reflect.TypeOf(v)
		wireTypes[t.String()] = t
	}
}

// encodeWire gives v's type name and JSON; nil encodes as no type.
func encodeWire(v any) (string, json.RawMessage, error) {
	if v == nil {
		return "", nil, nil
	}
	name := reflect.TypeOf(v).String()
	if _, ok := wireTypes[name]; !ok {
		return "", nil, fmt.Errorf("actors: %s cannot be sent between nodes", name)
	}
	body, err := json.Marshal(v)
	return name, body, err
}

// decodeWire makes a value of the named type from its JSON.
func decodeWire(name string, body json.RawMessage) (any, error) {
	if name == "" {
		return nil, nil
	}
	t, ok := wireTypes[name]
	if !ok {
		return nil, fmt.Errorf("actors: unknown message type %q", name)
	}
	p := reflect.New(t)
	if err := json.Unmarshal(body, p.Interface()); err != nil {
		return nil, fmt.Errorf("actors: decode %s: %w", name, err)
	}
	return p.Elem().Interface(), nil
}

// Remote is what a System needs to reach actors on other nodes.
type Remote struct {
	Peers *cluster.Peers
	// WaitApplied waits until this node's store has applied a raft index.
	WaitApplied func(index uint64, timeout time.Duration) bool
	// AppliedIndex is this node's applied raft index.
	AppliedIndex func() uint64
	// Loads returns the live members' loads (documents queued or
	// rendering), as gossip last told them; RenderPages is how many
	// documents a node prints at once.
	Loads       func() map[string]int64
	RenderPages int
	// Settled reports whether the live members are known: until then a
	// node missing from them is not taken for gone.
	Settled func() bool
	// CatchUp, when set, waits until this node has applied everything the
	// raft leader has committed (cluster.Replicator.CatchUp).
	CatchUp func(timeout time.Duration) error
}

// SetRemote lets the System forward asks for actors that other nodes own.
// Without it such an ask is refused with ErrNotOwner.
func (s *System) SetRemote(r Remote) {
	s.remote = &r
	if s.docs.Store != nil {
		// Documents may finish on another node: waiters wake when their
		// organisation's feed moves here.
		s.docs.Store.OnFeed(s.feedMoved)
	}
}

// RoundTripLocal makes every local ask go through the envelope's encoding
// both ways, as a forwarded one would. Tests use it to check that every
// message and reply survives the trip.
func (s *System) RoundTripLocal(on bool) { s.roundTrip = on }

// errOwnerUnreachable is an ask whose owner could not be reached, nor a
// successor found, before the request's deadline: nothing was done. Its
// words are the client's; the peers' detail is in the log.
var errOwnerUnreachable = fmt.Errorf("%w: %w: the organisation's records could not be reached in time; retry shortly", fault.ErrUnavailable, ErrNotOwner)

// askOwner asks the actor of kind for key, on whichever node owns it,
// until deadline. An ask refused as stale (see refusedStale) is asked again
// the same way. An ask that was not delivered (the owner refused the
// connection, or could not be dialled) or that the node asked did not take
// (it does not own the key, or is still starting) was not acted on, so it
// goes again: to the new owner at once when placement has moved (a refused
// connection marks the owner down, Rendezvous.MarkDown), else after a short
// wait. An ask that reached an owner and then lost its answer has an
// unknown outcome: only a repeatable one (see repeatable) is asked again.
func (s *System) askOwner(actorKind, key string, msg any) (any, error) {
	deadline := time.Now().Add(s.timeout)
	var last error
	var lastOwner string
	wait := retryFirstWait
	for {
		owner := s.placement.Owner(key)
		var value any
		var err error
		if owner.ID == s.placement.Self().ID {
			value, err = s.askLocal(actorKind, key, msg, deadline)
		} else {
			value, err = s.forward(owner, actorKind, key, msg, deadline)
		}
		if !(notDelivered(err) || refusedStale(err) || (errors.Is(err, cluster.ErrOutcomeUnknown) && repeatable(msg))) || s.remote == nil {
			return value, err
		}
		if owner.ID != lastOwner {
			s.docs.Logger.Info("ask not delivered; asking again", "actor", actorKind, "key", key, "owner", owner.ID, "err", err)
		}
		last, lastOwner = err, owner.ID
		pause := wait
		if s.placement.Owner(key).ID != owner.ID {
			pause = 0 // placement moved: ask the successor now
		}
		if time.Until(deadline) <= pause {
			s.docs.Logger.Warn("no owner could be reached before the deadline", "actor", actorKind, "key", key, "owner", owner.ID, "err", last)
			return nil, errOwnerUnreachable
		}
		time.Sleep(pause)
		wait = min(2*wait, retryMaxWait)
	}
}

// The waits between asks of an owner that did not take them: short at
// first (a peer confirming a death it was told of, a node finishing its
// start), at most a gossip round apart later.
const (
	retryFirstWait = 20 * time.Millisecond
	retryMaxWait   = 250 * time.Millisecond
)

// repeatable reports whether msg may be asked again after an ask whose
// outcome is unknown (its owner died holding it): a document with an
// Idempotency-Key, which the next owner answers with the first copy's
// document if that was recorded, and records once if not (the state
// machine refuses a second record of the key or a stale org version).
func repeatable(msg any) bool {
	m, ok := msg.(CreateDocument)
	return ok && m.IdempotencyKey != ""
}

// notDelivered reports whether an ask's error says it was not acted on:
// the owner was not reached, or did not take the key as its own.
func notDelivered(err error) bool {
	return errors.Is(err, cluster.ErrPeerUnreachable) || errors.Is(err, ErrNotOwner)
}

// refusedStale reports whether an ask's change was refused by the state
// machine for an org version the actor had wrong: nothing was applied.
// It happens once after an organisation moves to a node that had not yet
// applied its last writes; the actor reloads, and asked again it decides
// on the state it should have had.
func refusedStale(err error) bool {
	return errors.Is(err, storage.ErrStale) && !errors.Is(err, cluster.ErrOutcomeUnknown)
}

// askLocal asks this node's actor of kind for key.
func (s *System) askLocal(actorKind, key string, msg any, deadline time.Time) (any, error) {
	if s.roundTrip {
		return s.roundTripAsk(actorKind, key, msg)
	}
	pid := s.localPID(actorKind, key)
	if pid == nil {
		return nil, fmt.Errorf("%w: %w", fault.ErrUnavailable, ErrNotOwner)
	}
	return s.askUntil(pid, msg, deadline)
}

// forward asks the actor that owner runs, telling it which members this
// node has found dead, so that it takes their keys too.
func (s *System) forward(owner cluster.Member, actorKind, key string, msg any, deadline time.Time) (any, error) {
	if s.remote == nil || owner.Addr == "" {
		return nil, fmt.Errorf("%w: %w", fault.ErrUnavailable, ErrNotOwner)
	}
	name, body, err := encodeWire(msg)
	if err != nil {
		return nil, err
	}
	budget := time.Until(deadline)
	env := Envelope{Actor: actorKind, Key: key, Type: name, Body: body, BudgetMs: budget.Milliseconds(), Down: s.placement.Down()}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	var ans Answer
	if err := s.remote.Peers.Call(ctx, owner.Addr, AskPath, env, &ans); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			s.docs.Logger.Warn("owner did not answer in time", "actor", actorKind, "key", key, "owner", owner.ID, "budget", budget.Round(time.Millisecond))
			return nil, ErrNoAnswer
		}
		return nil, err
	}
	s.remote.WaitApplied(ans.Index, time.Until(deadline))
	return ans.reply()
}

// reply decodes the actor's reply: its value and its error.
func (a Answer) reply() (any, error) {
	value, err := decodeWire(a.Type, a.Body)
	if err != nil {
		return nil, err
	}
	return value, a.Err.Err()
}

// roundTripAsk asks a local actor with the message and its reply encoded
// and decoded on the way, as between nodes.
func (s *System) roundTripAsk(actorKind, key string, msg any) (any, error) {
	name, body, err := encodeWire(msg)
	if err != nil {
		return nil, err
	}
	ans := s.answer(Envelope{Actor: actorKind, Key: key, Type: name, Body: body, BudgetMs: s.timeout.Milliseconds()}, time.Now())
	raw, err := json.Marshal(ans)
	if err != nil {
		return nil, err
	}
	var back Answer
	if err := json.Unmarshal(raw, &back); err != nil {
		return nil, err
	}
	return back.reply()
}

// answer asks the local actor an envelope names, as its owner; received is
// when the envelope arrived.
func (s *System) answer(env Envelope, received time.Time) Answer {
	// A little less than the asker's budget: the answer must travel back.
	deadline := received.Add(time.Duration(env.BudgetMs)*time.Millisecond - 50*time.Millisecond)
	msg, err := decodeWire(env.Type, env.Body)
	if err != nil {
		return Answer{Err: fault.ToWire(fmt.Errorf("%w: %v", fault.ErrInvalid, err))}
	}
	s.confirmDown(env.Down)
	var pid = s.localPID(env.Actor, env.Key)
	var value any
	switch {
	case pid == nil:
		err = fmt.Errorf("%w: %w", fault.ErrUnavailable, ErrNotOwner)
	case time.Until(deadline) <= 0:
		err = fmt.Errorf("%w: the asker's deadline has passed", ErrNoAnswer)
	default:
		value, err = s.askUntil(pid, msg, deadline)
	}
	ans := Answer{Err: fault.ToWire(err)}
	if s.remote != nil {
		ans.Index = s.remote.AppliedIndex()
	}
	if ans.Type, ans.Body, err = encodeWire(value); err != nil {
		ans = Answer{Err: fault.ToWire(err)}
	}
	return ans
}

// confirmDown checks the members an asker found dead that this node still
// counts live: each that refuses a connection here too is marked down
// (through Peers' Refused), so this node takes its keys at once.
func (s *System) confirmDown(ids []string) {
	if len(ids) == 0 || s.remote == nil {
		return
	}
	for _, m := range s.placement.Members() {
		if m.ID != s.placement.Self().ID && slices.Contains(ids, m.ID) {
			s.remote.Peers.Probe(s.ctx, m.Addr)
		}
	}
}

// ServeAsk is the owner's side of a forwarded ask.
func (s *System) ServeAsk(w http.ResponseWriter, r *http.Request) {
	received := time.Now()
	var env Envelope
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<20)).Decode(&env); err != nil {
		cluster.WriteJSON(w, nil, fmt.Errorf("%w: envelope: %v", fault.ErrInvalid, err))
		return
	}
	cluster.WriteJSON(w, s.answer(env, received), nil)
}

// localPID returns the local actor of kind for key, started if this node owns it.
func (s *System) localPID(actorKind, key string) *actor.PID {
	switch actorKind {
	case "org":
		pid, err := s.org(key)
		if err != nil {
			return nil
		}
		return pid
	case "endpoint":
		return s.endpoint(key)
	}
	return nil
}
