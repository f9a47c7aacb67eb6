package transport

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"github.com/fasthttp/websocket"
	"github.com/valyala/fasthttp"

	"github.com/platen/platen/app"
	"github.com/platen/platen/auth"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/internal/ids"
	"github.com/platen/platen/storage"
)

// RealtimeConfig is the realtime namespace's settings (docs/design.md
// "Realtime").
type RealtimeConfig struct {
	// AuthTimeout is how long a connection without an Authorization header
	// has to send its auth frame.
	AuthTimeout time.Duration
	// Heartbeat is how often the server pings; a peer silent for two beats
	// is dead and closed.
	Heartbeat time.Duration
	// WriteTimeout bounds one frame's write: a reader that takes longer is
	// closed with 1013.
	WriteTimeout time.Duration
	// SendQueue bounds the replies waiting for the writer.
	SendQueue int
	// SocketBuffer is each connection's kernel send buffer (the kernel
	// doubles it). A connection with more than this much unsent is a slow
	// reader: it is closed with 1013 while the close frame still fits.
	SocketBuffer int
}

// DefaultRealtimeConfig returns the auth window of docs/design.md
// "Realtime" and limits that cut a reader that cannot keep up before it
// costs the node memory.
func DefaultRealtimeConfig() RealtimeConfig {
	return RealtimeConfig{AuthTimeout: 10 * time.Second, Heartbeat: 30 * time.Second, WriteTimeout: 10 * time.Second, SendQueue: 16,
		SocketBuffer: 256 << 10}
}

// writeBuffers is shared by every realtime connection's writes.
var writeBuffers = &sync.Pool{}

// Close codes of the realtime namespace.
const (
	closeTryAgainLater = websocket.CloseTryAgainLater // a slow reader; resume with since
	closeUnauthorized  = 4401                         // no valid key
)

// hub knows the realtime connections of each organisation and wakes them when
// the organisation's feed grows. Every connection reads the feed from its own
// cursor, so live events and replay are one path and none is lost.
type hub struct {
	mu    sync.Mutex // guards conns and closing, and live's Add
	conns map[string]map[*rtConn]struct{}
	stop  chan struct{}
	// live counts connections being served, so shutdown can wait for them
	// before the store closes. It is added to only under mu and never once
	// closing is set: a WaitGroup's Add racing its Wait is a misuse the
	// race detector reports (seen with an upgrade landing during shutdown).
	live    sync.WaitGroup
	closing bool
}

// enter counts a connection about to be served; false once shutdown began.
func (h *hub) enter() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closing {
		return false
	}
	h.live.Add(1)
	return true
}

func newHub() *hub { return &hub{conns: map[string]map[*rtConn]struct{}{}, stop: make(chan struct{})} }

func (h *hub) add(c *rtConn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.conns[c.org.ID] == nil {
		h.conns[c.org.ID] = map[*rtConn]struct{}{}
	}
	h.conns[c.org.ID][c] = struct{}{}
}

func (h *hub) remove(c *rtConn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.conns[c.org.ID], c)
	if len(h.conns[c.org.ID]) == 0 {
		delete(h.conns, c.org.ID)
	}
}

// notify wakes every connection of the organisations. It never blocks: the
// state machine calls it.
func (h *hub) notify(orgIDs []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, org := range orgIDs {
		for c := range h.conns[org] {
			c.poke()
		}
	}
}

// closeAll closes every connection with going-away, on shutdown.
func (h *hub) closeAll() {
	select {
	case <-h.stop:
	default:
		close(h.stop)
	}
	h.mu.Lock()
	h.closing = true
	var all []*rtConn
	for _, set := range h.conns {
		for c := range set {
			all = append(all, c)
		}
	}
	h.mu.Unlock()
	for _, c := range all {
		c.close(websocket.CloseGoingAway, "the node is shutting down; reconnect and resume with since")
	}
	done := make(chan struct{})
	go func() {
		h.live.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
	}
}

// count is the number of open connections.
func (h *hub) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, set := range h.conns {
		n += len(set)
	}
	return n
}

// frame is a client frame.
type frame struct {
	Type string `json:"type"`
	Ref  string `json:"ref,omitempty"`
	Key  string `json:"key,omitempty"`
	// IdempotencyKey makes a generate safe to retry, as the REST header does.
	IdempotencyKey string          `json:"idempotencyKey,omitempty"`
	Body           json.RawMessage `json:"body,omitempty"`
	Events         []string        `json:"events,omitempty"`
	Since          string          `json:"since,omitempty"`
}

// outbound is a server frame waiting for the writer, or work the writer does
// in order with the frames.
type outbound struct {
	frame any
	do    func()
}

// rtConn is one realtime connection. Its writer goroutine alone writes to
// the socket and owns the fields below mu's.
type rtConn struct {
	s   *Server
	ws  *websocket.Conn
	tcp *net.TCPConn // under ws, when found
	key storage.APIKey
	org storage.Org
	// session is the console session's token of a connection the console
	// opened; key then stands for its person (authenticateSession), and its
	// scopes follow the person's role, read again at every check (keyLive).
	session string
	// smu guards key.Scopes, which keyLive renews for a session while the
	// reader and the writer read them.
	smu  sync.Mutex
	out  chan outbound
	wake chan struct{}
	done chan struct{}
	once sync.Once

	// The writer runs only while there is work, so an idle connection holds
	// no goroutine but its reader. wmu guards writing.
	wmu     sync.Mutex
	writing bool
	stopped bool // no writer starts once set
	drains  sync.WaitGroup

	// Owned by the running writer.
	read       uint64              // the feed is read up to here
	genDone    uint64              // generate replies sent up to here
	subscribed bool                // events frames are sent
	subFrom    uint64              // events frames only after this cursor
	events     map[string]bool     // nil: every kind the key may read
	gens       map[string][]string // document id → refs of the generate frames that follow it
}

// realtime upgrades GET /v1/realtime to a WebSocket.
func (s *Server) realtime(r *request) error {
	var key storage.APIKey
	var org storage.Org
	var session string
	_, given := bearer(r)
	cookie := r.Request.Header.Cookie(sessionCookie)
	if given || len(cookie) > 0 {
		// A key in the header, or the console's session cookie, is checked
		// before the upgrade: a bad one is a plain 401 in the error
		// envelope. A session's socket must come from the console's own
		// origin (authenticateSession), so no other site can open one with
		// the person's cookie.
		if err := s.authenticate(r); err != nil {
			return err
		}
		key, org = r.key, r.org
		if r.principal != nil {
			session = string(cookie)
		}
	}
	up := websocket.FastHTTPUpgrader{
		// Frames are small: a 1 KB read buffer is plenty (larger ones still
		// work), and write buffers come from a pool, held only while writing,
		// so an idle connection costs little.
		ReadBufferSize: 1024, WriteBufferSize: 4096, WriteBufferPool: writeBuffers,
		// Browsers send cookies with cross-site WebSockets: a connection
		// authenticated by the console's cookie had its origin checked
		// above; one with a key (header or frame) may come from anywhere,
		// since a page cannot add another site's key.
		CheckOrigin: func(*fasthttp.RequestCtx) bool { return true },
	}
	err := up.Upgrade(r.RequestCtx, func(ws *websocket.Conn) {
		c := &rtConn{s: s, ws: ws, key: key, org: org, session: session, out: make(chan outbound, s.cfg.Realtime.SendQueue),
			wake: make(chan struct{}, 1), done: make(chan struct{}), gens: map[string][]string{}}
		// Served from a goroutine of its own, so fasthttp's handler returns
		// and frees the upgrade request's buffers at once (KeepHijackedConns).
		if !s.hub.enter() {
			ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, "the node is shutting down"), time.Now().Add(time.Second))
			ws.Close()
			return
		}
		go func() {
			defer s.hub.live.Done()
			c.serve()
		}()
	})
	if err != nil {
		return fmt.Errorf("%w: a WebSocket upgrade is needed: %v", fault.ErrInvalid, err)
	}
	return nil
}

// serve runs a connection: authentication, then the reader here and the
// writer in a goroutine of its own.
func (c *rtConn) serve() {
	defer c.ws.Close()
	cfg := c.s.cfg.Realtime
	if c.tcp = tcpConn(c.ws.UnderlyingConn()); c.tcp != nil && cfg.SocketBuffer > 0 {
		c.tcp.SetWriteBuffer(cfg.SocketBuffer)
	}
	c.ws.SetReadLimit(int64(c.s.cfg.MaxBodyBytes))
	if c.key.ID == "" && !c.authFrame() {
		return
	}
	c.read = c.s.deps.Store.FeedSeq(c.org.ID)
	c.genDone, c.subFrom = c.read, c.read
	c.s.hub.add(c)
	defer func() {
		// Out of the hub, closed, no new writer: then wait for the last.
		c.s.hub.remove(c)
		c.close(websocket.CloseNormalClosure, "")
		c.wmu.Lock()
		c.stopped = true
		c.wmu.Unlock()
		c.drains.Wait()
	}()
	c.ws.SetPongHandler(func(string) error { return c.ws.SetReadDeadline(time.Now().Add(2 * cfg.Heartbeat)) })
	for {
		c.ws.SetReadDeadline(time.Now().Add(2 * cfg.Heartbeat))
		_, raw, err := c.ws.ReadMessage()
		if err != nil {
			c.close(websocket.CloseNormalClosure, "")
			return
		}
		var f frame
		if err := json.Unmarshal(raw, &f); err != nil {
			c.reply(c.errorFrame("", fmt.Errorf("%w: a frame is a JSON object with a type", fault.ErrInvalid)))
			continue
		}
		c.handle(f)
	}
}

// authFrame waits for {"type":"auth","key":"…"}.
func (c *rtConn) authFrame() bool {
	c.ws.SetReadDeadline(time.Now().Add(c.s.cfg.Realtime.AuthTimeout))
	_, raw, err := c.ws.ReadMessage()
	var f frame
	if err == nil {
		err = json.Unmarshal(raw, &f)
	}
	if err == nil && f.Type == "auth" {
		key, kerr := c.s.deps.Store.APIKeyByHash(auth.Hash(f.Key))
		if kerr == nil {
			if org, oerr := c.s.deps.Store.Org(key.OrgID); oerr == nil {
				c.key, c.org = key, org
				c.writeNow(map[string]any{"type": "authenticated", "ref": f.Ref, "organisation": org.Name, "organisationId": org.ID})
				return true
			}
		}
	}
	c.writeNow(c.errorFrame(f.Ref, errUnauthenticated))
	c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(closeUnauthorized, "a valid API key is required"), time.Now().Add(time.Second))
	return false
}

// keyLive reports whether the connection's key still authenticates; a
// revoked key closes the connection with 4401.
func (c *rtConn) keyLive() bool {
	if c.session != "" {
		if p, err := c.s.app.Session(c.session); err == nil {
			c.smu.Lock()
			c.key.Scopes = p.Scopes()
			c.smu.Unlock()
			return true
		}
		c.close(closeUnauthorized, "the session has ended")
		return false
	}
	k, err := c.s.deps.Store.APIKey(c.key.ID)
	if err == nil && k.RevokedAt == nil {
		return true
	}
	c.close(closeUnauthorized, "the key was revoked")
	return false
}

func (c *rtConn) handle(f frame) {
	if !c.keyLive() {
		return
	}
	lim := c.s.rateLimits(c.org)
	if org, err := c.s.deps.Store.Org(c.org.ID); err == nil {
		lim = c.s.rateLimits(org) // as the operator has it now
	}
	if wait := c.s.limits.allowAt(c.key.ID, lim); wait > 0 {
		c.reply(c.errorFrame(f.Ref, fault.Retry(fmt.Errorf("%w: slow down", errRateLimited), int(wait.Seconds())+1)))
		return
	}
	switch f.Type {
	case "ping":
		c.reply(map[string]any{"type": "pong", "ref": f.Ref})
	case "generate":
		c.generate(f)
	case "subscribe":
		c.subscribe(f)
	case "auth":
		c.reply(c.errorFrame(f.Ref, fmt.Errorf("%w: this connection is authenticated already", fault.ErrInvalid)))
	default:
		c.reply(c.errorFrame(f.Ref, fmt.Errorf("%w: unknown frame type %q; types are generate, subscribe, ping", fault.ErrInvalid, f.Type)))
	}
}

// generate makes a document through the same use case as POST
// /v1/documents and answers, with the frame's ref, document.queued now and
// then every change up to document.completed or document.failed. No
// polling. A body with dryRun answers one frame, {"type":"quote"}, with the
// quote POST /v1/documents would answer, or an error frame. A frame's
// idempotencyKey works as the Idempotency-Key header
// does: a retry with the same key and body answers for the first document,
// made through either way in, with "replayed": true.
func (c *rtConn) generate(f frame) {
	if !auth.Grants(c.scopes(), auth.DocumentsGenerate) {
		c.reply(c.errorFrame(f.Ref, fmt.Errorf("%w: this key lacks the scope %s", errForbidden, auth.DocumentsGenerate)))
		return
	}
	ref := f.Ref
	g, err := c.s.app.Generate(context.Background(), c.org.ID, app.Generate{Body: f.Body, IdempotencyKey: f.IdempotencyKey, Follow: true,
		Watch: func(doc storage.Document, replayed bool) {
			// Registered with the writer before the render starts, so no
			// change of the document can pass unseen.
			registered := make(chan struct{})
			c.enqueue(outbound{do: func() {
				c.follow(ref, doc, replayed)
				close(registered)
			}})
			select {
			case <-registered:
			case <-c.done: // the document exists and renders, watched or not
			}
		}})
	switch {
	case err != nil:
		c.reply(c.errorFrame(ref, err))
	case g.Quote != nil:
		c.reply(map[string]any{"type": "quote", "ref": ref, "data": viewQuote(*g.Quote)})
	}
}

// follow answers a generate frame with its document's first frame and sends
// the document's later changes with ref. It runs on the writer, which alone
// reads the feed, so no change is sent twice: a replayed document that has
// finished already gets its last frame now and nothing after it.
func (c *rtConn) follow(ref string, doc storage.Document, replayed bool) {
	first := map[string]any{"type": storage.EventDocumentQueued, "ref": ref, "data": c.s.viewDocument(doc)}
	if replayed {
		first["replayed"] = true
		if d, err := c.s.deps.Store.Document(doc.ID); err == nil {
			doc = d
		}
	}
	if doc.Pending() {
		c.gens[doc.ID] = append(c.gens[doc.ID], ref)
		first["data"] = c.s.viewDocument(doc)
		c.write(first)
		return
	}
	first["type"] = map[string]string{storage.StatusCompleted: storage.EventDocumentCompleted, storage.StatusFailed: storage.EventDocumentFailed}[doc.Status]
	first["data"] = c.s.viewDocument(doc)
	c.write(first)
}

// feedKinds are the events a subscription can ask for.
var feedKinds = append([]string{storage.EventDocumentQueued, storage.EventDocumentRendering}, storage.WebhookEvents...)

// scopeOf is the scope that reads an event kind.
func scopeOf(kind string) auth.Scope {
	switch {
	case strings.HasPrefix(kind, "document."):
		return auth.DocumentsRead
	case strings.HasPrefix(kind, "template."):
		return auth.TemplatesRead
	default:
		return auth.WalletRead
	}
}

func (c *rtConn) subscribe(f frame) {
	var events map[string]bool
	for i, k := range f.Events {
		if !slices.Contains(feedKinds, k) {
			c.reply(c.errorFrame(f.Ref, fault.Invalid(fmt.Sprintf("events[%d]", i), "unknown event %q; events are %s", k, strings.Join(feedKinds, ", "))))
			return
		}
		if need := scopeOf(k); !auth.Grants(c.scopes(), need) {
			c.reply(c.errorFrame(f.Ref, fmt.Errorf("%w: %s needs the scope %s", errForbidden, k, need)))
			return
		}
		if events == nil {
			events = map[string]bool{}
		}
		events[k] = true
	}
	latest := c.s.deps.Store.FeedSeq(c.org.ID)
	var since uint64
	if f.Since != "" {
		var err error
		if since, err = strconv.ParseUint(f.Since, 10, 64); err != nil || since > latest {
			c.reply(c.errorFrame(f.Ref, fault.Invalid("since", "is not a cursor of this organisation's feed")))
			return
		}
	}
	ref := f.Ref
	c.enqueue(outbound{do: func() {
		c.subscribed, c.events = true, events
		cursor := c.read
		if f.Since != "" {
			c.subFrom = since
			c.read = min(c.read, since) // replay: generate replies are kept from repeating by genDone
			cursor = since
		} else {
			c.subFrom = c.read
		}
		c.write(map[string]any{"type": "subscribed", "ref": ref, "cursor": strconv.FormatUint(cursor, 10)})
		c.pump()
	}})
}

// permitted reports whether the connection's key may read events of kind.
func (c *rtConn) permitted(kind string) bool { return auth.Grants(c.scopes(), scopeOf(kind)) }

// scopes are what the connection may do now.
func (c *rtConn) scopes() []string {
	c.smu.Lock()
	defer c.smu.Unlock()
	return c.key.Scopes
}

// kick makes sure a writer runs to take the work just queued.
func (c *rtConn) kick() {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.writing || c.stopped {
		return
	}
	c.writing = true
	c.drains.Add(1)
	go c.drain()
}

// drain is the writer: it alone writes frames, in order, and reads the feed
// when woken; it ends when there is nothing left to do.
func (c *rtConn) drain() {
	defer c.drains.Done()
	for {
		select {
		case <-c.done:
			c.wmu.Lock()
			c.writing = false
			c.wmu.Unlock()
			return
		case o := <-c.out:
			if o.do != nil {
				o.do()
			} else {
				c.write(o.frame)
			}
		case <-c.wake:
			c.pump()
		default:
			c.wmu.Lock()
			if len(c.out) == 0 && len(c.wake) == 0 {
				c.writing = false
				c.wmu.Unlock()
				return
			}
			c.wmu.Unlock()
		}
	}
}

// heartbeat pings every connection from one goroutine: a peer whose pong
// does not come within two beats is closed by its reader's deadline.
func (h *hub) heartbeat(every, timeout time.Duration, stop <-chan struct{}) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		h.mu.Lock()
		var all []*rtConn
		for _, set := range h.conns {
			for c := range set {
				all = append(all, c)
			}
		}
		h.mu.Unlock()
		for _, c := range all {
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(timeout)); err != nil {
				c.close(websocket.CloseGoingAway, "")
			}
		}
	}
}

// pump reads the feed after the cursor and sends what the connection wants:
// changes of documents it generated, and events it subscribed to.
func (c *rtConn) pump() {
	store := c.s.deps.Store
	for {
		select {
		case <-c.done:
			return
		default:
		}
		if !c.keyLive() {
			return
		}
		// Read in pages: a connection far behind, or replaying, costs no
		// memory; one that does not take what is written is cut by write.
		evs, err := store.Feed(c.org.ID, c.read, 200)
		if err != nil || len(evs) == 0 {
			return
		}
		for _, ev := range evs {
			c.deliver(ev)
			c.read = ev.Seq
		}
		if len(evs) < 200 {
			return
		}
	}
}

func (c *rtConn) deliver(ev storage.Event) {
	now := c.s.deps.Clock.Now()
	if ev.Seq > c.genDone && strings.HasPrefix(ev.Kind, "document.") {
		c.genDone = ev.Seq
		var d struct {
			ID string `json:"id"`
		}
		json.Unmarshal(ev.Data, &d)
		if refs, ok := c.gens[d.ID]; ok && ev.Kind != storage.EventDocumentQueued {
			if doc, err := c.s.deps.Store.Document(d.ID); err == nil {
				for _, ref := range refs {
					c.write(map[string]any{"type": ev.Kind, "ref": ref, "data": c.s.viewDocument(doc)})
				}
			}
			if ev.Kind == storage.EventDocumentCompleted || ev.Kind == storage.EventDocumentFailed {
				delete(c.gens, d.ID)
			}
		}
	}
	if c.subscribed && ev.Seq > c.subFrom && c.permitted(ev.Kind) && (c.events == nil || c.events[ev.Kind]) {
		data, err := c.s.deps.Actors.EventData(ev.Kind, ev.Data, now)
		if err != nil {
			return
		}
		c.write(map[string]any{"type": "event", "event": ev.Kind, "cursor": strconv.FormatUint(ev.Seq, 10), "at": ev.At, "data": data})
	}
}

// write sends one frame from the writer goroutine; a peer too slow to take
// it within the write timeout is closed with 1013.
func (c *rtConn) write(v any) {
	select {
	case <-c.done:
		return
	default:
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return
	}
	if c.unsent() > c.s.cfg.Realtime.SocketBuffer {
		c.close(closeTryAgainLater, fmt.Sprintf("too far behind; reconnect and subscribe with since=%d", c.read))
		return
	}
	c.ws.SetWriteDeadline(time.Now().Add(c.s.cfg.Realtime.WriteTimeout))
	if err := c.ws.WriteMessage(websocket.TextMessage, raw); err != nil {
		c.close(closeTryAgainLater, "")
	}
}

// writeNow writes before the writer goroutine runs (authentication).
func (c *rtConn) writeNow(v any) {
	raw, _ := json.Marshal(v)
	c.ws.SetWriteDeadline(time.Now().Add(c.s.cfg.Realtime.WriteTimeout))
	c.ws.WriteMessage(websocket.TextMessage, raw)
}

// reply queues a frame; a full queue means the peer does not read, and it
// is closed with 1013.
func (c *rtConn) reply(v any) { c.enqueue(outbound{frame: v}) }

func (c *rtConn) enqueue(o outbound) {
	select {
	case c.out <- o:
		c.kick()
	case <-c.done:
	default:
		c.close(closeTryAgainLater, "too many replies waiting; read faster")
	}
}

func (c *rtConn) poke() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
	c.kick()
}

// unsent is how many bytes the kernel holds that the peer has not taken.
func (c *rtConn) unsent() int {
	if c.tcp == nil {
		return 0
	}
	rc, err := c.tcp.SyscallConn()
	if err != nil {
		return 0
	}
	n := 0
	rc.Control(func(fd uintptr) {
		syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCOUTQ, uintptr(unsafe.Pointer(&n)))
	})
	return n
}

// close ends the connection once, with a close frame when it can, and wakes
// the reader so serve returns.
func (c *rtConn) close(code int, text string) {
	c.once.Do(func() {
		close(c.done)
		c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, text), time.Now().Add(time.Second))
		c.ws.SetReadDeadline(time.Now())
		c.ws.Close()
	})
}

// errorFrame is a refusal as a frame, with the same codes as REST.
func (c *rtConn) errorFrame(ref string, err error) map[string]any {
	p := statusOf(err)
	if p.Status >= http.StatusInternalServerError || p.Withheld != "" {
		// Fixed words, and an id that finds the error in the log.
		id := ids.New(ids.Request, c.s.deps.Clock.Now())
		p.Message += "; quote request id " + id + " when reporting it"
		c.s.deps.Logger.Error("realtime request failed", "request_id", id, "org", c.org.ID, "code", p.Code, "withheld", p.Withheld, "err", err.Error())
	}
	e := map[string]any{"code": p.Code, "message": p.Message}
	if p.Field != "" {
		e["field"] = p.Field
	}
	if len(p.Violations) > 0 {
		e["violations"] = p.Violations
	}
	if p.RetryAfter > 0 {
		e["retryAfter"] = p.RetryAfter
	}
	return map[string]any{"type": "error", "ref": ref, "error": e}
}

// tcpConn finds the TCP connection under a hijacked one: fasthttp hands the
// upgrader a wrapper that embeds the net.Conn as its field Conn.
func tcpConn(c net.Conn) *net.TCPConn {
	for i := 0; i < 4 && c != nil; i++ {
		if tcp, ok := c.(*net.TCPConn); ok {
			return tcp
		}
		v := reflect.ValueOf(c)
		if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
			return nil
		}
		f := v.Elem().FieldByName("Conn")
		if !f.IsValid() || !f.CanInterface() {
			return nil
		}
		c, _ = f.Interface().(net.Conn)
	}
	return nil
}
