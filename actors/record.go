package actors

// One write per document (docs/design.md "One write per document"): a
// document its caller waits for, rendered here, is held in the org actor's
// memory while it renders (a reservation: its id, its hold, its
// Idempotency-Key) and recorded once it is rendered, in one raft command
// that carries its PDF. A render that outlives the wait is recorded the
// usual way, created and started, and finishes as any other document.

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/platen/platen/internal/crash"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/internal/ids"
	"github.com/platen/platen/render"
	"github.com/platen/platen/storage"
)

// MaxRecordedBlob is the largest PDF a document recorded in one command
// carries in the raft log; a larger one is stored and synced as a file
// first, and the command names it.
const MaxRecordedBlob = 1 << 20

// Messages of a document recorded once.
type (
	// ReserveDocument decides a CreateDocument, holding its pages, and keeps
	// it in the actor's memory instead of proposing it: nothing is written.
	// The Reply's value is a Reservation, or the CreatedDocument an earlier
	// request with its Idempotency-Key made.
	ReserveDocument struct{ CreateDocument }
	// RecordDocument records a reserved document, rendered, in one command:
	// its creation, its start on Node at StartedAt and its outcome. The
	// Reply's value is the CreatedDocument as recorded (or, when its
	// Idempotency-Key was recorded meanwhile by another request, that one).
	RecordDocument struct {
		Reservation Reservation
		Node        string
		StartedAt   time.Time
		Outcome     storage.Kind
		Finish      storage.DocumentChange
		// Blob is the PDF, carried in the command; empty when Finish names
		// a blob stored already, or for a failure.
		Blob []byte
	}
	// KeepDocument records a reserved document as created, the usual way,
	// when its render outlives its caller's wait. The Reply carries no value.
	KeepDocument struct{ Reservation Reservation }
	// ReleaseDocument forgets a reservation that will not be recorded.
	ReleaseDocument struct{ DocumentID string }
)

// Reservation answers ReserveDocument: the document as CreateDocument would
// record it, not yet written.
type Reservation struct {
	Create storage.CreateDocument
	// At is when it was decided: the document's creation time.
	At time.Time
}

// The replies of the commands above. ReserveDocument's is a Reservation,
// or the CreatedDocument an Idempotency-Key made before.
func (ReserveDocument) replies(any)            {}
func (RecordDocument) replies(CreatedDocument) {}
func (KeepDocument) replies(struct{})          {}
func (ReleaseDocument) replies(struct{})       {}

// reservation is a reserved document as its org actor holds it.
type reservation struct {
	hold      storage.Hold
	idem      string
	expiresAt time.Time
}

// reservationTTL bounds how long a reservation holds its pages without
// being recorded, kept or released (its node died while the organisation's
// actor lives elsewhere): longer than a wait (30 s by default) and the
// record after it.
const reservationTTL = 3 * time.Minute

func (m ReserveDocument) decide(a *orgActor, cmd *storage.Command) (decision, error) {
	d, err := m.CreateDocument.decide(a, cmd)
	if err != nil || d.answered {
		return d, err
	}
	cd := *cmd.CreateDocument
	a.reserved[cd.Document.ID] = reservation{hold: cd.Document.Hold, idem: cd.IdempotencyKey, expiresAt: cmd.At.Add(reservationTTL)}
	if cd.IdempotencyKey != "" {
		a.pendingIdem[cd.IdempotencyKey] = cd.BodyHash
	}
	return answer(Reservation{Create: cd, At: cmd.At}), nil
}

// unreserve forgets a reservation and reports whether there was one.
func (a *orgActor) unreserve(id string) bool {
	r, ok := a.reserved[id]
	if ok {
		delete(a.reserved, id)
		if r.idem != "" {
			delete(a.pendingIdem, r.idem)
		}
	}
	return ok
}

// expireReservations forgets the reservations past their time: their
// callers are gone without a word.
func (a *orgActor) expireReservations(now time.Time) {
	for id, r := range a.reserved {
		if now.After(r.expiresAt) {
			a.unreserve(id)
		}
	}
}

// account is the organisation's account as the actor decides on it: the
// store's, with the proposals in flight and the reservations' holds.
func (a *orgActor) account() storage.Org {
	o := a.org
	h := a.reservedHold()
	o.HeldPages += h.Pages
	o.HeldMicros += h.Micros
	return o
}

// reservedHold is what the reservations hold in all.
func (a *orgActor) reservedHold() storage.Hold {
	var h storage.Hold
	for _, r := range a.reserved {
		h.Pages += r.hold.Pages
		h.Micros += r.hold.Micros
	}
	return h
}

func (m RecordDocument) decide(a *orgActor, cmd *storage.Command) (decision, error) {
	create := m.Reservation.Create
	d := create.Document
	if d.OrgID != a.id {
		return decision{}, fmt.Errorf("%w: document %s", fault.ErrNotFound, d.ID)
	}
	// The hold leaves the actor's memory for the command, which takes and
	// releases it: without the reservation (the actor started again since)
	// the document is recorded all the same, and charged as rendered.
	a.unreserve(d.ID)
	ch := m.Finish
	ch.DocumentID = d.ID
	ch.EventID = ids.New(ids.Event, cmd.At)
	ch.Release, ch.Terms = d.Hold, a.deps.Plans()[a.org.Plan].Terms()
	if m.Outcome == storage.KindCompleteDocument {
		ch.DebitEntryID, ch.DebitEventID = ids.New(ids.Ledger, cmd.At), ids.New(ids.Event, cmd.At)
	}
	started := m.StartedAt
	if started.Before(m.Reservation.At) {
		started = m.Reservation.At // clocks of two nodes
	}
	if cmd.At.Before(started) {
		cmd.At = started // clocks of two nodes
	}
	cmd.Kind = storage.KindRecordDocument
	cmd.RecordDocument = &storage.RecordDocument{
		Create: create, CreatedAt: m.Reservation.At, StartedAt: started,
		Start:   storage.DocumentChange{DocumentID: d.ID, Node: m.Node, EventID: ids.New(ids.Event, started)},
		Outcome: m.Outcome, Finish: ch, OthersHeld: a.reservedHold(),
	}
	cmd.Blob = m.Blob
	store := a.deps.Store
	return decision{after: func() any {
		doc, _ := store.Document(d.ID)
		return CreatedDocument{Document: doc}
	}}, nil
}

func (m KeepDocument) decide(a *orgActor, cmd *storage.Command) (decision, error) {
	create := m.Reservation.Create
	if create.Document.OrgID != a.id {
		return decision{}, fmt.Errorf("%w: document %s", fault.ErrNotFound, create.Document.ID)
	}
	a.unreserve(create.Document.ID)
	cmd.Kind, cmd.CreateDocument = storage.KindCreateDocument, &create
	return decision{}, nil
}

func (m ReleaseDocument) decide(a *orgActor, _ *storage.Command) (decision, error) {
	a.unreserve(m.DocumentID)
	return answer(nil), nil
}

// Recorded is a document its caller waits for, rendering here under a
// reservation (StartRecorded).
type Recorded struct {
	res  Reservation
	done chan struct{}

	mu sync.Mutex // guards the fields below
	// recording is set while the outcome is being recorded; kept once the
	// wait ran out and the document was recorded as created and started.
	recording, kept bool
	// doc is the recorded document, once done; err why it was not.
	doc storage.Document
	err error
}

// Done is closed when the document is recorded, or could not be.
func (r *Recorded) Done() <-chan struct{} { return r.done }

// Result is the recorded document (Replayed when its Idempotency-Key was
// used by another request meanwhile), once Done is closed.
func (r *Recorded) Result() (CreatedDocument, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return CreatedDocument{Document: r.doc, Replayed: r.doc.ID != "" && r.doc.ID != r.res.Create.Document.ID}, r.err
}

// StartRecorded renders a reserved document here, in the place
// AdmitDocument reserved, and records it once rendered.
func (s *System) StartRecorded(res Reservation) *Recorded {
	r := &Recorded{res: res, done: make(chan struct{})}
	s.spawnDoc(res.Create.Document.ID, r)
	return r
}

// Keep records a document whose render outlives its caller's wait as
// created and started, so that it finishes as any other, unless its
// outcome is being recorded already (the caller then waits for Done). It
// reports whether it kept it.
func (s *System) Keep(r *Recorded) (bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.recording {
		return false, nil
	}
	select {
	case <-r.done:
		return false, nil
	default:
	}
	if r.kept {
		return true, nil
	}
	d := r.res.Create.Document
	if _, err := Ask(s, d.OrgID, KeepDocument{Reservation: r.res}); err != nil {
		return false, err
	}
	r.kept = true
	// Started here, where it renders. Should that fail, the document stays
	// queued, rendered here all the same, and recorded by its completion.
	if err := s.retry(d.ID, storage.KindStartRender, func() error {
		_, err := Ask(s, d.OrgID, ChangeDocument{Kind: storage.KindStartRender, Change: storage.DocumentChange{DocumentID: d.ID, Node: s.NodeID()}})
		return err
	}); err != nil {
		s.docs.Logger.Warn("a kept document is not marked started", "document", d.ID, "err", err)
	}
	return true, nil
}

var errNotRecorded = errors.New("the document's render was cut short: the node is stopping")

// errRecordFailed is what the caller of a document that could not be
// recorded is told; the log has why.
var errRecordFailed = errors.New("the document could not be recorded; nothing was charged, try again")

// runRecorded renders a reserved document and records it: in one command
// when its caller still waits, else the usual way. Whatever ends it
// without a record (the node stopping, a failure to record, a panic)
// releases its reservation, and its caller is told to try again.
func (d *docActor) runRecorded(r *Recorded) {
	defer close(r.done)
	doc := r.res.Create.Document
	release := func(why error) {
		r.mu.Lock()
		r.recording, r.err = false, fmt.Errorf("%w: %v", fault.ErrUnavailable, why)
		kept := r.kept
		r.mu.Unlock()
		if !kept {
			if _, err := Ask(d.sys, doc.OrgID, ReleaseDocument{DocumentID: doc.ID}); err != nil {
				d.sys.docs.Logger.Warn("a reservation was not released; it lapses on its own", "document", doc.ID, "err", err)
			}
		}
	}
	defer func() {
		if v := recover(); v != nil {
			release(errRecordFailed)
			panic(v) // for Recover, which reports it
		}
	}()
	doc.Status, doc.CreatedAt, doc.UpdatedAt = storage.StatusQueued, r.res.At, r.res.At
	crash.At(crash.Reserved)
	started := time.Now().UTC()
	o := d.sys.renderDocument(doc, r.res.Create.Data)
	crash.At(crash.Rendered)
	r.mu.Lock()
	kept := r.kept
	r.recording = !kept
	r.mu.Unlock()
	if kept {
		d.finishKept(doc, o)
		return
	}
	if o.stopping {
		release(errNotRecorded)
		return
	}
	cd, err := d.record(r.res, started, o)
	if err != nil && !errors.Is(err, fault.ErrConflict) {
		d.sys.docs.Logger.Error("a rendered document could not be recorded", "document", doc.ID, "err", err)
		release(errRecordFailed)
		return
	}
	if err == nil {
		crash.At(crash.Recorded)
	}
	r.mu.Lock()
	r.recording, r.doc, r.err = false, cd.Document, err
	r.mu.Unlock()
}

// record records a rendered document in one command, asking again while
// its organisation's actor cannot answer.
func (d *docActor) record(res Reservation, started time.Time, o rendered) (CreatedDocument, error) {
	m := RecordDocument{Reservation: res, Node: d.sys.NodeID(), StartedAt: started, Outcome: o.kind, Finish: o.change}
	if o.kind == storage.KindCompleteDocument {
		storing := time.Now()
		hash, holders, blob, err := d.sys.storeRecorded(o.pdf)
		if err != nil {
			return CreatedDocument{}, err
		}
		o.report.Add(render.StageStoring, time.Since(storing))
		o.change.BlobHash, o.change.BlobHolders = hash, holders
		m.Finish, m.Blob = o.completed(), blob
	}
	var cd CreatedDocument
	err := d.sys.retry(d.id, m.Outcome, func() (err error) {
		cd, err = Ask(d.sys, res.Create.Document.OrgID, m)
		return err
	})
	if errors.Is(err, fault.ErrConflict) {
		// An ask whose answer was lost and that was applied: asked again,
		// the document exists.
		if doc, rerr := d.sys.docs.Store.Document(res.Create.Document.ID); rerr == nil && !doc.Pending() {
			return CreatedDocument{Document: doc}, nil
		}
	}
	return cd, err
}

// storeRecorded gives a recorded document's PDF to its command when it is
// small enough, with every member as a holder (every node applies the
// command and writes it); a larger one is stored here and on a second node
// first, as a document recorded the usual way is.
func (s *System) storeRecorded(pdf []byte) (hash string, holders []string, blob []byte, err error) {
	if len(pdf) <= MaxRecordedBlob {
		for _, m := range s.placement.Members() {
			holders = append(holders, m.ID)
		}
		return storage.BlobHash(pdf), holders, pdf, nil
	}
	if hash, err = s.docs.Blobs.Put(pdf); err != nil {
		return "", nil, nil, err
	}
	holders, err = s.CopyBlob(hash, pdf)
	return hash, holders, nil, err
}

// finishKept finishes a document its caller stopped waiting for, as
// docActor.run does.
func (d *docActor) finishKept(doc storage.Document, o rendered) {
	switch {
	case o.stopping:
		return // it stays pending and resumes on restart
	case o.kind == storage.KindFailDocument:
		d.finish(doc, o.kind, o.change)
		return
	}
	d.storeAndComplete(doc, o)
}
