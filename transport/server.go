package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/url"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/valyala/fasthttp"

	"github.com/platen/platen/actors"
	"github.com/platen/platen/app"
	"github.com/platen/platen/auth"
	"github.com/platen/platen/internal/clock"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/internal/ids"
	"github.com/platen/platen/internal/jsonbody"
	"github.com/platen/platen/links"
	"github.com/platen/platen/storage"
)

// Config is the HTTP surface's settings.
type Config struct {
	// MaxBodyBytes is the largest JSON body accepted (docs/design.md "Limits": 10 MB).
	MaxBodyBytes int
	// MaxUploadBytes is the largest upload accepted, for routes that take files
	// (20 MB). The server reads no body larger than this.
	MaxUploadBytes int
	// RateLimit and RateBurst are each key's sustained requests per second and
	// burst (50 and 100).
	RateLimit float64
	RateBurst int
	// UnauthRateLimit and UnauthRateBurst are each client address's sustained
	// requests per second and burst for requests that present no valid
	// credential: no key, a wrong key or operator token, a bad download link,
	// an unknown path (2 and 40; limits.go). Beyond them: 429 with Retry-After.
	UnauthRateLimit float64
	UnauthRateBurst int
	// UnauthClients caps the client addresses that limit remembers (10,000).
	UnauthClients int
	// Concurrency caps the connections served at once, which bounds memory:
	// each may hold a body of up to MaxUploadBytes. Connections beyond it are
	// answered 503 OVERLOADED and closed; realtime connections do not count.
	Concurrency int
	// Version is the build's version, shown by the operator API.
	Version string
	// Realtime holds the realtime namespace's settings.
	Realtime RealtimeConfig
	// BaseURL is the node's public address (node.Config.BaseURL): one-time
	// links are made on it, the console's cookie is Secure when it is
	// https, and a console request's Origin may name its host.
	BaseURL string
}

// DefaultConfig returns the limits of docs/design.md "Limits".
func DefaultConfig() Config {
	return Config{
		MaxBodyBytes:   10 << 20,
		MaxUploadBytes: 20 << 20,
		RateLimit:      50,
		RateBurst:      100,
		// Without a key, a client fetches the OpenAPI document, scrapes
		// /metrics, opens a realtime socket that sends its key in a frame or
		// follows an expired link: a few requests a minute. 40 at once covers
		// a page of them; 2 a second holds a guesser to 170,000 guesses a day
		// from one address, nothing against a 256-bit key or a random token.
		UnauthRateLimit: 2,
		UnauthRateBurst: 40,
		// About 250 bytes each: 10,000 addresses is 2.5 MB. An attacker with
		// more addresses than this has a fresh burst on each anyway.
		UnauthClients: 10_000,
		// 512 connections × 20 MB worst case stays inside this machine's memory.
		Concurrency: 512,
		Version:     "dev",
		Realtime:    DefaultRealtimeConfig(),
	}
}

// Validate reports a setting that cannot work.
func (c Config) Validate() error {
	switch {
	case c.MaxBodyBytes <= 0 || c.MaxUploadBytes < c.MaxBodyBytes:
		return errors.New("transport: body limits must be positive, uploads at least the body limit")
	case c.RateLimit <= 0 || c.RateBurst <= 0:
		return errors.New("transport: rate limit and burst must be positive")
	case c.UnauthRateLimit <= 0 || c.UnauthRateBurst <= 0 || c.UnauthClients <= 0:
		return errors.New("transport: the unauthenticated rate limit, burst and client count must be positive")
	case c.Concurrency <= 0 || c.Concurrency > math.MaxInt32/2:
		return errors.New("transport: concurrency must be positive and at most 2^30")
	case c.Realtime.Heartbeat <= 0 || c.Realtime.AuthTimeout <= 0 || c.Realtime.WriteTimeout <= 0 || c.Realtime.SendQueue <= 0:
		return errors.New("transport: realtime heartbeat, timeouts and send queue must be positive")
	}
	return nil
}

// Deps is what the HTTP surface needs from its node.
type Deps struct {
	// App runs the use cases: every state change but a single actor
	// message goes through it.
	App    *app.App
	Store  *storage.Store
	Actors *actors.System
	Clock  clock.Clock
	Logger *slog.Logger
	// Ready returns nil when the node can serve, or why it cannot.
	Ready func() error
	// Cluster describes the cluster for the operator API.
	Cluster func() any
	// OperatorTokenHash is the hash of the operator token.
	OperatorTokenHash string
	// Metrics is the registry /metrics serves and this package registers on.
	Metrics *prometheus.Registry
	// SetPlanTerms stores the operator's terms for a plan.
	SetPlanTerms func(storage.Plan) error
	// CatchUp, in a cluster, waits until this node has applied what the
	// leader had committed when asked.
	CatchUp func() error
	// RemoveNode, in a cluster, takes a node out of the raft configuration.
	RemoveNode func(id string) error
	// Links mints and checks download links.
	Links links.Links
}

// Server is the HTTP surface of one node.
type Server struct {
	cfg    Config
	deps   Deps
	routes []*route
	limits *keyLimiter
	// clients and conns are the refusals made for the node: requests without
	// a valid credential per address, and connections beyond the cap.
	clients *clientLimiter
	conns   *connCap
	// app runs the use cases every way in shares.
	app     *app.App
	metrics *httpMetrics
	http    *fasthttp.Server
	hub     *hub
	// inflight counts handlers running, so Shutdown can wait for the last one
	// before the node closes the store under it.
	inflight sync.WaitGroup
}

// New builds the server and its routes.
func New(cfg Config, deps Deps) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, deps: deps, limits: newKeyLimiter(cfg.RateLimit, cfg.RateBurst, deps.Clock), hub: newHub()}
	if deps.Store != nil {
		deps.Store.OnFeed(s.hub.notify)
	}
	go s.hub.heartbeat(cfg.Realtime.Heartbeat, cfg.Realtime.WriteTimeout, s.hub.stop)
	s.app = deps.App
	s.routes = s.table()
	var err error
	if s.metrics, err = newHTTPMetrics(deps.Metrics); err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(s.routes, func(rt *route) bool { return rt.Path == downloadPath }) {
		return nil, fmt.Errorf("transport: no route %s, which the client limit exempts", downloadPath)
	}
	s.clients = newClientLimiter(cfg.UnauthRateLimit, cfg.UnauthRateBurst, cfg.UnauthClients, deps.Clock)
	if s.conns, err = newConnCap(cfg.Concurrency, deps.Clock, deps.Logger, deps.Metrics); err != nil {
		return nil, err
	}
	s.http = &fasthttp.Server{
		Handler:        s.handle,
		ErrorHandler:   s.handleParseError,
		HeaderReceived: s.headerReceived,
		// fasthttp otherwise logs raw request headers, Authorization included.
		SecureErrorLogMessage: true,
		// A WebSocket outlives its upgrade's handler: fasthttp must neither
		// close it nor hold the request's buffers for its whole life.
		KeepHijackedConns:     true,
		Name:                  "platen",
		MaxRequestBodySize:    cfg.MaxUploadBytes,
		ReadTimeout:           60 * time.Second,
		WriteTimeout:          120 * time.Second,
		IdleTimeout:           120 * time.Second,
		NoDefaultServerHeader: true,
		NoDefaultContentType:  true,
		Logger:                fasthttpLogger{deps.Logger},
		// Serve's listener enforces cfg.Concurrency with the error
		// envelope; fasthttp's own plain-text refusal must never fire.
		Concurrency: fasthttpConcurrency(cfg.Concurrency),
		ConnState:   s.conns.state,
	}
	return s, nil
}

// Serve answers on ln until Shutdown.
func (s *Server) Serve(ln net.Listener) error { return s.http.Serve(s.conns.listener(ln)) }

// RealtimeConnections is how many realtime connections are open.
func (s *Server) RealtimeConnections() int { return s.hub.count() }

// Shutdown stops accepting connections and waits for open requests to finish,
// until ctx ends; then it waits for handlers still running, each bounded by its
// own timeouts, so nothing reads the store after it returns.
func (s *Server) Shutdown(ctx context.Context) error {
	s.hub.closeAll()
	err := s.http.ShutdownWithContext(ctx)
	s.inflight.Wait()
	return err
}

// authKind is what a route needs to be called.
type authKind int

const (
	authNone authKind = iota
	authKey
	authOperator
	// authPerson is a console route: a signed-in person's session, never a
	// key (transport/console.go).
	authPerson
)

// route is one entry of the route table.
type route struct {
	Method  string
	Path    string // segments; ":name" is a parameter
	Summary string
	Auth    authKind
	// Scope is what an authKey route needs; empty means any valid key.
	Scope auth.Scope
	// Upload marks routes that take files up to MaxUploadBytes.
	Upload bool
	// Owner marks console routes only an organisation's owners may use.
	Owner   bool
	Handler func(*request) error

	segments []string
}

func (rt *route) match(segs []string) (map[string]string, bool) {
	if len(segs) != len(rt.segments) {
		return nil, false
	}
	var params map[string]string
	for i, s := range rt.segments {
		if strings.HasPrefix(s, ":") {
			if segs[i] == "" {
				return nil, false
			}
			if params == nil {
				params = map[string]string{}
			}
			params[s[1:]] = segs[i]
		} else if s != segs[i] {
			return nil, false
		}
	}
	return params, true
}

// request is one call as a handler sees it.
type request struct {
	*fasthttp.RequestCtx
	srv    *Server
	route  *route
	params map[string]string
	id     string
	// key and org are set on authKey routes.
	key storage.APIKey
	org storage.Org
	// operator is set once the operator token checked out.
	operator bool
	// principal is the signed-in person of a request authenticated by a
	// console session; key then stands for them (authenticateSession).
	principal *app.Principal
	// gate is what the client limiter knows of the request (limits.go).
	gate clientGate
	// asked is set once the handler has asked an actor: from then on a
	// not-found may follow a change, and the handler must not run twice.
	asked bool
}

// askOrg asks an organisation's actor on the request's behalf, and answers
// its typed reply.
func askOrg[R any](r *request, orgID string, c actors.Command[R]) (R, error) {
	r.asked = true
	return actors.Ask(r.srv.deps.Actors, orgID, c)
}

// param returns a path parameter.
func (r *request) param(name string) string { return r.params[name] }

// decode reads the JSON body into v, refusing unknown fields. An empty body
// is an empty object.
func (r *request) decode(v any) error { return decodeStrict(r.PostBody(), v) }

// decodeStrict reads one JSON object into v, refusing unknown fields and
// anything after the object.
func decodeStrict(body []byte, v any) error { return jsonbody.Decode(body, v) }

// ok writes the success envelope.
func (r *request) ok(status int, data any, message string) error {
	return r.writeJSON(status, envelope{Success: true, Data: data, Message: message})
}

func (r *request) writeJSON(status int, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	r.SetStatusCode(status)
	r.SetContentType("application/json; charset=utf-8")
	r.SetBody(body)
	return nil
}

// envelope is the spec's response envelope.
type envelope struct {
	Success bool   `json:"success"`
	Data    any    `json:"data,omitempty"`
	Message string `json:"message,omitempty"`
}

// errorEnvelope is the error envelope of docs/design.md "Errors".
type errorEnvelope struct {
	Success bool       `json:"success"`
	Error   errorShape `json:"error"`
	Message string     `json:"message"`
}

type errorShape struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Field   string `json:"field,omitempty"`
	// Violations lists every field at fault when a refusal found several
	// (a payload against its schema); field is the first's.
	Violations []violation `json:"violations,omitempty"`
}

func writeProblem(ctx *fasthttp.RequestCtx, p problem, requestID string) {
	if p.Status >= fasthttp.StatusInternalServerError || p.Withheld != "" {
		// Fixed words: the request id is what the caller can quote.
		p.Message += "; quote request id " + requestID + " when reporting it"
	}
	body, _ := json.Marshal(errorEnvelope{Error: errorShape{Code: p.Code, Message: p.Message, Field: p.Field, Violations: p.Violations}, Message: p.Message})
	ctx.SetStatusCode(p.Status)
	ctx.SetContentType("application/json; charset=utf-8")
	if p.RetryAfter > 0 {
		ctx.Response.Header.Set("Retry-After", strconv.Itoa(p.RetryAfter))
	}
	ctx.SetBody(body)
}

// handle is the entry point of every request.
func (s *Server) handle(ctx *fasthttp.RequestCtx) {
	s.inflight.Add(1)
	defer s.inflight.Done()
	start := time.Now()
	r := &request{RequestCtx: ctx, srv: s, id: requestID(ctx, s.deps.Clock)}
	ctx.Response.Header.Set("X-Request-Id", r.id)

	err := s.dispatchRecovered(r)
	s.settleClient(r)
	if err != nil {
		p := statusOf(err)
		if p.Status >= 500 || p.Withheld != "" {
			s.deps.Logger.Error("request failed", "request_id", r.id, "status", p.Status, "code", p.Code, "withheld", p.Withheld, "err", err.Error())
		}
		writeProblem(ctx, p, r.id)
	}
	pattern := "unmatched"
	if r.route != nil {
		pattern = r.route.Path
	}
	status := ctx.Response.StatusCode()
	elapsed := time.Since(start)
	s.metrics.observe(string(ctx.Method()), pattern, status, elapsed)
	if pattern != "/healthz" && pattern != "/readyz" && pattern != "/metrics" {
		s.deps.Logger.Info("request", "request_id", r.id, "method", string(ctx.Method()), "route", pattern,
			"status", status, "duration_ms", float64(elapsed.Microseconds())/1000, "org", r.org.ID, "key", r.key.ID)
	}
}

// errPanicked is a handler that panicked: a fault of ours, answered 500.
var errPanicked = errors.New("handler panicked")

// dispatchRecovered runs dispatch and turns a panic into an error: fasthttp
// does not recover handlers, and one bad request must not stop the node.
func (s *Server) dispatchRecovered(r *request) (err error) {
	defer func() {
		if v := recover(); v != nil {
			s.deps.Logger.Error("handler panicked", "request_id", r.id, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			err = fmt.Errorf("%w: %v", errPanicked, v)
		}
	}()
	return s.dispatch(r)
}

// dispatch finds the route, checks who calls and what they send, and runs the handler.
func (s *Server) dispatch(r *request) error {
	path := string(r.URI().PathOriginal())
	segs, ok := splitPath(path)
	method := string(r.Method())
	if method == fasthttp.MethodHead {
		method = fasthttp.MethodGet
	}
	var allowed []string
	for _, rt := range s.routes {
		if !ok {
			break
		}
		params, match := rt.match(segs)
		if !match {
			continue
		}
		if rt.Method != method {
			allowed = append(allowed, rt.Method)
			continue
		}
		r.route, r.params = rt, params
		break
	}
	// Before any credential is looked at, a request that may have none is
	// held to its address's rate (limits.go).
	if err := s.admitClient(r); err != nil {
		return err
	}
	if r.route == nil {
		if ok && len(allowed) == 0 && method == fasthttp.MethodGet && s.servePage(r, path) {
			return nil
		}
		if len(allowed) > 0 {
			r.Response.Header.Set("Allow", strings.Join(allowed, ", "))
			return fmt.Errorf("%w: %s %s; allowed: %s", errMethod, method, path, strings.Join(allowed, ", "))
		}
		return fmt.Errorf("%w: no route %s %s", fault.ErrNotFound, method, path)
	}

	switch r.route.Auth {
	case authKey:
		if err := s.authenticate(r); err != nil {
			return err
		}
	case authOperator:
		if err := s.authenticateOperator(r); err != nil {
			return err
		}
	case authPerson:
		if err := s.authenticatePerson(r); err != nil {
			return err
		}
	}
	if limit := s.bodyLimit(r.route); len(r.PostBody()) > limit {
		return fmt.Errorf("%w: the limit for this route is %d bytes", errTooLarge, limit)
	}
	err := r.route.Handler(r)
	if !r.asked && s.deps.CatchUp != nil && errors.Is(err, fault.ErrNotFound) && s.deps.CatchUp() == nil {
		// In a cluster this node reads its own store, which may not have
		// applied yet what was acknowledged on another node a moment ago.
		// A handler that found nothing before asking any actor changed
		// nothing: it runs once more, caught up with the leader. One that
		// asked may have changed something, and is not run twice.
		r.Response.ResetBody()
		err = r.route.Handler(r)
	}
	return err
}

// splitPath splits the raw request path into unescaped segments, so that an
// escaped slash stays inside its segment and dot segments match no route. A
// single trailing slash is ignored.
func splitPath(raw string) ([]string, bool) {
	if raw == "/" {
		return []string{""}, true
	}
	raw = strings.TrimSuffix(raw, "/")
	parts := strings.Split(raw, "/")
	for i, p := range parts {
		u, err := url.PathUnescape(p)
		if err != nil || (i > 0 && (u == "" || u == "." || u == "..")) {
			return nil, false
		}
		parts[i] = u
	}
	return parts, true
}

func (s *Server) bodyLimit(rt *route) int {
	if rt != nil && rt.Upload {
		return s.cfg.MaxUploadBytes
	}
	return s.cfg.MaxBodyBytes
}

// headerReceived sets each request's body limit from its route before the
// body is read, so a body over the route's limit is refused unread.
func (s *Server) headerReceived(h *fasthttp.RequestHeader) fasthttp.RequestConfig {
	limit := s.cfg.MaxBodyBytes
	if segs, ok := splitPath(string(h.RequestURI())); ok {
		for _, rt := range s.routes {
			if _, match := rt.match(segs); match && rt.Method == string(h.Method()) {
				limit = s.bodyLimit(rt)
				break
			}
		}
	}
	return fasthttp.RequestConfig{MaxRequestBodySize: limit}
}

// handleParseError answers requests fasthttp could not read, such as bodies
// over MaxUploadBytes, in the error envelope.
func (s *Server) handleParseError(ctx *fasthttp.RequestCtx, err error) {
	// The parser's own message can quote raw headers, keys included: answer
	// with fixed text.
	p := statusOf(fmt.Errorf("%w: the request could not be read as HTTP", fault.ErrInvalid))
	if errors.Is(err, fasthttp.ErrBodyTooLarge) {
		p = statusOf(fmt.Errorf("%w: the body is over this route's limit", errTooLarge))
	}
	ctx.Response.Header.Set("Connection", "close")
	id := requestID(ctx, s.deps.Clock)
	ctx.Response.Header.Set("X-Request-Id", id)
	writeProblem(ctx, p, id)
}

// requestID keeps a caller's X-Request-Id when it is short and plain, so
// traces join up, and makes one otherwise.
func requestID(ctx *fasthttp.RequestCtx, c clock.Clock) string {
	in := ctx.Request.Header.Peek("X-Request-Id")
	if n := len(in); n > 0 && n <= 128 {
		ok := true
		for _, b := range in {
			if !(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '-' || b == '_' || b == '.') {
				ok = false
				break
			}
		}
		if ok {
			return string(in)
		}
	}
	return ids.New(ids.Request, c.Now())
}

type fasthttpLogger struct{ l *slog.Logger }

func (f fasthttpLogger) Printf(format string, args ...any) {
	f.l.Warn(fmt.Sprintf(format, args...), "component", "http")
}
