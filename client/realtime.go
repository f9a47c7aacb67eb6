package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/fasthttp/websocket"
)

// Realtime is a connection to the realtime namespace (docs/realtime.md):
// it generates documents without polling and streams the change feed. It
// reconnects by itself when the connection drops, resuming the
// subscription from the last cursor it delivered and resending every
// generate still waiting with its idempotencyKey. Its methods are safe for
// concurrent use.
type Realtime struct {
	c   *Client
	url string

	// wmu serialises writes to the socket; the library allows one writer.
	wmu sync.Mutex

	mu      sync.Mutex // guards the fields below
	ws      *websocket.Conn
	pending map[string]*pending // ref → a generate waiting for its end
	sub     *subscription
	nextRef int
	closed  bool
	err     error // why the connection stopped for good
	// connects counts connections made, the first included.
	connects int

	done chan struct{} // closed by Close
	// onFrame, when set (by tests), sees each frame as it is read.
	onFrame func(t, ref string)
}

// pending is a generate (or a dry run) waiting for its last frame.
type pending struct {
	frame  []byte
	quote  bool
	result chan frameResult
	// retries counts resends after a rate limit or a full queue.
	retries int
}

type frameResult struct {
	doc   *Document
	quote *Quote
	err   error
}

// subscription is the connection's one subscription.
type subscription struct {
	ctx    context.Context
	events []string
	// cursor is the cursor of the last event delivered (or where the
	// subscription began): a new connection resumes after it.
	cursor string
	ch     chan Event
	// ready receives the answer to the first subscribe frame.
	ready chan error
	once  sync.Once
}

// Event is an event of the change feed.
type Event struct {
	// Event is the kind: document.completed, wallet.debited, …
	Event string `json:"event"`
	// Cursor is the event's place in the organisation's feed: subscribe
	// with since set to it to resume after it.
	Cursor string          `json:"cursor"`
	At     time.Time       `json:"at"`
	Data   json.RawMessage `json:"data"`
}

// Document decodes the data of a document event.
func (e *Event) Document() (*DocumentEvent, error) { return decodeData[DocumentEvent](e.Data) }

// TemplateActivated decodes the data of a template.activated event.
func (e *Event) TemplateActivated() (*TemplateActivated, error) {
	return decodeData[TemplateActivated](e.Data)
}

// WalletCredited decodes the data of a wallet.credited event.
func (e *Event) WalletCredited() (*WalletCredited, error) { return decodeData[WalletCredited](e.Data) }

// WalletDebited decodes the data of a wallet.debited event.
func (e *Event) WalletDebited() (*WalletDebited, error) { return decodeData[WalletDebited](e.Data) }

// inFrame is a frame from the server.
type inFrame struct {
	Type     string          `json:"type"`
	Ref      string          `json:"ref"`
	Data     json.RawMessage `json:"data"`
	Replayed bool            `json:"replayed"`
	Cursor   string          `json:"cursor"`
	Event    string          `json:"event"`
	At       time.Time       `json:"at"`
	Error    *struct {
		Code       string      `json:"code"`
		Message    string      `json:"message"`
		Field      string      `json:"field"`
		Violations []Violation `json:"violations"`
		RetryAfter int         `json:"retryAfter"`
	} `json:"error"`
	Organisation   string `json:"organisation"`
	OrganisationID string `json:"organisationId"`
}

// readTimeout is how long a connection may be silent: the node pings
// every 30 s, so two pings missed mean the link is gone.
const readTimeout = 65 * time.Second

// Realtime opens a realtime connection; ctx bounds the first connection
// only (later ones are made by the connection itself until Close). A key
// refused at the upgrade is an *Error UNAUTHENTICATED.
func (c *Client) Realtime(ctx context.Context) (*Realtime, error) {
	u := *c.base
	switch u.Scheme {
	case "https":
		u.Scheme = "wss"
	case "http":
		u.Scheme = "ws"
	default:
		return nil, fmt.Errorf("platen: realtime needs an http or https base URL, not %q", c.base.String())
	}
	u.Path = c.base.Path + opRealtime.Path
	rt := &Realtime{c: c, url: u.String(), pending: map[string]*pending{}, done: make(chan struct{}), onFrame: c.frameHook}
	ws, err := rt.dial(ctx)
	if err != nil {
		return nil, err
	}
	rt.mu.Lock()
	rt.ws = ws
	rt.connects = 1
	rt.mu.Unlock()
	go rt.run(ws)
	return rt, nil
}

// dial opens a WebSocket, authenticated by the upgrade's header.
func (rt *Realtime) dial(ctx context.Context) (*websocket.Conn, error) {
	if onSend != nil {
		onSend(opRealtime)
	}
	d := websocket.Dialer{HandshakeTimeout: 30 * time.Second, Proxy: http.ProxyFromEnvironment}
	if tr, ok := rt.c.http.Transport.(*http.Transport); ok && tr != nil {
		d.TLSClientConfig = tr.TLSClientConfig
		if tr.Proxy != nil {
			d.Proxy = tr.Proxy
		}
	}
	h := http.Header{}
	h.Set("Authorization", "Bearer "+rt.c.key)
	h.Set("User-Agent", rt.c.userAgent)
	ws, resp, err := d.DialContext(ctx, rt.url, h)
	if err != nil {
		if resp != nil && resp.StatusCode != http.StatusSwitchingProtocols {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
			return nil, errorFrom(resp, body)
		}
		return nil, fmt.Errorf("platen: realtime: %w", err)
	}
	return ws, nil
}

// run reads ws until it fails, then reconnects, until Close or a refusal
// that another try cannot mend.
func (rt *Realtime) run(ws *websocket.Conn) {
	for {
		err := rt.read(ws)
		ws.Close()
		rt.mu.Lock()
		rt.ws = nil
		closed := rt.closed
		rt.mu.Unlock()
		if closed {
			return
		}
		if isFinal(err) {
			rt.stop(err)
			return
		}
		if ws = rt.reconnect(); ws == nil {
			return
		}
	}
}

// isFinal reports whether a connection's end is one reconnecting would not
// mend: the key refused or revoked (4401).
func isFinal(err error) bool {
	var e *Error
	return websocket.IsCloseError(err, 4401) || (errors.As(err, &e) && (e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden))
}

// reconnect dials again with backoff until it connects, the connection is
// closed or the key is refused; then it resubscribes and resends.
func (rt *Realtime) reconnect() *websocket.Conn {
	for attempt := 0; ; attempt++ {
		select {
		case <-rt.done:
			return nil
		case <-time.After(rt.c.backoff.delay(min(attempt, 6))):
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		go func() {
			select {
			case <-rt.done:
				cancel()
			case <-ctx.Done():
			}
		}()
		ws, err := rt.dial(ctx)
		cancel()
		if err != nil {
			if isFinal(err) {
				rt.stop(err)
				return nil
			}
			continue
		}
		rt.mu.Lock()
		if rt.closed {
			rt.mu.Unlock()
			ws.Close()
			return nil
		}
		rt.ws = ws
		rt.connects++
		sub := rt.sub
		var resend [][]byte
		for _, p := range rt.pending {
			resend = append(resend, p.frame)
		}
		rt.mu.Unlock()
		// The subscription first, from the last cursor delivered, so no
		// event of a resent generate can pass before it.
		if sub != nil && sub.ctx.Err() == nil {
			if err := rt.write(ws, sub.frame(rt.cursorOf(sub))); err != nil {
				ws.Close()
				continue
			}
		}
		for _, f := range resend {
			if err := rt.write(ws, f); err != nil {
				break // the reader sees the connection fail and reconnects
			}
		}
		return ws
	}
}

// stop ends the connection for good and fails what waits on it.
func (rt *Realtime) stop(err error) {
	rt.mu.Lock()
	if rt.err == nil {
		rt.err = err
	}
	if !rt.closed {
		rt.closed = true
		close(rt.done)
	}
	ws := rt.ws
	waiting := rt.pending
	rt.pending = map[string]*pending{}
	sub := rt.sub
	rt.sub = nil
	rt.mu.Unlock()
	if ws != nil {
		ws.Close()
	}
	for _, p := range waiting {
		p.result <- frameResult{err: err}
	}
	if sub != nil {
		sub.once.Do(func() { sub.ready <- err })
	}
}

// Close closes the connection: waiting generates fail with ErrClosed and
// the subscription's channel closes.
func (rt *Realtime) Close() error {
	rt.mu.Lock()
	ws := rt.ws
	rt.mu.Unlock()
	if ws != nil {
		rt.wmu.Lock()
		ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
		rt.wmu.Unlock()
	}
	rt.stop(ErrClosed)
	return nil
}

// connections is how many connections were made, the first included.
func (rt *Realtime) connections() int {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.connects
}

// ErrClosed is returned by calls on a Realtime after Close.
var ErrClosed = errors.New("platen: the realtime connection is closed")

func (rt *Realtime) write(ws *websocket.Conn, frame []byte) error {
	rt.wmu.Lock()
	defer rt.wmu.Unlock()
	ws.SetWriteDeadline(time.Now().Add(30 * time.Second))
	return ws.WriteMessage(websocket.TextMessage, frame)
}

// send writes frame on the current connection, if there is one; when there
// is none or the write fails, the next connection sends it (reconnect).
func (rt *Realtime) send(frame []byte) {
	rt.mu.Lock()
	ws := rt.ws
	rt.mu.Unlock()
	if ws != nil {
		rt.write(ws, frame)
	}
}

// read handles the frames of one connection until it fails.
func (rt *Realtime) read(ws *websocket.Conn) error {
	ws.SetReadDeadline(time.Now().Add(readTimeout))
	ws.SetPingHandler(func(data string) error {
		ws.SetReadDeadline(time.Now().Add(readTimeout))
		rt.wmu.Lock()
		defer rt.wmu.Unlock()
		return ws.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(10*time.Second))
	})
	for {
		_, raw, err := ws.ReadMessage()
		if err != nil {
			return err
		}
		ws.SetReadDeadline(time.Now().Add(readTimeout))
		var f inFrame
		if err := json.Unmarshal(raw, &f); err != nil {
			continue
		}
		if rt.onFrame != nil {
			rt.onFrame(f.Type, f.Ref)
		}
		rt.handle(f)
	}
}

func (rt *Realtime) handle(f inFrame) {
	switch f.Type {
	case "event":
		rt.mu.Lock()
		sub := rt.sub
		rt.mu.Unlock()
		if sub != nil {
			sub.deliver(rt, Event{Event: f.Event, Cursor: f.Cursor, At: f.At, Data: f.Data})
		}
	case "subscribed":
		rt.mu.Lock()
		sub := rt.sub
		if sub != nil && sub.cursor == "" {
			sub.cursor = f.Cursor
		}
		rt.mu.Unlock()
		if sub != nil {
			sub.once.Do(func() { sub.ready <- nil })
		}
	case "document.completed", "document.failed":
		if p := rt.take(f.Ref); p != nil {
			var d Document
			if err := decode(f.Data, &d); err != nil {
				p.result <- frameResult{err: fmt.Errorf("platen: realtime %s: %w", f.Type, err)}
				return
			}
			p.result <- frameResult{doc: &d}
		}
	case "quote":
		if p := rt.take(f.Ref); p != nil {
			var q Quote
			if err := decode(f.Data, &q); err != nil {
				p.result <- frameResult{err: fmt.Errorf("platen: realtime quote: %w", err)}
				return
			}
			p.result <- frameResult{quote: &q}
		}
	case "error":
		rt.refused(f)
	}
}

// take removes and returns the generate waiting under ref.
func (rt *Realtime) take(ref string) *pending {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	p := rt.pending[ref]
	delete(rt.pending, ref)
	return p
}

// refused answers an error frame: a generate refused for a rate limit or
// a full queue is sent again after the wait, as REST's retries do; any
// other refusal fails it, or the first subscribe.
func (rt *Realtime) refused(f inFrame) {
	e := &Error{Status: http.StatusBadRequest, Code: "INVALID_REQUEST"}
	if f.Error != nil {
		e.Code, e.Message, e.Field, e.Violations = f.Error.Code, f.Error.Message, f.Error.Field, f.Error.Violations
		e.RetryAfter = time.Duration(f.Error.RetryAfter) * time.Second
		e.Status = StatusOfCode(e.Code)
		if e.Status == 0 {
			e.Status = http.StatusBadRequest
		}
	}
	rt.mu.Lock()
	p := rt.pending[f.Ref]
	sub := rt.sub
	if p != nil && (e.Code == CodeRateLimited || e.Code == CodeOverloaded) && p.retries < rt.c.maxRetries {
		p.retries++
		wait := max(e.RetryAfter, rt.c.backoff.delay(p.retries-1))
		rt.mu.Unlock()
		time.AfterFunc(wait, func() {
			rt.mu.Lock()
			still := rt.pending[f.Ref] == p
			rt.mu.Unlock()
			if still {
				rt.send(p.frame)
			}
		})
		return
	}
	if p == nil && sub != nil && f.Ref == subRef && (e.Code == CodeRateLimited || e.Code == CodeOverloaded) {
		// A resubscription refused for the rate: again after the wait, from
		// the cursor delivered by then.
		rt.mu.Unlock()
		time.AfterFunc(max(e.RetryAfter, rt.c.backoff.delay(0)), func() {
			rt.mu.Lock()
			still := rt.sub == sub && sub.ctx.Err() == nil
			rt.mu.Unlock()
			if still {
				rt.send(sub.frame(rt.cursorOf(sub)))
			}
		})
		return
	}
	if p != nil {
		delete(rt.pending, f.Ref)
	}
	rt.mu.Unlock()
	switch {
	case p != nil:
		e.Attempts = p.retries + 1
		p.result <- frameResult{err: e}
	case sub != nil && f.Ref == subRef:
		sub.once.Do(func() { sub.ready <- e })
	}
}

// Generate generates a document over the connection and waits for it to
// complete or fail (check Status); a refusal is an *Error, as over REST.
// The frame carries an idempotencyKey (IdempotencyKey's, or one made for
// it), so that resending it after a dropped connection makes no second
// document. Cancelling ctx stops the wait, not the document.
func (rt *Realtime) Generate(ctx context.Context, req DocumentRequest, opts ...CallOption) (*Document, error) {
	req.DryRun = false
	r, err := rt.await(ctx, req, false, opts)
	if err != nil {
		return nil, err
	}
	return r.doc, nil
}

// Quote is a dry run over the connection: see DocumentsService.Quote.
func (rt *Realtime) Quote(ctx context.Context, req DocumentRequest, opts ...CallOption) (*Quote, error) {
	req.DryRun = true
	r, err := rt.await(ctx, req, true, opts)
	if err != nil {
		return nil, err
	}
	return r.quote, nil
}

func (rt *Realtime) await(ctx context.Context, req DocumentRequest, quote bool, opts []CallOption) (frameResult, error) {
	cl := &call{header: http.Header{}}
	for _, o := range opts {
		o(cl)
	}
	key := cl.header.Get("Idempotency-Key")
	if key == "" {
		key = newIdempotencyKey()
	}
	body, err := json.Marshal(req)
	if err != nil {
		return frameResult{}, fmt.Errorf("platen: encoding the request: %w", err)
	}
	rt.mu.Lock()
	if rt.closed {
		err := rt.err
		rt.mu.Unlock()
		return frameResult{}, err
	}
	rt.nextRef++
	ref := "g" + strconv.Itoa(rt.nextRef)
	frame, _ := json.Marshal(map[string]any{"type": "generate", "ref": ref, "idempotencyKey": key, "body": json.RawMessage(body)})
	p := &pending{frame: frame, quote: quote, result: make(chan frameResult, 1)}
	rt.pending[ref] = p
	rt.mu.Unlock()
	rt.send(frame)
	select {
	case r := <-p.result:
		return r, r.err
	case <-ctx.Done():
		rt.take(ref)
		return frameResult{}, ctx.Err()
	}
}

// subRef is the ref of subscribe frames.
const subRef = "sub"

func (s *subscription) frame(since string) []byte {
	f := map[string]any{"type": "subscribe", "ref": subRef, "events": s.events}
	if since != "" {
		f["since"] = since
	}
	b, _ := json.Marshal(f)
	return b
}

func (rt *Realtime) cursorOf(s *subscription) string {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return s.cursor
}

// deliver hands ev to the subscriber, in order, once: an event at or
// before the last cursor delivered is not sent again.
func (s *subscription) deliver(rt *Realtime, ev Event) {
	rt.mu.Lock()
	last := s.cursor
	rt.mu.Unlock()
	if !cursorAfter(last, ev.Cursor) {
		return
	}
	select {
	case s.ch <- ev:
		rt.mu.Lock()
		s.cursor = ev.Cursor
		rt.mu.Unlock()
	case <-s.ctx.Done():
	case <-rt.done:
	}
}

// cursorAfter reports whether cursor b comes after a; cursors are the
// feed's sequence numbers.
func cursorAfter(a, b string) bool {
	if a == "" {
		return true
	}
	x, err1 := strconv.ParseUint(a, 10, 64)
	y, err2 := strconv.ParseUint(b, 10, 64)
	if err1 != nil || err2 != nil {
		return a != b
	}
	return y > x
}

// Subscribe streams the change feed's events of the kinds in events (none:
// every kind the key may read) after cursor since ("": from now), in
// order, on the channel it returns, which closes when ctx ends or the
// connection is closed. After a dropped connection it resumes from the
// last event delivered: none is missed or sent twice. A connection has one
// subscription; subscribing again replaces it.
func (rt *Realtime) Subscribe(ctx context.Context, events []string, since string) (<-chan Event, error) {
	sub := &subscription{ctx: ctx, events: events, cursor: since, ch: make(chan Event, 64), ready: make(chan error, 1)}
	rt.mu.Lock()
	if rt.closed {
		err := rt.err
		rt.mu.Unlock()
		return nil, err
	}
	rt.sub = sub
	rt.mu.Unlock()
	rt.send(sub.frame(since))
	select {
	case err := <-sub.ready:
		if err != nil {
			rt.mu.Lock()
			if rt.sub == sub {
				rt.sub = nil
			}
			rt.mu.Unlock()
			return nil, err
		}
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	out := make(chan Event)
	go func() {
		defer close(out)
		for {
			select {
			case ev := <-sub.ch:
				select {
				case out <- ev:
				case <-ctx.Done():
					return
				case <-rt.done:
					return
				}
			case <-ctx.Done():
				return
			case <-rt.done:
				return
			}
		}
	}()
	return out, nil
}
