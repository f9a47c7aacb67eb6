package transport

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/platen/platen/actors"
	"github.com/platen/platen/cluster"
	"github.com/platen/platen/internal/clock"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/render"
	"github.com/platen/platen/storage"
)

func testServer(t *testing.T) *Server {
	t.Helper()
	s, err := New(DefaultConfig(), Deps{Clock: clock.System{}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Metrics: prometheus.NewRegistry()})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestOpenAPIMatchesRoutes holds openapi.yaml to the route table: the same
// operations, the same scopes, the same authentication, in both directions.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	var doc struct {
		OpenAPI string `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage
	}
	if err := json.Unmarshal(openapiJSON, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Fatalf("openapi %q", doc.OpenAPI)
	}
	param := regexp.MustCompile(`\{([A-Za-z]+)\}`)
	documented := map[string]map[string]any{}
	for path, item := range doc.Paths {
		for method, raw := range item {
			if method == "parameters" {
				continue
			}
			var op map[string]any
			if err := json.Unmarshal(raw, &op); err != nil {
				t.Fatal(err)
			}
			documented[strings.ToUpper(method)+" "+param.ReplaceAllString(path, ":$1")] = op
		}
	}
	s := testServer(t)
	served := map[string]bool{}
	for _, rt := range s.routes {
		if strings.HasPrefix(rt.Path, "/console/") {
			continue // the console's own routes: not the public API (docs/console.md)
		}
		k := rt.Method + " " + rt.Path
		served[k] = true
		op, ok := documented[k]
		if !ok {
			t.Errorf("%s is served but not in openapi.yaml", k)
			continue
		}
		if op["summary"] == nil || op["responses"] == nil {
			t.Errorf("%s lacks a summary or responses", k)
		}
		scope, _ := op["x-platen-scope"].(string)
		if scope != string(rt.Scope) {
			t.Errorf("%s: openapi scope %q, route scope %q", k, scope, rt.Scope)
		}
		sec, hasSec := op["security"].([]any)
		switch rt.Auth {
		case authNone:
			if !hasSec || len(sec) != 0 {
				t.Errorf("%s needs no auth but openapi says %v", k, op["security"])
			}
		case authOperator:
			if !hasSec || len(sec) != 1 || sec[0].(map[string]any)["operatorToken"] == nil {
				t.Errorf("%s needs the operator token but openapi says %v", k, op["security"])
			}
		case authKey:
			if hasSec {
				t.Errorf("%s takes an API key (the document's default) but overrides security with %v", k, sec)
			}
			if _, ok := op["x-platen-scope"]; !ok {
				t.Errorf("%s has no x-platen-scope", k)
			}
		}
	}
	var extra []string
	for k := range documented {
		if !served[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	if len(extra) > 0 {
		t.Errorf("in openapi.yaml but not served: %v", extra)
	}
}

func TestStatusOf(t *testing.T) {
	cases := []struct {
		err        error
		status     int
		code       string
		field      string
		retryAfter int
	}{
		{fault.Invalid("items[2].price", "must be a number"), 400, codeInvalid, "items[2].price", 0},
		{fault.Payload("total", "is required"), 422, codePayload, "total", 0},
		{errUnauthenticated, 401, codeUnauthenticated, "", 0},
		{fmt.Errorf("%w: needs x", errForbidden), 403, codeForbidden, "", 0},
		{fmt.Errorf("%w: doc_1", fault.ErrNotFound), 404, codeNotFound, "", 0},
		{storage.ErrNotFound, 404, codeNotFound, "", 0},
		{errMethod, 405, codeMethod, "", 0},
		{storage.ErrConflict, 409, codeConflict, "", 0},
		{fault.ErrPaymentRequired, 402, codePayment, "", 0},
		{errTooLarge, 413, codeTooLarge, "", 0},
		{fault.Retry(errRateLimited, 3), 429, codeRateLimited, "", 3},
		{fault.ErrOverloaded, 503, codeOverloaded, "", 1},
		{fault.ErrUnavailable, 503, codeUnavailable, "", 1},
		{fmt.Errorf("x: %w", storage.ErrStale), 503, codeUnavailable, "", 1},
		{cluster.ErrNotLeader, 503, codeUnavailable, "", 1},
		{actors.ErrPanicked, 503, codeUnavailable, "", 1},
		{cluster.ErrOutcomeUnknown, 503, codeUnavailable, "", 1},
		{actors.ErrNoAnswer, 503, codeUnavailable, "", 1},
		{fmt.Errorf("%w: helper failed", render.ErrFill), 422, codeRenderFailed, "", 0},
		{render.ErrTooManyPages, 422, codeRenderFailed, "", 0},
		{errors.New("open /work/data/state: disk full"), 500, codeInternal, "", 0},
	}
	for _, c := range cases {
		p := statusOf(c.err)
		if p.Status != c.status || p.Code != c.code || p.Field != c.field || p.RetryAfter != c.retryAfter {
			t.Errorf("statusOf(%v) = %+v", c.err, p)
		}
		if c.status == 500 && strings.Contains(p.Message, "/work/") {
			t.Errorf("internal error leaks its detail: %q", p.Message)
		}
	}
}

// TestOpenAPIEventKindsAreTheWebhookEvents: the console offers the event
// kinds of the EventKind schema as the boxes of a new endpoint, so the
// schema must name exactly the kinds an endpoint accepts.
func TestOpenAPIEventKindsAreTheWebhookEvents(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas struct {
				EventKind struct {
					Enum []string `json:"enum"`
				} `json:"EventKind"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openapiJSON, &doc); err != nil {
		t.Fatal(err)
	}
	if got := doc.Components.Schemas.EventKind.Enum; strings.Join(got, ",") != strings.Join(storage.WebhookEvents, ",") {
		t.Fatalf("EventKind %v, webhooks accept %v", got, storage.WebhookEvents)
	}
}

// TestOpenAPIHasNoStrayKeys: an unquoted description with a comma inside a
// YAML flow mapping ({description: a, b}) splits into a cut description and
// a key "b" with no value. The served document holds no null anywhere.
func TestOpenAPIHasNoStrayKeys(t *testing.T) {
	var doc any
	if err := json.Unmarshal(openapiJSON, &doc); err != nil {
		t.Fatal(err)
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case nil:
			t.Errorf("%s is null: a stray key of an unquoted description in openapi.yaml?", path)
		case map[string]any:
			for k, c := range x {
				walk(path+"/"+k, c)
			}
		case []any:
			for i, c := range x {
				walk(fmt.Sprintf("%s/%d", path, i), c)
			}
		}
	}
	walk("", doc)
}

// TestOpenAPIOperationIDs: every operation has an operationId, a name code
// generators can use as it is (letters and digits, starting lower case),
// and no two share one.
func TestOpenAPIOperationIDs(t *testing.T) {
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(openapiJSON, &doc); err != nil {
		t.Fatal(err)
	}
	ident := regexp.MustCompile(`^[a-z][A-Za-z0-9]*$`)
	seen := map[string]string{}
	for path, ops := range doc.Paths {
		for method, raw := range ops {
			if method == "parameters" {
				continue
			}
			var op struct {
				OperationID string `json:"operationId"`
			}
			if err := json.Unmarshal(raw, &op); err != nil {
				t.Fatalf("%s %s: %v", method, path, err)
			}
			where := strings.ToUpper(method) + " " + path
			switch {
			case op.OperationID == "":
				t.Errorf("%s has no operationId", where)
			case !ident.MatchString(op.OperationID):
				t.Errorf("%s: operationId %q is not an identifier", where, op.OperationID)
			case seen[op.OperationID] != "":
				t.Errorf("%s and %s share the operationId %q", where, seen[op.OperationID], op.OperationID)
			default:
				seen[op.OperationID] = where
			}
		}
	}
}

// wantStatuses are the statuses any operation of route rt can answer
// whatever its handler does: 429 (a key over its rate, or an address over
// the rate of requests without a valid credential) and 503 (the node's
// connections full, or no leader) everywhere; 401 where a credential is
// needed; 403 where a scope is; 400 and 413 where a body is taken.
func wantStatuses(rt *route) []string {
	want := []string{"429", "503"}
	if rt.Auth != authNone {
		want = append(want, "401")
	}
	if rt.Scope != "" {
		want = append(want, "403")
	}
	switch rt.Method {
	case "POST", "PUT", "PATCH":
		want = append(want, "400", "413")
	}
	if strings.Contains(rt.Path, "/:") && !strings.HasPrefix(rt.Path, "/admin/v1/plans/") {
		// An id in the path may name nothing (a plan that does not exist
		// yet is created by its PUT).
		want = append(want, "404")
	}
	return want
}

// TestOpenAPIListsTheSharedStatuses: each operation of the route table
// lists the statuses every operation like it can answer (wantStatuses),
// so that a typed client has an error type for each.
func TestOpenAPIListsTheSharedStatuses(t *testing.T) {
	var doc struct {
		Paths map[string]map[string]json.RawMessage
	}
	if err := json.Unmarshal(openapiJSON, &doc); err != nil {
		t.Fatal(err)
	}
	param := regexp.MustCompile(`\{([A-Za-z]+)\}`)
	responses := map[string]map[string]json.RawMessage{}
	for path, item := range doc.Paths {
		for method, raw := range item {
			var op struct {
				Responses map[string]json.RawMessage `json:"responses"`
			}
			if method == "parameters" || json.Unmarshal(raw, &op) != nil {
				continue
			}
			responses[strings.ToUpper(method)+" "+param.ReplaceAllString(path, ":$1")] = op.Responses
		}
	}
	for _, rt := range testServer(t).routes {
		if strings.HasPrefix(rt.Path, "/console/") {
			continue
		}
		k := rt.Method + " " + rt.Path
		for _, code := range wantStatuses(rt) {
			if _, ok := responses[k][code]; !ok {
				t.Errorf("%s does not list %s", k, code)
			}
		}
		// 429 and 503 answer Retry-After: their shared responses declare it.
		for code, name := range map[string]string{"429": "RateLimited", "503": "Unavailable"} {
			if raw, ok := responses[k][code]; ok && !strings.Contains(string(raw), "/"+name+`"`) {
				t.Errorf("%s's %s is not the shared %s response: %s", k, code, name, raw)
			}
		}
	}
}

// TestOpenAPIRefsResolve: every $ref in the document points at something
// in it, and no component name is both a response and a schema (code
// generators name types after both, and collide).
func TestOpenAPIRefsResolve(t *testing.T) {
	var doc map[string]any
	if err := json.Unmarshal(openapiJSON, &doc); err != nil {
		t.Fatal(err)
	}
	resolve := func(ref string) bool {
		var at any = doc
		for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			m, ok := at.(map[string]any)
			if !ok {
				return false
			}
			if at, ok = m[strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")]; !ok {
				return false
			}
		}
		return true
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if ref, ok := x["$ref"].(string); ok && !resolve(ref) {
				t.Errorf("$ref %s points at nothing", ref)
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(doc)
	comps := doc["components"].(map[string]any)
	for name := range comps["responses"].(map[string]any) {
		if _, clash := comps["schemas"].(map[string]any)[name]; clash {
			t.Errorf("%s is both a response and a schema", name)
		}
	}
}

// TestOpenAPISchemasMatchTheViews holds the main response schemas to the
// Go types the server writes: the same properties, and `required` exactly
// the fields always written (those without omitempty).
func TestOpenAPISchemasMatchTheViews(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Required   []string                   `json:"required"`
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openapiJSON, &doc); err != nil {
		t.Fatal(err)
	}
	for name, v := range map[string]any{"Document": documentView{}, "Template": templateView{}, "Endpoint": endpointView{}} {
		schema, ok := doc.Components.Schemas[name]
		if !ok {
			t.Fatalf("no schema %s", name)
		}
		var always, all []string
		rt := reflect.TypeOf(v)
		for i := 0; i < rt.NumField(); i++ {
			tag := rt.Field(i).Tag.Get("json")
			field, opts, _ := strings.Cut(tag, ",")
			if field == "-" || field == "" {
				continue
			}
			all = append(all, field)
			if !strings.Contains(opts, "omitempty") {
				always = append(always, field)
			}
		}
		sort.Strings(always)
		req := append([]string(nil), schema.Required...)
		sort.Strings(req)
		if strings.Join(req, ",") != strings.Join(always, ",") {
			t.Errorf("%s: required %v, the server always writes %v", name, req, always)
		}
		var props []string
		for p := range schema.Properties {
			props = append(props, p)
		}
		sort.Strings(props)
		sort.Strings(all)
		if strings.Join(props, ",") != strings.Join(all, ",") {
			t.Errorf("%s: properties %v, the server writes %v", name, props, all)
		}
	}
}

// TestOpenAPIRequestBodiesAreClosed: the server refuses a JSON body with a
// field it does not know (decodeStrict), so every JSON request schema says
// so, and a client generated from the document refuses it first.
func TestOpenAPIRequestBodiesAreClosed(t *testing.T) {
	var doc struct {
		Paths map[string]map[string]json.RawMessage
	}
	if err := json.Unmarshal(openapiJSON, &doc); err != nil {
		t.Fatal(err)
	}
	closed := 0
	for path, item := range doc.Paths {
		for method, raw := range item {
			var op struct {
				RequestBody *struct {
					Content map[string]struct {
						Schema map[string]any `json:"schema"`
					} `json:"content"`
				} `json:"requestBody"`
			}
			if method == "parameters" || json.Unmarshal(raw, &op) != nil || op.RequestBody == nil {
				continue
			}
			body, ok := op.RequestBody.Content["application/json"]
			if !ok {
				continue
			}
			if body.Schema["additionalProperties"] != false && body.Schema["unevaluatedProperties"] != false {
				t.Errorf("%s %s: the request body's schema allows fields the server refuses", strings.ToUpper(method), path)
			}
			closed++
		}
	}
	if closed < 15 {
		t.Fatalf("found %d JSON request bodies; the document lost its paths", closed)
	}
}
