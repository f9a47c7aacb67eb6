package storage

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/platen/platen/billing"
)

// Document statuses (docs/design.md "States").
const (
	StatusQueued    = "queued"
	StatusRendering = "rendering"
	StatusCompleted = "completed"
	StatusFailed    = "failed"
)

// Feed-only event kinds: each state change of a document is a change-feed
// event; webhooks carry the spec's kinds.
const (
	EventDocumentQueued    = "document.queued"
	EventDocumentRendering = "document.rendering"
)

// Document is a document record. The data it was rendered from is stored
// apart (DocumentData) and never travels in events.
type Document struct {
	ID              string          `json:"id"`
	OrgID           string          `json:"orgId"`
	Status          string          `json:"status"`
	TemplateID      string          `json:"templateId"`
	TemplateSlug    string          `json:"templateSlug"`
	TemplateVersion int             `json:"templateVersion"`
	CorrelationID   string          `json:"correlationId,omitempty"`
	Metadata        json.RawMessage `json:"metadata,omitempty"`
	// Engine is the engine asked for; RenderedWith the one that rendered,
	// and EngineReason why (docs/design.md "Engines").
	Engine string `json:"engine,omitempty"`
	// PDFA is the PDF/A level the request asked for (the template's
	// manifest may ask too).
	PDFA string `json:"pdfa,omitempty"`
	// PDFUA is "1" when the request asked for PDF/UA-1.
	PDFUA string `json:"pdfua,omitempty"`
	// Sign is the signature asked for; Signature the one made, once
	// completed (docs/signatures.md).
	Sign         *SignRequest `json:"sign,omitempty"`
	Signature    *Signature   `json:"signature,omitempty"`
	RenderedWith string       `json:"renderedWith,omitempty"`
	EngineReason string       `json:"engineReason,omitempty"`
	Filename     string       `json:"filename"`
	Watermarked  bool         `json:"watermarked,omitempty"`
	PageCount    int          `json:"pageCount"`
	ByteSize     int64        `json:"byteSize"`
	// BlobHash is the sha256 of the PDF in the blob store; BlobHolders the
	// nodes that held a copy when it completed.
	BlobHash    string   `json:"blobHash,omitempty"`
	BlobHolders []string `json:"blobHolders,omitempty"`
	// Node is the node that took the document to render.
	Node       string `json:"node,omitempty"`
	DurationMs int64  `json:"durationMs"`
	// Report says how an uploaded-PDF template's fields were set (JSON).
	Report          json.RawMessage `json:"report,omitempty"`
	ErrorCode       string          `json:"errorCode,omitempty"`
	Message         string          `json:"message,omitempty"`
	RegeneratedFrom string          `json:"regeneratedFrom,omitempty"`
	Downloads       int             `json:"downloads"`
	// Hold is what the document reserved when it was created; Charge what
	// it cost when it completed.
	Hold           Hold       `json:"hold"`
	Charge         Charge     `json:"charge"`
	LastDownloadAt *time.Time `json:"lastDownloadAt,omitempty"`
	CreatedAt      time.Time  `json:"createdAt"`
	UpdatedAt      time.Time  `json:"updatedAt"`
	CompletedAt    *time.Time `json:"completedAt,omitempty"`
	// ExpiresAt is when the file is deleted; FileExpired is set once it is.
	ExpiresAt   *time.Time `json:"expiresAt,omitempty"`
	FileExpired bool       `json:"fileExpired,omitempty"`
}

// SignRequest is the signature a document asks for: the organisation's
// certificate, the reason and location written in it, and whether a block
// shows it on the last page.
type SignRequest struct {
	CertificateID string `json:"certificateId"`
	Reason        string `json:"reason,omitempty"`
	Location      string `json:"location,omitempty"`
	// Appearance is "invisible" or "visible".
	Appearance string `json:"appearance"`
}

// Signature is the signature a completed document carries: its PAdES
// level, who signed, with which certificate, and when.
type Signature struct {
	// Level is "PAdES-B-B" or "PAdES-B-T".
	Level             string    `json:"level"`
	Signer            string    `json:"signer"`
	CertificateID     string    `json:"certificateId"`
	CertificateSHA256 string    `json:"certificateSha256"`
	SignedAt          time.Time `json:"signedAt"`
	// TimestampedAt is the time-stamp authority's time (B-T).
	TimestampedAt *time.Time `json:"timestampedAt,omitempty"`
	Reason        string     `json:"reason,omitempty"`
	Location      string     `json:"location,omitempty"`
	Appearance    string     `json:"appearance"`
}

// Pending reports whether the document still has to be rendered.
func (d Document) Pending() bool { return d.Status == StatusQueued || d.Status == StatusRendering }

// DocumentEventData is the data of every document event: the record as the
// webhook payload describes it (spec "Webhook delivery payload"), without the
// link, which is minted fresh when the event is sent, and without the data.
type DocumentEventData struct {
	ID              string          `json:"id"`
	Status          string          `json:"status"`
	TemplateSlug    string          `json:"templateSlug"`
	TemplateVersion int             `json:"templateVersion"`
	CorrelationID   string          `json:"correlationId,omitempty"`
	PageCount       int             `json:"pageCount"`
	ByteSize        int64           `json:"byteSize"`
	Filename        string          `json:"filename"`
	Metadata        json.RawMessage `json:"metadata,omitempty"`
	ErrorCode       string          `json:"errorCode,omitempty"`
	Message         string          `json:"message,omitempty"`
	// Engine rendered a completed document, for EngineReason.
	Engine       string `json:"engine,omitempty"`
	EngineReason string `json:"engineReason,omitempty"`
	// Report is the render report of a completed or failed document.
	Report json.RawMessage `json:"report,omitempty"`
	// Signature is a signed document's.
	Signature *Signature `json:"signature,omitempty"`
}

func documentEventData(d *Document) DocumentEventData {
	return DocumentEventData{ID: d.ID, Status: d.Status, TemplateSlug: d.TemplateSlug, TemplateVersion: d.TemplateVersion,
		CorrelationID: d.CorrelationID, PageCount: d.PageCount, ByteSize: d.ByteSize, Filename: d.Filename,
		Metadata: d.Metadata, ErrorCode: d.ErrorCode, Message: d.Message, Engine: d.RenderedWith, EngineReason: d.EngineReason,
		Report: d.Report, Signature: d.Signature}
}

// Hold is pages reserved against the allowance and micros against the wallet,
// as billing.Hold priced them.
type Hold struct {
	Pages  int64 `json:"pages"`
	Micros int64 `json:"micros"`
}

// HoldOf is the record of a hold billing.Hold priced.
func HoldOf(s billing.Split) Hold { return Hold{Pages: s.AllowancePages, Micros: s.Micros} }

// Charge is what a completed document cost, as billing.Charge priced it, and
// the ledger row of its wallet part, if it had one.
type Charge struct {
	billing.Split
	LedgerEntryID string `json:"ledgerEntryId,omitempty"`
}

// CreateDocument stores a queued document, the data it renders from and its
// hold. With an idempotency key, the key is recorded in the same batch.
type CreateDocument struct {
	Document Document        `json:"document"`
	Data     json.RawMessage `json:"data"`
	EventID  string          `json:"eventId"`
	// IdempotencyKey is the hash of the caller's Idempotency-Key; BodyHash
	// the hash of the request it came with.
	IdempotencyKey string `json:"idempotencyKey,omitempty"`
	BodyHash       string `json:"bodyHash,omitempty"`
}

// Idempotency is a recorded Idempotency-Key: the request it came with and the
// document it made.
type Idempotency struct {
	BodyHash   string    `json:"bodyHash"`
	DocumentID string    `json:"documentId"`
	At         time.Time `json:"at"`
}

// DocumentChange moves a document on: to rendering, completed or failed, or
// records a download or the end of its file. The fields used depend on the
// command's kind.
type DocumentChange struct {
	DocumentID string `json:"documentId"`
	EventID    string `json:"eventId,omitempty"`
	// Completed.
	PageCount    int      `json:"pageCount,omitempty"`
	ByteSize     int64    `json:"byteSize,omitempty"`
	BlobHash     string   `json:"blobHash,omitempty"`
	BlobHolders  []string `json:"blobHolders,omitempty"`
	RenderedWith string   `json:"renderedWith,omitempty"`
	EngineReason string   `json:"engineReason,omitempty"`
	// Report is the render report (render.Report), of a completed or a
	// failed document.
	Report json.RawMessage `json:"report,omitempty"`
	// Signature is a signed document's, on completion.
	Signature *Signature `json:"signature,omitempty"`
	// Started: the node that renders it from now on.
	Node      string     `json:"node,omitempty"`
	ExpiresAt *time.Time `json:"expiresAt,omitempty"`
	// Completed or failed.
	DurationMs int64 `json:"durationMs,omitempty"`
	// Failed.
	ErrorCode string `json:"errorCode,omitempty"`
	Message   string `json:"message,omitempty"`
	// Completed or failed: the document's hold, released; and for a
	// completion the plan terms it is charged on and the ids of its ledger
	// row and wallet.debited event.
	Release      Hold      `json:"release"`
	Terms        PlanTerms `json:"terms"`
	DebitEntryID string    `json:"debitEntryId,omitempty"`
	DebitEventID string    `json:"debitEventId,omitempty"`
}

// RecordDocument is a document rendered within its request's wait,
// recorded once: its creation, its start and its outcome, applied in that
// order in one batch, with the feed events and webhook deliveries each
// step makes, as if three commands had come one after another. A completed
// document's PDF is the command's Blob.
type RecordDocument struct {
	Create CreateDocument `json:"create"`
	// CreatedAt and StartedAt are when the request was taken and its render
	// started; the outcome is at the command's time.
	CreatedAt time.Time `json:"createdAt"`
	StartedAt time.Time `json:"startedAt"`
	// Start is the KindStartRender change (its node and event).
	Start DocumentChange `json:"start"`
	// Outcome is KindCompleteDocument or KindFailDocument, and Finish its
	// change; Finish.Release is the document's hold.
	Outcome Kind           `json:"outcome"`
	Finish  DocumentChange `json:"finish"`
	// OthersHeld is what the org actor's other reservations held when it
	// decided (documents rendering, not yet recorded). The charge is priced
	// as if they were held in the org, as a completion's is with the holds
	// of the documents pending beside it: a document held on the wallet
	// does not take allowance pages another document holds.
	OthersHeld Hold `json:"othersHeld"`
}

// steps are the three commands a RecordDocument stands for.
func (r *RecordDocument) steps(c *Command) [3]*Command {
	create, start, finish := r.Create, r.Start, r.Finish
	return [3]*Command{
		{Kind: KindCreateDocument, OrgID: c.OrgID, Expect: c.Expect, At: r.CreatedAt, CreateDocument: &create},
		{Kind: KindStartRender, OrgID: c.OrgID, Expect: c.Expect, At: r.StartedAt, DocumentChange: &start},
		{Kind: r.Outcome, OrgID: c.OrgID, Expect: c.Expect, At: c.At, DocumentChange: &finish},
	}
}

// checkRecord refuses a RecordDocument whose parts do not make one
// document's life, before anything is written.
func checkRecord(c *Command) error {
	r := c.RecordDocument
	d := r.Create.Document
	switch {
	case r.Outcome != KindCompleteDocument && r.Outcome != KindFailDocument:
		return fmt.Errorf("%w: a recorded document ends completed or failed, not %q", ErrCodec, r.Outcome)
	case r.Start.DocumentID != d.ID || r.Finish.DocumentID != d.ID:
		return fmt.Errorf("%w: the steps of a recorded document name other documents", ErrCodec)
	case r.Finish.Release != d.Hold:
		return fmt.Errorf("%w: document %s releases %+v but holds %+v", ErrCodec, d.ID, r.Finish.Release, d.Hold)
	case r.StartedAt.Before(r.CreatedAt) || c.At.Before(r.StartedAt):
		return fmt.Errorf("%w: the steps of a recorded document are out of order", ErrCodec)
	case r.Outcome == KindCompleteDocument && len(c.Blob) > 0 && BlobHash(c.Blob) != r.Finish.BlobHash:
		return fmt.Errorf("%w: the PDF a recorded document carries is not the one it names", ErrCodec)
	case r.Outcome == KindFailDocument && len(c.Blob) > 0:
		return fmt.Errorf("%w: a failed document has no PDF", ErrCodec)
	}
	return nil
}

// applyRecordDocument applies a RecordDocument's three steps. Each step's
// checks pass for a new document once the first's have (its id and
// Idempotency-Key are free), so a refusal comes before any write.
func applyRecordDocument(t *txn, c *Command) error {
	steps := c.RecordDocument.steps(c)
	if err := applyCreateDocument(t, steps[0]); err != nil {
		return err
	}
	if err := applyStartRender(t, steps[1]); err != nil {
		return err
	}
	var err error
	if steps[2].Kind == KindCompleteDocument {
		err = applyCompleteDocument(t, steps[2])
	} else {
		err = applyFailDocument(t, steps[2])
	}
	if err == nil && len(c.Blob) > 0 {
		t.wakes.blobs = append(t.wakes.blobs, c.Blob)
	}
	return err
}

// Keys of documents.
//
//	d/<docID>                       Document
//	dd/<docID>                      the data it renders from
//	od/<orgID>/<docID>              empty: an org's documents
//	dst/<orgID>/<status>/<docID>    empty: by status
//	dtp/<orgID>/<tplID>/<docID>     empty: by template
//	dcr/<orgID>/<hex corr>/<docID>  empty: by correlationId
//	dq/<docID>                      orgID: documents still to render
//	dx/<expiry unix>/<docID>        orgID: files to delete, by expiry
//	br/<hash>/<docID>               empty: documents using a blob
//	ik/<orgID>/<key hash>           Idempotency
//	tpc/<tplID>/<n>                 page count of the version's last document
func documentKey(id string) []byte     { return []byte("d/" + id) }
func documentDataKey(id string) []byte { return []byte("dd/" + id) }
func orgDocsPrefix(org string) []byte  { return []byte("od/" + org + "/") }
func docStatusPrefix(org, status string) []byte {
	return []byte("dst/" + org + "/" + status + "/")
}
func docTemplatePrefix(org, tpl string) []byte { return []byte("dtp/" + org + "/" + tpl + "/") }
func docCorrelationPrefix(org, corr string) []byte {
	return []byte("dcr/" + org + "/" + hex.EncodeToString([]byte(corr)) + "/")
}

var (
	pendingPrefix = []byte("dq/")
	expiryPrefix  = []byte("dx/")
)

func pendingKey(id string) []byte { return append(append([]byte(nil), pendingPrefix...), id...) }
func expiryKey(at time.Time, id string) []byte {
	k := binary.BigEndian.AppendUint64(append([]byte(nil), expiryPrefix...), uint64(at.Unix()))
	return append(append(k, '/'), id...)
}
func blobRefPrefix(hash string) []byte          { return []byte("br/" + hash + "/") }
func idempotencyKey(org, keyHash string) []byte { return []byte("ik/" + org + "/" + keyHash) }
func versionPagesKey(tplID string, n int) []byte {
	return binary.BigEndian.AppendUint32([]byte("tpc/"+tplID+"/"), uint32(n))
}

// applyCreateDocument stores a queued document, its data, its indexes and,
// with an Idempotency-Key, the key; ApplyToOrg added its hold to the org.
func applyCreateDocument(t *txn, c *Command) error {
	cd := c.CreateDocument
	d := cd.Document
	if d.OrgID != c.OrgID || d.ID == "" {
		return fmt.Errorf("%w: document record does not belong to the command", ErrCodec)
	}
	if _, err := getRaw(t.b, documentKey(d.ID)); err == nil {
		return fmt.Errorf("%w: document %s exists", ErrConflict, d.ID)
	}
	if cd.IdempotencyKey != "" {
		if _, err := getRaw(t.b, idempotencyKey(d.OrgID, cd.IdempotencyKey)); err == nil {
			return fmt.Errorf("%w: idempotency key already used", ErrConflict)
		}
		t.set(idempotencyKey(d.OrgID, cd.IdempotencyKey), mustEncode(&Idempotency{BodyHash: cd.BodyHash, DocumentID: d.ID, At: c.At}))
	}
	d.Status, d.CreatedAt, d.UpdatedAt = StatusQueued, c.At, c.At
	t.set(documentKey(d.ID), mustEncode(&d))
	t.set(documentDataKey(d.ID), cd.Data)
	t.set(append(orgDocsPrefix(d.OrgID), d.ID...), nil)
	t.set(append(docStatusPrefix(d.OrgID, d.Status), d.ID...), nil)
	t.set(append(docTemplatePrefix(d.OrgID, d.TemplateID), d.ID...), nil)
	if d.CorrelationID != "" {
		t.set(append(docCorrelationPrefix(d.OrgID, d.CorrelationID), d.ID...), nil)
	}
	t.set(pendingKey(d.ID), []byte(d.OrgID))
	t.emit(d.OrgID, EventDocumentQueued, cd.EventID, c.At, documentEventData(&d))
	return t.err
}

// applyStartRender marks a document rendering on the command's node.
func applyStartRender(t *txn, c *Command) error {
	ch := c.DocumentChange
	d, err := loadDocument(t, c)
	if err != nil {
		return err
	}
	if err := CanStartRender(d, ch.Node); err != nil {
		return err
	}
	from := d.Status
	d.Status = StatusRendering
	if ch.Node != "" {
		d.Node = ch.Node
	}
	t.saveDocument(c, &d, from)
	return t.err
}

// applyCompleteDocument records a document's PDF, and its charge as
// ApplyToOrg made it (t.charge), with the ledger row and wallet.debited event
// when the wallet paid.
func applyCompleteDocument(t *txn, c *Command) error {
	ch := c.DocumentChange
	d, err := loadDocument(t, c)
	if err != nil {
		return err
	}
	if err := checkFinish(&d, ch); err != nil {
		return err
	}
	from, at := d.Status, c.At
	d.DurationMs = ch.DurationMs
	d.Status, d.CompletedAt = StatusCompleted, &at
	d.PageCount, d.ByteSize, d.BlobHash, d.RenderedWith, d.ExpiresAt = ch.PageCount, ch.ByteSize, ch.BlobHash, ch.RenderedWith, ch.ExpiresAt
	d.EngineReason = ch.EngineReason
	d.BlobHolders, d.Report, d.Signature = ch.BlobHolders, ch.Report, ch.Signature
	t.set(append(blobRefPrefix(d.BlobHash), d.ID...), nil)
	if d.ExpiresAt != nil {
		t.set(expiryKey(*d.ExpiresAt, d.ID), []byte(d.OrgID))
	}
	t.set(versionPagesKey(d.TemplateID, d.TemplateVersion), binary.BigEndian.AppendUint32(nil, uint32(d.PageCount)))
	d.Charge = t.charge
	if d.Charge.Micros > 0 {
		o := t.org
		d.Charge.LedgerEntryID = ch.DebitEntryID
		entry := LedgerEntry{ID: ch.DebitEntryID, OrgID: d.OrgID, Seq: o.LedgerSeq, Kind: LedgerDebit,
			AmountMicros: -d.Charge.Micros, BalanceAfterMicros: o.BalanceMicros, Reference: d.ID, At: c.At}
		t.set(ledgerKey(d.OrgID, entry.Seq), mustEncode(&entry))
		t.emit(d.OrgID, EventWalletDebited, ch.DebitEventID, c.At, WalletDebitedData{LedgerEntryID: entry.ID,
			DocumentID: d.ID, Pages: d.Charge.WalletPages, AmountMicros: d.Charge.Micros, BalanceMicros: o.BalanceMicros})
	}
	t.delete(pendingKey(d.ID))
	t.saveDocument(c, &d, from)
	return t.err
}

// applyFailDocument records a failed render; ApplyToOrg released its hold,
// and it costs nothing.
func applyFailDocument(t *txn, c *Command) error {
	ch := c.DocumentChange
	d, err := loadDocument(t, c)
	if err != nil {
		return err
	}
	if err := checkFinish(&d, ch); err != nil {
		return err
	}
	from := d.Status
	d.DurationMs = ch.DurationMs
	d.Status, d.ErrorCode, d.Message = StatusFailed, ch.ErrorCode, ch.Message
	d.Report = ch.Report
	t.delete(pendingKey(d.ID))
	t.saveDocument(c, &d, from)
	return t.err
}

// checkFinish refuses to finish a document twice, so it is charged and
// announced at most once, or with a release other than its hold.
func checkFinish(d *Document, ch *DocumentChange) error {
	if !d.Pending() {
		return fmt.Errorf("%w: document %s is already %s", ErrConflict, d.ID, d.Status)
	}
	if ch.Release != d.Hold {
		return fmt.Errorf("%w: document %s releases %+v but holds %+v", ErrConflict, d.ID, ch.Release, d.Hold)
	}
	return nil
}

// applyRecordDownload counts a download of a document's file.
func applyRecordDownload(t *txn, c *Command) error {
	d, err := loadDocument(t, c)
	if err != nil {
		return err
	}
	if d.Status != StatusCompleted || d.FileExpired {
		return fmt.Errorf("%w: document %s has no file to download", ErrConflict, d.ID)
	}
	at := c.At
	d.Downloads++
	d.LastDownloadAt = &at
	t.saveDocument(c, &d, d.Status)
	return t.err
}

// applyExpireDocument marks a document's file deleted and drops its
// reference to the blob, which every node is then told may go. A document
// with no file left is left as it is.
func applyExpireDocument(t *txn, c *Command) error {
	d, err := loadDocument(t, c)
	if err != nil {
		return err
	}
	if d.Status != StatusCompleted || d.FileExpired {
		return nil
	}
	d.FileExpired = true
	t.delete(append(blobRefPrefix(d.BlobHash), d.ID...))
	t.wakes.released = append(t.wakes.released, d.BlobHash)
	if d.ExpiresAt != nil {
		t.delete(expiryKey(*d.ExpiresAt, d.ID))
	}
	t.saveDocument(c, &d, d.Status)
	return t.err
}

// loadDocument reads the document a change names; another org's document is
// not found.
func loadDocument(t *txn, c *Command) (Document, error) {
	var d Document
	id := c.DocumentChange.DocumentID
	if err := getRecord(t.b, documentKey(id), &d); err != nil {
		return d, err
	}
	if d.OrgID != c.OrgID {
		return d, fmt.Errorf("%w: document %s", ErrNotFound, id)
	}
	return d, nil
}

// saveDocument writes a changed document back; when its status moved from
// from, it moves the status index and emits the new status's event.
func (t *txn) saveDocument(c *Command, d *Document, from string) {
	d.UpdatedAt = c.At
	if d.Status != from {
		t.delete(append(docStatusPrefix(d.OrgID, from), d.ID...))
		t.set(append(docStatusPrefix(d.OrgID, d.Status), d.ID...), nil)
		kind := map[string]string{StatusRendering: EventDocumentRendering, StatusCompleted: EventDocumentCompleted, StatusFailed: EventDocumentFailed}[d.Status]
		t.emit(d.OrgID, kind, c.DocumentChange.EventID, c.At, documentEventData(d))
	}
	t.set(documentKey(d.ID), mustEncode(d))
}

// CanStartRender reports whether node may start rendering d: a queued
// document, or one already rendering, which node takes over (its node died,
// or handed it on) or starts again (its first start's outcome was unknown).
// Only the first start is announced.
func CanStartRender(d Document, node string) error {
	switch {
	case d.Status == StatusQueued:
		return nil
	case d.Status == StatusRendering && node != "":
		return nil
	}
	return fmt.Errorf("%w: document %s is %s on node %q", ErrConflict, d.ID, d.Status, d.Node)
}

// Document returns a document record.
func (s *Store) Document(id string) (Document, error) {
	var d Document
	err := getRecord(s.db, documentKey(id), &d)
	return d, err
}

// DocumentData returns the data a document renders from.
func (s *Store) DocumentData(id string) (json.RawMessage, error) {
	return getRaw(s.db, documentDataKey(id))
}

// DocumentFilter narrows a listing; empty fields match everything.
type DocumentFilter struct {
	Status, TemplateID, CorrelationID string
}

// Documents lists an organisation's documents, newest first, after the
// document id cursor, at most limit. It walks the index of the most selective
// filter and checks the others on each record.
func (s *Store) Documents(orgID string, f DocumentFilter, cursor string, limit int) ([]Document, error) {
	prefix := orgDocsPrefix(orgID)
	switch {
	case f.CorrelationID != "":
		prefix = docCorrelationPrefix(orgID, f.CorrelationID)
	case f.TemplateID != "":
		prefix = docTemplatePrefix(orgID, f.TemplateID)
	case f.Status != "":
		prefix = docStatusPrefix(orgID, f.Status)
	}
	var out []Document
	err := s.newestFirst(prefix, cursor, limit, func(id string, _ []byte) (bool, error) {
		d, err := s.Document(id)
		if err != nil {
			return false, err
		}
		if (f.Status != "" && d.Status != f.Status) || (f.TemplateID != "" && d.TemplateID != f.TemplateID) ||
			(f.CorrelationID != "" && d.CorrelationID != f.CorrelationID) {
			return false, nil
		}
		out = append(out, d)
		return true, nil
	})
	return out, err
}

// PendingDocuments returns every document still to render, on every org.
func (s *Store) PendingDocuments() ([]Document, error) {
	var out []Document
	err := s.scan(pendingPrefix, 0, func(k, _ []byte) error {
		d, err := s.Document(string(k[len(pendingPrefix):]))
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		out = append(out, d)
		return nil
	})
	return out, err
}

// ExpiringDocuments returns up to limit documents whose files expire at or
// before t, soonest first.
func (s *Store) ExpiringDocuments(t time.Time, limit int) ([]Document, error) {
	var out []Document
	upper := binary.BigEndian.AppendUint64(append([]byte(nil), expiryPrefix...), uint64(t.Unix())+1)
	err := s.scanRange(expiryPrefix, upper, limit, func(k, _ []byte) error {
		id := string(k[len(expiryPrefix)+9:])
		d, err := s.Document(id)
		if err != nil {
			return err
		}
		out = append(out, d)
		return nil
	})
	return out, err
}

// BlobInUse reports whether any document still references a blob.
func (s *Store) BlobInUse(hash string) (bool, error) {
	found := false
	err := s.scan(blobRefPrefix(hash), 1, func(_, _ []byte) error {
		found = true
		return nil
	})
	return found, err
}

// IdempotencyRecord returns the recorded use of an Idempotency-Key.
func (s *Store) IdempotencyRecord(orgID, keyHash string) (Idempotency, error) {
	var r Idempotency
	err := getRecord(s.db, idempotencyKey(orgID, keyHash), &r)
	return r, err
}

// VersionPages returns the page count of the last document a template
// version made, 0 when it has made none.
func (s *Store) VersionPages(tplID string, n int) int {
	raw, err := getRaw(s.db, versionPagesKey(tplID, n))
	if err != nil || len(raw) != 4 {
		return 0
	}
	return int(binary.BigEndian.Uint32(raw))
}

// DocumentsSince calls fn with each of an organisation's documents created at
// or after since, newest first. Ids sort by creation time, so the walk of the
// org's index stops at the first older one: it reads what the window holds,
// never the organisation's whole history. The console's aggregates (documents
// a day, usage by month) are folds over it.
func (s *Store) DocumentsSince(orgID string, since time.Time, fn func(Document) error) error {
	err := s.newestFirst(orgDocsPrefix(orgID), "", math.MaxInt, func(id string, _ []byte) (bool, error) {
		d, err := s.Document(id)
		if err != nil {
			return false, err
		}
		if d.CreatedAt.Before(since) {
			return false, errStop
		}
		return true, fn(d)
	})
	if errors.Is(err, errStop) {
		return nil
	}
	return err
}
