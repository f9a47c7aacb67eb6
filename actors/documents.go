package actors

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/anthdm/hollywood/actor"

	"github.com/platen/platen/billing"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/internal/ids"
	"github.com/platen/platen/render"
	"github.com/platen/platen/sign"
	"github.com/platen/platen/storage"
)

// Document messages an org actor answers.
type (
	// CreateDocument records a queued document, holding its estimated pages
	// against the allowance and then the wallet, or refuses with
	// fault.ErrPaymentRequired. Its id, status, times and hold are the
	// actor's to set. The Reply's value is a CreatedDocument.
	CreateDocument struct {
		Document storage.Document
		Data     json.RawMessage
		// IdempotencyKey and BodyHash, when set, make a retry answer with the
		// document the first request made.
		IdempotencyKey, BodyHash string
		// EstimatePages is the caller's estimate of the pages, from the data
		// (a paginated template's page count); the hold takes the larger of it
		// and the version's last page count.
		EstimatePages int
	}
	// QuoteDocument prices a dry run of a document (docs/api.md "Dry
	// run") on the account as the org actor holds it, where debits are
	// decided, and changes nothing. It refuses as CreateDocument's hold would
	// for the same template version and estimate; given the rendered Pages,
	// it also answers what billing.Charge would take for them now and
	// whether billing.Hold would cover them. The Reply's value is a Quote.
	QuoteDocument struct {
		TemplateID      string
		TemplateVersion int
		EstimatePages   int
		// Pages is the dry run's page count; 0 before it is rendered.
		Pages int
		// IdempotencyKey and BodyHash, when set, are checked as
		// CreateDocument's are, and first: a key used with another body is
		// the same conflict, and a key used with this body answers the
		// Quote's Replay. Neither is recorded.
		IdempotencyKey, BodyHash string
	}
	// ChangeDocument moves a document on (Kind is one of the document
	// command kinds other than create). The Reply carries no value: read the
	// record from the store, where it is once the reply comes.
	ChangeDocument struct {
		Kind   storage.Kind
		Change storage.DocumentChange
	}
)

// Quote answers QuoteDocument.
type Quote struct {
	// Watermarked says the plan marks its documents, as CreateDocument
	// would.
	Watermarked bool
	// AllowancePages and WalletMicros are what billing.Charge takes for
	// Pages now (every page is allowance on a plan without a wallet).
	AllowancePages int64
	WalletMicros   int64
	// Payable says billing.Hold covers Pages now.
	Payable bool
	// Replay is the document a CreateDocument with QuoteDocument's
	// Idempotency-Key and body would answer again, charging nothing more;
	// the rest of the Quote is then not decided.
	Replay *storage.Document
}

// quote decides a QuoteDocument: the same hold as a CreateDocument of the
// template version would take, tried and let go, then the charge of the
// rendered pages as if the document finished now with its hold released.
func (a *orgActor) quote(m QuoteDocument, now time.Time) (Quote, error) {
	if a.org.ID == "" {
		return Quote{}, fmt.Errorf("%w: organisation %s", fault.ErrNotFound, a.id)
	}
	plan := a.deps.Plans()[a.org.Plan]
	if m.IdempotencyKey != "" {
		earlier, err := a.idempotent(CreateDocument{IdempotencyKey: m.IdempotencyKey, BodyHash: m.BodyHash})
		if err != nil {
			return Quote{}, err
		}
		if earlier != nil {
			return Quote{Watermarked: plan.Watermark, Payable: true, Replay: &earlier.Document}, nil
		}
	}
	if _, err := a.hold(plan, max(m.EstimatePages, a.deps.Store.VersionPages(m.TemplateID, m.TemplateVersion)), now); err != nil {
		return Quote{}, err
	}
	q := Quote{Watermarked: plan.Watermark}
	if m.Pages > 0 {
		acct, terms := a.account().Account(), plan.Terms()
		s := billing.Charge(acct, terms, int64(m.Pages), now)
		q.AllowancePages, q.WalletMicros = s.AllowancePages, s.Micros
		_, err := billing.Hold(acct, plan.Name, terms, int64(m.Pages), now)
		q.Payable = err == nil
	}
	return q, nil
}

// CreatedDocument answers CreateDocument.
type CreatedDocument struct {
	Document storage.Document
	// Replayed is true when an Idempotency-Key had made this document before.
	Replayed bool
}

// decide prices the document and holds its pages, or answers an earlier
// document its Idempotency-Key made.
func (m CreateDocument) decide(a *orgActor, cmd *storage.Command) (decision, error) {
	store := a.deps.Store
	if a.org.ID == "" {
		return decision{}, fmt.Errorf("%w: organisation %s", fault.ErrNotFound, a.id)
	}
	if m.IdempotencyKey != "" {
		if earlier, err := a.idempotent(m); err != nil {
			return decision{}, err
		} else if earlier != nil {
			return answer(*earlier), nil
		}
	}
	plan := a.deps.Plans()[a.org.Plan]
	d := m.Document
	d.ID, d.OrgID = ids.New(ids.Document, cmd.At), a.id
	if d.Filename == "" {
		d.Filename = d.TemplateSlug + "-" + d.ID[len(d.ID)-10:] + ".pdf"
	}
	d.Watermarked = plan.Watermark
	var err error
	if d.Hold, err = a.hold(plan, max(m.EstimatePages, store.VersionPages(d.TemplateID, d.TemplateVersion)), cmd.At); err != nil {
		return decision{}, err
	}
	cmd.Kind = storage.KindCreateDocument
	cmd.CreateDocument = &storage.CreateDocument{Document: d, Data: m.Data, EventID: ids.New(ids.Event, cmd.At),
		IdempotencyKey: m.IdempotencyKey, BodyHash: m.BodyHash}
	// The record as the state machine writes it: queued, at the command's time.
	d.Status, d.CreatedAt, d.UpdatedAt = storage.StatusQueued, cmd.At, cmd.At
	return decision{reply: CreatedDocument{Document: d}}, nil
}

// decide refuses a change the document's state does not allow, and adds
// to a completion or failure what settles its charge.
func (m ChangeDocument) decide(a *orgActor, cmd *storage.Command) (decision, error) {
	store := a.deps.Store
	d, err := store.Document(m.Change.DocumentID)
	if err != nil || d.OrgID != a.id {
		return decision{}, fmt.Errorf("%w: document %s", fault.ErrNotFound, m.Change.DocumentID)
	}
	// Refused here, before proposing, when the change cannot apply: the
	// state machine would refuse it too, and every write pipelined behind
	// it would fail as stale.
	switch m.Kind {
	case storage.KindStartRender:
		if err := storage.CanStartRender(d, m.Change.Node); err != nil {
			return decision{}, fmt.Errorf("%w: %v", fault.ErrConflict, err)
		}
	case storage.KindCompleteDocument, storage.KindFailDocument:
		if !d.Pending() {
			return decision{}, fmt.Errorf("%w: document %s is already %s", fault.ErrConflict, d.ID, d.Status)
		}
	case storage.KindRecordDownload, storage.KindExpireDocument:
		if d.Status != storage.StatusCompleted || d.FileExpired {
			return decision{}, fmt.Errorf("%w: document %s has no file", fault.ErrConflict, d.ID)
		}
	}
	ch := m.Change
	ch.EventID = ids.New(ids.Event, cmd.At)
	if m.Kind == storage.KindCompleteDocument || m.Kind == storage.KindFailDocument {
		ch.Release = d.Hold
		ch.Terms = a.deps.Plans()[a.org.Plan].Terms()
		ch.DebitEntryID, ch.DebitEventID = ids.New(ids.Ledger, cmd.At), ids.New(ids.Event, cmd.At)
	}
	cmd.Kind, cmd.DocumentChange = m.Kind, &ch
	return decision{}, nil
}

// hold prices a new document at its estimated pages with billing.Hold,
// against what the allowance and the wallet have left after the holds of
// documents still rendering, or refuses it.
func (a *orgActor) hold(plan storage.Plan, estimate int, now time.Time) (storage.Hold, error) {
	s, err := billing.Hold(a.account().Account(), plan.Name, plan.Terms(), int64(estimate), now)
	if err != nil {
		return storage.Hold{}, err
	}
	return storage.HoldOf(s), nil
}

// idempotent answers a CreateDocument whose key was used before: with the
// document it made, or a conflict when the body differs.
func (a *orgActor) idempotent(m CreateDocument) (*CreatedDocument, error) {
	if hash, ok := a.pendingIdem[m.IdempotencyKey]; ok {
		if hash != m.BodyHash {
			return nil, fmt.Errorf("%w: this Idempotency-Key was used with a different request body", fault.ErrConflict)
		}
		return nil, fmt.Errorf("%w: a request with this Idempotency-Key is being recorded; retry", fault.ErrUnavailable)
	}
	rec, err := a.deps.Store.IdempotencyRecord(a.id, m.IdempotencyKey)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if rec.BodyHash != m.BodyHash {
		return nil, fmt.Errorf("%w: this Idempotency-Key was used with a different request body", fault.ErrConflict)
	}
	d, err := a.deps.Store.Document(rec.DocumentID)
	if err != nil {
		return nil, err
	}
	return &CreatedDocument{Document: d, Replayed: true}, nil
}

// DocDeps is what document actors need from their node.
type DocDeps struct {
	Store    *storage.Store
	Blobs    *storage.Blobs
	Renderer *render.Renderer
	Versions *Versions
	// Retention is how long a finished PDF is kept.
	Retention time.Duration
	// QueueCapacity bounds the documents queued or rendering on this node.
	QueueCapacity int
	Logger        *slog.Logger
	// FetchBlob, in a cluster, copies a blob this node lacks from a node
	// that holds it.
	FetchBlob func(hash string, holders []string) error
	// TSA, when set, time-stamps every signature (PAdES B-T); without it
	// signatures are B-B (docs/signatures.md).
	TSA *sign.TSA
}

// Error codes of failed documents (docs/api.md).
const (
	CodeTemplateError = "TEMPLATE_ERROR"
	CodeRenderTimeout = "RENDER_TIMEOUT"
	CodeTooManyPages  = "TOO_MANY_PAGES"
	CodeRenderFailed  = "RENDER_FAILED"
	CodeDataMissing   = "DATA_UNAVAILABLE"
	CodeSigningFailed = "SIGNING_FAILED"
)

// FailureCodes lists every code a failed document carries.
var FailureCodes = []string{CodeTemplateError, CodeRenderTimeout, CodeTooManyPages, CodeRenderFailed, CodeDataMissing, CodeSigningFailed}

// Failure turns a render error into the code and message a user is shown:
// an engine's own error (the browser's output, paths of this node) is
// never among them, only the log's.
func Failure(err error) (code, message string) {
	switch {
	case errors.Is(err, render.ErrFill):
		return CodeTemplateError, "The template could not be filled with this data: " + err.Error()
	case errors.Is(err, render.ErrTimeout):
		return CodeRenderTimeout, "The document took too long to render. Simplify the template or send less data."
	case errors.Is(err, render.ErrSign):
		return CodeSigningFailed, signingMessage(err)
	case errors.Is(err, render.ErrTooManyPages):
		return CodeTooManyPages, "The document has too many pages: " + strings.TrimPrefix(err.Error(), render.ErrTooManyPages.Error()+": ")
	default:
		return CodeRenderFailed, "The document could not be rendered. It can be regenerated; if it fails again, contact support with its id."
	}
}

// signingMessage says why a document could not be signed, in words that
// hold no internals: the certificate is gone, or the time-stamp authority
// did not stamp.
func signingMessage(err error) string {
	switch {
	case errors.Is(err, sign.ErrTSA):
		return "The document could not be signed: the time-stamp authority did not time-stamp the signature. Regenerate it; if it fails again, the node's operator should check the authority."
	case strings.Contains(err.Error(), "was deleted"):
		return "The document could not be signed: its signing certificate was deleted. Upload a certificate and ask for it."
	case strings.Contains(err.Error(), "expired on"):
		return "The document could not be signed: its signing certificate expired before it was signed. Upload its successor and ask for it."
	}
	return "The document could not be signed. Regenerate it; if it fails again, contact support with its id."
}

// docRun tells a document actor to render.
type docRun struct{}

// docActor owns one document's render: it marks the document rendering,
// renders it in the bounded pool, stores the PDF and records the outcome
// through the org actor. Rendering is idempotent per document: a second
// completion is refused by the state machine.
type docActor struct {
	id  string
	sys *System
	// recorded, when set, is a reserved document to render and record in
	// one command (record.go), rather than one read from the store.
	recorded *Recorded
}

func (d *docActor) Receive(c *actor.Context) {
	switch c.Message().(type) {
	case actor.Started:
		c.Send(c.PID(), docRun{})
	case docRun:
		defer c.Engine().Poison(c.PID())
		defer d.sys.docFinished(d.id) // even after a panic, which Recover reports
		if d.recorded != nil {
			d.runRecorded(d.recorded)
			return
		}
		d.run()
	}
}

func (d *docActor) run() {
	deps := d.sys.docs
	log := deps.Logger.With("document", d.id)
	doc, err := deps.Store.Document(d.id)
	if err != nil || !doc.Pending() {
		return
	}
	// The record names the node rendering it, so that the node it was
	// handed to, or a node that comes back, does not render it again.
	if self := d.sys.placement.Self().ID; doc.Status == storage.StatusQueued || doc.Node != self {
		if !d.changeRetrying(doc.OrgID, storage.KindStartRender, storage.DocumentChange{DocumentID: d.id, Node: self}) {
			log.Info("document not started here: another node took it, or its organisation cannot be reached; it stays pending for a later try")
			return
		}
	}
	o := d.sys.renderDocument(doc, nil)
	switch {
	case o.stopping:
		return // the node is stopping: the document stays pending and resumes on restart
	case o.kind == storage.KindFailDocument:
		d.finish(doc, o.kind, o.change)
		return
	}
	d.storeAndComplete(doc, o)
}

// storeAndComplete stores a rendered PDF here and on a second node, then
// records the completion that names it.
func (d *docActor) storeAndComplete(doc storage.Document, o rendered) {
	log := d.sys.docs.Logger.With("document", d.id)
	storing := time.Now()
	hash, err := d.sys.docs.Blobs.Put(o.pdf)
	if err != nil {
		log.Error("cannot store the PDF; the document stays pending", "err", err)
		return
	}
	holders, err := d.sys.CopyBlob(hash, o.pdf)
	if err != nil {
		log.Error("cannot copy the PDF to a second node; the document stays pending", "err", err)
		return
	}
	o.report.Add(render.StageStoring, time.Since(storing))
	o.change.BlobHash, o.change.BlobHolders = hash, holders
	d.finish(doc, storage.KindCompleteDocument, o.completed())
}

// rendered is what a document's render came to: a failure to record, or a
// PDF to store and record with its completion.
type rendered struct {
	// stopping is set when the node stopped during the render: nothing is
	// to be recorded.
	stopping bool
	// kind is KindFailDocument or KindCompleteDocument, and change its
	// change: complete for a failure; for a completion without its blob,
	// expiry and report (completed adds the last two).
	kind      storage.Kind
	change    storage.DocumentChange
	pdf       []byte
	report    render.Report
	retention time.Duration
}

// completed is a completion's change with its report, ended now, and its
// file's expiry.
func (o *rendered) completed() storage.DocumentChange {
	o.report.Completed()
	ch := o.change
	ch.Report, _ = json.Marshal(o.report)
	expires := time.Now().UTC().Add(o.retention)
	ch.ExpiresAt = &expires
	return ch
}

// renderDocument renders a document from its version and data (raw, or
// the stored data when raw is nil), with its watermark and signature.
func (s *System) renderDocument(doc storage.Document, raw json.RawMessage) rendered {
	deps := s.docs
	log := deps.Logger.With("document", doc.ID)
	failed := func(code, msg string, report json.RawMessage) rendered {
		return rendered{kind: storage.KindFailDocument, change: storage.DocumentChange{ErrorCode: code, Message: msg, Report: report}}
	}
	// The report of a render that cannot start: the time queued, and the
	// stage, filling, that needed what is missing.
	unread := func() json.RawMessage {
		rep := render.NewReport()
		rep.Add(render.StageQueued, time.Since(doc.CreatedAt))
		rep.Failed(render.StageFilling)
		raw, _ := json.Marshal(rep)
		return raw
	}
	version, err := deps.Versions.Get(doc.TemplateID, doc.TemplateVersion)
	var data map[string]any
	if err == nil {
		if raw == nil {
			raw, err = deps.Store.DocumentData(doc.ID)
		}
		if err == nil {
			data, err = DecodeData(version, raw)
		}
	}
	if err != nil {
		log.Error("document's version or data cannot be read", "err", err)
		return failed(CodeDataMissing, "The document's template version or data could not be read.", unread())
	}
	req := render.Request{Version: version, Data: data, Engine: doc.Engine, PDFA: doc.PDFA, PDFUA: doc.PDFUA, Queue: true, Now: time.Now().UTC(),
		CacheKey: VersionKey(doc.TemplateID, doc.TemplateVersion), Org: doc.OrgID, OrgPages: OrgPages(deps.Store, doc.OrgID)}
	if err := s.LoadSource(&req); err != nil {
		log.Error("the template's uploaded PDF cannot be read", "err", err)
		return failed(CodeDataMissing, "The template's uploaded PDF could not be read on any live node. Regenerate the document once the nodes that hold it are back.", unread())
	}
	if doc.Watermarked {
		req.Watermark = SandboxWatermark()
	}
	if doc.Sign != nil {
		if req.Sign, err = s.signing(doc); err != nil {
			log.Info("document cannot be signed", "err", err)
			code, msg := Failure(err)
			DocumentsFailed.Add(1)
			return failed(code, msg, unread())
		}
	}
	started := time.Now()
	res, err := deps.Renderer.Render(s.ctx, req)
	if s.ctx.Err() != nil {
		return rendered{stopping: true}
	}
	rep := res.Report
	rep.Add(render.StageQueued, started.Sub(doc.CreatedAt))
	if err != nil {
		code, msg := Failure(err)
		log.Info("document failed", "code", code, "err", err)
		DocumentsFailed.Add(1)
		rep.Failed(rep.FailedAt)
		raw, _ := json.Marshal(rep)
		return failed(code, msg, raw)
	}
	DocumentsCompleted.Add(1)
	return rendered{kind: storage.KindCompleteDocument, pdf: res.PDF, report: rep, retention: deps.Retention,
		change: storage.DocumentChange{PageCount: res.Pages, ByteSize: int64(len(res.PDF)), RenderedWith: res.Engine,
			EngineReason: res.EngineReason, DurationMs: res.Duration.Milliseconds(), Signature: signatureRecord(req.Sign, res.Signature)}}
}

// OrgPages is how many of a node's Chromium pages an organisation may hold
// at once: its plan's share (storage.Plan.ChromiumPages), 0 for the node's
// own. An organisation that cannot be read gets the node's share.
func OrgPages(store *storage.Store, orgID string) int {
	org, err := store.Org(orgID)
	if err != nil {
		return 0
	}
	return store.Plans()[org.Plan].ChromiumPages
}

// DecodeData reads a document's stored data as its version renders it: a
// template made from a PDF prints numbers as they were sent.
func DecodeData(version *render.Checked, raw json.RawMessage) (map[string]any, error) {
	var data map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	if version.PDF != nil {
		dec.UseNumber()
	}
	err := dec.Decode(&data)
	return data, err
}

// SandboxWatermark is what a document of a plan with a watermark carries.
func SandboxWatermark() *render.Watermark {
	return &render.Watermark{Text: "SANDBOX", Notice: "Sandbox document: not for production use"}
}

// finish records the outcome, retrying while the org actor cannot answer.
func (d *docActor) finish(doc storage.Document, kind storage.Kind, ch storage.DocumentChange) {
	ch.DocumentID = d.id
	d.changeRetrying(doc.OrgID, kind, ch)
}

// changeRetrying asks the org actor for a change until it answers
// (System.retry). It reports whether the change was made.
func (d *docActor) changeRetrying(orgID string, kind storage.Kind, ch storage.DocumentChange) bool {
	return d.sys.retry(d.id, kind, func() error { return d.change(orgID, kind, ch) }) == nil
}

// retry asks an org actor for a document's change until it answers, for
// about a minute: while an organisation moves between nodes, or its owner
// cannot reach the leader, asks fail for a few seconds. A refusal
// (conflict, not found) is an answer, and returned.
func (s *System) retry(id string, kind storage.Kind, ask func() error) error {
	var err error
	for attempt := 0; attempt < 40; attempt++ {
		if err = ask(); err == nil || errors.Is(err, fault.ErrConflict) || errors.Is(err, fault.ErrNotFound) {
			return err
		}
		if attempt%5 == 0 {
			s.docs.Logger.Warn("cannot record a change of the document; retrying", "document", id, "change", kind, "err", err)
		}
		select {
		case <-s.ctx.Done():
			return err
		case <-time.After(min(time.Duration(attempt+1)*200*time.Millisecond, 2*time.Second)):
		}
	}
	return err
}

func (d *docActor) change(orgID string, kind storage.Kind, ch storage.DocumentChange) error {
	_, err := Ask(d.sys, orgID, ChangeDocument{Kind: kind, Change: ch})
	return err
}

// docTracker is the System's record of the document actors on this node.
type docTracker struct {
	inFlight atomic.Int64

	mu      sync.Mutex // guards running, waiters and spawns
	running map[string]bool
	spawns  uint64
	waiters map[string][]chan struct{}
	// waitOrg is the organisation of each document waited for.
	waitOrg map[string]string
}

// StartDocument starts the actor that renders a document admitted earlier.
// A document already running here is not started twice.
func (s *System) StartDocument(id string) {
	if !s.spawnDoc(id, nil) {
		s.tracker.inFlight.Add(-1)
	}
}

// spawnDoc starts a document's actor, marked running, unless one runs
// already; it reports whether it started one.
func (s *System) spawnDoc(id string, recorded *Recorded) bool {
	t := &s.tracker
	t.mu.Lock()
	if t.running[id] {
		t.mu.Unlock()
		return false
	}
	t.running[id] = true
	t.spawns++
	spawnID := fmt.Sprintf("%s.%d", id, t.spawns)
	t.mu.Unlock()
	// A spawn-unique actor id: the actor of a document's earlier run may
	// still be leaving hollywood's registry, which would drop a spawn with
	// the same id without a word and leak this slot.
	s.engine.Spawn(func() actor.Receiver { return &docActor{id: id, sys: s, recorded: recorded} }, "doc", actor.WithID(spawnID), actor.WithMiddleware(Recover), actor.WithInboxSize(docInbox))
	return true
}

// docInbox is a document actor's first inbox: it hears a start and the
// odd question, and the inbox grows if more come. Hollywood's default of
// 1024 envelopes was 24 KB of garbage for every document.
const docInbox = 8

func (s *System) docFinished(id string) {
	t := &s.tracker
	t.mu.Lock()
	delete(t.running, id)
	ws := t.waiters[id]
	delete(t.waiters, id)
	delete(t.waitOrg, id)
	t.mu.Unlock()
	t.inFlight.Add(-1)
	for _, w := range ws {
		close(w)
	}
}

// WaitDocument waits until a document is no longer pending or ctx ends, and
// returns its record. The document may render on any node: a waiter wakes
// when its render ends here and whenever its organisation's feed moves on
// this node's store, which every node applies.
func (s *System) WaitDocument(ctx context.Context, id string) (storage.Document, error) {
	for {
		ch := make(chan struct{})
		t := &s.tracker
		t.mu.Lock()
		t.waiters[id] = append(t.waiters[id], ch)
		t.mu.Unlock()
		// Registered first, read second: a finish between the two is not missed.
		d, err := s.docs.Store.Document(id)
		if errors.Is(err, storage.ErrNotFound) && s.remote != nil {
			// Created through another node and not applied here yet.
			d, err = storage.Document{Status: storage.StatusQueued}, nil
		}
		if err == nil && d.Pending() {
			if d.OrgID != "" {
				t.mu.Lock()
				t.waitOrg[id] = d.OrgID
				t.mu.Unlock()
			}
			select {
			case <-ch:
			case <-ctx.Done():
			}
		}
		t.mu.Lock()
		ws := t.waiters[id]
		for i, w := range ws {
			if w == ch {
				t.waiters[id] = append(ws[:i], ws[i+1:]...)
				break
			}
		}
		if len(t.waiters[id]) == 0 {
			delete(t.waiters, id)
			delete(t.waitOrg, id)
		}
		t.mu.Unlock()
		if err != nil || !d.Pending() {
			return d, err
		}
		if ctx.Err() != nil {
			d, err := s.docs.Store.Document(id)
			if errors.Is(err, storage.ErrNotFound) && s.remote != nil {
				return storage.Document{ID: id, Status: storage.StatusQueued}, nil
			}
			return d, err
		}
	}
}

// feedMoved wakes the waiters of the organisations whose feed moved: one of
// their documents may have finished on another node. Waiters read their
// document again and wait on if it has not.
func (s *System) feedMoved(orgIDs []string) {
	t := &s.tracker
	t.mu.Lock()
	defer t.mu.Unlock()
	for id, ws := range t.waiters {
		org, known := t.waitOrg[id]
		if known && !slices.Contains(orgIDs, org) {
			continue
		}
		for _, w := range ws {
			close(w)
		}
		delete(t.waiters, id)
		delete(t.waitOrg, id)
	}
}

// ResumePending starts an actor for every pending document that is this
// node's to render and is not rendering here already: documents this node
// took and left queued or rendering at a stop or after a transient error,
// and documents of organisations this node owns whose rendering node is no
// longer a live member (docs/design.md "Consistency" rule 5). Rendering is
// idempotent per document: the state machine takes one outcome.
func (s *System) ResumePending() (int, error) {
	pending, err := s.docs.Store.PendingDocuments()
	if err != nil {
		return 0, err
	}
	self := s.placement.Self().ID
	alive := map[string]bool{}
	for _, m := range s.placement.Members() {
		alive[m.ID] = true
	}
	// Until gossip has settled, a node missing from it may be alive.
	settled := s.remote == nil || s.remote.Settled == nil || s.remote.Settled()
	started := 0
	for _, d := range pending {
		mine := d.Node == self || (settled && !alive[d.Node] && s.placement.IsLocal(d.OrgID))
		if !mine {
			continue
		}
		s.tracker.mu.Lock()
		running := s.tracker.running[d.ID]
		s.tracker.mu.Unlock()
		if running {
			continue
		}
		s.Resume(d.ID)
		started++
	}
	return started, nil
}

// ExpireFiles deletes the files of documents past their retention, at most
// limit of them: the record stays and says its file has expired.
func (s *System) ExpireFiles(now time.Time, limit int) (int, error) {
	due, err := s.docs.Store.ExpiringDocuments(now, limit)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, d := range due {
		if !s.placement.IsLocal(d.OrgID) {
			continue
		}
		if _, err := Ask(s, d.OrgID, ChangeDocument{Kind: storage.KindExpireDocument, Change: storage.DocumentChange{DocumentID: d.ID}}); err != nil && !errors.Is(err, fault.ErrConflict) {
			return n, err
		}
		if inUse, err := s.docs.Store.BlobInUse(d.BlobHash); err == nil && !inUse {
			if err := s.docs.Blobs.Delete(d.BlobHash); err != nil {
				return n, err
			}
		}
		n++
	}
	return n, nil
}
