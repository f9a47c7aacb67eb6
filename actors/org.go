package actors

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/anthdm/hollywood/actor"

	"github.com/platen/platen/auth"
	"github.com/platen/platen/cluster"
	"github.com/platen/platen/internal/clock"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/internal/ids"
	"github.com/platen/platen/internal/seal"
	"github.com/platen/platen/storage"
)

// Proposer puts commands in the raft log.
type Proposer interface {
	Propose(c *storage.Command, timeout time.Duration) (cluster.Pending, error)
}

// OrgDeps is what an org actor needs from its node.
type OrgDeps struct {
	Store    *storage.Store
	Proposer Proposer
	Clock    clock.Clock
	// Plans returns the plan catalogue in force.
	Plans func() map[string]storage.Plan
	// ProposeTimeout bounds the wait for room in raft's queue.
	ProposeTimeout time.Duration
	// Sealer seals webhook signing secrets.
	Sealer *seal.Sealer
}

// Messages an org actor answers, each with a Reply.
type (
	// CreateOrg creates the organisation the actor is for.
	CreateOrg struct{ Name, Plan string }
	// SetPlan moves the organisation to another plan.
	SetPlan struct{ Plan string }
	// SetRateLimit sets the organisation's own rate limit and burst for
	// each of its keys, over its plan's; 0 clears either.
	SetRateLimit struct {
		RateLimit float64
		RateBurst int
	}
	// CreateKey makes an API key; the Reply's value is a NewKey.
	CreateKey struct {
		Name   string
		Scopes []string
		// Holder is the scopes of the key or person asking, who may give
		// only what they hold themselves (no escalation): asking for more is
		// fault.ErrForbidden naming the scope.
		Holder []string
		// AnyScope is set only by the operator (the operator API, the node's
		// first key), who may give every scope; Holder is then not read.
		AnyScope bool
	}
	// RevokeKey revokes an API key; the Reply's value is the key record.
	RevokeKey struct {
		KeyID string
		// Holder is the scopes of the key or person asking, who may revoke
		// only a key whose scopes they hold themselves, as CreateKey's
		// Holder may give only those: a weaker key revoking a stronger one
		// is fault.ErrForbidden naming the scope. A key holds its own
		// scopes, so it may always revoke itself.
		Holder []string
		// AnyScope is set only by the operator, who may revoke any key;
		// Holder is then not read.
		AnyScope bool
	}
	// CreditWallet adds money to the wallet; the Reply's value is a Credit.
	CreditWallet struct {
		AmountMicros int64
		Reference    string
	}
)

// NewKey is a created key with its value, which is shown only this once.
type NewKey struct {
	Key    storage.APIKey
	Secret string
}

// Credit is the outcome of CreditWallet.
type Credit struct {
	Entry storage.LedgerEntry
	// Replayed is true when the reference had already been credited with the
	// same amount: nothing new was written.
	Replayed bool
}

// Limits on what an org actor accepts.
const (
	maxNameLen      = 200
	maxReferenceLen = 200
	// maxCreditMicros is ten billion units of currency: beyond any real top-up,
	// and far from int64 overflow however many are made.
	maxCreditMicros = 10_000_000_000 * 1_000_000
)

// settled tells the actor that one of its proposals has an outcome.
type settled struct {
	err  error
	ref  string // ledger reference the proposal reserved, if any
	idem string // Idempotency-Key the proposal reserved, if any
}

// orgActor owns one organisation's records.
type orgActor struct {
	id   string
	deps OrgDeps

	// org is the state the actor decides on: the stored org plus every
	// proposal in flight.
	org storage.Org
	// inflight counts proposals without an outcome.
	inflight int
	// broken is set when a proposal failed: org may be ahead of the store, so
	// writes wait in stash until inflight reaches zero and org is reloaded.
	broken bool
	// barrier is set while a write that needs nothing in flight waits for the
	// proposals before it to settle; later writes queue behind it in order.
	barrier bool
	stash   []stashed // at most maxStash
	// pendingRefs are ledger references of credits in flight.
	pendingRefs map[string]int64
	// pendingIdem are Idempotency-Keys of documents in flight.
	pendingIdem map[string]string
	// reserved are documents rendering before they are recorded
	// (record.go), by id.
	reserved map[string]reservation
}

type stashed struct {
	req    request
	sender *actor.PID
}

// maxStash bounds the writes that wait while the actor reloads; beyond it a
// write is refused as overloaded.
const maxStash = 10000

func newOrgActor(id string, deps OrgDeps) actor.Producer {
	return func() actor.Receiver {
		return &orgActor{id: id, deps: deps, pendingRefs: map[string]int64{}, pendingIdem: map[string]string{}, reserved: map[string]reservation{}}
	}
}

func (a *orgActor) Receive(c *actor.Context) {
	switch msg := c.Message().(type) {
	case actor.Started:
		a.reload()
	case settled:
		a.inflight--
		if msg.ref != "" {
			delete(a.pendingRefs, msg.ref)
		}
		if msg.idem != "" {
			delete(a.pendingIdem, msg.idem)
		}
		if msg.err != nil {
			a.broken = true
		}
		if (a.broken || a.barrier) && a.inflight == 0 {
			if a.broken {
				a.reload()
			}
			a.broken, a.barrier = false, false
			a.replayStash(c)
		}
	case request:
		if a.broken || a.barrier || (needsQuiet(msg.msg) && a.inflight > 0) {
			if !a.broken {
				a.barrier = true
			}
			if len(a.stash) >= maxStash {
				a.reply(c, c.Sender(), nil, fmt.Errorf("%w: organisation %s has %d writes waiting", fault.ErrOverloaded, a.id, len(a.stash)))
				return
			}
			a.stash = append(a.stash, stashed{msg, c.Sender()})
			return
		}
		a.handle(c, msg, c.Sender())
	}
}

// replayStash handles the writes that waited, one at a time; a panic in one
// answers its own asker and the rest go on.
func (a *orgActor) replayStash(c *actor.Context) {
	for len(a.stash) > 0 && !a.broken {
		s := a.stash[0]
		if needsQuiet(s.req.msg) && a.inflight > 0 {
			a.barrier = true
			return
		}
		a.stash = a.stash[1:]
		func() {
			defer func() {
				if v := recover(); v != nil {
					Panics.Add(1)
					slog.Error("org actor panicked on a waiting write", "org", a.id, "panic", fmt.Sprint(v))
					a.reply(c, s.sender, nil, ErrPanicked)
					a.Reset(c)
				}
			}()
			a.handle(c, s.req, s.sender)
		}()
	}
}

// Reset reloads the org after a panic left the actor's copy in doubt.
func (a *orgActor) Reset(*actor.Context) {
	if a.inflight > 0 {
		a.broken = true
		return
	}
	a.reload()
}

func (a *orgActor) reload() {
	org, err := a.deps.Store.Org(a.id)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		slog.Error("org actor cannot load its org", "org", a.id, "err", err)
	}
	a.org = org
}

// handle runs one command: the command decides against the organisation as
// the actor holds it (its decide method, beside its type), and what it
// decided is proposed to the raft log and answered once applied. Writes are
// pipelined: the actor's copy moves on at once, and a refusal by the log
// reloads it (settled).
func (a *orgActor) handle(c *actor.Context, req request, sender *actor.PID) {
	if time.Now().After(req.deadline) {
		// The asker has been told there was no answer; doing it now would
		// surprise them.
		return
	}
	m, ok := req.msg.(orgCommand)
	if !ok {
		a.reply(c, sender, nil, fmt.Errorf("actors: an organisation takes no %T", req.msg))
		return
	}
	now := a.deps.Clock.Now()
	a.expireReservations(now)
	cmd := &storage.Command{OrgID: a.id, Expect: a.org.Version, At: now}
	d, err := m.decide(a, cmd)
	if err != nil || d.answered {
		a.reply(c, sender, d.reply, err)
		return
	}
	next := a.org
	if err := storage.ApplyToOrg(&next, cmd); err != nil {
		a.reply(c, sender, nil, err)
		return
	}
	value, after, ref := d.reply, d.after, d.ref
	if d.applied != nil {
		value = d.applied(next)
	}
	pending, err := a.deps.Proposer.Propose(cmd, a.deps.ProposeTimeout)
	if err != nil {
		a.reply(c, sender, nil, err)
		return
	}
	a.org = next
	a.inflight++
	if ref != "" {
		a.pendingRefs[ref] = cmd.CreditWallet.AmountMicros
	}
	var idem, bodyHash string
	if cd := createdBy(cmd); cd != nil && cd.IdempotencyKey != "" {
		idem, bodyHash = cd.IdempotencyKey, cd.BodyHash
		a.pendingIdem[idem] = bodyHash
	}
	engine, self, store, orgID := c.Engine(), c.PID(), a.deps.Store, a.id
	go func() {
		err := pending.Wait()
		refusal := err
		switch {
		case err != nil && idem != "" && errors.Is(err, storage.ErrConflict):
			// The key was recorded by a copy of this request decided
			// elsewhere (an owner that died after proposing it): the
			// retry answers with that document, as a replay does.
			value, refusal = nil, err
			if earlier := replayed(store, orgID, idem, bodyHash); earlier != nil {
				value, refusal = *earlier, nil
			}
		case err != nil:
			value = nil
		case after != nil:
			value = after()
		}
		// The actor hears of the refusal even when the asker gets a
		// replay: its copy of the org is ahead of the store.
		engine.Send(self, settled{err: err, ref: ref, idem: idem})
		if sender != nil {
			engine.Send(sender, Reply{Value: value, Err: refusal})
		}
	}()
}

// createdBy is the document a command creates, if it creates one.
func createdBy(cmd *storage.Command) *storage.CreateDocument {
	switch cmd.Kind {
	case storage.KindCreateDocument:
		return cmd.CreateDocument
	case storage.KindRecordDocument:
		return &cmd.RecordDocument.Create
	}
	return nil
}

func (m QuoteDocument) decide(a *orgActor, cmd *storage.Command) (decision, error) {
	q, err := a.quote(m, cmd.At)
	return answer(q), err
}

func (m CreateOrg) decide(a *orgActor, cmd *storage.Command) (decision, error) {
	if err := a.checkPlan(m.Plan); err != nil {
		return decision{}, err
	}
	if err := checkName("name", m.Name); err != nil {
		return decision{}, err
	}
	cmd.Kind, cmd.CreateOrg = storage.KindCreateOrg, &storage.CreateOrg{Name: m.Name, Plan: m.Plan}
	return decision{applied: orgAsApplied}, nil
}

func (m SetPlan) decide(a *orgActor, cmd *storage.Command) (decision, error) {
	if err := a.checkPlan(m.Plan); err != nil {
		return decision{}, err
	}
	cmd.Kind, cmd.SetPlan = storage.KindSetPlan, &storage.SetPlan{Plan: m.Plan}
	return decision{applied: orgAsApplied}, nil
}

// Bounds of a rate limit an operator sets (on a plan or an organisation).
const (
	MaxRateLimit = 100_000
	MaxRateBurst = 1_000_000
)

// CheckRateLimit refuses a rate limit or burst out of bounds, naming its
// field.
func CheckRateLimit(limit float64, burst int) error {
	switch {
	case limit < 0 || limit > MaxRateLimit:
		return fault.Invalid("rateLimit", "must be from 0 (the default) to %d requests a second", MaxRateLimit)
	case burst < 0 || burst > MaxRateBurst:
		return fault.Invalid("rateBurst", "must be from 0 (the default) to %d requests", MaxRateBurst)
	}
	return nil
}

func (m SetRateLimit) decide(a *orgActor, cmd *storage.Command) (decision, error) {
	if a.org.ID == "" {
		return decision{}, fmt.Errorf("%w: organisation %s", fault.ErrNotFound, a.id)
	}
	if err := CheckRateLimit(m.RateLimit, m.RateBurst); err != nil {
		return decision{}, err
	}
	cmd.Kind, cmd.SetRateLimit = storage.KindSetRateLimit, &storage.SetRateLimit{RateLimit: m.RateLimit, RateBurst: m.RateBurst}
	return decision{applied: orgAsApplied}, nil
}

// orgAsApplied answers with the organisation as the command leaves it.
func orgAsApplied(next storage.Org) any { return next }

func (m CreateKey) decide(a *orgActor, cmd *storage.Command) (decision, error) {
	scopes, err := checkScopes(m.Scopes)
	if err == nil {
		err = checkName("name", m.Name)
	}
	if err == nil && !m.AnyScope {
		err = checkHeld(m.Holder, scopes, "scopes", "a key may only give scopes it holds itself")
	}
	if err != nil {
		return decision{}, err
	}
	secret := auth.NewSecret(auth.KeyPrefix)
	key := storage.APIKey{
		ID: ids.New(ids.Key, cmd.At), OrgID: a.id, Name: m.Name, Scopes: scopes,
		Hash: auth.Hash(secret), Prefix: auth.DisplayPrefix(secret), CreatedAt: cmd.At,
	}
	cmd.Kind, cmd.CreateKey = storage.KindCreateKey, &storage.CreateKey{Key: key}
	return decision{reply: NewKey{Key: key, Secret: secret}}, nil
}

func (m RevokeKey) decide(a *orgActor, cmd *storage.Command) (decision, error) {
	key, err := a.deps.Store.APIKey(m.KeyID)
	if err != nil || key.OrgID != a.id {
		return decision{}, fmt.Errorf("%w: key %s", fault.ErrNotFound, m.KeyID)
	}
	if !m.AnyScope {
		if err := checkHeld(m.Holder, key.Scopes, "keyId", "a key may only revoke keys whose scopes it holds itself"); err != nil {
			return decision{}, err
		}
	}
	if key.RevokedAt != nil {
		return answer(key), nil
	}
	cmd.Kind, cmd.RevokeKey = storage.KindRevokeKey, &storage.RevokeKey{KeyID: m.KeyID}
	store := a.deps.Store
	return decision{after: func() any {
		k, _ := store.APIKey(m.KeyID)
		return k
	}}, nil
}

func (m CreditWallet) decide(a *orgActor, cmd *storage.Command) (decision, error) {
	replay, err := a.checkCredit(m)
	if err != nil {
		return decision{}, err
	}
	if replay != nil {
		return answer(*replay), nil
	}
	cmd.Kind = storage.KindCreditWallet
	cmd.CreditWallet = &storage.CreditWallet{
		EntryID: ids.New(ids.Ledger, cmd.At), EventID: ids.New(ids.Event, cmd.At),
		AmountMicros: m.AmountMicros, Reference: m.Reference,
	}
	id, at := a.id, cmd.At
	return decision{ref: m.Reference, applied: func(next storage.Org) any {
		return Credit{Entry: storage.LedgerEntry{
			ID: cmd.CreditWallet.EntryID, OrgID: id, Seq: next.LedgerSeq, Kind: storage.LedgerCredit,
			AmountMicros: cmd.CreditWallet.AmountMicros, BalanceAfterMicros: next.BalanceMicros, Reference: m.Reference, At: at,
		}}
	}}, nil
}

// replayed is the document an Idempotency-Key made with the same body, or
// nil.
func replayed(store *storage.Store, orgID, key, bodyHash string) *CreatedDocument {
	rec, err := store.IdempotencyRecord(orgID, key)
	if err != nil || rec.BodyHash != bodyHash {
		return nil
	}
	d, err := store.Document(rec.DocumentID)
	if err != nil {
		return nil
	}
	return &CreatedDocument{Document: d, Replayed: true}
}

func (a *orgActor) reply(c *actor.Context, sender *actor.PID, value any, err error) {
	if sender != nil {
		c.Engine().Send(sender, Reply{Value: value, Err: err})
	}
}

func (a *orgActor) checkPlan(plan string) error {
	plans := a.deps.Plans()
	if _, ok := plans[plan]; !ok {
		names := make([]string, 0, len(plans))
		for n := range plans {
			names = append(names, n)
		}
		slices.Sort(names)
		return fault.Invalid("plan", "unknown plan %q; plans are %s", plan, strings.Join(names, ", "))
	}
	return nil
}

// checkCredit validates a credit. A reference already credited with the same
// amount answers with the original row (a safe retry); with another amount it
// is a conflict.
func (a *orgActor) checkCredit(m CreditWallet) (*Credit, error) {
	if a.org.ID == "" {
		return nil, fmt.Errorf("%w: organisation %s", fault.ErrNotFound, a.id)
	}
	if !a.deps.Plans()[a.org.Plan].Wallet {
		return nil, fmt.Errorf("%w: the %s plan has no wallet; move the organisation to a paid plan first", fault.ErrConflict, a.org.Plan)
	}
	if m.AmountMicros <= 0 || m.AmountMicros > maxCreditMicros {
		return nil, fault.Invalid("amountMicros", "must be a positive whole number of micro-units, at most %d", int64(maxCreditMicros))
	}
	if len(m.Reference) > maxReferenceLen || !utf8.ValidString(m.Reference) {
		return nil, fault.Invalid("reference", "must be valid text of at most %d bytes", maxReferenceLen)
	}
	if m.Reference == "" {
		// Without a reference a retry after a lost answer would credit twice.
		return nil, fault.Invalid("reference", "is required: a unique reference (an invoice or payment id) makes the credit safe to retry")
	}
	if amount, ok := a.pendingRefs[m.Reference]; ok {
		if amount == m.AmountMicros {
			return nil, fmt.Errorf("%w: a credit with reference %q is being written; retry", fault.ErrUnavailable, m.Reference)
		}
		return nil, fmt.Errorf("%w: reference %q was used for another amount", fault.ErrConflict, m.Reference)
	}
	prior, err := a.deps.Store.LedgerByReference(a.id, m.Reference)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return nil, nil
	case err != nil:
		return nil, err
	case prior.AmountMicros != m.AmountMicros:
		return nil, fmt.Errorf("%w: reference %q was used for another amount", fault.ErrConflict, m.Reference)
	}
	return &Credit{Entry: prior, Replayed: true}, nil
}

func checkName(field, name string) error {
	if strings.TrimSpace(name) == "" {
		return fault.Invalid(field, "is required")
	}
	if len(name) > maxNameLen || !utf8.ValidString(name) {
		return fault.Invalid(field, "must be valid text of at most %d bytes", maxNameLen)
	}
	return nil
}

// checkHeld refuses an asker (holder) that lacks one of scopes, naming it
// under field with the rule it breaks: no escalation, as CreateKey gives
// and RevokeKey revokes only what the asker holds itself.
func checkHeld(holder, scopes []string, field, rule string) error {
	for _, s := range scopes {
		if !auth.Grants(holder, auth.Scope(s)) {
			return &fault.FieldError{Kind: fault.ErrForbidden, Field: field,
				Msg: fmt.Sprintf("%s, and the caller lacks %s (%s)", rule, s, auth.Label(s))}
		}
	}
	return nil
}

func checkScopes(scopes []string) ([]string, error) {
	if len(scopes) == 0 {
		return nil, fault.Invalid("scopes", "at least one scope is required; scopes are %s", strings.Join(auth.AllScopes(), ", "))
	}
	out := make([]string, 0, len(scopes))
	for i, s := range scopes {
		if !auth.Known(s) {
			return nil, fault.Invalid(fmt.Sprintf("scopes[%d]", i), "unknown scope %q; scopes are %s", s, strings.Join(auth.AllScopes(), ", "))
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out, nil
}
