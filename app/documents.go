package app

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode"

	"github.com/platen/platen/actors"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/internal/jsonbody"
	"github.com/platen/platen/links"
	"github.com/platen/platen/render"
	"github.com/platen/platen/storage"
)

// DocumentRequest is the body of POST /v1/documents, which is also the body
// of a realtime generate frame (spec "POST /v1/documents body").
type DocumentRequest struct {
	TemplateID    string          `json:"templateId"`
	Data          json.RawMessage `json:"data"`
	CorrelationID string          `json:"correlationId"`
	Metadata      json.RawMessage `json:"metadata"`
	Engine        string          `json:"engine"`
	// PDFA asks for this document as PDF/A (2b, 2u, 3b, 3u), whatever the
	// template's manifest says.
	PDFA string `json:"pdfa"`
	// PDFUA "1" asks for this document as PDF/UA-1, whatever the
	// template's manifest says.
	PDFUA           string `json:"pdfua"`
	Filename        string `json:"filename"`
	TemplateVersion int    `json:"templateVersion"`
	Wait            *bool  `json:"wait"`
	// Sign signs the document, replacing the manifest's sign
	// (docs/signatures.md).
	Sign *render.SignSpec `json:"sign"`
	// DryRun renders without storing or billing and answers a Quote.
	DryRun bool `json:"dryRun"`
}

// Limits of a document request (docs/api.md "Limits").
const (
	maxCorrelationLen = 200
	maxFilenameLen    = 200
	maxMetadataBytes  = 16 << 10
	// MaxIdempotencyKeyLen bounds an Idempotency-Key.
	MaxIdempotencyKeyLen = 255
)

// Generate is a request to generate a document, from any way in.
type Generate struct {
	// Body is the request as sent: a JSON DocumentRequest. Retries under
	// one IdempotencyKey must repeat it (spacing and key order aside).
	Body []byte
	// IdempotencyKey, when set, makes a retry with the same key and the same
	// body answer with the document the first try made, and a retry with
	// another body a conflict.
	IdempotencyKey string
	// Follow is set by a caller that follows the document's changes itself
	// (the realtime namespace): Generate answers once the document is
	// recorded and started, whatever the body's wait says.
	Follow bool
	// Watch, when set, is called with the recorded document before its
	// render starts, so that a caller following the feed misses none of its
	// changes. On a replayed Idempotency-Key it is called with the first
	// document as it stands.
	Watch func(d storage.Document, replayed bool)
}

// Generated is the outcome of Generate and Regenerate.
type Generated struct {
	// Document is the record: queued when the caller did not wait, else as
	// the wait left it (completed, failed, or still rendering when the wait
	// ran out).
	Document storage.Document
	// Replayed is set when an Idempotency-Key had made this document before.
	Replayed bool
	// Waited is set when the call waited for the render.
	Waited bool
	// Quote is the answer of a dry run, which makes no Document.
	Quote *Quote
}

// Generate checks a document request, records the document (holding its
// pages against allowance and wallet, or refusing with
// fault.ErrPaymentRequired before anything renders), starts its render on
// the node admission picks, and, when the body asks to wait (the default)
// and the caller does not follow the document itself, waits for it up to the
// node's wait timeout. Every refusal comes before anything is recorded.
// A body with dryRun answers a Quote instead, and records nothing (DryRun).
func (a *App) Generate(ctx context.Context, orgID string, in Generate) (Generated, error) {
	var p prepared
	err := a.fresh(func() (err error) {
		p, err = a.prepare(orgID, in)
		return err
	})
	if err != nil {
		return Generated{}, err
	}
	if p.dryRun {
		q, err := a.dryRun(ctx, orgID, p)
		if err != nil {
			return Generated{}, err
		}
		return Generated{Quote: &q}, nil
	}
	return a.start(ctx, orgID, p.create, p.wait && !in.Follow, in.Watch)
}

// Regenerate makes a new document from the same data and the same template
// version as the original (spec rule 2), which is left as it is.
func (a *App) Regenerate(ctx context.Context, orgID, docID string, wait bool) (Generated, error) {
	var create actors.CreateDocument
	err := a.fresh(func() error {
		orig, err := a.Document(orgID, docID)
		if err != nil {
			return err
		}
		data, err := a.deps.Store.DocumentData(orig.ID)
		if err != nil {
			return err
		}
		create = actors.CreateDocument{Data: data, Document: storage.Document{TemplateID: orig.TemplateID, TemplateSlug: orig.TemplateSlug,
			TemplateVersion: orig.TemplateVersion, CorrelationID: orig.CorrelationID, Metadata: orig.Metadata, Engine: orig.Engine,
			Filename: orig.Filename, PDFA: orig.PDFA, PDFUA: orig.PDFUA, RegeneratedFrom: orig.ID}}
		// A regenerated document is signed anew, with the same
		// certificate, which must still be there.
		if s := orig.Sign; s != nil {
			spec := render.SignSpec{CertificateID: s.CertificateID, Reason: s.Reason, Location: s.Location, Appearance: s.Appearance}
			if create.Document.Sign, err = a.signRequest(orgID, &spec, "sign"); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return Generated{}, err
	}
	return a.start(ctx, orgID, create, wait, nil)
}

// prepared is a checked request: the message for the org actor, the
// version it renders, and what the body asked.
type prepared struct {
	create       actors.CreateDocument
	version      *render.Checked
	wait, dryRun bool
}

// prepare checks a request and turns it into the message for the org actor.
// Nothing is created: every refusal comes before.
func (a *App) prepare(orgID string, in Generate) (prepared, error) {
	create, version, req, err := a.check(orgID, in)
	if err != nil {
		return prepared{}, err
	}
	return prepared{create: create, version: version, wait: req.Wait == nil || *req.Wait, dryRun: req.DryRun}, nil
}

// check is prepare's checks, in the order a refusal is given.
func (a *App) check(orgID string, in Generate) (actors.CreateDocument, *render.Checked, DocumentRequest, error) {
	var req DocumentRequest
	if err := jsonbody.Decode(in.Body, &req); err != nil {
		return actors.CreateDocument{}, nil, req, err
	}
	if strings.TrimSpace(req.TemplateID) == "" {
		return actors.CreateDocument{}, nil, req, fault.Invalid("templateId", "is required: a template's id or slug")
	}
	t, err := a.Template(orgID, req.TemplateID)
	if errors.Is(err, fault.ErrNotFound) {
		msg := fmt.Sprintf("no template %q in this organisation", req.TemplateID)
		if near := a.closestSlug(orgID, req.TemplateID); near != "" {
			msg += fmt.Sprintf("; did you mean %q?", near)
		}
		return actors.CreateDocument{}, nil, req, &fault.FieldError{Kind: fault.ErrNotFound, Field: "templateId", Msg: msg}
	}
	if err != nil {
		return actors.CreateDocument{}, nil, req, err
	}
	doc := storage.Document{TemplateID: t.ID, TemplateSlug: t.Slug, CorrelationID: req.CorrelationID, Engine: req.Engine, PDFA: req.PDFA, PDFUA: req.PDFUA}
	if doc.TemplateVersion, err = pickVersion(t, req.TemplateVersion); err != nil {
		return actors.CreateDocument{}, nil, req, err
	}
	if req.Engine != "" && req.Engine != render.EnginePhantom && req.Engine != render.EngineChromium {
		return actors.CreateDocument{}, nil, req, fault.Invalid("engine", "must be phantom or chromium")
	}
	switch req.PDFA {
	case "", "2b", "2u", "3b", "3u":
	default:
		return actors.CreateDocument{}, nil, req, fault.Invalid("pdfa", "must be 2b, 2u, 3b or 3u (PDF/A-2 or PDF/A-3, level b or u), or left out")
	}
	switch req.PDFUA {
	case "", "1":
	default:
		return actors.CreateDocument{}, nil, req, fault.Invalid("pdfua", "must be 1 (PDF/UA-1), or left out")
	}
	if req.PDFUA != "" && req.Engine == render.EngineChromium {
		return actors.CreateDocument{}, nil, req, fault.Invalid("pdfua", "PDF/UA is written by phantom, and the request names chromium: leave engine out or name phantom")
	}
	if req.PDFA != "" && req.Engine == render.EngineChromium {
		return actors.CreateDocument{}, nil, req, fault.Invalid("pdfa", "PDF/A is written by phantom, and the request names chromium: leave engine out or name phantom")
	}
	if len(req.CorrelationID) > maxCorrelationLen || strings.IndexFunc(req.CorrelationID, unicode.IsControl) >= 0 {
		return actors.CreateDocument{}, nil, req, fault.Invalid("correlationId", "must be text of at most %d bytes without control characters", maxCorrelationLen)
	}
	if doc.Filename, err = cleanFilename(req.Filename); err != nil {
		return actors.CreateDocument{}, nil, req, err
	}
	if doc.Metadata, err = checkMetadata(req.Metadata); err != nil {
		return actors.CreateDocument{}, nil, req, err
	}
	version, err := a.deps.Versions.Get(t.ID, doc.TemplateVersion)
	if errors.Is(err, storage.ErrNotFound) {
		return actors.CreateDocument{}, nil, req, fault.Invalid("templateVersion", "template %s has no version %d", t.Slug, doc.TemplateVersion)
	}
	if err != nil {
		return actors.CreateDocument{}, nil, req, err
	}
	data, raw, err := dataObject(req.Data)
	if err != nil {
		return actors.CreateDocument{}, nil, req, err
	}
	create := actors.CreateDocument{Document: doc, Data: raw}
	if version.PDF != nil {
		if _, err := version.PDF.Values(data); err != nil {
			return actors.CreateDocument{}, nil, req, err
		}
		create.EstimatePages = len(t.Source.Pages)
	} else if err := version.Manifest.DataSchema.Validate(data); err != nil {
		return actors.CreateDocument{}, nil, req, err
	} else if e := version.Manifest.EInvoice; e != nil {
		// An e-invoice's data is checked by EN 16931's rules before
		// anything is created: a wrong total is a 422, not a failed render.
		if _, err := e.Invoice(data); err != nil {
			return actors.CreateDocument{}, nil, req, err
		}
	}
	switch {
	case req.PDFA != "" && version.PDF != nil:
		return actors.CreateDocument{}, nil, req, fault.Invalid("pdfa", "a template made from an uploaded PDF is filled in that PDF, which is not made PDF/A; leave pdfa out")
	case req.PDFA != "":
		if err := a.checkPDFARequest(version, data, req.PDFA); err != nil {
			return actors.CreateDocument{}, nil, req, err
		}
	case req.PDFUA != "" && version.PDF != nil:
		return actors.CreateDocument{}, nil, req, fault.Invalid("pdfua", "a template made from an uploaded PDF is filled in that PDF, which is not made accessible; leave pdfua out")
	case req.PDFUA != "":
		if err := a.checkPDFUARequest(version, data, req.PDFA); err != nil {
			return actors.CreateDocument{}, nil, req, err
		}
	case version.PDF == nil && version.Manifest.PDFA != "" && req.Engine == render.EngineChromium:
		return actors.CreateDocument{}, nil, req, fault.Invalid("engine", "the template makes PDF/A-%s, which phantom writes: leave engine out or name phantom", version.Manifest.PDFA)
	}
	spec := req.Sign
	if spec == nil && version.PDF == nil {
		spec = version.Manifest.Sign
	}
	if create.Document.Sign, err = a.signRequest(orgID, spec, "sign"); err != nil {
		return actors.CreateDocument{}, nil, req, err
	}
	if p := version.Manifest.Pagination; p != nil {
		items, _ := data[p.Collection].([]any)
		create.EstimatePages = len(render.Paginate(items, p.ItemsPerPage, p.FirstPageItemCount))
	}
	if key := in.IdempotencyKey; key != "" {
		if len(key) > MaxIdempotencyKeyLen || strings.IndexFunc(key, unicode.IsControl) >= 0 {
			return actors.CreateDocument{}, nil, req, fault.Invalid("Idempotency-Key", "must be at most %d characters without control characters", MaxIdempotencyKeyLen)
		}
		create.IdempotencyKey, create.BodyHash = hashHex(key), canonicalHash(in.Body)
	}
	return create, version, req, nil
}

// start admits, records and starts a document, then answers at once or when
// it is finished. A retry with an Idempotency-Key already used answers for
// the document the first request made, by the same rules.
func (a *App) start(ctx context.Context, orgID string, create actors.CreateDocument, wait bool, watch func(storage.Document, bool)) (Generated, error) {
	sys := a.deps.Actors
	node, release, err := sys.AdmitDocument()
	if err != nil {
		return Generated{}, fault.Retry(err, 2)
	}
	create.Document.Node = node
	if wait && watch == nil && node == sys.NodeID() {
		return a.startRecorded(ctx, orgID, create, release)
	}
	cd, err := actors.Ask(sys, orgID, create)
	if err != nil {
		release()
		return Generated{}, err
	}
	out := Generated{Document: cd.Document, Replayed: cd.Replayed}
	if watch != nil {
		watch(out.Document, out.Replayed)
	}
	a.started(cd, node, release)
	if !wait {
		return out, nil
	}
	return a.wait(ctx, out)
}

// started starts a recorded document's render where admission chose, or
// not at all for a replay of a finished one.
func (a *App) started(cd actors.CreatedDocument, node string, release func()) {
	sys := a.deps.Actors
	switch {
	case cd.Replayed && cd.Document.Pending():
		// The first request's answer may have been lost before its render
		// started; starting an actor that runs already is a no-op.
		release()
		sys.StartOn(cd.Document.Node, cd.Document.ID, false)
	case cd.Replayed:
		release()
	default:
		sys.StartOn(node, cd.Document.ID, true)
	}
}

// wait waits for a recorded document up to the node's wait timeout.
func (a *App) wait(ctx context.Context, out Generated) (Generated, error) {
	out.Waited = true
	ctx, cancel := context.WithTimeout(ctx, a.deps.WaitTimeout)
	defer cancel()
	d, err := a.deps.Actors.WaitDocument(ctx, out.Document.ID)
	if err != nil {
		return Generated{}, err
	}
	if d.OrgID != "" { // else recorded through another node, not applied here yet
		out.Document = d
	}
	return out, nil
}

// startRecorded renders a document its caller waits for, here, before
// anything of it is written, and records it in one command once rendered
// (docs/design.md "One write per document"). A render that outlives the
// wait is recorded as created and started, and the caller answered with
// it as it stands, as start does.
func (a *App) startRecorded(ctx context.Context, orgID string, create actors.CreateDocument, release func()) (Generated, error) {
	sys := a.deps.Actors
	v, err := actors.Ask(sys, orgID, actors.ReserveDocument{CreateDocument: create})
	if err != nil {
		release()
		return Generated{}, err
	}
	if cd, ok := v.(actors.CreatedDocument); ok { // an Idempotency-Key's replay
		a.started(cd, sys.NodeID(), release)
		return a.wait(ctx, Generated{Document: cd.Document, Replayed: true})
	}
	r := sys.StartRecorded(v.(actors.Reservation))
	timer := time.NewTimer(a.deps.WaitTimeout)
	defer timer.Stop()
	select {
	case <-r.Done():
	case <-ctx.Done():
	case <-timer.C:
	}
	select {
	case <-r.Done():
	default:
		kept, err := sys.Keep(r)
		if err != nil {
			// Not kept: the render goes on, and is recorded in one
			// command as if the wait had not run out.
			slog.Warn("a document that outlived its wait could not be kept; waiting for its render", "err", err)
		}
		if kept {
			d, err := a.deps.Store.Document(v.(actors.Reservation).Create.Document.ID)
			return Generated{Document: d, Waited: true}, err
		}
		<-r.Done() // its outcome is being recorded: a moment
	}
	cd, err := r.Result()
	if err != nil {
		return Generated{}, err
	}
	return Generated{Document: cd.Document, Replayed: cd.Replayed, Waited: true}, nil
}

// RecordDownload records a download of a completed document and mints a link
// to its file that lives for ttl (links.MinTTL to links.MaxTTL).
func (a *App) RecordDownload(orgID, docID string, ttl time.Duration) (url string, expires time.Time, err error) {
	var d storage.Document
	err = a.fresh(func() (err error) {
		d, err = a.Document(orgID, docID)
		return err
	})
	if err != nil {
		return "", time.Time{}, err
	}
	if ttl < links.MinTTL || ttl > links.MaxTTL {
		return "", time.Time{}, fault.Invalid("ttlSeconds", "must be a whole number of seconds from %d to %d", int(links.MinTTL.Seconds()), int(links.MaxTTL.Seconds()))
	}
	if err := HasFile(d); err != nil {
		return "", time.Time{}, err
	}
	if _, err := actors.Ask(a.deps.Actors, orgID, actors.ChangeDocument{Kind: storage.KindRecordDownload, Change: storage.DocumentChange{DocumentID: d.ID}}); err != nil {
		return "", time.Time{}, err
	}
	expires = a.deps.Clock.Now().Add(ttl).Truncate(time.Second)
	return a.deps.Links.Mint(d.ID, d.Filename, expires), expires, nil
}

// ErrFileExpired is a document whose file was deleted at the end of its
// retention period; the record stays.
var ErrFileExpired = errors.New("the document's file was deleted at the end of its retention period")

// pickVersion is the pinned version, or the active one.
func pickVersion(t storage.Template, pinned int) (int, error) {
	if t.ArchivedAt != nil {
		return 0, fmt.Errorf("%w: template %s is archived; restore it to generate from it", fault.ErrConflict, t.Slug)
	}
	if pinned < 0 || pinned > t.LatestVersion {
		return 0, fault.Invalid("templateVersion", "template %s has versions 1 to %d", t.Slug, t.LatestVersion)
	}
	if pinned > 0 {
		return pinned, nil
	}
	if t.ActiveVersion == 0 {
		return 0, fmt.Errorf("%w: template %s has no active version; save one with activate true", fault.ErrConflict, t.Slug)
	}
	return t.ActiveVersion, nil
}

// dataObject reads data: an object, or nothing. It returns the data to check
// and the data to store, which keeps numbers as they were written: a long
// number would lose digits through a float64.
func dataObject(raw json.RawMessage) (map[string]any, json.RawMessage, error) {
	data := map[string]any{}
	if t := strings.TrimSpace(string(raw)); t == "" || t == "null" {
		return data, json.RawMessage("{}"), nil
	}
	if err := json.Unmarshal(raw, &data); err != nil {
		return nil, nil, fault.Invalid("data", "must be a JSON object")
	}
	exact := map[string]any{}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&exact); err != nil {
		return nil, nil, fault.Invalid("data", "must be a JSON object")
	}
	canon, err := json.Marshal(exact)
	return data, canon, err
}

func checkMetadata(raw json.RawMessage) (json.RawMessage, error) {
	t := strings.TrimSpace(string(raw))
	if t == "" || t == "null" {
		return nil, nil
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fault.Invalid("metadata", "must be a JSON object")
	}
	if len(raw) > maxMetadataBytes {
		return nil, fault.Invalid("metadata", "is %d bytes; the limit is %d", len(raw), maxMetadataBytes)
	}
	return raw, nil
}

// cleanFilename checks a download file name and ends it in .pdf.
func cleanFilename(name string) (string, error) {
	if name == "" {
		return "", nil
	}
	if len(name) > maxFilenameLen || strings.ContainsAny(name, `/\"`) || strings.IndexFunc(name, unicode.IsControl) >= 0 || strings.Trim(name, ". ") == "" {
		return "", fault.Invalid("filename", "must be a file name of at most %d bytes, without / \\ \" or control characters", maxFilenameLen)
	}
	if !strings.HasSuffix(strings.ToLower(name), ".pdf") {
		name += ".pdf"
	}
	return name, nil
}

// hashHex is the hex SHA-256 of s.
func hashHex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// canonicalHash hashes a JSON body so that spacing and key order do not
// matter: the same request sent twice hashes the same. A top-level dryRun
// is left out, so that a dry run and the real request it quotes, under one
// Idempotency-Key, are the same body.
func canonicalHash(body []byte) string {
	var v any
	if err := json.Unmarshal(body, &v); err == nil {
		if o, ok := v.(map[string]any); ok {
			// A dry run and the real request it quotes are the same body.
			delete(o, "dryRun")
		}
		if canon, err := json.Marshal(v); err == nil {
			body = canon
		}
	}
	return hashHex(string(body))
}

// checkPDFARequest refuses, before anything is created, a request for
// PDF/A that the document cannot have: PDF/A-2 for an e-invoice (which
// embeds its XML), or data that uses what phantom, which writes PDF/A,
// does not support.
func (a *App) checkPDFARequest(version *render.Checked, data map[string]any, level string) error {
	if version.Manifest.EInvoice != nil && strings.HasPrefix(level, "2") {
		return fault.Invalid("pdfa", "is %s, but the template makes an e-invoice, which embeds its XML; PDF/A-2 cannot: ask for 3b or 3u", level)
	}
	_, err := a.deps.Renderer.Choose(render.Request{Version: version, Data: data, PDFA: level, Now: a.deps.Clock.Now()})
	if errors.Is(err, render.ErrRender) {
		return fault.Invalid("pdfa", "%s", strings.TrimPrefix(err.Error(), render.ErrRender.Error()+": "))
	}
	return nil
}

// checkPDFUARequest refuses, before anything is created, a request for
// PDF/UA that the document cannot have: markup and data that cannot be
// made accessible, or that phantom, which writes PDF/UA, does not support.
func (a *App) checkPDFUARequest(version *render.Checked, data map[string]any, pdfa string) error {
	if err := a.deps.Renderer.CheckAccessibleVersion(version, data, "pdfua"); err != nil {
		return err
	}
	_, err := a.deps.Renderer.Choose(render.Request{Version: version, Data: data, PDFA: pdfa, PDFUA: "1", Now: a.deps.Clock.Now()})
	if errors.Is(err, render.ErrRender) {
		return fault.Invalid("pdfua", "%s", strings.TrimPrefix(err.Error(), render.ErrRender.Error()+": "))
	}
	return nil
}

// closestSlug is the organisation's template slug nearest to ref, for a
// "did you mean": within a third of its length in edits (at least one),
// among the first maxSuggestTemplates templates; "" when none is near.
func (a *App) closestSlug(orgID, ref string) string {
	ts, err := a.deps.Store.OrgTemplates(orgID, "", maxSuggestTemplates)
	if err != nil {
		return ""
	}
	best, bestD := "", max(1, len(ref)/3)+1
	for _, t := range ts {
		if d := editDistance(strings.ToLower(ref), t.Slug, bestD); d < bestD {
			best, bestD = t.Slug, d
		}
	}
	return best
}

// maxSuggestTemplates bounds the templates a "did you mean" reads.
const maxSuggestTemplates = 500

// editDistance is the Levenshtein distance of a and b, or limit when it is
// at least limit (the rows stop early then).
func editDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d >= limit || -d >= limit {
		return limit
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		low := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			low = min(low, cur[j])
		}
		if low >= limit {
			return limit
		}
		prev, cur = cur, prev
	}
	return min(prev[len(rb)], limit)
}
