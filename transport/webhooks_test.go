package transport_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
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

	"github.com/platen/platen/internal/poll"
	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/internal/tier"
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

// hookWait is how long a test waits for a delivery or its record.
const hookWait = 20 * time.Second

// waitReceived waits until the receiver has had want requests.
func waitReceived(t *testing.T, rc *receiver, what string, want int) {
	t.Helper()
	poll.Until(t, hookWait, func() error {
		if got := len(rc.received()); got != want {
			return fmt.Errorf("%s: the receiver has had %d requests, want %d", what, got, want)
		}
		return nil
	})
}

// deliveries reads an endpoint's delivery log, newest first.
func deliveries(t *testing.T, url, key, id string) []testnode.Delivery {
	t.Helper()
	return testnode.DataAs[testnode.List[testnode.Delivery]](t, testnode.Do(t, "GET", url+"/v1/webhooks/"+id+"/deliveries", key, nil)).Items
}

// waitLatest waits until the newest delivery in an endpoint's log has the
// status want.
func waitLatest(t *testing.T, url, key, id, what, want string) {
	t.Helper()
	poll.Until(t, hookWait, func() error {
		if ds := deliveries(t, url, key, id); len(ds) == 0 || ds[0].Status != want {
			return fmt.Errorf("%s: the newest delivery is not %s: %+v", what, want, ds)
		}
		return nil
	})
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
	if r.Status != 201 {
		t.Fatalf("register: %s", r)
	}
	ep := testnode.DataAs[testnode.Endpoint](t, r)
	if !strings.HasPrefix(ep.SigningSecret, "whsec_") {
		t.Fatalf("register: %s", r)
	}
	return ep.ID, ep.SigningSecret
}

func TestDeliveriesAreSignedAndCarryTheSpecPayload(t *testing.T) {
	rc := newReceiver(t)
	n := hookNode(t, rc)
	_, secret := register(t, n, rc.URL+"/hook", "document.completed")
	doc := testnode.DataAs[testnode.Document](t, testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(2),
		"correlationId": "order-5", "metadata": map[string]any{"k": "v"}}))
	waitReceived(t, rc, "the delivery", 1)
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
	p := testnode.Decode[struct {
		V     int             `json:"v"`
		ID    string          `json:"id"`
		Event string          `json:"event"`
		OrgID string          `json:"orgId"`
		At    time.Time       `json:"at"`
		Data  json.RawMessage `json:"data"`
	}](t, got.body)
	if p.V != 1 || p.ID != got.header.Get("x-service-delivery") || p.Event != "document.completed" || got.header.Get("x-service-event") != p.Event ||
		p.OrgID != n.OrgID || got.header.Get("Content-Type") != "application/json" || time.Since(p.At) > time.Minute {
		t.Fatalf("envelope %+v, headers %v", p, got.header)
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(p.Data, &keys); err != nil {
		t.Fatal(err)
	}
	if _, leaked := keys["data"]; leaked || strings.Contains(string(got.body), "Line 1") {
		t.Fatal("the render data travels in the webhook")
	}
	d := testnode.Decode[testnode.DocumentEvent](t, p.Data)
	if d.ID != doc.ID || d.Status != "completed" || d.TemplateSlug != "invoice" || d.TemplateVersion != 1 ||
		d.CorrelationID != "order-5" || d.PageCount != 1 || d.ByteSize < 1000 || d.Filename == "" ||
		testnode.Decode[map[string]any](t, d.Metadata)["k"] != "v" || d.URLExpiresAt == nil ||
		d.Engine == "" || !strings.Contains(d.EngineReason, "default") {
		t.Fatalf("data %+v (metadata %s)", d, d.Metadata)
	}
	res, pdf := download(t, d.URL)
	if res.StatusCode != 200 {
		t.Fatalf("the webhook's url: %d", res.StatusCode)
	}
	// The render report travels with the document, describing the PDF.
	rep := testnode.Decode[testnode.Report](t, d.Report)
	if sum := sha256.Sum256(pdf); rep.SHA256 != hex.EncodeToString(sum[:]) || rep.Bytes != int64(len(pdf)) || rep.Engine != d.Engine {
		t.Fatalf("report in the payload: %s", d.Report)
	}
}

func TestRetriesKeepTheDeliveryIDAndPermanentFailuresStop(t *testing.T) {
	rc := newReceiver(t, 500, 0, 503, 200) // two errors, a dropped connection, then success
	n := hookNode(t, rc)
	id, _ := register(t, n, rc.URL+"/hook", "wallet.credited")
	org := n.OrgID
	testnode.Do(t, "PATCH", n.URL+"/admin/v1/orgs/"+org, n.OperatorToken, map[string]any{"plan": "starter"})
	credit(t, n, org, 100, "c1")
	waitReceived(t, rc, "four attempts", 4)
	first := rc.received()[0].header.Get("x-service-delivery")
	for _, got := range rc.received() {
		if got.header.Get("x-service-delivery") != first {
			t.Fatal("a retry changed the delivery id")
		}
	}
	waitLatest(t, n.URL, n.Key, id, "the delivery recorded", "delivered")
	if d := deliveries(t, n.URL, n.Key, id)[0]; d.Attempts != 4 || d.ID != first {
		t.Fatalf("delivery %+v", d)
	}

	rc.setScript(410)
	credit(t, n, org, 100, "c2")
	waitReceived(t, rc, "the 410", 5)
	waitLatest(t, n.URL, n.Key, id, "the failure recorded", "failed")
	time.Sleep(300 * time.Millisecond) // a retry would have come by now
	if n := len(rc.received()); n != 5 {
		t.Fatalf("410 was retried: %d requests", n)
	}
	if d := deliveries(t, n.URL, n.Key, id)[0]; d.Attempts != 1 || d.LastStatus != 410 {
		t.Fatalf("delivery after 410: %+v", d)
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
	ep := func() testnode.Endpoint {
		return testnode.DataAs[testnode.Endpoint](t, testnode.Do(t, "GET", n.URL+"/v1/webhooks/"+id, n.Key, nil))
	}
	poll.Until(t, hookWait, func() error {
		if e := ep(); e.Enabled {
			return fmt.Errorf("the switch-off: the endpoint is still enabled after %d failures", e.ConsecutiveFailures)
		}
		return nil
	})
	e := ep()
	if !strings.Contains(e.DisabledReason, "20 consecutive failed attempts") || e.ConsecutiveFailures != 20 {
		t.Fatalf("switched-off endpoint %+v", e)
	}
	time.Sleep(300 * time.Millisecond)
	if got := len(rc.received()); got != 20 {
		t.Fatalf("%d attempts; a switched-off endpoint must get none after the 20th", got)
	}
	// While off, new events wait too.
	credit(t, n, n.OrgID, 100, "e")
	rc.setScript()
	if r := testnode.Do(t, "PATCH", n.URL+"/v1/webhooks/"+id, n.Key, map[string]any{"enabled": true}); r.Status != 200 || testnode.DataAs[testnode.Endpoint](t, r).ConsecutiveFailures != 0 {
		t.Fatalf("re-enable: %s", r)
	}
	poll.Until(t, hookWait, func() error {
		delivered := 0
		for _, d := range deliveries(t, n.URL, n.Key, id) {
			if d.Status == "delivered" {
				delivered++
			}
		}
		if delivered < 2 { // the one still pending at the switch-off and the one made while off
			return fmt.Errorf("the waiting deliveries: %d delivered, want 2", delivered)
		}
		return nil
	})
}

func TestPingAndRegistrationChecks(t *testing.T) {
	rc := newReceiver(t)
	n := hookNode(t, rc)
	id, secret := register(t, n, rc.URL+"/hook")
	r := testnode.Do(t, "POST", n.URL+"/v1/webhooks/"+id+"/ping", n.Key, nil)
	if r.Status != 200 {
		t.Fatalf("ping: %s", r)
	}
	if p := testnode.DataAs[testnode.Ping](t, r); p.Status != 200 || p.Body != "pong" || p.DurationMs == nil {
		t.Fatalf("ping: %s", r)
	}
	got := rc.received()[len(rc.received())-1]
	if got.header.Get("x-service-event") != "ping" || verify.Verify(secret, got.header.Get("x-service-signature"), got.body, time.Now()) != nil {
		t.Fatal("ping is not a signed ping delivery")
	}
	// An endpoint nothing answers at: the reason in words, no Go error.
	closed, _ := register(t, n, "https://"+testnode.FreeAddr(t)+"/hook")
	r = testnode.Do(t, "POST", n.URL+"/v1/webhooks/"+closed+"/ping", n.Key, nil)
	if r.Status != 200 || !strings.Contains(r.Message(), "the connection was refused") || strings.Contains(string(r.Body), "dial tcp") || strings.Contains(string(r.Body), "Post ") {
		t.Errorf("ping of an endpoint nothing listens at: %s", r)
	}
	if r := testnode.Do(t, "DELETE", n.URL+"/v1/webhooks/"+closed, n.Key, nil); r.Status/100 != 2 {
		t.Fatalf("delete: %s", r)
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
	list := testnode.DataAs[testnode.List[testnode.Endpoint]](t, testnode.Do(t, "GET", n.URL+"/v1/webhooks", n.Key, nil)).Items
	if len(list) != 1 || list[0].SigningSecret != "" {
		t.Fatalf("listing shows the secret or lost the endpoint: %+v", list)
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
	tier.Full(t, "restarts a node mid-schedule")
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
	org := testnode.DataAs[testnode.Org](t, testnode.Do(t, "POST", url+"/admin/v1/orgs", testnode.OperatorToken, map[string]any{"name": "A", "plan": "starter"})).ID
	key := testnode.DataAs[testnode.Key](t, testnode.Do(t, "POST", url+"/admin/v1/orgs/"+org+"/keys", testnode.OperatorToken, map[string]any{"name": "k", "scopes": []string{"webhooks.write", "webhooks.read"}})).Key
	r := testnode.Do(t, "POST", url+"/v1/webhooks", key, map[string]any{"name": "r", "url": rc.URL, "events": []string{"wallet.credited"}})
	id := testnode.DataAs[testnode.Endpoint](t, r).ID
	testnode.Do(t, "POST", url+"/admin/v1/orgs/"+org+"/wallet/credit", testnode.OperatorToken, map[string]any{"amountMicros": 5, "reference": "x"})
	poll.Until(t, hookWait, func() error {
		if len(rc.received()) < 1 {
			return errors.New("the first attempt: the receiver has had no request")
		}
		return nil
	})
	poll.Until(t, hookWait, func() error {
		if ds := deliveries(t, url, key, id); len(ds) != 1 || ds[0].Attempts < 1 {
			return fmt.Errorf("the attempt recorded: deliveries %+v", ds)
		}
		return nil
	})
	n.Shutdown(context.Background())
	seen := len(rc.received())
	rc.setScript() // the receiver recovers while the node is down

	n = start()
	defer n.Shutdown(context.Background())
	url = "http://" + n.HTTPAddr()
	waitLatest(t, url, key, id, "delivery after the restart", "delivered")
	got := rc.received()
	if len(got) <= seen || got[len(got)-1].header.Get("x-service-delivery") != got[0].header.Get("x-service-delivery") {
		t.Fatal("the delivery after the restart is not the same delivery")
	}
}

func slogDiscard() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// TestTheDeliveryLogKeepsTheLatestRequestAndAnswer: each delivery shows what
// its latest attempt sent (headers with a signature that verifies against
// the kept body) and what the endpoint answered; no answer leaves only the
// request and the error; a document's download link is kept without its
// signature.
func TestTheDeliveryLogKeepsTheLatestRequestAndAnswer(t *testing.T) {
	rc := newReceiver(t, 0) // the first attempt's connection is dropped
	n := hookNode(t, rc)
	id, secret := register(t, n, rc.URL+"/hook", "wallet.credited", "document.completed")
	testnode.Do(t, "PATCH", n.URL+"/admin/v1/orgs/"+n.OrgID, n.OperatorToken, map[string]any{"plan": "starter"})
	credit(t, n, n.OrgID, 100, "c1")
	waitLatest(t, n.URL, n.Key, id, "the credit delivered", "delivered")
	d := deliveries(t, n.URL, n.Key, id)[0]
	if d.Attempts != 2 || d.LastRequest == nil || d.LastResponse == nil {
		t.Fatalf("delivery %+v", d)
	}
	req, res := d.LastRequest, d.LastResponse
	if res.Status != 200 || res.Body != "pong" || res.Headers["content-type"] == "" || res.Truncated {
		t.Fatalf("the answer kept: %+v", res)
	}
	if req.Headers["x-service-delivery"] != d.ID || req.Headers["x-service-event"] != "wallet.credited" || req.Headers["content-type"] != "application/json" {
		t.Fatalf("the request's headers kept: %v", req.Headers)
	}
	last := rc.received()[len(rc.received())-1]
	if req.Body != string(last.body) || req.Headers["x-service-signature"] != last.header.Get("x-service-signature") {
		t.Fatalf("kept request %+v\nthe receiver got %s %v", req, last.body, last.header)
	}
	if err := verify.Verify(secret, req.Headers["x-service-signature"], []byte(req.Body), time.Now()); err != nil {
		t.Fatalf("the kept signature does not verify against the kept body: %v", err)
	}

	// Nothing answers any attempt: the request is kept, the answer is absent.
	rc.setScript(0, 0, 0, 0, 0, 0, 0)
	credit(t, n, n.OrgID, 100, "c2")
	waitLatest(t, n.URL, n.Key, id, "the dropped credit", "failed")
	if d := deliveries(t, n.URL, n.Key, id)[0]; d.LastRequest == nil || d.LastResponse != nil || d.LastError == "" || d.LastStatus != 0 {
		t.Fatalf("a delivery nothing answered: %+v (response %+v)", d, d.LastResponse)
	}

	rc.setScript()
	testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(1)})
	poll.Until(t, hookWait, func() error {
		if d := deliveries(t, n.URL, n.Key, id)[0]; d.Event != "document.completed" || d.Status != "delivered" {
			return fmt.Errorf("the document's delivery: %+v", d)
		}
		return nil
	})
	kept := deliveries(t, n.URL, n.Key, id)[0].LastRequest.Body
	sent := string(rc.received()[len(rc.received())-1].body)
	if !strings.Contains(sent, "signature=") || strings.Contains(sent, "signature=redacted") {
		t.Fatalf("the receiver's body has no signed link: %s", sent)
	}
	if !strings.Contains(kept, "signature=redacted") || strings.Count(kept, "signature=") != 1 {
		t.Fatalf("the kept body keeps the link's signature: %s", kept)
	}
}
