package transport

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/platen/platen/app"
	"github.com/platen/platen/billing"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/internal/ids"
	"github.com/platen/platen/links"
	"github.com/platen/platen/pdf"
	"github.com/platen/platen/render"
	"github.com/platen/platen/storage"
)

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
	Engine string `json:"engine,omitempty"`
	// EngineReason says why that engine rendered it.
	EngineReason string `json:"engineReason,omitempty"`
	// PDFA is the PDF/A level the request asked for.
	PDFA string `json:"pdfa,omitempty"`
	// PDFUA is "1" when the request asked for PDF/UA-1.
	PDFUA string `json:"pdfua,omitempty"`
	// Sign is the signature asked for; Signature the one made, once the
	// document is completed (docs/signatures.md).
	Sign            *storage.SignRequest `json:"sign,omitempty"`
	Signature       *storage.Signature   `json:"signature,omitempty"`
	Watermarked     bool                 `json:"watermarked"`
	RegeneratedFrom string               `json:"regeneratedFrom,omitempty"`
	Downloads       int                  `json:"downloads"`
	// Charge is what a completed document cost: pages from the monthly
	// allowance, pages paid from the wallet, and their price in micros.
	Charge        *billing.Split `json:"charge,omitempty"`
	CreatedAt     time.Time      `json:"createdAt"`
	CompletedAt   *time.Time     `json:"completedAt,omitempty"`
	FileExpiresAt *time.Time     `json:"fileExpiresAt,omitempty"`
	FileExpired   bool           `json:"fileExpired,omitempty"`
}

// quoteView is the answer of a dry run (docs/api.md "Dry run").
type quoteView struct {
	PageCount      int           `json:"pageCount"`
	AllowancePages int64         `json:"allowancePages"`
	WalletMicros   int64         `json:"walletMicros"`
	Payable        bool          `json:"payable"`
	Report         render.Report `json:"report"`
}

func viewQuote(q app.Quote) quoteView {
	return quoteView{PageCount: q.PageCount, AllowancePages: q.AllowancePages, WalletMicros: q.WalletMicros, Payable: q.Payable, Report: q.Report}
}

// viewDocument shows a record with a fresh download link when it has a file.
func (s *Server) viewDocument(d storage.Document) documentView {
	v := documentView{ID: d.ID, Status: d.Status, TemplateID: d.TemplateID, TemplateSlug: d.TemplateSlug, TemplateVersion: d.TemplateVersion,
		CorrelationID: d.CorrelationID, PageCount: d.PageCount, ByteSize: d.ByteSize, Filename: d.Filename, DurationMs: d.DurationMs, Report: d.Report,
		ErrorCode: d.ErrorCode, Message: d.Message, Metadata: d.Metadata, Engine: d.RenderedWith, EngineReason: d.EngineReason, PDFA: d.PDFA, PDFUA: d.PDFUA, Watermarked: d.Watermarked,
		Sign: d.Sign, Signature: d.Signature, RegeneratedFrom: d.RegeneratedFrom, Downloads: d.Downloads, CreatedAt: d.CreatedAt, CompletedAt: d.CompletedAt,
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
	if d.Status == storage.StatusCompleted {
		c := d.Charge.Split
		v.Charge = &c
	}
	return v
}

// documentThumbnail answers the first page of a completed document's PDF
// as a PNG (app.ThumbnailWidth wide), what the dashboard's list shows. The
// PDF never changes, so the picture may be kept by the browser.
func (s *Server) documentThumbnail(r *request) error {
	d, err := s.document(r)
	if err != nil {
		return err
	}
	// The PDF's hash names the picture: a browser's copy is answered 304
	// before anything is drawn.
	etag := `"` + d.BlobHash[:min(len(d.BlobHash), 32)] + `"`
	h := &r.Response.Header
	if app.HasFile(d) == nil && string(r.Request.Header.Peek("If-None-Match")) == etag {
		h.Set("ETag", etag)
		h.Set("Cache-Control", "private, max-age=86400")
		r.SetStatusCode(http.StatusNotModified)
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), thumbnailBudget)
	defer cancel()
	png, err := s.app.DocumentThumbnail(ctx, d)
	if err != nil {
		return err
	}
	h.Set("Cache-Control", "private, max-age=86400")
	h.Set("ETag", etag)
	h.Set("X-Content-Type-Options", "nosniff")
	r.SetStatusCode(http.StatusOK)
	r.SetContentType("image/png")
	r.SetBody(png)
	return nil
}

// thumbnailBudget bounds the drawing of one document's thumbnail.
const thumbnailBudget = 10 * time.Second

// documentData answers the data a document was rendered from, as sent.
func (s *Server) documentData(r *request) error {
	data, err := s.app.DocumentData(r.org.ID, r.param("id"))
	if err != nil {
		return err
	}
	return r.ok(http.StatusOK, data, "")
}

func (s *Server) createDocument(r *request) error {
	r.asked = true
	g, err := s.app.Generate(context.Background(), r.org.ID, app.Generate{Body: r.PostBody(), IdempotencyKey: string(r.Request.Header.Peek("Idempotency-Key"))})
	if err != nil {
		return err
	}
	return s.answerGenerated(r, g)
}

// answerGenerated answers a generate or regenerate (docs/design.md
// "Waiting"): 202 with a queued or still-rendering record, 201 with a
// finished one.
func (s *Server) answerGenerated(r *request, g app.Generated) error {
	if g.Quote != nil {
		q := viewQuote(*g.Quote)
		return r.ok(http.StatusOK, q, fmt.Sprintf("a dry run: %d %s; nothing was stored or billed", q.PageCount, plural(q.PageCount, "page", "pages")))
	}
	if g.Replayed {
		r.Response.Header.Set("Idempotent-Replayed", "true")
	}
	d := g.Document
	if !g.Waited {
		return r.ok(http.StatusAccepted, s.viewDocument(d), "queued")
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

// document resolves :id within the caller's organisation.
func (s *Server) document(r *request) (storage.Document, error) {
	return s.app.Document(r.org.ID, r.param("id"))
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
	ttl := links.DefaultTTL
	if raw := string(r.QueryArgs().Peek("ttlSeconds")); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil {
			return fault.Invalid("ttlSeconds", "must be a whole number of seconds from %d to %d", int(links.MinTTL.Seconds()), int(links.MaxTTL.Seconds()))
		}
		ttl = time.Duration(n) * time.Second
	}
	r.asked = true
	url, exp, err := s.app.RecordDownload(r.org.ID, r.param("id"), ttl)
	if err != nil {
		return err
	}
	return r.ok(http.StatusOK, map[string]any{"url": url, "expiresAt": exp}, "")
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
		t, err := s.app.Template(r.org.ID, ref)
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

// documentStats answers GET /v1/documents/stats: documents a day over the
// last days (app.DocumentStats), for the dashboard's chart.
func (s *Server) documentStats(r *request) error {
	days, err := queryInt(r, "days", 30)
	if err != nil {
		return err
	}
	st, err := s.app.DocumentStats(r.org.ID, days, s.deps.Clock.Now())
	if err != nil {
		return err
	}
	return r.ok(http.StatusOK, st, "")
}

// regenerate makes a new document from the same data and the same template
// version as the original, which is left as it is.
func (s *Server) regenerate(r *request) error {
	var in struct {
		Wait *bool `json:"wait"`
	}
	if err := r.decode(&in); err != nil {
		return err
	}
	r.asked = true
	g, err := s.app.Regenerate(context.Background(), r.org.ID, r.param("id"), in.Wait == nil || *in.Wait)
	if err != nil {
		return err
	}
	return s.answerGenerated(r, g)
}

// eInvoiceXML answers with the XML an e-invoice document's PDF embeds
// (factur-x.xml or xrechnung.xml), taken from the stored file, for the
// console's download and for systems that book the XML.
func (s *Server) eInvoiceXML(r *request) error {
	d, err := s.document(r)
	if err != nil {
		return err
	}
	switch {
	case d.FileExpired:
		return app.ErrFileExpired
	case d.Pending():
		return fmt.Errorf("%w: document %s is %s; there is no file yet", fault.ErrConflict, d.ID, d.Status)
	}
	var rep struct {
		Conformance *struct {
			EInvoice *struct {
				File string `json:"file"`
			} `json:"einvoice"`
		} `json:"conformance"`
	}
	if err := json.Unmarshal(d.Report, &rep); err != nil || rep.Conformance == nil || rep.Conformance.EInvoice == nil || d.Status != storage.StatusCompleted {
		return fmt.Errorf("%w: document %s is not an e-invoice with a file", fault.ErrNotFound, d.ID)
	}
	f, err := s.deps.Actors.OpenBlob(d.BlobHash, d.BlobHolders)
	if err != nil {
		return err
	}
	defer f.Close()
	file, err := io.ReadAll(io.LimitReader(f, maxEInvoicePDF+1))
	if err != nil {
		return err
	}
	if len(file) > maxEInvoicePDF {
		return fmt.Errorf("%w: document %s's PDF is over %d MB; download it and take %s from it", fault.ErrTooLarge, d.ID, maxEInvoicePDF>>20, rep.Conformance.EInvoice.File)
	}
	name := rep.Conformance.EInvoice.File
	x, err := pdf.EmbeddedFile(file, name)
	if err != nil || x == nil {
		return fmt.Errorf("%w: document %s's file does not embed %s", fault.ErrNotFound, d.ID, name)
	}
	r.SetStatusCode(http.StatusOK)
	r.SetContentType("application/xml; charset=utf-8")
	base := strings.TrimSuffix(d.Filename, ".pdf")
	r.Response.Header.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": base + "-" + name}))
	r.Response.Header.Set("Cache-Control", "private, no-store")
	r.Response.Header.Set("X-Content-Type-Options", "nosniff")
	r.SetBody(x)
	return nil
}

// maxEInvoicePDF bounds what eInvoiceXML reads of a stored PDF into
// memory: an invoice is a few pages.
const maxEInvoicePDF = 64 << 20

// serveFile answers a signed download link with the PDF. It needs no key:
// the signature is the authority.
func (s *Server) serveFile(r *request) error {
	q := r.QueryArgs()
	id := r.param("id")
	if err := s.deps.Links.Check(id, string(q.Peek("expires")), string(q.Peek("signature")), s.deps.Clock.Now()); err != nil {
		return err
	}
	d, err := s.app.ReadDocument(id)
	if err != nil {
		return fmt.Errorf("%w: document %s", fault.ErrNotFound, id)
	}
	if d.FileExpired {
		return app.ErrFileExpired
	}
	if d.Status != storage.StatusCompleted {
		return fmt.Errorf("%w: document %s has no file", fault.ErrNotFound, id)
	}
	// Rendered elsewhere: a copy is fetched from a node that holds it.
	f, err := s.deps.Actors.OpenBlob(d.BlobHash, d.BlobHolders)
	if err != nil {
		return err
	}
	r.SetStatusCode(http.StatusOK)
	r.SetContentType("application/pdf")
	r.Response.Header.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": d.Filename}))
	r.Response.Header.Set("Cache-Control", "private, no-store")
	r.Response.Header.Set("X-Content-Type-Options", "nosniff")
	r.SetBodyStream(f, int(f.Size()))
	return nil
}
