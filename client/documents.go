package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"strconv"
	"time"
)

// DocumentsService is the documents routes (docs/api.md "Documents").
type DocumentsService struct{ c *Client }

// Create generates a document. It answers when the document has finished
// (completed or failed: check Status) or, with Wait false or past the
// node's wait, as it stands (queued or rendering). A refusal is an *Error:
// PAYLOAD_VALIDATION_FAILED naming the field, PAYMENT_REQUIRED, …
//
// The request always carries an Idempotency-Key, IdempotencyKey's or one
// made for it, so the client's own retries make one document.
func (s *DocumentsService) Create(ctx context.Context, req DocumentRequest, opts ...CallOption) (*Document, error) {
	req.DryRun = false
	cl := s.c.newCall(opCreateDocument)
	if err := cl.jsonBody(req); err != nil {
		return nil, err
	}
	var d Document
	if err := s.c.do(ctx, cl, &d, opts); err != nil {
		return nil, err
	}
	return &d, nil
}

// Quote is a dry run of req: the document is rendered as Create would
// render it, but nothing is stored, billed or recorded, and the answer is
// its page count and what it would cost now. It refuses exactly as Create
// would (schema, template, payment).
func (s *DocumentsService) Quote(ctx context.Context, req DocumentRequest, opts ...CallOption) (*Quote, error) {
	req.DryRun = true
	cl := s.c.newCall(opCreateDocument)
	if err := cl.jsonBody(req); err != nil {
		return nil, err
	}
	var q Quote
	if err := s.c.do(ctx, cl, &q, opts); err != nil {
		return nil, err
	}
	return &q, nil
}

// Get reads a document, with a fresh download link when it has a file.
func (s *DocumentsService) Get(ctx context.Context, id string, opts ...CallOption) (*Document, error) {
	var d Document
	if err := s.c.do(ctx, s.c.newCall(opGetDocument, id), &d, opts); err != nil {
		return nil, err
	}
	return &d, nil
}

// List lists documents, newest first, a page at a time.
func (s *DocumentsService) List(ctx context.Context, p ListDocumentsParams, opts ...CallOption) (*Page[Document], error) {
	cl := s.c.newCall(opListDocuments)
	setQuery(cl, "status", p.Status)
	setQuery(cl, "templateId", p.TemplateID)
	setQuery(cl, "correlationId", p.CorrelationID)
	setQuery(cl, "cursor", p.Cursor)
	setInt(cl, "limit", p.Limit)
	var page Page[Document]
	if err := s.c.do(ctx, cl, &page, opts); err != nil {
		return nil, err
	}
	return &page, nil
}

// All yields every document List would page through, newest first,
// stopping at the first error.
func (s *DocumentsService) All(ctx context.Context, p ListDocumentsParams, opts ...CallOption) iter.Seq2[Document, error] {
	return func(yield func(Document, error) bool) {
		for {
			page, err := s.List(ctx, p, opts...)
			if err != nil {
				yield(Document{}, err)
				return
			}
			for _, d := range page.Items {
				if !yield(d, nil) {
					return
				}
			}
			if page.NextCursor == "" {
				return
			}
			p.Cursor = page.NextCursor
		}
	}
}

// Stats counts the documents created on each of the last days (UTC; 0
// means the node's default of 30).
func (s *DocumentsService) Stats(ctx context.Context, days int, opts ...CallOption) (*Stats, error) {
	cl := s.c.newCall(opDocumentStats)
	setInt(cl, "days", days)
	var st Stats
	if err := s.c.do(ctx, cl, &st, opts); err != nil {
		return nil, err
	}
	return &st, nil
}

// LinkTTL asks DownloadLink or Download for a link valid for d (60 s to 7
// days; the node's default is an hour).
func LinkTTL(d time.Duration) CallOption {
	return func(c *call) { c.query.Set("ttlSeconds", strconv.Itoa(int(d/time.Second))) }
}

// EInvoiceXML returns the XML an e-invoice document's PDF embeds
// (factur-x.xml or xrechnung.xml); a document that is not an e-invoice is
// a 404.
func (s *DocumentsService) EInvoiceXML(ctx context.Context, id string, opts ...CallOption) ([]byte, error) {
	cl := s.c.newCall(opEInvoiceXML, id)
	cl.raw = true
	body, _, err := s.c.doRaw(ctx, cl, opts)
	return body, err
}

// Thumbnail returns the first page of a completed document as a PNG, 320
// pixels wide on white.
func (s *DocumentsService) Thumbnail(ctx context.Context, id string, opts ...CallOption) ([]byte, error) {
	cl := s.c.newCall(opThumbnail, id)
	cl.raw = true
	body, _, err := s.c.doRaw(ctx, cl, opts)
	return body, err
}

// Data returns the data a document was rendered from, as it was sent.
func (s *DocumentsService) Data(ctx context.Context, id string, opts ...CallOption) (json.RawMessage, error) {
	var d json.RawMessage
	if err := s.c.do(ctx, s.c.newCall(opDocumentData, id), &d, opts); err != nil {
		return nil, err
	}
	return d, nil
}

// DownloadLink mints a signed download link of a completed document and
// records the download. A link needs no key.
func (s *DocumentsService) DownloadLink(ctx context.Context, id string, opts ...CallOption) (*Link, error) {
	var l Link
	if err := s.c.do(ctx, s.c.newCall(opDownloadLink, id), &l, opts); err != nil {
		return nil, err
	}
	return &l, nil
}

// Download writes a completed document's PDF to w, through a link it
// mints, and returns the bytes written. A document whose file has expired
// is an *Error FILE_EXPIRED.
func (s *DocumentsService) Download(ctx context.Context, id string, w io.Writer, opts ...CallOption) (int64, error) {
	l, err := s.DownloadLink(ctx, id, opts...)
	if err != nil {
		return 0, err
	}
	return s.c.fetchLink(ctx, l.URL, w)
}

// fetchLink GETs a signed link (without the key: the link is its own
// authority) and copies the body to w, retrying as the API's GETs do
// until the first byte is written.
func (c *Client) fetchLink(ctx context.Context, link string, w io.Writer) (int64, error) {
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, link, nil)
		if err != nil {
			return 0, fmt.Errorf("platen: the download link: %w", err)
		}
		req.Header.Set("User-Agent", c.userAgent)
		resp, err := c.http.Do(req)
		var wait time.Duration
		if err == nil {
			if resp.StatusCode == http.StatusOK {
				n, err := io.Copy(w, resp.Body)
				resp.Body.Close()
				if err != nil {
					return n, fmt.Errorf("platen: downloading: %w", err)
				}
				return n, nil
			}
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
			e := errorFrom(resp, body)
			e.Attempts = attempt + 1
			err = e
			if !e.retryable(true) {
				return 0, e
			}
			wait = e.RetryAfter
		} else if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		if attempt >= c.maxRetries {
			var e *Error
			if errors.As(err, &e) {
				return 0, e
			}
			return 0, fmt.Errorf("platen: downloading: %w", err)
		}
		if err := c.sleep(ctx, max(wait, c.backoff.delay(attempt))); err != nil {
			return 0, err
		}
	}
}

// RegenerateRequest is the body of a regenerate.
type RegenerateRequest struct {
	// Wait false answers at once with the queued document.
	Wait *bool `json:"wait,omitempty"`
}

// Regenerate makes a new document from the same data and template version
// as document id, which is left as it is.
func (s *DocumentsService) Regenerate(ctx context.Context, id string, req RegenerateRequest, opts ...CallOption) (*Document, error) {
	cl := s.c.newCall(opRegenerate, id)
	if err := cl.jsonBody(req); err != nil {
		return nil, err
	}
	var d Document
	if err := s.c.do(ctx, cl, &d, opts); err != nil {
		return nil, err
	}
	return &d, nil
}

func setQuery(cl *call, name, v string) {
	if v != "" {
		cl.query.Set(name, v)
	}
}

func setInt(cl *call, name string, v int) {
	if v != 0 {
		cl.query.Set(name, strconv.Itoa(v))
	}
}
