// Package contract holds a node's answers to its own OpenAPI document.
//
// A Checker reads the document the node serves (/v1/openapi.json) with
// kin-openapi in its OpenAPI 3.1 mode, and judges one exchange: the status must
// be one the operation lists, the content type one it declares, the body valid
// against its schema with no field the schema does not name, and every header
// Platen itself sets declared on that response. A Proxy puts a Checker between
// the tests and a node, so that every route test checks every answer it gets,
// and the document and the server cannot drift apart.
package contract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

// Checker judges exchanges against one OpenAPI document.
type Checker struct {
	doc    *openapi3.T
	router routers.Router
	// everywhere are the headers components.headers declares with
	// x-platen-every-answer: true (X-Request-Id): declared once, for all.
	everywhere map[string]bool
	// roots are the first segments of the document's paths ("v1",
	// "admin", "healthz", "files", …): the rest of the server (the
	// console, its assets, /link) is not the document's business.
	roots map[string]bool
}

// New reads and validates a document (JSON or YAML), and closes its object
// schemas (see closeSchemas) so that an undocumented field is a failure.
func New(spec []byte) (*Checker, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(spec)
	if err != nil {
		return nil, fmt.Errorf("contract: reading the document: %w", err)
	}
	ctx := context.Background()
	if err := doc.Validate(ctx); err != nil {
		return nil, fmt.Errorf("contract: the document is not valid OpenAPI: %w", err)
	}
	closeSchemas(doc)
	router, err := legacy.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("contract: routing the document: %w", err)
	}
	c := &Checker{doc: doc, router: router, everywhere: map[string]bool{}, roots: map[string]bool{}}
	for path := range doc.Paths.Map() {
		c.roots[firstSegment(path)] = true
	}
	for name, h := range doc.Components.Headers {
		if h.Value != nil && h.Value.Extensions["x-platen-every-answer"] == true {
			c.everywhere[name] = true
		}
	}
	return c, nil
}

var (
	cacheMu sync.Mutex
	cache   = map[string]*Checker{}
)

// Cached is New, made once per distinct document in the process: tests start
// many nodes that serve the same one.
func Cached(spec []byte) (*Checker, error) {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if c, ok := cache[string(spec)]; ok {
		return c, nil
	}
	c, err := New(spec)
	if err != nil {
		return nil, err
	}
	cache[string(spec)] = c
	return c, nil
}

// ownHeaders are the response headers Platen sets itself besides its
// X-Platen-* ones: each must be declared on the response that carries it.
// The rest (Content-Length, Date, Vary, caching and security headers) are
// HTTP's, the same on every answer.
var ownHeaders = map[string]bool{"Idempotent-Replayed": true, "Location": true, "Retry-After": true, "X-Request-Id": true}

// own is whether a response header is Platen's own.
func own(name string) bool {
	return ownHeaders[name] || strings.HasPrefix(name, "X-Platen-")
}

// Check judges one exchange. A path outside the document's (the console, the
// console's assets, /link) is not the document's business and passes; a path
// under one of the document's roots (/v1, /admin, /files, …) that the document
// does not have fails, unless it is answered 404 or 405.
func (c *Checker) Check(req *http.Request, status int, header http.Header, body []byte) error {
	if !c.documented(req.URL.Path) {
		return nil
	}
	head := req.Method == http.MethodHead
	if head {
		// HEAD is GET without the body (RFC 9110): judged by the GET's
		// statuses, headers and content types.
		req = req.Clone(req.Context())
		req.Method, body = http.MethodGet, nil
	}
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		// A path or method the document lacks answered 404 or 405 is the
		// server keeping to the document.
		var re *routers.RouteError
		if errors.As(err, &re) && (status == http.StatusNotFound || status == http.StatusMethodNotAllowed) {
			return nil
		}
		return fmt.Errorf("%s %s: not in the document (%v)", req.Method, req.URL.Path, err)
	}
	if status == http.StatusSwitchingProtocols {
		return nil
	}
	op := route.Operation
	ref := op.Responses.Status(status)
	if ref == nil {
		ref = op.Responses.Default()
	}
	if ref == nil || ref.Value == nil {
		return fmt.Errorf("%s %s: status %d is not listed", req.Method, route.Path, status)
	}
	res := ref.Value
	for name := range header {
		if !own(name) || c.everywhere[name] {
			continue
		}
		if _, ok := res.Headers[name]; !ok && !(name == "Location" && status/100 == 3) {
			return fmt.Errorf("%s %s %d: header %s is not declared", req.Method, route.Path, status, name)
		}
	}
	if len(res.Content) == 0 {
		if len(body) > 0 && status != http.StatusNotModified {
			return fmt.Errorf("%s %s %d: a %q body where none is declared", req.Method, route.Path, status, header.Get("Content-Type"))
		}
		return nil
	}
	ct := header.Get("Content-Type")
	mt := res.Content.Get(ct)
	if mt == nil {
		return fmt.Errorf("%s %s %d: content type %q is not declared", req.Method, route.Path, status, ct)
	}
	if head || !strings.Contains(ct, "json") {
		// A file (a PDF, a PNG, XML): its type is declared; its bytes
		// are its own format's business.
		return nil
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
		},
		Status:  status,
		Header:  header,
		Body:    io.NopCloser(bytes.NewReader(body)),
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		return fmt.Errorf("%s %s %d: %s\n  body: %.600s", req.Method, route.Path, status, oneLine(err), body)
	}
	return nil
}

// documented is whether a path is under one of the document's roots.
func (c *Checker) documented(path string) bool {
	if strings.Contains(path+"/", "/../") || strings.Contains(path+"/", "/./") || strings.Contains(path, "//") {
		// Dot segments and empty ones name no route: the server answers
		// 404 without cleaning them, and the router here would clean them.
		return false
	}
	return c.roots[firstSegment(path)]
}

// firstSegment is "v1" of "/v1/documents".
func firstSegment(path string) string {
	seg, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	return seg
}

func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// closeSchemas makes every object schema refuse properties it does not name.
// A schema that names its properties gets additionalProperties false, unless
// it says what it allows or is a part of an allOf: a part sees only its own
// properties, so it stays open, and the allOf closes instead
// (unevaluatedProperties false, which sees every part's), as does each
// place that uses a part on its own (wrapped in an allOf of one).
func closeSchemas(doc *openapi3.T) {
	// Every place a schema is used: the response contents, then what the
	// schemas hold.
	var roots []*openapi3.SchemaRef
	for _, s := range doc.Components.Schemas {
		roots = append(roots, s)
	}
	for _, r := range doc.Components.Responses {
		for _, mt := range r.Value.Content {
			roots = append(roots, mt.Schema)
		}
	}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			for _, r := range op.Responses.Map() {
				if r.Value == nil {
					continue
				}
				for _, mt := range r.Value.Content {
					roots = append(roots, mt.Schema)
				}
			}
		}
	}
	// each visits every schema once, calling visit with each place in it
	// that uses a schema (and whether that place is a part of an allOf).
	each := func(visit func(site *openapi3.SchemaRef, part bool)) []*openapi3.Schema {
		var all []*openapi3.Schema
		seen := map[*openapi3.Schema]bool{}
		var walk func(*openapi3.SchemaRef, bool)
		walk = func(ref *openapi3.SchemaRef, part bool) {
			if ref == nil || ref.Value == nil {
				return
			}
			visit(ref, part)
			s := ref.Value
			if seen[s] {
				return
			}
			seen[s] = true
			all = append(all, s)
			for _, p := range s.AllOf {
				walk(p, true)
			}
			for _, p := range append(append([]*openapi3.SchemaRef{s.Items, s.AdditionalProperties.Schema}, s.OneOf...), s.AnyOf...) {
				walk(p, false)
			}
			for _, p := range s.Properties {
				walk(p, false)
			}
		}
		for _, r := range roots {
			walk(r, false)
		}
		return all
	}
	parts := map[*openapi3.Schema]bool{}
	each(func(site *openapi3.SchemaRef, part bool) {
		if part {
			parts[site.Value] = true
		}
	})
	no := false
	var alone []*openapi3.SchemaRef
	all := each(func(site *openapi3.SchemaRef, part bool) {
		if !part && parts[site.Value] && len(site.Value.Properties) > 0 {
			alone = append(alone, site)
		}
	})
	for _, site := range alone {
		part := &openapi3.SchemaRef{Ref: site.Ref, Value: site.Value}
		site.Ref, site.Value = "", &openapi3.Schema{AllOf: openapi3.SchemaRefs{part}}
		site.Value.UnevaluatedProperties.Has = &no
	}
	for _, s := range all {
		switch {
		case s.AdditionalProperties.Has != nil || s.AdditionalProperties.Schema != nil || s.UnevaluatedProperties.Has != nil:
		case len(s.AllOf) > 0 && !parts[s]:
			s.UnevaluatedProperties.Has = &no
		case len(s.Properties) > 0 && !parts[s]:
			s.AdditionalProperties.Has = &no
		}
	}
}

// Proxy is a reverse proxy to a node that checks every answer it carries.
type Proxy struct {
	URL string

	srv      *httptest.Server
	checker  *Checker
	mu       sync.Mutex // guards problems, checked and operations
	problems map[string]bool
	checked  int
	// operations are the documented operations answered, by method and
	// path template.
	operations map[string]bool
}

// StartProxy starts a proxy on loopback to the node at target
// (http://host:port).
func StartProxy(target string, c *Checker) (*Proxy, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	p := &Proxy{checker: c, problems: map[string]bool{}, operations: map[string]bool{}}
	rp := &httputil.ReverseProxy{
		// The node sees the client as the proxy (no forwarding headers),
		// and the Host the client asked for, which the console's origin
		// check compares with the request's Origin.
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(u)
			r.Out.Host = r.In.Host
		},
		FlushInterval: -1,
	}
	rp.ModifyResponse = func(res *http.Response) error {
		if res.StatusCode == http.StatusSwitchingProtocols {
			return nil
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			return err
		}
		res.Body = io.NopCloser(bytes.NewReader(body))
		if res.Request != nil {
			req := res.Request.Clone(context.Background())
			req.URL.Scheme, req.URL.Host, req.Host = "", "", ""
			err := p.checker.Check(req, res.StatusCode, res.Header, body)
			op := p.checker.operation(req)
			p.mu.Lock()
			p.checked++
			if op != "" {
				p.operations[op] = true
			}
			if err != nil {
				p.problems[err.Error()] = true
			}
			p.mu.Unlock()
		}
		return nil
	}
	rp.ErrorLog = nil
	p.srv = httptest.NewServer(rp)
	p.URL = p.srv.URL
	return p, nil
}

// Problems are the distinct failures seen so far, sorted.
func (p *Proxy) Problems() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]string, 0, len(p.problems))
	for k := range p.problems {
		out = append(out, k)
	}
	sort.Strings(out)
	return slices.Clip(out)
}

// Seen says how many answers the proxy checked, and the documented
// operations they answered ("GET /v1/documents/{id}").
func (p *Proxy) Seen() (answers int, operations []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for op := range p.operations {
		operations = append(operations, op)
	}
	sort.Strings(operations)
	return p.checked, operations
}

// operation names the documented operation a request is for, or "".
func (c *Checker) operation(req *http.Request) string {
	if !c.documented(req.URL.Path) {
		return ""
	}
	route, _, err := c.router.FindRoute(req)
	if err != nil {
		return ""
	}
	return req.Method + " " + route.Path
}

// Close stops the proxy.
func (p *Proxy) Close() { p.srv.Close() }
