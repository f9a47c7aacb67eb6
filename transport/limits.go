package transport

import (
	"bytes"
	"container/list"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/valyala/fasthttp"

	"github.com/platen/platen/console"
	"github.com/platen/platen/internal/clock"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/internal/ids"
)

// This file holds the two refusals the node makes on its own behalf rather
// than a key's: requests that present no valid credential are held to a rate
// per client address (429 RATE_LIMITED), and connections beyond
// Config.Concurrency are answered 503 OVERLOADED and closed. Both answer in
// the error envelope with Retry-After (docs/api.md, "Limits").

// clientIdle is how long an address is remembered after its last request. Its
// bucket refills long before; what is lost is only which credentials it was
// seen with, which then prove themselves again.
const clientIdle = 10 * time.Minute

// vouchedPerClient is how many credentials an address remembers as having
// authenticated from it: a host's few keys and the operator's token.
const vouchedPerClient = 4

// credential names a bearer token without holding it: half its SHA-256.
type credential [16]byte

func credentialOf(token []byte) credential {
	sum := sha256.Sum256(token)
	return credential(sum[:16])
}

// clientLimiter is a token bucket per client address for the requests that
// present no valid credential: none, a wrong key or operator token, a bad
// download link, or a path that is no route. It keeps key guessing to the
// address's rate: a refused request's credential is not looked at, so a guess
// beyond the rate learns nothing. A credential that has authenticated from an
// address passes that address's limit, so a client with a key is not held
// back by a neighbour behind the same address; a credential new to an
// address out of tokens waits like any guess.
//
// A request is checked before its credential is (wait) and charged after,
// when it turned out to have none that is valid (settle): the bucket may go
// below zero by the requests that were in flight together, which then pay.
// Memory is bounded: at most max addresses, the least recently seen
// forgotten first, and none kept past clientIdle.
type clientLimiter struct {
	rate  float64
	burst float64
	max   int
	clock clock.Clock

	mu      sync.Mutex // guards clients and lru
	clients map[netip.Prefix]*list.Element
	lru     *list.List // of *client, most recently seen at the front
}

// client is one address's bucket.
type client struct {
	addr    netip.Prefix
	tokens  float64
	at      time.Time // when tokens was last brought up to date, and last seen
	vouched [vouchedPerClient]credential
	next    int // the slot of vouched to fill next
}

func newClientLimiter(perSecond float64, burst, max int, c clock.Clock) *clientLimiter {
	return &clientLimiter{rate: perSecond, burst: float64(burst), max: max, clock: c,
		clients: map[netip.Prefix]*list.Element{}, lru: list.New()}
}

// clientAddr is the address a client is limited by: an IPv4 address, or an
// IPv6 address's /64, the block one host or one home usually has.
func clientAddr(ip net.IP) netip.Prefix {
	a, ok := netip.AddrFromSlice(ip)
	if !ok {
		return netip.Prefix{}
	}
	a = a.Unmap()
	bits := 32
	if a.Is6() {
		bits = 64
	}
	p, _ := a.Prefix(bits)
	return p
}

// entry returns addr's client, refilled to now. Called with mu held.
func (l *clientLimiter) entry(addr netip.Prefix, now time.Time) *client {
	for e := l.lru.Back(); e != nil && now.Sub(e.Value.(*client).at) > clientIdle; e = l.lru.Back() {
		l.drop(e)
	}
	if e, ok := l.clients[addr]; ok {
		c := e.Value.(*client)
		c.tokens = min(l.burst, c.tokens+max(0, now.Sub(c.at).Seconds())*l.rate)
		c.at = now
		l.lru.MoveToFront(e)
		return c
	}
	if l.lru.Len() >= l.max {
		l.drop(l.lru.Back())
	}
	c := &client{addr: addr, tokens: l.burst, at: now}
	l.clients[addr] = l.lru.PushFront(c)
	return c
}

func (l *clientLimiter) drop(e *list.Element) {
	delete(l.clients, l.lru.Remove(e).(*client).addr)
}

// wait says how long addr must wait before a request that may have no valid
// credential: zero when it has a token, or when cred has authenticated from
// it before.
func (l *clientLimiter) wait(addr netip.Prefix, cred credential, hasCred bool) time.Duration {
	now := l.clock.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.entry(addr, now)
	if c.tokens >= 1 || hasCred && c.vouches(cred) {
		return 0
	}
	return time.Duration((1 - c.tokens) / l.rate * float64(time.Second))
}

// settle records how a request that wait let through ended: a valid
// credential is remembered for addr; anything else costs addr a token, and a
// credential that failed is no longer remembered.
func (l *clientLimiter) settle(addr netip.Prefix, cred credential, hasCred, valid bool) {
	now := l.clock.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.entry(addr, now)
	if valid {
		if hasCred && !c.vouches(cred) {
			c.vouched[c.next] = cred
			c.next = (c.next + 1) % vouchedPerClient
		}
		return
	}
	c.tokens--
	if hasCred {
		for i := range c.vouched {
			if c.vouched[i] == cred {
				c.vouched[i] = credential{}
			}
		}
	}
}

func (c *client) vouches(cred credential) bool {
	for _, v := range c.vouched {
		if v == cred && v != (credential{}) {
			return true
		}
	}
	return false
}

// downloadPath is the route of signed download links. A link whose signature
// checks out is a valid credential and passes the client limit; New makes
// sure the route table has it.
const downloadPath = "/files/:id/:filename"

// clientGate is what the client limiter knows of one request.
type clientGate struct {
	held    bool // wait let it through and settle must follow
	addr    netip.Prefix
	cred    credential
	hasCred bool
}

// admitClient holds a request to its address's limit unless it needs none:
// health probes are never held (a refused liveness probe restarts a node),
// and a download link that checks out is a credential of its own.
func (s *Server) admitClient(r *request) error {
	if rt := r.route; rt != nil {
		switch rt.Path {
		case "/healthz", "/readyz":
			return nil
		case downloadPath:
			q := r.QueryArgs()
			if s.deps.Links.Check(r.param("id"), string(q.Peek("expires")), string(q.Peek("signature")), s.deps.Clock.Now()) == nil {
				return nil
			}
		}
	}
	if r.route == nil && (string(r.Method()) == http.MethodGet || string(r.Method()) == http.MethodHead) && console.Serves(string(r.URI().PathOriginal())) {
		return nil // the console's pages and assets: public, static and cheap
	}
	g := clientGate{held: true, addr: clientAddr(r.RemoteIP())}
	if token, ok := bearer(r); ok {
		g.cred, g.hasCred = credentialOf(token), true
	} else if c := r.Request.Header.Cookie(sessionCookie); len(c) > 0 {
		g.cred, g.hasCred = credentialOf(c), true
	}
	if wait := s.clients.wait(g.addr, g.cred, g.hasCred); wait > 0 {
		return fault.Retry(fmt.Errorf("%w: this address has sent too many requests without a valid key or token; it may send %g a second with bursts of %d",
			errRateLimited, s.cfg.UnauthRateLimit, s.cfg.UnauthRateBurst), int(math.Ceil(wait.Seconds())))
	}
	r.gate = g
	return nil
}

// settleClient charges the request's address when it presented no valid
// credential.
func (s *Server) settleClient(r *request) {
	if g := r.gate; g.held {
		s.clients.settle(g.addr, g.cred, g.hasCred, r.key.ID != "" || r.operator)
	}
}

// lingerFor bounds how long a refused connection is kept: to read the
// request's head, answer, and read what else the client sent until it closes;
// lingerMax is how many are kept at once. Answering before the request has
// come reads to some clients as a stray answer (Go's http.Transport drops
// it), and closing with the request unread resets the connection, and the
// client can lose the answer.
const (
	lingerFor = 2 * time.Second
	lingerMax = 64
	headMax   = 16 << 10
)

// connCap enforces Config.Concurrency. fasthttp's own cap answers a
// plain-text 503 and has no hook for another answer, so the server counts
// connections at its listener, answers those beyond the cap with the error
// envelope, and sets fasthttp's cap high enough never to be reached.
//
// A connection counts from its accept until it closes or is hijacked for a
// WebSocket, as fasthttp counts: the cap bounds the connections that can
// each hold a request body of up to MaxUploadBytes. Realtime connections hold
// no bodies and are not counted.
type connCap struct {
	max       int64
	open      atomic.Int64
	answer    []byte // the refusal's body
	refused   prometheus.Counter
	lingering chan struct{}
	clock     clock.Clock
	logger    *slog.Logger
	logged    atomic.Int64 // when the last refusal was logged, in Unix seconds
}

func newConnCap(max int, c clock.Clock, logger *slog.Logger, reg *prometheus.Registry) (*connCap, error) {
	p := statusOf(fmt.Errorf("%w: this node is serving as many connections as it allows; retry shortly", fault.ErrOverloaded))
	body, err := json.Marshal(errorEnvelope{Error: errorShape{Code: p.Code, Message: p.Message}, Message: p.Message})
	if err != nil {
		return nil, err
	}
	cc := &connCap{max: int64(max), answer: body, lingering: make(chan struct{}, lingerMax), clock: c, logger: logger,
		refused: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "platen_http_connections_refused_total",
			Help: "Connections answered 503 OVERLOADED because the node served its maximum of connections.",
		})}
	open := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "platen_http_connections_open",
		Help: "HTTP connections open and counted against the cap (realtime connections are not).",
	}, func() float64 { return float64(cc.open.Load()) })
	for _, col := range []prometheus.Collector{cc.refused, open} {
		if err := reg.Register(col); err != nil {
			return nil, err
		}
	}
	return cc, nil
}

// fasthttpConcurrency is the cap given to fasthttp: twice ours, since a
// worker is freed a moment after its connection's close releases our count.
func fasthttpConcurrency(max int) int { return 2 * max }

// listener wraps ln so that its connections are counted.
func (cc *connCap) listener(ln net.Listener) net.Listener { return &capListener{Listener: ln, cap: cc} }

// state is fasthttp's ConnState hook: a hijacked connection stops counting.
func (cc *connCap) state(c net.Conn, st fasthttp.ConnState) {
	if st == fasthttp.StateHijacked || st == fasthttp.StateClosed {
		if counted, ok := c.(*countedConn); ok {
			counted.release()
		}
	}
}

type capListener struct {
	net.Listener
	cap *connCap
}

// Accept returns the next connection within the cap, answering the ones
// beyond it itself.
func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.cap.open.Add(1) <= l.cap.max {
			return &countedConn{Conn: c, cap: l.cap}, nil
		}
		l.cap.open.Add(-1)
		l.cap.refuse(c)
	}
}

// refuse answers a connection beyond the cap with 503 OVERLOADED, then
// closes it, without holding up the accept loop.
func (cc *connCap) refuse(c net.Conn) {
	cc.refused.Inc()
	now := cc.clock.Now()
	if last := cc.logged.Load(); now.Unix()-last >= 60 && cc.logged.CompareAndSwap(last, now.Unix()) {
		cc.logger.Warn("connections refused: the node serves its maximum", "max", cc.max, "component", "http")
	}
	answer := fmt.Appendf(nil, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: %d\r\n"+
		"Retry-After: 1\r\nX-Request-Id: %s\r\nConnection: close\r\n\r\n%s", len(cc.answer), ids.New(ids.Request, now), cc.answer)
	select {
	case cc.lingering <- struct{}{}:
		go func() {
			defer func() { <-cc.lingering }()
			linger(c, answer)
		}()
	default:
		// Too many lingering already: answer at once, which a new
		// socket's empty send buffer takes without blocking, and close.
		c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
		c.Write(answer)
		c.Close()
	}
}

// linger reads the request's head, answers, sends its end of the
// connection, then reads what the client sent until it closes.
func linger(c net.Conn, answer []byte) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(lingerFor))
	head := make([]byte, 0, 1024)
	for !bytes.Contains(head, []byte("\r\n\r\n")) && len(head) < headMax {
		if len(head) == cap(head) {
			head = append(head, 0)[:len(head)]
		}
		n, err := c.Read(head[len(head):cap(head)])
		head = head[:len(head)+n]
		if err != nil {
			break
		}
	}
	if _, err := c.Write(answer); err != nil {
		return
	}
	if hc, ok := c.(interface{ CloseWrite() error }); ok {
		hc.CloseWrite()
	}
	io.Copy(io.Discard, io.LimitReader(c, 1<<20))
}

// countedConn is a connection counted against the cap until it closes or is
// hijacked. The embedded field is named Conn, through which realtime's
// tcpConn finds the TCP connection.
type countedConn struct {
	net.Conn
	cap      *connCap
	released atomic.Bool
}

func (c *countedConn) release() {
	if c.released.CompareAndSwap(false, true) {
		c.cap.open.Add(-1)
	}
}

func (c *countedConn) Close() error {
	c.release()
	return c.Conn.Close()
}
