package transport_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/node"
)

// createKey makes a key for org through the operator API and returns its value.
func createKey(t *testing.T, n *testnode.Node, org string, scopes ...string) (id, value string) {
	t.Helper()
	r := testnode.Do(t, "POST", n.URL+"/admin/v1/orgs/"+org+"/keys", n.OperatorToken, map[string]any{"name": "test", "scopes": scopes})
	if r.Status != http.StatusCreated {
		t.Fatalf("create key: %s", r)
	}
	k := testnode.DataAs[testnode.Key](t, r)
	return k.ID, k.Key
}

func createOrg(t *testing.T, n *testnode.Node, name, plan string) string {
	t.Helper()
	r := testnode.Do(t, "POST", n.URL+"/admin/v1/orgs", n.OperatorToken, map[string]any{"name": name, "plan": plan})
	if r.Status != http.StatusCreated {
		t.Fatalf("create org: %s", r)
	}
	return testnode.DataAs[testnode.Org](t, r).ID
}

func TestEnvelopesAndStatusCodes(t *testing.T) {
	n := testnode.Start(t, nil)
	op := n.OperatorToken
	cases := []struct {
		name, method, path, token string
		body                      any
		status                    int
		code, field               string
	}{
		{"no key", "GET", "/v1", "", nil, 401, "UNAUTHENTICATED", ""},
		{"unknown key", "GET", "/v1", "plt_nope", nil, 401, "UNAUTHENTICATED", ""},
		{"operator token is not an API key", "GET", "/v1", op, nil, 401, "UNAUTHENTICATED", ""},
		{"API key is not the operator token", "GET", "/admin/v1/orgs", n.Key, nil, 401, "UNAUTHENTICATED", ""},
		{"unknown route", "GET", "/v1/nothing-here", n.Key, nil, 404, "NOT_FOUND", ""},
		{"wrong method", "DELETE", "/v1", n.Key, nil, 405, "METHOD_NOT_ALLOWED", ""},
		{"malformed JSON", "POST", "/admin/v1/orgs", op, []byte(`{"name":`), 400, "INVALID_REQUEST", ""},
		{"not an object", "POST", "/admin/v1/orgs", op, []byte(`[1,2]`), 400, "INVALID_REQUEST", ""},
		{"unknown field", "POST", "/admin/v1/orgs", op, []byte(`{"naem":"x"}`), 400, "INVALID_REQUEST", "naem"},
		{"wrong type", "POST", "/admin/v1/orgs", op, []byte(`{"name":5}`), 400, "INVALID_REQUEST", "name"},
		{"missing name", "POST", "/admin/v1/orgs", op, []byte(`{}`), 400, "INVALID_REQUEST", "name"},
		{"unknown plan", "POST", "/admin/v1/orgs", op, []byte(`{"name":"a","plan":"gold"}`), 400, "INVALID_REQUEST", "plan"},
		{"unknown org", "GET", "/admin/v1/orgs/org_01m7zmwnmpk2psb5y8n9tq3dsz", op, nil, 404, "NOT_FOUND", ""},
		{"malformed org id", "GET", "/admin/v1/orgs/../../etc", op, nil, 404, "NOT_FOUND", ""},
		{"sandbox has no wallet", "POST", "/admin/v1/orgs/" + n.OrgID + "/wallet/credit", op, map[string]any{"amountMicros": 5}, 409, "CONFLICT", ""},
		{"escaped slash stays in its segment", "GET", "/admin/v1/orgs/" + n.OrgID + "%2Fkeys", op, nil, 404, "NOT_FOUND", ""},
		{"dot segments match nothing", "GET", "/x/../v1", n.Key, nil, 404, "NOT_FOUND", ""},
		{"empty segment", "GET", "/v1//", n.Key, nil, 404, "NOT_FOUND", ""},
		{"trailing JSON", "POST", "/admin/v1/orgs", op, []byte(`{"name":"a"}}`), 400, "INVALID_REQUEST", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := testnode.Do(t, c.method, n.URL+c.path, c.token, c.body)
			if r.Status != c.status || r.Code() != c.code || r.Field() != c.field {
				t.Fatalf("got %d %s field %q, want %d %s field %q: %s", r.Status, r.Code(), r.Field(), c.status, c.code, c.field, r.Body)
			}
			if r.JSON["success"] != false || r.JSON["message"] == "" || r.Header.Get("X-Request-Id") == "" {
				t.Fatalf("not an error envelope with a request id: %s", r)
			}
			if strings.Contains(string(r.Body), "/work/") || strings.Contains(string(r.Body), "goroutine") {
				t.Fatalf("internal detail in a refusal: %s", r.Body)
			}
		})
	}
	if r := testnode.Do(t, "DELETE", n.URL+"/v1", n.Key, nil); r.Header.Get("Allow") != "GET" {
		t.Errorf("405 without Allow: %v", r.Header)
	}
}

// TestBodyOverTheUploadLimitIsRefusedBeforeItIsRead announces a body larger
// than any route takes and sends none of it: the node must answer 413 in the
// error envelope from the headers alone.
func TestBodyOverTheRouteLimitIsRefusedBeforeItIsRead(t *testing.T) {
	n := testnode.Start(t, nil)
	for _, size := range []int{11 << 20, 21 << 20} {
		res, body := rawRequest(t, n, fmt.Sprintf("POST /admin/v1/orgs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", n.OperatorToken, size))
		if res.StatusCode != 413 || !strings.Contains(body, `"code":"PAYLOAD_TOO_LARGE"`) || res.Header.Get("X-Request-Id") == "" {
			t.Fatalf("%d bytes: HTTP %d %s", size, res.StatusCode, body)
		}
	}
}

// TestMalformedRequestLeaksNoKey sends a request whose headers fasthttp
// cannot parse, carrying a key: neither the answer nor the log may show it.
func TestMalformedRequestLeaksNoKey(t *testing.T) {
	n := testnode.Start(t, nil)
	res, body := rawRequest(t, n, "GET /v1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+n.Key+"\r\nContent-Length: nope\r\n\r\n")
	if res.StatusCode != 400 || !strings.Contains(body, `"code":"INVALID_REQUEST"`) {
		t.Fatalf("HTTP %d %s", res.StatusCode, body)
	}
	if strings.Contains(body, n.Key) || strings.Contains(n.Logs.String(), n.Key) {
		t.Fatal("the key leaked into the answer or the log")
	}
}

func TestHeadIsServedLikeGet(t *testing.T) {
	n := testnode.Start(t, nil)
	if r := testnode.Do(t, "HEAD", n.URL+"/healthz", "", nil); r.Status != 200 {
		t.Fatal(r)
	}
}

// rawRequest writes a request by hand and reads the answer.
func rawRequest(t *testing.T, n *testnode.Node, req string) (*http.Response, string) {
	t.Helper()
	conn, err := net.Dial("tcp", n.HTTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(conn, req); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

func TestIndexListsTheKeysScopesAndOperations(t *testing.T) {
	n := testnode.Start(t, nil)
	_, key := createKey(t, n, n.OrgID, "templates.read", "documents.generate")
	r := testnode.Do(t, "GET", n.URL+"/v1", key, nil)
	if r.Status != 200 {
		t.Fatalf("index: %s", r)
	}
	ix := testnode.Decode[testnode.Index](t, r.Body)
	if !ix.Success || ix.Version != "v1" || ix.Organisation != "Sandbox organisation" {
		t.Fatalf("index: %s", r)
	}
	var scopes []string
	for _, s := range ix.Scopes {
		if s.Label == "" {
			t.Errorf("scope %+v without a label", s)
		}
		scopes = append(scopes, s.Scope)
	}
	// documents.generate includes documents.read.
	if strings.Join(scopes, ",") != "documents.generate,documents.read,templates.read" {
		t.Fatalf("scopes %v", scopes)
	}
	found := false
	for _, o := range ix.Operations {
		if strings.HasPrefix(o.Path, "/admin") {
			t.Errorf("operator route %+v listed to an API key", o)
		}
		if o.Path == "/v1/wallet" && o.Method == "GET" && o.Scope == "wallet.read" && o.Summary != "" {
			found = true
		}
	}
	if !found {
		t.Fatalf("GET /v1/wallet missing from operations: %s", r.Body)
	}
}

func TestScopesAreEnforcedAndOrganisationsIsolated(t *testing.T) {
	n := testnode.Start(t, nil)
	_, noWallet := createKey(t, n, n.OrgID, "templates.read")
	r := testnode.Do(t, "GET", n.URL+"/v1/wallet", noWallet, nil)
	if r.Status != 403 || r.Code() != "FORBIDDEN" || !strings.Contains(r.Message(), "wallet.read") {
		t.Fatalf("missing scope: %s", r)
	}

	acme := createOrg(t, n, "Acme", "starter")
	_, acmeKey := createKey(t, n, acme, "wallet.read")
	if r := testnode.Do(t, "POST", n.URL+"/admin/v1/orgs/"+acme+"/wallet/credit", n.OperatorToken, map[string]any{"amountMicros": 2500000, "reference": "topup-1"}); r.Status != 201 {
		t.Fatalf("credit: %s", r)
	}
	w := testnode.DataAs[testnode.Wallet](t, testnode.Do(t, "GET", n.URL+"/v1/wallet", acmeKey, nil))
	if w.BalanceMicros != 2500000 || len(w.Ledger) != 1 || w.Plan.Name != "starter" {
		t.Fatalf("acme wallet %+v", w)
	}
	if w := testnode.DataAs[testnode.Wallet](t, testnode.Do(t, "GET", n.URL+"/v1/wallet", n.Key, nil)); w.BalanceMicros != 0 || len(w.Ledger) != 0 {
		t.Fatalf("sandbox org sees another organisation's money: %+v", w)
	}

	// One organisation's key through another organisation's path is not found.
	acmeKeyID, _ := createKey(t, n, acme, "templates.read")
	if r := testnode.Do(t, "DELETE", n.URL+"/admin/v1/orgs/"+n.OrgID+"/keys/"+acmeKeyID, n.OperatorToken, nil); r.Status != 404 {
		t.Fatalf("revoking acme's key through the sandbox org: %s", r)
	}
	if r := testnode.Do(t, "DELETE", n.URL+"/admin/v1/orgs/"+acme+"/keys/"+acmeKeyID, n.OperatorToken, nil); r.Status != 200 || testnode.DataAs[testnode.Key](t, r).RevokedAt == nil {
		t.Fatalf("revoke: %s", r)
	}
}

func TestRevokedKeyStopsAtOnce(t *testing.T) {
	n := testnode.Start(t, nil)
	id, key := createKey(t, n, n.OrgID, "wallet.read")
	if r := testnode.Do(t, "GET", n.URL+"/v1", key, nil); r.Status != 200 {
		t.Fatal(r)
	}
	testnode.Do(t, "DELETE", n.URL+"/admin/v1/orgs/"+n.OrgID+"/keys/"+id, n.OperatorToken, nil)
	if r := testnode.Do(t, "GET", n.URL+"/v1", key, nil); r.Status != 401 {
		t.Fatalf("revoked key: %s", r)
	}
}

func TestRateLimitPerKey(t *testing.T) {
	n := testnode.Start(t, func(c *node.Config) { c.HTTP.RateLimit, c.HTTP.RateBurst = 0.5, 5 })
	_, other := createKey(t, n, n.OrgID, "wallet.read")
	for i := 0; i < 5; i++ {
		if r := testnode.Do(t, "GET", n.URL+"/v1", n.Key, nil); r.Status != 200 {
			t.Fatalf("request %d within the burst: %s", i+1, r)
		}
	}
	r := testnode.Do(t, "GET", n.URL+"/v1", n.Key, nil)
	if r.Status != 429 || r.Code() != "RATE_LIMITED" {
		t.Fatalf("over the burst: %s", r)
	}
	if s, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || s < 1 || s > 2 {
		t.Fatalf("Retry-After %q for a refill of one token every 2 s", r.Header.Get("Retry-After"))
	}
	if r := testnode.Do(t, "GET", n.URL+"/v1", other, nil); r.Status != 200 {
		t.Fatalf("another key was limited too: %s", r)
	}
}

// TestSecretsAreNeitherStoredNorLogged looks for key values and the operator
// token in every file of the data folder and in the log.
func TestSecretsAreNeitherStoredNorLogged(t *testing.T) {
	var dir string
	n := testnode.Start(t, func(c *node.Config) { dir = c.DataDir })
	_, key := createKey(t, n, n.OrgID, "wallet.read")
	testnode.Do(t, "GET", n.URL+"/v1", key, nil)
	testnode.Do(t, "GET", n.URL+"/admin/v1/orgs", n.OperatorToken, nil)
	secrets := []string{key, n.Key, n.OperatorToken, key[4:20]}
	for _, s := range secrets {
		if strings.Contains(n.Logs.String(), s) {
			t.Errorf("a secret is in the log")
		}
	}
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, s := range secrets {
			if bytes.Contains(raw, []byte(s)) {
				t.Errorf("a secret is stored in %s", p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(n.Logs.String(), `"route":"/v1"`) {
		t.Fatal("requests are not logged at all; the check above proves nothing")
	}
}

func TestRequestIDsHealthAndMetrics(t *testing.T) {
	n := testnode.Start(t, nil)
	req, _ := http.NewRequest("GET", n.URL+"/v1", nil)
	req.Header.Set("Authorization", "Bearer "+n.Key)
	req.Header.Set("X-Request-Id", "trace-abc.123")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.Header.Get("X-Request-Id") != "trace-abc.123" {
		t.Fatalf("caller's request id not kept: %q", res.Header.Get("X-Request-Id"))
	}
	if !strings.Contains(n.Logs.String(), `"request_id":"trace-abc.123"`) {
		t.Fatal("request id not in the log")
	}
	if r := testnode.Do(t, "GET", n.URL+"/healthz", "", nil); r.Status != 200 {
		t.Fatal(r)
	}
	if r := testnode.Do(t, "GET", n.URL+"/readyz", "", nil); r.Status != 200 {
		t.Fatal(r)
	}
	m := testnode.Do(t, "GET", n.URL+"/metrics", "", nil)
	for _, want := range []string{`platen_http_requests_total{method="GET",route="/v1",status="200"} 1`, "platen_raft_applied_index", "platen_ready 1",
		"platen_documents_in_flight 0", "platen_documents_completed_total", "platen_webhook_attempts_delivered_total", "platen_realtime_connections 0"} {
		if !strings.Contains(string(m.Body), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}

func jsonBody(v any) ([]byte, error) { return json.Marshal(v) }

func jsonInto(r *testnode.Response) { _ = json.Unmarshal(r.Body, &r.JSON) }
