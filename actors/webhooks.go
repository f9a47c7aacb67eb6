package actors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/anthdm/hollywood/actor"

	"github.com/platen/platen/auth"
	"github.com/platen/platen/internal/clock"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/internal/ids"
	"github.com/platen/platen/internal/seal"
	"github.com/platen/platen/links"
	"github.com/platen/platen/storage"
	"github.com/platen/platen/webhooks"
)

// HookDeps is what endpoint actors need from their node.
type HookDeps struct {
	Store    *storage.Store
	Proposer Proposer
	Clock    clock.Clock
	Sender   *webhooks.Sender
	Sealer   *seal.Sealer
	Links    links.Links
	// Schedule is the wait before each retry; webhooks.Schedule in production.
	Schedule []time.Duration
	Logger   *slog.Logger
}

// CreateEndpoint registers a webhook endpoint for the org; the URL has been
// checked by the caller. The Reply's value is a NewEndpoint.
type CreateEndpoint struct {
	Name, URL string
	Events    []string
}

// NewEndpoint is a created endpoint with its signing secret, shown only once.
type NewEndpoint struct {
	Endpoint storage.Endpoint
	Secret   string
}

// UpdateEndpoint changes an endpoint through its actor. The Reply's value is
// the record after the change.
type UpdateEndpoint struct {
	Change storage.UpdateEndpoint
}

// decide makes the endpoint and its signing secret, sealed; the secret is in
// the reply only.
func (m CreateEndpoint) decide(a *orgActor, cmd *storage.Command) (decision, error) {
	if a.org.ID == "" {
		return decision{}, fmt.Errorf("%w: organisation %s", fault.ErrNotFound, a.id)
	}
	if err := checkName("name", m.Name); err != nil {
		return decision{}, err
	}
	if err := CheckEvents(m.Events); err != nil {
		return decision{}, err
	}
	if a.deps.Sealer == nil {
		return decision{}, errors.New("actors: no sealer for webhook secrets")
	}
	secret := auth.NewSecret("whsec_")
	e := storage.Endpoint{ID: ids.New(ids.Webhook, cmd.At), OrgID: a.id, Name: m.Name, URL: m.URL, Events: m.Events,
		SecretSealed: a.deps.Sealer.Seal([]byte(secret)), SecretPrefix: secret[:12]}
	if e.Events == nil {
		e.Events = []string{}
	}
	cmd.Kind, cmd.CreateEndpoint = storage.KindCreateEndpoint, &e
	store := a.deps.Store
	return decision{after: func() any {
		stored, _ := store.Endpoint(e.ID)
		return NewEndpoint{Endpoint: stored, Secret: secret}
	}}, nil
}

// CheckEvents refuses an event kind webhooks do not carry.
func CheckEvents(events []string) error {
	for i, ev := range events {
		found := false
		for _, k := range storage.WebhookEvents {
			found = found || k == ev
		}
		if !found {
			return fault.Invalid(fmt.Sprintf("events[%d]", i), "unknown event %q; events are %s", ev, strings.Join(storage.WebhookEvents, ", "))
		}
	}
	return nil
}

// Messages of the endpoint actor besides UpdateEndpoint.
type (
	// wake asks the actor to look for deliveries due.
	wake struct{}
	// attemptDone carries one attempt's answer.
	attemptDone struct {
		delivery storage.Delivery
		attempt  webhooks.Attempt
		body     []byte // what was sent
		at       time.Time
	}
)

// endpointActor owns one endpoint's deliveries: it sends them one at a time,
// first attempts in event order, and records each attempt in the raft log
// with the endpoint's version, so a stale second owner cannot record twice.
type endpointActor struct {
	id    string
	sys   *System
	busy  bool
	timer *time.Timer
	rnd   *rand.Rand
}

func (e *endpointActor) Receive(c *actor.Context) {
	switch msg := c.Message().(type) {
	case actor.Started:
		e.rnd = rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0x9e3779b97f4a7c15))
		e.next(c)
	case actor.Stopped:
		if e.timer != nil {
			e.timer.Stop()
		}
	case wake:
		e.next(c)
	case attemptDone:
		e.busy = false
		if err := e.record(msg); err != nil {
			// Not recorded: the delivery is sent again, with the same id, but
			// not at once: the log may be down, and the receiver is a customer's.
			e.sleepUntil(c, time.Second)
			return
		}
		e.next(c)
	case request:
		if u, ok := msg.msg.(UpdateEndpoint); ok {
			v, err := e.update(u)
			c.Respond(Reply{Value: v, Err: err})
			e.next(c)
		}
	}
}

// next sends the first due delivery, or sleeps until the earliest is due.
func (e *endpointActor) next(c *actor.Context) {
	deps := e.sys.hooks
	if e.busy {
		return
	}
	ep, err := deps.Store.Endpoint(e.id)
	if err != nil || ep.Deleted {
		e.sys.endpointGone(e.id, c.PID())
		c.Engine().Poison(c.PID())
		return
	}
	if !ep.Enabled {
		return
	}
	now := deps.Clock.Now()
	due, earliest, err := deps.Store.NextDue(e.id, now)
	if err != nil {
		deps.Logger.Error("endpoint: read deliveries", "endpoint", e.id, "err", err)
		return
	}
	if due == nil {
		if !earliest.IsZero() {
			e.sleepUntil(c, earliest.Sub(now))
		}
		return
	}
	secret, err := deps.Sealer.Open(ep.SecretSealed)
	if err != nil {
		deps.Logger.Error("endpoint: the signing secret does not open; is the node's seal key the one it was made with?", "endpoint", e.id)
		return
	}
	body, err := e.sys.Payload(*due, now)
	if err != nil {
		deps.Logger.Error("endpoint: build payload", "delivery", due.ID, "err", err)
		return
	}
	e.busy = true
	engine, self, d, url := c.Engine(), c.PID(), *due, ep.URL
	go func() {
		a := deps.Sender.Send(e.sys.ctx, url, secret, d.ID, d.Event, body, now)
		engine.Send(self, attemptDone{delivery: d, attempt: a, body: body, at: deps.Clock.Now()})
	}()
}

func (e *endpointActor) sleepUntil(c *actor.Context, d time.Duration) {
	if e.timer != nil {
		e.timer.Stop()
	}
	engine, self := c.Engine(), c.PID()
	e.timer = time.AfterFunc(max(d, 0)+time.Millisecond, func() { engine.Send(self, wake{}) })
}

// Reset clears the actor's state after a panic (Recover calls it), so one
// bad delivery cannot leave the endpoint stalled.
func (e *endpointActor) Reset(*actor.Context) { e.busy = false }

// record turns an attempt into its outcome and writes it.
func (e *endpointActor) record(m attemptDone) error {
	deps := e.sys.hooks
	if e.sys.ctx.Err() != nil {
		return nil // stopping: the delivery stays pending and is sent again after the restart
	}
	ep, err := deps.Store.Endpoint(e.id)
	if err != nil || ep.Deleted {
		return nil
	}
	a := m.attempt
	n := m.delivery.Attempts + 1
	x := webhooks.Record(a, m.body)
	ra := storage.RecordAttempt{DeliveryID: m.delivery.ID, Number: n, Status: a.Status, Exchange: &x}
	if a.Status == 0 {
		ra.Error = webhooks.Describe(0, a.Err)
	}
	switch outcome, next := webhooks.After(deps.Schedule, n, a.Status, a.Header, m.at, e.rnd); outcome {
	case webhooks.Delivered:
		ra.Outcome = storage.AttemptDelivered
	case webhooks.Retry:
		ra.Outcome, ra.NextAttemptAt = storage.AttemptRetry, next
	default:
		ra.Outcome = storage.AttemptFailed
	}
	cmd := &storage.Command{Kind: storage.KindRecordAttempt, OrgID: ep.OrgID, EndpointID: ep.ID, Expect: ep.Version, At: m.at, RecordAttempt: &ra}
	p, err := deps.Proposer.Propose(cmd, 10*time.Second)
	if err == nil {
		err = p.Wait()
	}
	if err != nil {
		deps.Logger.Warn("endpoint: attempt not recorded; the delivery will be sent again", "delivery", m.delivery.ID, "err", err)
		return err
	}
	switch ra.Outcome {
	case storage.AttemptDelivered:
		WebhooksDelivered.Add(1)
	case storage.AttemptRetry:
		WebhooksRetried.Add(1)
	default:
		WebhooksFailed.Add(1)
	}
	return nil
}

func (e *endpointActor) update(u UpdateEndpoint) (any, error) {
	deps := e.sys.hooks
	ep, err := deps.Store.Endpoint(e.id)
	if err != nil || ep.Deleted {
		return nil, fmt.Errorf("%w: endpoint %s", fault.ErrNotFound, e.id)
	}
	ch := u.Change
	cmd := &storage.Command{Kind: storage.KindUpdateEndpoint, OrgID: ep.OrgID, EndpointID: ep.ID, Expect: ep.Version, At: deps.Clock.Now(), UpdateEndpoint: &ch}
	p, err := deps.Proposer.Propose(cmd, 10*time.Second)
	if err == nil {
		err = p.Wait()
	}
	if err != nil {
		return nil, err
	}
	return deps.Store.Endpoint(e.id)
}

// Payload builds a delivery's body at send time: document events carry a
// fresh download link (url, urlExpiresAt), never the data the document was
// rendered from.
func (s *System) Payload(d storage.Delivery, now time.Time) ([]byte, error) {
	data, err := s.EventData(d.Event, d.Data, now)
	if err != nil {
		return nil, err
	}
	return json.Marshal(webhooks.Payload{V: 1, ID: d.ID, Event: d.Event, OrgID: d.OrgID, At: d.At, Data: data})
}

// EventData is an event's data as webhooks and the realtime feed send it:
// a completed document's gets a fresh download link (url, urlExpiresAt).
func (s *System) EventData(kind string, data json.RawMessage, now time.Time) (json.RawMessage, error) {
	if !strings.HasPrefix(kind, "document.") {
		return data, nil
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	if doc, err := s.hooks.Store.Document(fmt.Sprint(m["id"])); err == nil && doc.Status == storage.StatusCompleted && !doc.FileExpired && kind == storage.EventDocumentCompleted {
		exp := now.Add(links.DefaultTTL).Truncate(time.Second)
		m["url"], m["urlExpiresAt"] = s.hooks.Links.Mint(doc.ID, doc.Filename, exp), exp
	}
	return json.Marshal(m)
}

// SetSealer gives org actors the sealer of webhook secrets.
func (s *System) SetSealer(sl *seal.Sealer) { s.deps.Sealer = sl }

// SetHooks gives the System what endpoint actors need, and starts the actors
// of endpoints with deliveries waiting.
func (s *System) SetHooks(h HookDeps) {
	if h.Logger == nil {
		h.Logger = slog.Default()
	}
	if len(h.Schedule) == 0 {
		h.Schedule = webhooks.Schedule
	}
	s.hooks = h
	h.Store.OnDeliveries(s.WakeEndpoints)
}

// WakeEndpoints tells the actors of the given endpoints, started if need be,
// that deliveries may be due. It never blocks: the state machine calls it.
func (s *System) WakeEndpoints(endpointIDs []string) {
	for _, id := range endpointIDs {
		if pid := s.endpoint(id); pid != nil {
			s.engine.Send(pid, wake{})
		}
	}
}

// WakePendingEndpoints wakes every endpoint with deliveries waiting, after a
// start or as a periodic safety net.
func (s *System) WakePendingEndpoints() error {
	ids, err := s.hooks.Store.EndpointsWithPending()
	if err != nil {
		return err
	}
	s.WakeEndpoints(ids)
	return nil
}

// endpoint returns the local actor of an endpoint this node owns, starting it.
func (s *System) endpoint(id string) *actor.PID {
	if s.hooks.Store == nil || !s.placement.IsLocal(id) {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if pid, ok := s.endpoints[id]; ok {
		return pid
	}
	s.spawns++
	pid := s.engine.Spawn(func() actor.Receiver { return &endpointActor{id: id, sys: s} }, "endpoint", actor.WithID(fmt.Sprintf("%s.%d", id, s.spawns)), actor.WithMiddleware(Recover))
	s.endpoints[id] = pid
	return pid
}

func (s *System) endpointGone(id string, pid *actor.PID) {
	s.mu.Lock()
	if cur, ok := s.endpoints[id]; ok && cur.Equals(pid) {
		delete(s.endpoints, id)
	}
	s.mu.Unlock()
}

// AskEndpoint sends msg to an endpoint's actor and waits for its Reply.
func (s *System) AskEndpoint(id string, msg any) (any, error) {
	return s.askOwner("endpoint", id, msg)
}

// Ping sends a signed ping delivery to an endpoint now and returns what the
// receiver answered. It is not recorded.
func (s *System) Ping(ctx context.Context, ep storage.Endpoint) (webhooks.Attempt, error) {
	secret, err := s.hooks.Sealer.Open(ep.SecretSealed)
	if err != nil {
		return webhooks.Attempt{}, err
	}
	now := s.hooks.Clock.Now()
	id := ids.New(ids.Delivery, now)
	data, _ := json.Marshal(map[string]string{"endpointId": ep.ID})
	body, _ := json.Marshal(webhooks.Payload{V: 1, ID: id, Event: "ping", OrgID: ep.OrgID, At: now, Data: data})
	return s.hooks.Sender.Send(ctx, ep.URL, secret, id, "ping", body, now), nil
}
