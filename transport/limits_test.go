package transport_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fasthttp/websocket"

	"github.com/platen/platen/internal/poll"
	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/node"
)

// from returns an HTTP client whose connections come from the loopback
// address ip, so one node sees several clients.
func from(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 10 * time.Second}
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: d.DialContext}}
}

// call sends a request with a bearer token through c and decodes the answer.
func call(t *testing.T, c *http.Client, method, url, token string) testnode.Response {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	r := testnode.Response{Status: res.StatusCode, Header: res.Header, Body: raw}
	_ = json.Unmarshal(raw, &r.JSON)
	return r
}

// refusedWith checks r is a refusal in the error envelope with status, code
// and a Retry-After of at least one second.
func refusedWith(t *testing.T, r testnode.Response, status int, code string) {
	t.Helper()
	if r.Status != status || r.Code() != code || r.JSON["success"] != false || r.JSON["message"] == "" || r.Header.Get("X-Request-Id") == "" {
		t.Fatalf("want %d %s in the error envelope with a request id: %s", status, code, r)
	}
	if s, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || s < 1 {
		t.Fatalf("Retry-After %q: %s", r.Header.Get("Retry-After"), r)
	}
}

func TestRequestsWithoutAValidCredentialAreLimitedPerAddress(t *testing.T) {
	const burst = 5
	n := testnode.Start(t, func(c *node.Config) {
		// One token a hundred seconds: none comes back while the test runs.
		c.HTTP.UnauthRateLimit, c.HTTP.UnauthRateBurst = 0.01, burst
	})
	_, fresh := createKey(t, n, n.OrgID, "wallet.read")
	one, two, three := from("127.0.0.1"), from("127.0.0.2"), from("127.0.0.3")

	t.Run("no key", func(t *testing.T) {
		if r := call(t, one, "GET", n.Direct+"/v1", n.Key); r.Status != 200 {
			t.Fatalf("a valid key: %s", r)
		}
		for i := 0; i < burst; i++ {
			if r := call(t, one, "GET", n.Direct+"/v1", ""); r.Status != 401 {
				t.Fatalf("request %d without a key, within the burst: %s", i+1, r)
			}
		}
		refusedWith(t, call(t, one, "GET", n.Direct+"/v1", ""), 429, "RATE_LIMITED")
		// Everything else without a credential is held too.
		for _, path := range []string{"/v1/openapi.json", "/v1/nothing-here", "/files/doc_01m7zmwnmpk2psb5y8n9tq3dsz/a.pdf?expires=1&signature=00", "/admin/v1/orgs"} {
			refusedWith(t, call(t, one, "GET", n.Direct+path, ""), 429, "RATE_LIMITED")
		}
		// Health probes are not.
		for _, path := range []string{"/healthz", "/readyz"} {
			if r := call(t, one, "GET", n.Direct+path, ""); r.Status != 200 {
				t.Fatalf("%s: %s", path, r)
			}
		}
		// A key that has authenticated from this address still passes, as
		// does the operator token (createKey used it from here).
		if r := call(t, one, "GET", n.Direct+"/v1", n.Key); r.Status != 200 {
			t.Fatalf("a valid key after the burst: %s", r)
		}
		if r := call(t, one, "GET", n.Direct+"/admin/v1/orgs", n.OperatorToken); r.Status != 200 {
			t.Fatalf("the operator token after the burst: %s", r)
		}
		// A credential new to this address is not looked at: a guess and a
		// good key look alike until the address has tokens again.
		refusedWith(t, call(t, one, "GET", n.Direct+"/v1", fresh), 429, "RATE_LIMITED")
		// Another address is not held back.
		if r := call(t, three, "GET", n.Direct+"/v1", fresh); r.Status != 200 {
			t.Fatalf("another address: %s", r)
		}
		if r := call(t, three, "GET", n.Direct+"/v1", ""); r.Status != 401 {
			t.Fatalf("another address without a key: %s", r)
		}
	})

	t.Run("bad keys", func(t *testing.T) {
		for i := 0; i < burst; i++ {
			guess := "plt_" + strings.Repeat(strconv.Itoa(i), 43)
			if r := call(t, two, "GET", n.Direct+"/v1", guess); r.Status != 401 || r.Code() != "UNAUTHENTICATED" {
				t.Fatalf("guess %d, within the burst: %s", i+1, r)
			}
		}
		refusedWith(t, call(t, two, "GET", n.Direct+"/v1", "plt_"+strings.Repeat("x", 43)), 429, "RATE_LIMITED")
		refusedWith(t, call(t, two, "GET", n.Direct+"/admin/v1/orgs", "a-guessed-operator-token"), 429, "RATE_LIMITED")
	})

	// A key that fails is forgotten: one that passed on an address before
	// its revocation then costs like any guess, and passes no empty bucket.
	t.Run("a failed key is forgotten", func(t *testing.T) {
		four := from("127.0.0.4")
		id, key := createKey(t, n, n.OrgID, "wallet.read")
		if r := call(t, four, "GET", n.Direct+"/v1", key); r.Status != 200 {
			t.Fatal(r)
		}
		if r := testnode.Do(t, "DELETE", n.Direct+"/admin/v1/orgs/"+n.OrgID+"/keys/"+id, n.OperatorToken, nil); r.Status/100 != 2 {
			t.Fatalf("revoke: %s", r)
		}
		for i := 0; i < burst; i++ {
			if r := call(t, four, "GET", n.Direct+"/v1", key); r.Status != 401 {
				t.Fatalf("revoked key, attempt %d: %s", i+1, r)
			}
		}
		refusedWith(t, call(t, four, "GET", n.Direct+"/v1", key), 429, "RATE_LIMITED")
	})
}

// holdConnection opens a connection and has one request answered on it,
// so the node is serving it when this returns; the connection stays open.
func holdConnection(t *testing.T, n *testnode.Node) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", n.HTTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(conn, "GET /healthz HTTP/1.1\r\nHost: platen\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("held connection: HTTP %d", res.StatusCode)
	}
	return conn
}

// served waits until a new connection is served.
func served(t *testing.T, n *testnode.Node, what string) {
	t.Helper()
	c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	poll.Until(t, 10*time.Second, func() error {
		if r := call(t, c, "GET", n.Direct+"/healthz", ""); r.Status != 200 {
			return fmt.Errorf("%s: a new connection is answered %s", what, r)
		}
		return nil
	})
}

func TestConnectionsBeyondTheCapAreAnsweredOverloaded(t *testing.T) {
	n := testnode.Start(t, func(c *node.Config) { c.HTTP.Concurrency = 2 })
	first := holdConnection(t, n)
	holdConnection(t, n)

	// A real client, a fresh connection each time.
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequest("POST", n.Direct+"/v1/documents", strings.NewReader(`{"templateId":"invoice"}`))
		req.Header.Set("Authorization", "Bearer "+n.Key)
		res, err := c.Do(req)
		if err != nil {
			t.Fatalf("over the cap, attempt %d: %v", i+1, err)
		}
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		r := testnode.Response{Status: res.StatusCode, Header: res.Header, Body: raw}
		if err := json.Unmarshal(raw, &r.JSON); err != nil {
			t.Fatalf("not JSON: %s", r)
		}
		refusedWith(t, r, 503, "OVERLOADED")
		if !res.Close || r.Header.Get("Content-Type") != "application/json; charset=utf-8" {
			t.Fatalf("want a JSON answer and a closed connection: %v %s", res.Header, r)
		}
	}

	// A closed connection frees its place.
	first.Close()
	served(t, n, "after a held connection closed")

	// Realtime connections do not count, as with fasthttp's own cap: two
	// WebSockets leave both places to HTTP.
	ws := strings.Replace(n.Direct, "http://", "ws://", 1) + "/v1/realtime"
	h := http.Header{"Authorization": {"Bearer " + n.Key}}
	for i := 0; i < 2; i++ {
		// The place is freed a moment after the upgrade is answered.
		poll.Until(t, 10*time.Second, func() error {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			conn, _, err := websocket.DefaultDialer.DialContext(ctx, ws, h)
			if err != nil {
				return fmt.Errorf("WebSocket %d: %w", i+1, err)
			}
			t.Cleanup(func() { conn.Close() })
			return nil
		})
	}
	served(t, n, "with two WebSockets open")
}
