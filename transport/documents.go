package transport

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/platen/platen/actors"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/internal/ids"
	"github.com/platen/platen/links"
	"github.com/platen/platen/render"
	"github.com/platen/platen/storage"
)

// errFileExpired is a document whose file is past its retention.
var errFileExpired = errors.New("the document's file was deleted at the end of its retention period")

// documentView is the document record of the spec.
type documentView struct {
	ID                   string     `json:"id"`
	Status               string     `json:"status"`
	TemplateID           string     `json:"templateId"`
	TemplateSlug         string     `json:"templateSlug"`
	TemplateVersion      int        `json:"templateVersion"`
	CorrelationID        string     `json:"correlationId"`
	PageCount            int        `json:"pageCount"`
	ByteSize             int64      `json:"byteSize"`
	Filename             string     `json:"filename"`
	DownloadURL          string     `json:"downloadUrl,omitempty"`
	DownloadURLExpiresAt *time.Time `json:"downloadUrlExpiresAt,omitempty"`
	DurationMs           int64      `json:"durationMs"`
	// Report says how the fields of a template made from a PDF were set.
	Report    json.RawMessage `json:"report,omitempty"`
	ErrorCode string          `json:"errorCode,omitempty"`
	Message   string          `json:"message,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
	// Engine is the engine that rendered the document, or the one asked for
	// while it is pending.
	Engine          string     `json:"engine,omitempty"`
	Watermarked     bool       `json:"watermarked"`
	RegeneratedFrom string     `json:"regeneratedFrom,omitempty"`
	Downloads       int        `json:"downloads"`
	CreatedAt       time.Time  `json:"createdAt"`
	CompletedAt     *time.Time `json:"completedAt,omitempty"`
	FileExpiresAt   *time.Time `json:"fileExpiresAt,omitempty"`
	FileExpired     bool       `json:"fileExpired,omitempty"`
}

// viewDocument shows a record with a fresh download link when it has a file.
func (s *Server) viewDocument(d storage.Document) documentView {
	v := documentView{ID: d.ID, Status: d.Status, TemplateID: d.TemplateID, TemplateSlug: d.TemplateSlug, TemplateVersion: d.TemplateVersion,
		CorrelationID: d.CorrelationID, PageCount: d.PageCount, ByteSize: d.ByteSize, Filename: d.Filename, DurationMs: d.DurationMs, Report: d.Report,
		ErrorCode: d.ErrorCode, Message: d.Message, Metadata: d.Metadata, Engine: d.RenderedWith, Watermarked: d.Watermarked,
		RegeneratedFrom: d.RegeneratedFrom, Downloads: d.Downloads, CreatedAt: d.CreatedAt, CompletedAt: d.CompletedAt,
		FileExpiresAt: d.ExpiresAt, FileExpired: d.FileExpired}
	if v.Engine == "" {
		v.Engine = d.Engine
	}
	if d.Status == storage.StatusCompleted && !d.FileExpired {
		exp := s.deps.Clock.Now().Add(links.DefaultTTL).Truncate(time.Second)
		v.DownloadURL, v.DownloadURLExpiresAt = s.deps.Links.Mint(d.ID, d.Filename, exp), &exp
	}
	if d.FileExpired {
		v.Message = "The file was deleted at the end of its retention period; regenerate the document to make it again."
	}
	return v
}

// documentRequest is the body of POST /v1/documents.
type documentRequest struct {
	TemplateID      string          `json:"templateId"`
	Data            json.RawMessage `json:"data"`
	CorrelationID   string          `json:"correlationId"`
	Metadata        json.RawMessage `json:"metadata"`
	Engine          string          `json:"engine"`
	Filename        string          `json:"filename"`
	TemplateVersion int             `json:"templateVersion"`
	Wait            *bool           `json:"wait"`
}

const (
	maxCorrelationLen = 200
	maxFilenameLen    = 200
	maxMetadataBytes  = 16 << 10
)

func (s *Server) createDocument(r *request) error {
	create, wait, err := s.prepareDocument(r.org.ID, r.PostBody(), string(r.Request.Header.Peek("Idempotency-Key")))
	if err != nil {
		return err
	}
	return s.generate(r, create, wait)
}

// prepareDocument checks a POST /v1/documents body (also the body of a
// realtime generate frame) and turns it into the message for the org actor.
// Nothing is created: every refusal comes before.
func (s *Server) prepareDocument(orgID string, body []byte, idemKey string) (actors.CreateDocument, bool, error) {
	var in documentRequest
	if err := decodeStrict(body, &in); err != nil {
		return actors.CreateDocument{}, false, err
	}
	if strings.TrimSpace(in.TemplateID) == "" {
		return actors.CreateDocument{}, false, fault.Invalid("templateId", "is required: a template's id or slug")
	}
	t, err := s.templateRef(orgID, in.TemplateID)
	if err != nil {
		return actors.CreateDocument{}, false, err
	}
	doc := storage.Document{TemplateID: t.ID, TemplateSlug: t.Slug, CorrelationID: in.CorrelationID, Engine: in.Engine}
	if doc.TemplateVersion, err = pickVersion(t, in.TemplateVersion); err != nil {
		return actors.CreateDocument{}, false, err
	}
	if in.Engine != "" && in.Engine != render.EnginePhantom && in.Engine != render.EngineChromium {
		return actors.CreateDocument{}, false, fault.Invalid("engine", "must be phantom or chromium")
	}
	if len(in.CorrelationID) > maxCorrelationLen || strings.IndexFunc(in.CorrelationID, unicode.IsControl) >= 0 {
		return actors.CreateDocument{}, false, fault.Invalid("correlationId", "must be text of at most %d bytes without control characters", maxCorrelationLen)
	}
	if doc.Filename, err = cleanFilename(in.Filename); err != nil {
		return actors.CreateDocument{}, false, err
	}
	if doc.Metadata, err = checkMetadata(in.Metadata); err != nil {
		return actors.CreateDocument{}, false, err
	}
	version, err := s.deps.Versions.Get(t.ID, doc.TemplateVersion)
	if errors.Is(err, storage.ErrNotFound) {
		return actors.CreateDocument{}, false, fault.Invalid("templateVersion", "template %s has no version %d", t.Slug, doc.TemplateVersion)
	}
	if err != nil {
		return actors.CreateDocument{}, false, err
	}
	data, raw, err := dataObject(in.Data)
	if err != nil {
		return actors.CreateDocument{}, false, err
	}
	create := actors.CreateDocument{Document: doc, Data: raw}
	if version.Form != nil {
		if _, err := version.Form.Values(data); err != nil {
			return actors.CreateDocument{}, false, err
		}
		create.EstimatePages = len(t.Source.Pages)
	} else if err := version.Manifest.DataSchema.Validate(data); err != nil {
		return actors.CreateDocument{}, false, err
	}
	if p := version.Manifest.Pagination; p != nil {
		items, _ := data[p.Collection].([]any)
		create.EstimatePages = len(render.Paginate(items, p.ItemsPerPage, p.FirstPageItemCount))
	}
	if idemKey != "" {
		if len(idemKey) > 255 || strings.IndexFunc(idemKey, unicode.IsControl) >= 0 {
			return actors.CreateDocument{}, false, fault.Invalid("Idempotency-Key", "must be at most 255 characters without control characters")
		}
		create.IdempotencyKey, create.BodyHash = hashHex(idemKey), canonicalHash(body)
	}
	return create, in.Wait == nil || *in.Wait, nil
}

// hashHex is the hex SHA-256 of s.
func hashHex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// canonicalHash hashes a JSON body so that spacing and key order do not
// matter: the same request sent twice hashes the same.
func canonicalHash(body []byte) string {
	var v any
	if err := json.Unmarshal(body, &v); err == nil {
		if canon, err := json.Marshal(v); err == nil {
			body = canon
		}
	}
	return hashHex(string(body))
}

// generate admits, records and starts a document, then answers at once or
// when it is finished (DESIGN.md "time a request waits"). A retry with an
// Idempotency-Key already used answers for the document the first request
// made, by the same rules.
func (s *Server) generate(r *request, create actors.CreateDocument, wait bool) error {
	node, release, err := s.deps.Actors.AdmitDocument()
	if err != nil {
		return &retryAfter{err: err, seconds: 2}
	}
	create.Document.Node = node
	res, err := r.askOrg(r.org.ID, create)
	if err != nil {
		release()
		return err
	}
	cd := res.(actors.CreatedDocument)
	created := cd.Document
	switch {
	case cd.Replayed && created.Pending():
		// The first request's answer may have been lost before its render
		// started; starting an actor that runs already is a no-op.
		release()
		r.Response.Header.Set("Idempotent-Replayed", "true")
		s.deps.Actors.StartOn(created.Node, created.ID, false)
	case cd.Replayed:
		release()
		r.Response.Header.Set("Idempotent-Replayed", "true")
	default:
		s.deps.Actors.StartOn(node, created.ID, true)
	}
	if !wait {
		return r.ok(http.StatusAccepted, s.viewDocument(created), "queued")
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.deps.WaitTimeout)
	defer cancel()
	d, err := s.deps.Actors.WaitDocument(ctx, created.ID)
	if err != nil {
		return err
	}
	if d.OrgID == "" {
		d = created // recorded through another node, not applied here yet
	}
	switch d.Status {
	case storage.StatusCompleted:
		return r.ok(http.StatusCreated, s.viewDocument(d), fmt.Sprintf("rendered %d %s", d.PageCount, plural(d.PageCount, "page", "pages")))
	case storage.StatusFailed:
		return r.ok(http.StatusCreated, s.viewDocument(d), d.Message)
	}
	return r.ok(http.StatusAccepted, s.viewDocument(d), "still rendering; fetch the document or wait for its webhook")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// templateRef resolves a template id or slug within an organisation.
func (s *Server) templateRef(orgID, ref string) (storage.Template, error) {
	var t storage.Template
	var err error
	if ids.HasKind(ref, ids.Template) {
		t, err = s.deps.Store.Template(ref)
	} else {
		t, err = s.deps.Store.TemplateBySlug(orgID, ref)
	}
	if errors.Is(err, storage.ErrNotFound) || (err == nil && t.OrgID != orgID) {
		return storage.Template{}, fmt.Errorf("%w: template %q", fault.ErrNotFound, ref)
	}
	return t, err
}

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

// dataObject reads data: an object, or nothing.
func dataObject(raw json.RawMessage) (map[string]any, json.RawMessage, error) {
	data := map[string]any{}
	if t := strings.TrimSpace(string(raw)); t == "" || t == "null" {
		return data, json.RawMessage("{}"), nil
	}
	if err := json.Unmarshal(raw, &data); err != nil {
		return nil, nil, fault.Invalid("data", "must be a JSON object")
	}
	// What is stored keeps numbers as they were written: a long number
	// would lose digits through a float64.
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

// readDocument reads a document from this node's store. In a cluster, a
// document this node has as pending is read again once the node has applied
// everything the leader had committed: a caller told on another node that it
// is finished sees it so. (A document not found at all is retried the same
// way for every route, in serve.)
func (s *Server) readDocument(id string) (storage.Document, error) {
	d, err := s.deps.Store.Document(id)
	if s.deps.CatchUp != nil && err == nil && d.Pending() {
		if s.deps.CatchUp() == nil {
			d, err = s.deps.Store.Document(id)
		}
	}
	return d, err
}

// document resolves :id within the caller's organisation.
func (s *Server) document(r *request) (storage.Document, error) {
	id := r.param("id")
	d, err := s.readDocument(id)
	if errors.Is(err, storage.ErrNotFound) || (err == nil && d.OrgID != r.org.ID) || !ids.HasKind(id, ids.Document) {
		return storage.Document{}, fmt.Errorf("%w: document %q", fault.ErrNotFound, id)
	}
	return d, err
}

func (s *Server) getDocument(r *request) error {
	d, err := s.document(r)
	if err != nil {
		return err
	}
	return r.ok(http.StatusOK, s.viewDocument(d), "")
}

// downloadLink mints a link with the asked lifetime and records the download.
func (s *Server) downloadLink(r *request) error {
	d, err := s.document(r)
	if err != nil {
		return err
	}
	ttl := links.DefaultTTL
	if raw := string(r.QueryArgs().Peek("ttlSeconds")); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || time.Duration(n)*time.Second < links.MinTTL || time.Duration(n)*time.Second > links.MaxTTL {
			return fault.Invalid("ttlSeconds", "must be a whole number of seconds from %d to %d", int(links.MinTTL.Seconds()), int(links.MaxTTL.Seconds()))
		}
		ttl = time.Duration(n) * time.Second
	}
	switch {
	case d.FileExpired:
		return errFileExpired
	case d.Status != storage.StatusCompleted:
		return fmt.Errorf("%w: document %s is %s; there is no file yet", fault.ErrConflict, d.ID, d.Status)
	}
	if _, err := r.askOrg(r.org.ID, actors.ChangeDocument{Kind: storage.KindRecordDownload, Change: storage.DocumentChange{DocumentID: d.ID}}); err != nil {
		return err
	}
	exp := s.deps.Clock.Now().Add(ttl).Truncate(time.Second)
	return r.ok(http.StatusOK, map[string]any{"url": s.deps.Links.Mint(d.ID, d.Filename, exp), "expiresAt": exp}, "")
}

var documentStatuses = []string{storage.StatusQueued, storage.StatusRendering, storage.StatusCompleted, storage.StatusFailed}

func (s *Server) listDocuments(r *request) error {
	limit, err := listLimit(r)
	if err != nil {
		return err
	}
	q := r.QueryArgs()
	f := storage.DocumentFilter{Status: string(q.Peek("status")), CorrelationID: string(q.Peek("correlationId"))}
	if f.Status != "" && !slices.Contains(documentStatuses, f.Status) {
		return fault.Invalid("status", "must be one of %s", strings.Join(documentStatuses, ", "))
	}
	if ref := string(q.Peek("templateId")); ref != "" {
		t, err := s.templateRef(r.org.ID, ref)
		if err != nil {
			return fault.Invalid("templateId", "no template %q", ref)
		}
		f.TemplateID = t.ID
	}
	cursor, err := listCursor(r, ids.Document)
	if err != nil {
		return err
	}
	docs, err := s.deps.Store.Documents(r.org.ID, f, cursor, limit+1)
	if err != nil {
		return err
	}
	var next *string
	if len(docs) > limit {
		docs = docs[:limit]
		next = &docs[limit-1].ID
	}
	items := make([]documentView, len(docs))
	for i, d := range docs {
		items[i] = s.viewDocument(d)
	}
	return r.ok(http.StatusOK, map[string]any{"items": items, "nextCursor": next}, fmt.Sprintf("%d documents", len(items)))
}

// regenerate makes a new document from the same data and the same template
// version as the original, which is left as it is.
func (s *Server) regenerate(r *request) error {
	orig, err := s.document(r)
	if err != nil {
		return err
	}
	var in struct {
		Wait *bool `json:"wait"`
	}
	if err := r.decode(&in); err != nil {
		return err
	}
	data, err := s.deps.Store.DocumentData(orig.ID)
	if err != nil {
		return err
	}
	doc := storage.Document{TemplateID: orig.TemplateID, TemplateSlug: orig.TemplateSlug, TemplateVersion: orig.TemplateVersion,
		CorrelationID: orig.CorrelationID, Metadata: orig.Metadata, Engine: orig.Engine, Filename: orig.Filename, RegeneratedFrom: orig.ID}
	return s.generate(r, actors.CreateDocument{Document: doc, Data: data}, in.Wait == nil || *in.Wait)
}

// serveFile answers a signed download link with the PDF. It needs no key:
// the signature is the authority.
func (s *Server) serveFile(r *request) error {
	q := r.QueryArgs()
	id := r.param("id")
	if err := s.deps.Links.Check(id, string(q.Peek("expires")), string(q.Peek("signature")), s.deps.Clock.Now()); err != nil {
		return err
	}
	d, err := s.readDocument(id)
	if err != nil {
		return fmt.Errorf("%w: document %s", fault.ErrNotFound, id)
	}
	if d.FileExpired {
		return errFileExpired
	}
	if d.Status != storage.StatusCompleted {
		return fmt.Errorf("%w: document %s has no file", fault.ErrNotFound, id)
	}
	// Rendered elsewhere: a copy is fetched from a node that holds it.
	f, err := s.deps.Actors.OpenBlob(d.BlobHash, d.BlobHolders)
	if err != nil {
		return err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	r.SetStatusCode(http.StatusOK)
	r.SetContentType("application/pdf")
	r.Response.Header.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": d.Filename}))
	r.Response.Header.Set("Cache-Control", "private, no-store")
	r.Response.Header.Set("X-Content-Type-Options", "nosniff")
	r.SetBodyStream(f, int(info.Size()))
	return nil
}
