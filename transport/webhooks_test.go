package transport_test

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/node"
	"github.com/platen/platen/webhooks/verify"
)

// receiver is a real HTTPS endpoint on loopback that records what it gets and
// answers with the next status of its script (200 when the script runs out;
// 0 drops the connection).
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	got    []received
	script []int
	caFile string
}

type received struct {
	header http.Header
	body   []byte
	at     time.Time
}

func newReceiver(t *testing.T, script ...int) *receiver {
	t.Helper()
	rc := &receiver{script: script}
	rc.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.got = append(rc.got, received{header: r.Header.Clone(), body: body, at: time.Now()})
		status := 200
		if len(rc.script) > 0 {
			status, rc.script = rc.script[0], rc.script[1:]
		}
		rc.mu.Unlock()
		if status == 0 {
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
			return
		}
		w.WriteHeader(status)
		io.WriteString(w, "pong")
	}))
	t.Cleanup(rc.Close)
	rc.caFile = filepath.Join(t.TempDir(), "ca.pem")
	os.WriteFile(rc.caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: rc.Certificate().Raw}), 0o600)
	return rc
}

func (rc *receiver) setScript(s ...int) {
	rc.mu.Lock()
	rc.script = s
	rc.mu.Unlock()
}

func (rc *receiver) received() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got...)
}

// waitFor polls until cond holds or ten seconds pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

var fastSchedule = []time.Duration{50 * time.Millisecond, 50 * time.Millisecond, 50 * time.Millisecond, 50 * time.Millisecond, 50 * time.Millisecond, 50 * time.Millisecond}

func hookNode(t *testing.T, rc *receiver) *testnode.Node {
	return withInvoice(t, func(c *node.Config) {
		c.WebhookAllowPrivate, c.WebhookCAFile, c.WebhookSchedule = true, rc.caFile, fastSchedule
	})
}

func register(t *testing.T, n *testnode.Node, url string, events ...string) (id, secret string) {
	t.Helper()
	if events == nil {
		events = []string{}
	}
	r := testnode.Do(t, "POST", n.URL+"/v1/webhooks", n.Key, map[string]any{"name": "receiver", "url": url, "events": events})
	if r.Status != 201 || !strings.HasPrefix(r.Data()["signingSecret"].(string), "whsec_") {
		t.Fatalf("register: %s", r)
	}
	return r.Data()["id"].(string), r.Data()["signingSecret"].(string)
}

func TestDeliveriesAreSignedAndCarryTheSpecPayload(t *testing.T) {
	rc := newReceiver(t)
	n := hookNode(t, rc)
	_, secret := register(t, n, rc.URL+"/hook", "document.completed")
	doc := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(2),
		"correlationId": "order-5", "metadata": map[string]any{"k": "v"}}).Data()
	waitFor(t, "the delivery", func() bool { return len(rc.received()) == 1 })
	got := rc.received()[0]
	if err := verify.Verify(secret, got.header.Get("x-service-signature"), got.body, time.Now()); err != nil {
		t.Fatalf("signature does not verify: %v", err)
	}
	tampered := append([]byte(nil), got.body...)
	tampered[len(tampered)-2] = ' '
	if verify.Verify(secret, got.header.Get("x-service-signature"), tampered, time.Now()) == nil {
		t.Fatal("a tampered body verifies")
	}
	if verify.Verify(secret, got.header.Get("x-service-signature"), got.body, time.Now().Add(6*time.Minute)) == nil {
		t.Fatal("a stale timestamp verifies")
	}
	if verify.Verify("whsec_other", got.header.Get("x-service-signature"), got.body, time.Now()) == nil {
		t.Fatal("another secret verifies")
	}
	var p struct {
		V     int            `json:"v"`
		ID    string         `json:"id"`
		Event string         `json:"event"`
		OrgID string         `json:"orgId"`
		At    time.Time      `json:"at"`
		Data  map[string]any `json:"data"`
	}
	if err := json.Unmarshal(got.body, &p); err != nil {
		t.Fatal(err)
	}
	if p.V != 1 || p.ID != got.header.Get("x-service-delivery") || p.Event != "document.completed" || got.header.Get("x-service-event") != p.Event ||
		p.OrgID != n.OrgID || got.header.Get("Content-Type") != "application/json" || time.Since(p.At) > time.Minute {
		t.Fatalf("envelope %+v, headers %v", p, got.header)
	}
	d := p.Data
	if d["id"] != doc["id"] || d["status"] != "completed" || d["templateSlug"] != "invoice" || d["templateVersion"].(float64) != 1 ||
		d["correlationId"] != "order-5" || d["pageCount"].(float64) != 1 || d["byteSize"].(float64) < 1000 || d["filename"] == "" ||
		d["metadata"].(map[string]any)["k"] != "v" || d["urlExpiresAt"] == nil {
		t.Fatalf("data %v", d)
	}
	if _, leaked := d["data"]; leaked || strings.Contains(string(got.body), "Line 1") {
		t.Fatal("the render data travels in the webhook")
	}
	if res, _ := download(t, d["url"].(string)); res.StatusCode != 200 {
		t.Fatalf("the webhook's url: %d", res.StatusCode)
	}
}

func TestRetriesKeepTheDeliveryIDAndPermanentFailuresStop(t *testing.T) {
	rc := newReceiver(t, 500, 0, 503, 200) // two errors, a dropped connection, then success
	n := hookNode(t, rc)
	id, _ := register(t, n, rc.URL+"/hook", "wallet.credited")
	org := n.OrgID
	testnode.Do(t, "PATCH", n.URL+"/admin/v1/orgs/"+org, n.OperatorToken, map[string]any{"plan": "starter"})
	credit(t, n, org, 100, "c1")
	waitFor(t, "four attempts", func() bool { return len(rc.received()) == 4 })
	first := rc.received()[0].header.Get("x-service-delivery")
	for _, got := range rc.received() {
		if got.header.Get("x-service-delivery") != first {
			t.Fatal("a retry changed the delivery id")
		}
	}
	log := func() []any {
		return testnode.Do(t, "GET", n.URL+"/v1/webhooks/"+id+"/deliveries", n.Key, nil).Data()["items"].([]any)
	}
	waitFor(t, "the delivery recorded", func() bool { return log()[0].(map[string]any)["status"] == "delivered" })
	if d := log()[0].(map[string]any); d["attempts"].(float64) != 4 || d["id"] != first {
		t.Fatalf("delivery %v", d)
	}

	rc.setScript(410)
	credit(t, n, org, 100, "c2")
	waitFor(t, "the 410", func() bool { return len(rc.received()) == 5 })
	waitFor(t, "the failure recorded", func() bool { return log()[0].(map[string]any)["status"] == "failed" })
	time.Sleep(300 * time.Millisecond) // a retry would have come by now
	if n := len(rc.received()); n != 5 {
		t.Fatalf("410 was retried: %d requests", n)
	}
	if d := log()[0].(map[string]any); d["attempts"].(float64) != 1 || d["lastStatus"].(float64) != 410 {
		t.Fatalf("delivery after 410: %v", d)
	}
}

func TestSwitchOffAfterTwentyFailuresAndReenableResumes(t *testing.T) {
	fails := make([]int, 100)
	for i := range fails {
		fails[i] = 500
	}
	rc := newReceiver(t, fails...)
	n := hookNode(t, rc)
	id, _ := register(t, n, rc.URL+"/hook", "wallet.credited")
	testnode.Do(t, "PATCH", n.URL+"/admin/v1/orgs/"+n.OrgID, n.OperatorToken, map[string]any{"plan": "starter"})
	for _, ref := range []string{"a", "b", "c", "d"} {
		credit(t, n, n.OrgID, 100, ref)
	}
	ep := func() map[string]any { return testnode.Do(t, "GET", n.URL+"/v1/webhooks/"+id, n.Key, nil).Data() }
	waitFor(t, "the switch-off", func() bool { return ep()["enabled"] == false })
	e := ep()
	if !strings.Contains(e["disabledReason"].(string), "20 consecutive failed attempts") || e["consecutiveFailures"].(float64) != 20 {
		t.Fatalf("switched-off endpoint %v", e)
	}
	time.Sleep(300 * time.Millisecond)
	if got := len(rc.received()); got != 20 {
		t.Fatalf("%d attempts; a switched-off endpoint must get none after the 20th", got)
	}
	// While off, new events wait too.
	credit(t, n, n.OrgID, 100, "e")
	rc.setScript()
	if r := testnode.Do(t, "PATCH", n.URL+"/v1/webhooks/"+id, n.Key, map[string]any{"enabled": true}); r.Status != 200 || r.Data()["consecutiveFailures"].(float64) != 0 {
		t.Fatalf("re-enable: %s", r)
	}
	waitFor(t, "the waiting deliveries", func() bool {
		items := testnode.Do(t, "GET", n.URL+"/v1/webhooks/"+id+"/deliveries", n.Key, nil).Data()["items"].([]any)
		delivered := 0
		for _, it := range items {
			if it.(map[string]any)["status"] == "delivered" {
				delivered++
			}
		}
		return delivered >= 2 // the one still pending at the switch-off and the one made while off
	})
}

func TestPingAndRegistrationChecks(t *testing.T) {
	rc := newReceiver(t)
	n := hookNode(t, rc)
	id, secret := register(t, n, rc.URL+"/hook")
	r := testnode.Do(t, "POST", n.URL+"/v1/webhooks/"+id+"/ping", n.Key, nil)
	if r.Status != 200 || r.Data()["status"].(float64) != 200 || r.Data()["body"] != "pong" || r.Data()["durationMs"] == nil {
		t.Fatalf("ping: %s", r)
	}
	got := rc.received()[len(rc.received())-1]
	if got.header.Get("x-service-event") != "ping" || verify.Verify(secret, got.header.Get("x-service-signature"), got.body, time.Now()) != nil {
		t.Fatal("ping is not a signed ping delivery")
	}
	cases := []struct {
		body  map[string]any
		field string
	}{
		{map[string]any{"name": "x", "url": "http://example.com/hook"}, "url"},
		{map[string]any{"name": "x"}, "url"},
		{map[string]any{"name": "x", "url": rc.URL, "events": []string{"document.exploded"}}, "events[0]"},
		{map[string]any{"url": rc.URL}, "name"},
	}
	for _, c := range cases {
		if r := testnode.Do(t, "POST", n.URL+"/v1/webhooks", n.Key, c.body); r.Status != 400 || r.Field() != c.field {
			t.Errorf("%v: %s", c.body, r)
		}
	}
	list := testnode.Do(t, "GET", n.URL+"/v1/webhooks", n.Key, nil).Data()["items"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["signingSecret"] != nil {
		t.Fatalf("listing shows the secret or lost the endpoint: %v", list)
	}
	if r := testnode.Do(t, "DELETE", n.URL+"/v1/webhooks/"+id, n.Key, nil); r.Status != 200 {
		t.Fatal(r)
	}
	if r := testnode.Do(t, "GET", n.URL+"/v1/webhooks/"+id, n.Key, nil); r.Status != 404 {
		t.Fatalf("deleted endpoint: %s", r)
	}
}

// TestPrivateAddressesRefusedByDefault: without the test flag, a loopback
// receiver cannot be registered.
func TestPrivateAddressesRefusedByDefault(t *testing.T) {
	rc := newReceiver(t)
	n := testnode.Start(t, nil)
	if r := testnode.Do(t, "POST", n.URL+"/v1/webhooks", n.Key, map[string]any{"name": "x", "url": rc.URL}); r.Status != 400 || r.Field() != "url" {
		t.Fatalf("loopback receiver registered: %s", r)
	}
	if len(rc.received()) != 0 {
		t.Fatal("the receiver was contacted")
	}
}

// TestRestartInTheMiddleOfARetryScheduleStillDelivers stops the node while a
// delivery waits for its retry, and starts it again on the same folder.
func TestRestartInTheMiddleOfARetryScheduleStillDelivers(t *testing.T) {
	rc := newReceiver(t, 500, 500, 500, 500, 500, 500, 500)
	dir := t.TempDir()
	cfg := node.DefaultConfig()
	cfg.DataDir, cfg.HTTPAddr, cfg.RaftAddr, cfg.OperatorToken, cfg.WarmEngine = dir, "127.0.0.1:0", "127.0.0.1:0", testnode.OperatorToken, false
	cfg.WebhookAllowPrivate, cfg.WebhookCAFile = true, rc.caFile
	cfg.WebhookSchedule = []time.Duration{time.Second, time.Second, time.Second, time.Second, time.Second, time.Second}
	start := func() *node.Node {
		n, err := node.Start(cfg, slogDiscard(), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	n := start()
	url := "http://" + n.HTTPAddr()
	org := testnode.Do(t, "POST", url+"/admin/v1/orgs", testnode.OperatorToken, map[string]any{"name": "A", "plan": "starter"}).Data()["id"].(string)
	key := testnode.Do(t, "POST", url+"/admin/v1/orgs/"+org+"/keys", testnode.OperatorToken, map[string]any{"name": "k", "scopes": []string{"webhooks.write", "webhooks.read"}}).Data()["key"].(string)
	r := testnode.Do(t, "POST", url+"/v1/webhooks", key, map[string]any{"name": "r", "url": rc.URL, "events": []string{"wallet.credited"}})
	id := r.Data()["id"].(string)
	testnode.Do(t, "POST", url+"/admin/v1/orgs/"+org+"/wallet/credit", testnode.OperatorToken, map[string]any{"amountMicros": 5, "reference": "x"})
	waitFor(t, "the first attempt", func() bool { return len(rc.received()) >= 1 })
	waitFor(t, "the attempt recorded", func() bool {
		items := testnode.Do(t, "GET", url+"/v1/webhooks/"+id+"/deliveries", key, nil).Data()["items"].([]any)
		return len(items) == 1 && items[0].(map[string]any)["attempts"].(float64) >= 1
	})
	n.Shutdown(context.Background())
	seen := len(rc.received())
	rc.setScript() // the receiver recovers while the node is down

	n = start()
	defer n.Shutdown(context.Background())
	url = "http://" + n.HTTPAddr()
	waitFor(t, "delivery after the restart", func() bool {
		items := testnode.Do(t, "GET", url+"/v1/webhooks/"+id+"/deliveries", key, nil).Data()["items"].([]any)
		return items[0].(map[string]any)["status"] == "delivered"
	})
	got := rc.received()
	if len(got) <= seen || got[len(got)-1].header.Get("x-service-delivery") != got[0].header.Get("x-service-delivery") {
		t.Fatal("the delivery after the restart is not the same delivery")
	}
}

func slogDiscard() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
