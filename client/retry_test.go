package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/platen/platen/node"
)

// TestARetried429KeepsTheIdempotencyKey runs a node whose keys may make a
// request every two seconds, spends the burst, then generates: the first
// attempt is refused 429, the client waits Retry-After and sends it again
// with the same body and the same Idempotency-Key (one the client made, as
// the caller gave none), and exactly one document is made.
func TestARetried429KeepsTheIdempotencyKey(t *testing.T) {
	rec := &recorder{}
	n, c := startNode(t, func(c *node.Config) { c.HTTP.RateLimit, c.HTTP.RateBurst = 0.5, 3 },
		WithHTTPClient(&http.Client{Transport: rec}), WithMaxRetries(6))
	ctx := ctxFor(t, time.Minute)
	helloTemplate(t, c, "hello")
	for range 3 { // whatever is left of the burst
		c.Index(ctx)
	}
	var res Response
	doc, err := c.Documents.Create(ctx, DocumentRequest{TemplateID: "hello", Data: map[string]any{"name": "Ada", "order": "1"}}, ResponseInto(&res))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Status != StatusCompleted || res.Attempts < 2 {
		t.Fatalf("document %s after %d attempts", doc.Status, res.Attempts)
	}
	var posts []exchange
	for _, x := range rec.exchanges() {
		if x.method == "POST" && x.path == "/v1/documents" {
			posts = append(posts, x)
		}
	}
	if len(posts) != res.Attempts || posts[0].status != http.StatusTooManyRequests || posts[len(posts)-1].status != http.StatusCreated {
		t.Fatalf("attempts: %+v", posts)
	}
	key := posts[0].header.Get("Idempotency-Key")
	if key == "" {
		t.Fatal("the generate carried no Idempotency-Key")
	}
	for i, x := range posts {
		if got := x.header.Get("Idempotency-Key"); got != key {
			t.Errorf("attempt %d carried Idempotency-Key %q, the first %q", i+1, got, key)
		}
		if string(x.body) != string(posts[0].body) {
			t.Errorf("attempt %d sent another body: %s", i+1, x.body)
		}
	}

	// The same key again (as a caller's own retry would) is the same
	// document, replayed, not a second one.
	var again Response
	doc2, err := c.Documents.Create(ctx, DocumentRequest{TemplateID: "hello", Data: map[string]any{"name": "Ada", "order": "1"}}, IdempotencyKey(key), ResponseInto(&again))
	if err != nil {
		t.Fatal(err)
	}
	if doc2.ID != doc.ID || !again.Replayed {
		t.Fatalf("a repeat with the key made %s (replayed %v), the first %s", doc2.ID, again.Replayed, doc.ID)
	}
	list, err := c.Documents.List(ctx, ListDocumentsParams{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 {
		t.Fatalf("%d documents on %s, want 1", len(list.Items), n.URL)
	}
}

// flaky is a server that answers the first len(script) requests by the
// script (a status with Retry-After: 0, or 0 to drop the connection) and
// the rest with a success.
func flaky(t *testing.T, code string, script ...int) (*httptest.Server, *atomic.Int32) {
	var count atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(count.Add(1)) - 1
		if i < len(script) {
			if script[i] == 0 {
				conn, _, _ := w.(http.Hijacker).Hijack()
				conn.Close()
				return
			}
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(script[i])
			fmt.Fprintf(w, `{"success":false,"error":{"code":%q,"message":"try later"}}`, code)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"success":true,"data":{"id":"whe_1","name":"x","url":"https://x","events":[],"enabled":true,"consecutiveFailures":0,"secretPrefix":"whsec_","createdAt":"2026-11-24T00:00:00Z","updatedAt":"2026-11-24T00:00:00Z"}}`)
	}))
	t.Cleanup(srv.Close)
	return srv, &count
}

// TestRetriesOnlyWhatIsSafeToRepeat: 429 and 503 OVERLOADED are refused
// before anything happens and are always retried; a lost connection or a
// 503 UNAVAILABLE (whose outcome may be unknown) only for requests that may
// be repeated: GETs, DELETEs, and generates, which carry a key.
func TestRetriesOnlyWhatIsSafeToRepeat(t *testing.T) {
	cases := []struct {
		name     string
		code     string
		script   []int
		call     func(c *Client) error
		attempts int32
		ok       bool
	}{
		{"a GET after a dropped connection", "", []int{0, 0}, getWebhook, 3, true},
		{"a POST after a dropped connection", "", []int{0}, createWebhook, 1, false},
		{"a generate after a dropped connection", "", []int{0}, generate, 2, true},
		{"a POST refused 429", CodeRateLimited, []int{429, 429}, createWebhook, 3, true},
		{"a POST refused 503 OVERLOADED", CodeOverloaded, []int{503}, createWebhook, 2, true},
		{"a POST answered 503 UNAVAILABLE", CodeUnavailable, []int{503}, createWebhook, 1, false},
		{"a GET answered 503 UNAVAILABLE", CodeUnavailable, []int{503}, getWebhook, 2, true},
		{"a 409 is not retried", CodeConflict, []int{409}, getWebhook, 1, false},
		{"retries run out", CodeRateLimited, []int{429, 429, 429, 429}, getWebhook, 3, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, count := flaky(t, tc.code, tc.script...)
			c := New(srv.URL, "plt_test", fastBackoff, WithMaxRetries(2))
			err := tc.call(c)
			if (err == nil) != tc.ok {
				t.Fatalf("err = %v, want success %v", err, tc.ok)
			}
			if got := count.Load(); got != tc.attempts {
				t.Fatalf("%d attempts, want %d", got, tc.attempts)
			}
			var e *Error
			if tc.code != "" && !tc.ok && (!errors.As(err, &e) || e.Code != tc.code || e.Attempts != int(tc.attempts)) {
				t.Fatalf("err = %#v, want an *Error %s after %d attempts", err, tc.code, tc.attempts)
			}
		})
	}
}

func getWebhook(c *Client) error {
	_, err := c.Webhooks.Get(context.Background(), "whe_1")
	return err
}

func createWebhook(c *Client) error {
	_, err := c.Webhooks.Create(context.Background(), CreateWebhookRequest{Name: "x", URL: "https://x"})
	return err
}

func generate(c *Client) error {
	// The fake's answer is a webhook, not a document; decoding leniently
	// is enough for counting attempts.
	strictDecoding = false
	defer func() { strictDecoding = true }()
	_, err := c.Documents.Create(context.Background(), DocumentRequest{TemplateID: "x"})
	return err
}

// TestCancellingEndsTheWait: a Retry-After of a minute is waited out only
// as long as the context lasts.
func TestCancellingEndsTheWait(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "60")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, `{"success":false,"error":{"code":"RATE_LIMITED","message":"slow down"}}`)
	}))
	defer srv.Close()
	c := New(srv.URL, "plt_test")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Wallet.Get(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the context's", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("took %s", took)
	}
	// Without retries the refusal comes back as it is, with its wait.
	_, err = New(srv.URL, "plt_test", WithMaxRetries(0)).Wallet.Get(context.Background())
	var e *Error
	if !errors.As(err, &e) || e.Status != 429 || e.RetryAfter != time.Minute || !e.Temporary() {
		t.Fatalf("err = %#v", err)
	}
}

// TestBackoffGrowsWithJitter checks the schedule's bounds.
func TestBackoffGrowsWithJitter(t *testing.T) {
	b := backoff{base: 100 * time.Millisecond, max: time.Second}
	for n, want := range []time.Duration{100, 200, 400, 800, 1000, 1000} {
		want *= time.Millisecond
		for range 50 {
			if d := b.delay(n); d < want/2 || d > want {
				t.Fatalf("delay(%d) = %s, want within [%s, %s]", n, d, want/2, want)
			}
		}
	}
}
