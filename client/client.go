package client

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// LibraryVersion is this package's version, sent in its User-Agent.
const LibraryVersion = "0.1.0"

// Client calls one Platen node's /v1 API with one API key. It is safe for
// concurrent use.
type Client struct {
	// Documents generates, reads and downloads documents.
	Documents *DocumentsService
	// Templates manages templates, their versions and the starter library.
	Templates *TemplatesService
	// Webhooks manages webhook endpoints and reads their deliveries.
	Webhooks *WebhooksService
	// Wallet reads the plan, allowance, balance, ledger and usage.
	Wallet *WalletService
	// Keys lists, creates and revokes the organisation's API keys.
	Keys *KeysService
	// Signing stores, lists and deletes the certificates documents are
	// signed with.
	Signing *SigningService

	base       *url.URL
	key        string
	http       *http.Client
	userAgent  string
	maxRetries int
	backoff    backoff
	// frameHook is given to each Realtime as its onFrame (tests).
	frameHook func(t, ref string)
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient sends requests through hc instead of a client of the
// client's own (which has no overall timeout: pass a context with a
// deadline, or an http.Client with one).
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.http = hc } }

// WithMaxRetries sets how many times a request is sent again after a
// retryable failure (default 4; 0 sends each request once).
func WithMaxRetries(n int) Option {
	return func(c *Client) {
		if n >= 0 {
			c.maxRetries = n
		}
	}
}

// WithUserAgent puts product (e.g. "billing-service/2.3") before the
// client's own User-Agent.
func WithUserAgent(product string) Option {
	return func(c *Client) { c.userAgent = product + " " + c.userAgent }
}

// withFrameHook has Realtime connections call f with each frame's type
// and ref as they read it (tests cut connections on it).
func withFrameHook(f func(t, ref string)) Option { return func(c *Client) { c.frameHook = f } }

// withBackoff replaces the retry schedule (tests shorten it).
func withBackoff(b backoff) Option { return func(c *Client) { c.backoff = b } }

// defaultMaxRetries is four: with the default schedule the retries of a
// request span about 7.5 s plus what Retry-After asks, enough for a
// node's rate limit (refilled within a second) or a full queue to clear,
// short enough that a caller hears of an outage.
const defaultMaxRetries = 4

// New returns a client of the node at baseURL (e.g.
// "https://platen.example"; a path, if any, is kept as a prefix) calling
// with apiKey.
func New(baseURL, apiKey string, opts ...Option) *Client {
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil || u.Scheme == "" || u.Host == "" {
		// A bad base is reported by every call rather than by New, so New
		// keeps the shape the callers want.
		u = &url.URL{Scheme: "invalid", Opaque: baseURL}
	}
	c := &Client{
		base: u, key: apiKey, http: &http.Client{},
		userAgent:  "platen-go/" + LibraryVersion,
		maxRetries: defaultMaxRetries,
		backoff:    defaultBackoff,
	}
	for _, o := range opts {
		o(c)
	}
	c.Documents = &DocumentsService{c}
	c.Templates = &TemplatesService{c}
	c.Webhooks = &WebhooksService{c}
	c.Wallet = &WalletService{c}
	c.Keys = &KeysService{c}
	c.Signing = &SigningService{c}
	return c
}

// BaseURL is the node's address the client calls.
func (c *Client) BaseURL() string { return c.base.String() }

// CallOption adjusts one call.
type CallOption func(*call)

// IdempotencyKey sends key as the request's Idempotency-Key (up to 255
// characters): a retry with the same key and body answers for the first
// request's document instead of making another (docs/api.md "Idempotent
// retries"). Retries of the client's own keep it.
func IdempotencyKey(key string) CallOption {
	return func(c *call) { c.header.Set("Idempotency-Key", key) }
}

// RequestID sends id as X-Request-Id, to join Platen's logs to yours.
func RequestID(id string) CallOption {
	return func(c *call) { c.header.Set("X-Request-Id", id) }
}

// Header sets a request header of one call.
func Header(name, value string) CallOption {
	return func(c *call) { c.header.Set(name, value) }
}

// call is one operation about to be sent, with everything a retry repeats.
type call struct {
	op     operation
	path   string
	query  url.Values
	header http.Header
	body   []byte
	// raw is a call whose success is not JSON (a PDF, a PNG).
	raw bool
	// into receives the Response, when the caller asked (ResponseInto).
	into *Response
}

// Response is what an operation answered, besides its data.
type Response struct {
	Status    int
	Header    http.Header
	Message   string
	RequestID string
	// Replayed is true when an Idempotency-Key matched an earlier request
	// and the answer is that request's document (Idempotent-Replayed).
	Replayed bool
	// Attempts is how many times the request was sent.
	Attempts int
}

// ResponseInto stores the Response of the call in *r, for callers that
// want the status, the message or whether it was replayed.
func ResponseInto(r *Response) CallOption {
	return func(c *call) { c.into = r }
}

func (c *Client) newCall(op operation, params ...string) *call {
	return &call{op: op, path: op.expand(params...), query: url.Values{}, header: http.Header{}}
}

// jsonBody marshals v as the call's body.
func (cl *call) jsonBody(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("platen: encoding the request: %w", err)
	}
	cl.body = b
	cl.header.Set("Content-Type", "application/json")
	return nil
}

// formField is a field of a multipart body.
type formField struct{ name, value string }

// formBody makes the call's body multipart/form-data: fields, in order,
// then file, read whole, as the part "file" named filename. what names the
// file in an error reading it.
func (cl *call) formBody(fields []formField, filename string, file io.Reader, what string) error {
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for _, f := range fields {
		if err := w.WriteField(f.name, f.value); err != nil {
			return fmt.Errorf("platen: %w", err)
		}
	}
	part, err := w.CreateFormFile("file", filename)
	if err != nil {
		return fmt.Errorf("platen: %w", err)
	}
	if _, err := io.Copy(part, file); err != nil {
		return fmt.Errorf("platen: reading %s: %w", what, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("platen: %w", err)
	}
	cl.body = body.Bytes()
	cl.header.Set("Content-Type", w.FormDataContentType())
	return nil
}

// envelope is the success envelope of docs/api.md "Envelopes".
type envelope struct {
	Success bool            `json:"success"`
	Data    json.RawMessage `json:"data"`
	Message string          `json:"message"`
}

// do sends cl (retrying as the package doc says) and decodes the data of
// its envelope into out, when out is not nil.
func (c *Client) do(ctx context.Context, cl *call, out any, opts []CallOption) error {
	for _, o := range opts {
		o(cl)
	}
	res, body, err := c.send(ctx, cl)
	if err != nil {
		return err
	}
	if cl.into != nil {
		*cl.into = *res
	}
	if out == nil {
		return nil
	}
	var env envelope
	if err := json.Unmarshal(body, &env); err != nil {
		return fmt.Errorf("platen: %s %s answered %d with a body that is not JSON: %w", cl.op.Method, cl.path, res.Status, err)
	}
	if cl.into != nil {
		cl.into.Message = env.Message
	}
	if len(env.Data) == 0 {
		return fmt.Errorf("platen: %s %s answered without data", cl.op.Method, cl.path)
	}
	if err := decode(env.Data, out); err != nil {
		return fmt.Errorf("platen: %s %s: decoding the answer: %w", cl.op.Method, cl.path, err)
	}
	return nil
}

// doRaw sends cl and returns the body of a success as it is (PDFs, PNGs).
func (c *Client) doRaw(ctx context.Context, cl *call, opts []CallOption) ([]byte, *Response, error) {
	for _, o := range opts {
		o(cl)
	}
	res, body, err := c.send(ctx, cl)
	if err != nil {
		return nil, nil, err
	}
	if cl.into != nil {
		*cl.into = *res
	}
	return body, res, nil
}

// strictDecoding makes decode refuse fields the types do not have; the
// tests turn it on so that a field the API added or renamed fails them.
var strictDecoding = false

func decode(raw []byte, out any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if strictDecoding {
		dec.DisallowUnknownFields()
	}
	return dec.Decode(out)
}

// onSend, when set (by tests), sees each operation before it is sent.
var onSend func(op operation)

// send makes the request, retrying, and returns a success's body or an
// *Error.
func (c *Client) send(ctx context.Context, cl *call) (*Response, []byte, error) {
	if c.base.Scheme == "invalid" {
		return nil, nil, fmt.Errorf("platen: %q is not a base URL (want e.g. https://platen.example)", c.base.Opaque)
	}
	if cl.op.generates && cl.header.Get("Idempotency-Key") == "" {
		// A generate retried without a key could make a second document.
		cl.header.Set("Idempotency-Key", newIdempotencyKey())
	}
	if onSend != nil {
		onSend(cl.op)
	}
	u := *c.base
	u.Path = c.base.Path + cl.path
	u.RawQuery = cl.query.Encode()
	// Only POST /v1/documents honours an Idempotency-Key; other POSTs are
	// not repeated after a lost connection, key or not.
	safe := cl.op.idempotent() || cl.op.generates
	for attempt := 0; ; attempt++ {
		res, body, err := c.attempt(ctx, cl, u.String())
		if err == nil {
			res.Attempts = attempt + 1
			return res, body, nil
		}
		var wait time.Duration
		var apiErr *Error
		switch {
		case ctx.Err() != nil:
			return nil, nil, ctx.Err()
		case errors.As(err, &apiErr):
			apiErr.Attempts = attempt + 1
			if !apiErr.retryable(safe) {
				return nil, nil, apiErr
			}
			wait = apiErr.RetryAfter
		default:
			if !safe {
				return nil, nil, err
			}
		}
		if attempt >= c.maxRetries {
			return nil, nil, err
		}
		if err := c.sleep(ctx, max(wait, c.backoff.delay(attempt))); err != nil {
			return nil, nil, err
		}
	}
}

// sleep waits d, or until ctx ends.
func (c *Client) sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// attempt sends the request once.
func (c *Client) attempt(ctx context.Context, cl *call, u string) (*Response, []byte, error) {
	var rd io.Reader
	if cl.body != nil {
		rd = bytes.NewReader(cl.body)
	}
	req, err := http.NewRequestWithContext(ctx, cl.op.Method, u, rd)
	if err != nil {
		return nil, nil, fmt.Errorf("platen: %w", err)
	}
	for k, v := range cl.header {
		req.Header[k] = v
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	req.Header.Set("User-Agent", c.userAgent)
	if req.Header.Get("Accept") == "" && !cl.raw {
		req.Header.Set("Accept", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("platen: %s %s: %w", cl.op.Method, cl.path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, nil, fmt.Errorf("platen: %s %s: reading the answer: %w", cl.op.Method, cl.path, err)
	}
	res := &Response{
		Status: resp.StatusCode, Header: resp.Header,
		RequestID: resp.Header.Get("X-Request-Id"),
		Replayed:  resp.Header.Get("Idempotent-Replayed") == "true",
	}
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return res, body, nil
	}
	return nil, nil, errorFrom(resp, body)
}

// newIdempotencyKey is a random key for a generate the caller gave none.
func newIdempotencyKey() string {
	var b [16]byte
	crand.Read(b[:])
	return "platen-go-" + hex.EncodeToString(b[:])
}

// backoff is the retry schedule: before retry n (from 0) it waits about
// base·2ⁿ, at most max, a random half of it taken off so that clients
// refused together do not come back together.
type backoff struct {
	base, max time.Duration
}

// defaultBackoff waits about 0.5, 1, 2 and 4 s before the four default
// retries: a rate limit refills within a second, a full queue drains in
// seconds.
var defaultBackoff = backoff{base: 500 * time.Millisecond, max: 30 * time.Second}

func (b backoff) delay(n int) time.Duration {
	d := b.base
	for i := 0; i < n && d < b.max; i++ {
		d *= 2
	}
	d = min(d, b.max)
	if d <= 0 {
		return 0
	}
	return d/2 + rand.N(d/2+1)
}

// Bool returns a pointer to b, for optional fields such as Wait.
func Bool(b bool) *bool { return &b }

// String returns a pointer to s, for optional fields of updates.
func String(s string) *string { return &s }
