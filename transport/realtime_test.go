package transport_test

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fasthttp/websocket"

	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/internal/tier"
	"github.com/platen/platen/node"
)

type wsClient struct {
	t    *testing.T
	conn *websocket.Conn
}

func dialWS(t *testing.T, n *testnode.Node, key string, dialer *websocket.Dialer) (*wsClient, *http.Response, error) {
	t.Helper()
	h := http.Header{}
	if key != "" {
		h.Set("Authorization", "Bearer "+key)
	}
	if dialer == nil {
		dialer = websocket.DefaultDialer
	}
	conn, res, err := dialer.Dial(strings.Replace(n.URL, "http://", "ws://", 1)+"/v1/realtime", h)
	if err != nil {
		return nil, res, err
	}
	t.Cleanup(func() { conn.Close() })
	return &wsClient{t: t, conn: conn}, res, nil
}

func (c *wsClient) send(v map[string]any) {
	c.t.Helper()
	if err := c.conn.WriteJSON(v); err != nil {
		c.t.Fatal(err)
	}
}

// next reads one frame, or fails after the deadline.
func (c *wsClient) next(d time.Duration) map[string]any {
	c.t.Helper()
	c.conn.SetReadDeadline(time.Now().Add(d))
	var m map[string]any
	if err := c.conn.ReadJSON(&m); err != nil {
		c.t.Fatalf("reading a frame: %v", err)
	}
	return m
}

// until reads frames until one of type typ, returning it and the ones before.
func (c *wsClient) until(typ string) (map[string]any, []map[string]any) {
	c.t.Helper()
	var seen []map[string]any
	for {
		m := c.next(20 * time.Second)
		if m["type"] == typ {
			return m, seen
		}
		seen = append(seen, m)
	}
}

func TestRealtimeGeneratesWithoutPolling(t *testing.T) {
	n := withInvoice(t, nil)
	c, _, err := dialWS(t, n, n.Key, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.send(map[string]any{"type": "ping", "ref": "p"})
	if m := c.next(5 * time.Second); m["type"] != "pong" || m["ref"] != "p" {
		t.Fatalf("pong: %v", m)
	}
	c.send(map[string]any{"type": "generate", "ref": "r1", "body": map[string]any{"templateId": "invoice", "data": invoiceData(2), "correlationId": "ws-1"}})
	var kinds []string
	var last map[string]any
	for len(kinds) == 0 || (kinds[len(kinds)-1] != "document.completed" && kinds[len(kinds)-1] != "document.failed") {
		m := c.next(30 * time.Second)
		if m["ref"] != "r1" {
			t.Fatalf("frame without the ref: %v", m)
		}
		kinds = append(kinds, m["type"].(string))
		last = m
	}
	if strings.Join(kinds, ",") != "document.queued,document.rendering,document.completed" {
		t.Fatalf("frames %v", kinds)
	}
	d := last["data"].(map[string]any)
	if d["status"] != "completed" || d["correlationId"] != "ws-1" || d["downloadUrl"] == nil || d["pageCount"].(float64) != 1 {
		t.Fatalf("completed record %v", d)
	}
	c.send(map[string]any{"type": "generate", "ref": "bad", "body": map[string]any{"templateId": "invoice", "data": map[string]any{"number": 5}}})
	if m := c.next(5 * time.Second); m["type"] != "error" || m["ref"] != "bad" || m["error"].(map[string]any)["code"] != "PAYLOAD_VALIDATION_FAILED" {
		t.Fatalf("bad generate: %v", m)
	}
	c.send(map[string]any{"type": "shout"})
	if m := c.next(5 * time.Second); m["type"] != "error" || m["error"].(map[string]any)["code"] != "INVALID_REQUEST" {
		t.Fatalf("unknown frame: %v", m)
	}
}

func cursorOf(t *testing.T, m map[string]any) uint64 {
	var c uint64
	if _, err := fmt.Sscan(m["cursor"].(string), &c); err != nil {
		t.Fatalf("cursor %v", m["cursor"])
	}
	return c
}

func TestRealtimeFeedAndReplayFromCursor(t *testing.T) {
	n := withInvoice(t, nil)
	c, _, err := dialWS(t, n, "", nil) // authenticate with the first frame
	if err != nil {
		t.Fatal(err)
	}
	c.send(map[string]any{"type": "auth", "key": n.Key})
	if m := c.next(5 * time.Second); m["type"] != "authenticated" {
		t.Fatalf("auth: %v", m)
	}
	c.send(map[string]any{"type": "subscribe", "events": []string{"document.completed"}})
	c.until("subscribed")
	doc := testnode.DataAs[testnode.Document](t, testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(1)}))
	ev, _ := c.until("event")
	if ev["event"] != "document.completed" || ev["data"].(map[string]any)["id"] != doc.ID || ev["data"].(map[string]any)["url"] == nil {
		t.Fatalf("event %v", ev)
	}
	last := cursorOf(t, ev)
	c.conn.Close()

	// While disconnected, two more documents.
	var missed []string
	for i := 0; i < 2; i++ {
		missed = append(missed, testnode.DataAs[testnode.Document](t, testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(1)})).ID)
	}
	c, _, err = dialWS(t, n, n.Key, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.send(map[string]any{"type": "subscribe", "since": fmt.Sprint(last)})
	if m, _ := c.until("subscribed"); cursorOf(t, m) != last {
		t.Fatalf("subscribed %v", m)
	}
	// Every kind since the cursor: for each missed document queued,
	// rendering, completed; nothing at or before the cursor, no gaps.
	prev := last
	var completed []string
	for len(completed) < 2 {
		m := c.next(10 * time.Second)
		if m["type"] != "event" {
			continue
		}
		cur := cursorOf(t, m)
		if cur != prev+1 {
			t.Fatalf("cursor %d after %d: a repeat or a gap", cur, prev)
		}
		prev = cur
		if m["event"] == "document.completed" {
			completed = append(completed, m["data"].(map[string]any)["id"].(string))
		}
	}
	if strings.Join(completed, ",") != strings.Join(missed, ",") {
		t.Fatalf("replayed %v, missed %v", completed, missed)
	}
	c.send(map[string]any{"type": "subscribe", "since": "99999"})
	if m, _ := c.until("error"); m["error"].(map[string]any)["field"] != "since" {
		t.Fatalf("since beyond the feed: %v", m)
	}
}

func TestRealtimeSlowReaderIsCutOffWithoutHoldingOthers(t *testing.T) {
	tier.Full(t, "floods a reader that does not read")
	n := testnode.Start(t, func(c *node.Config) {
		c.HTTP.Realtime.WriteTimeout, c.HTTP.Realtime.SocketBuffer = 300*time.Millisecond, 4096
	})
	testnode.Do(t, "PATCH", n.URL+"/admin/v1/orgs/"+n.OrgID, n.OperatorToken, map[string]any{"plan": "starter"})
	// The slow client shrinks its own receive buffer and never reads.
	slowDialer := &websocket.Dialer{NetDial: func(network, addr string) (net.Conn, error) {
		d := net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
			return rc.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 2048) })
		}}
		return d.Dial(network, addr)
	}}
	// Straight to the node: a proxy between would read for the slow reader.
	direct := *n
	direct.URL = n.Direct
	slow, _, err := dialWS(t, &direct, n.Key, slowDialer)
	if err != nil {
		t.Fatal(err)
	}
	slow.send(map[string]any{"type": "subscribe", "events": []string{"wallet.credited"}})
	fast, _, err := dialWS(t, n, n.Key, nil)
	if err != nil {
		t.Fatal(err)
	}
	fast.send(map[string]any{"type": "subscribe", "events": []string{"wallet.credited"}})
	fast.until("subscribed")
	const credits = 600
	done := make(chan error, 1)
	go func() {
		for i := 0; i < credits; i++ {
			if r := testnode.Do(t, "POST", n.URL+"/admin/v1/orgs/"+n.OrgID+"/wallet/credit", n.OperatorToken, map[string]any{"amountMicros": 1, "reference": fmt.Sprint("c", i)}); r.Status != 201 {
				done <- fmt.Errorf("credit %d: %s", i, r)
				return
			}
		}
		done <- nil
	}()
	got := 0
	for got < credits {
		if m := fast.next(20 * time.Second); m["type"] == "event" {
			got++
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err) // the org actor was never held up
	}
	// The slow reader finds, after what its buffers held, a close with 1013.
	slow.conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	for {
		_, _, err := slow.conn.ReadMessage()
		if err == nil {
			continue
		}
		if !websocket.IsCloseError(err, websocket.CloseTryAgainLater) {
			t.Fatalf("slow reader ended with %v, want close 1013", err)
		}
		break
	}
}

func TestRealtimeRefusals(t *testing.T) {
	n := withInvoice(t, func(c *node.Config) { c.HTTP.Realtime.AuthTimeout = 300 * time.Millisecond })
	if _, res, err := dialWS(t, n, "plt_nope", nil); err == nil || res == nil || res.StatusCode != 401 {
		t.Fatalf("bad key in the header: %v %v", err, res)
	}
	c, _, err := dialWS(t, n, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	c.send(map[string]any{"type": "auth", "key": "plt_nope"})
	if m := c.next(5 * time.Second); m["type"] != "error" || m["error"].(map[string]any)["code"] != "UNAUTHENTICATED" {
		t.Fatalf("bad key in the auth frame: %v", m)
	}
	if _, _, err := c.conn.ReadMessage(); !websocket.IsCloseError(err, 4401) {
		t.Fatalf("after a bad auth frame: %v", err)
	}
	silent, _, err := dialWS(t, n, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	silent.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		if _, _, err := silent.conn.ReadMessage(); err != nil {
			if !websocket.IsCloseError(err, 4401) {
				t.Fatalf("no auth frame: %v", err)
			}
			break
		}
	}
	_, readOnly := createKey(t, n, n.OrgID, "templates.read")
	ro, _, err := dialWS(t, n, readOnly, nil)
	if err != nil {
		t.Fatal(err)
	}
	ro.send(map[string]any{"type": "generate", "ref": "g", "body": map[string]any{"templateId": "invoice", "data": invoiceData(1)}})
	if m := ro.next(5 * time.Second); m["error"].(map[string]any)["code"] != "FORBIDDEN" {
		t.Fatalf("generate without documents.generate: %v", m)
	}
	ro.send(map[string]any{"type": "subscribe", "events": []string{"wallet.credited"}})
	if m := ro.next(5 * time.Second); m["error"].(map[string]any)["code"] != "FORBIDDEN" {
		t.Fatalf("wallet events without wallet.read: %v", m)
	}
	ro.send(map[string]any{"type": "subscribe", "events": []string{"template.activated"}})
	if m := ro.next(5 * time.Second); m["type"] != "subscribed" {
		t.Fatalf("template events with templates.read: %v", m)
	}
}

// TestRealtimeFromNodeJS drives the namespace with the npm ws package, as a
// JavaScript client would.
func TestRealtimeFromNodeJS(t *testing.T) {
	tier.Full(t, "runs a Node.js client")
	dir := t.TempDir()
	npm := exec.Command("npm", "install", "--no-audit", "--no-fund", "--silent", "ws@8.18.0")
	npm.Dir = dir
	if out, err := npm.CombinedOutput(); err != nil {
		t.Fatalf("npm install ws: %v\n%s", err, out)
	}
	n := withInvoice(t, nil)
	script := `
const WebSocket = require("ws");
const [url, key] = process.argv.slice(2);
const ws = new WebSocket(url, { headers: { Authorization: "Bearer " + key } });
const timer = setTimeout(() => { console.log("timeout"); process.exit(1); }, 30000);
ws.on("open", () => ws.send(JSON.stringify({ type: "generate", ref: "js-1",
  body: { templateId: "invoice", data: { number: "JS-1", items: [{ description: "From Node", price: 3 }] } } })));
ws.on("message", (raw) => {
  const m = JSON.parse(raw.toString());
  if (m.ref !== "js-1") { console.log("unexpected", raw.toString()); process.exit(1); }
  if (m.type === "document.failed" || m.type === "error") { console.log("failed", raw.toString()); process.exit(1); }
  if (m.type === "document.completed") {
    console.log("ok", m.data.pageCount, m.data.downloadUrl ? "link" : "nolink");
    clearTimeout(timer); ws.close();
  }
});
`
	p := filepath.Join(dir, "client.js")
	os.WriteFile(p, []byte(script), 0o600)
	cmd := exec.Command("node", p, strings.Replace(n.URL, "http://", "ws://", 1)+"/v1/realtime", n.Key)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ok 1 link" {
		t.Fatalf("node client: %v\n%s", err, out)
	}
	_ = json.Valid
}

func TestRealtimeRevokedKeyIsClosed(t *testing.T) {
	n := withInvoice(t, nil)
	id, key := createKey(t, n, n.OrgID, "documents.generate")
	c, _, err := dialWS(t, n, key, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.send(map[string]any{"type": "ping"})
	c.until("pong")
	testnode.Do(t, "DELETE", n.URL+"/admin/v1/orgs/"+n.OrgID+"/keys/"+id, n.OperatorToken, nil)
	c.send(map[string]any{"type": "generate", "ref": "g", "body": map[string]any{"templateId": "invoice", "data": invoiceData(1)}})
	c.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		var m map[string]any
		if err := c.conn.ReadJSON(&m); err != nil {
			if !websocket.IsCloseError(err, 4401) {
				t.Fatalf("after revocation: %v", err)
			}
			break
		}
		if m["type"] == "document.queued" {
			t.Fatal("a revoked key generated a document")
		}
	}
}

// TestRealtimeReplaysFarBack: a replay longer than any lag limit completes.
func TestRealtimeReplaysFarBack(t *testing.T) {
	tier.Full(t, "replays hundreds of events")
	n := testnode.Start(t, nil)
	testnode.Do(t, "PATCH", n.URL+"/admin/v1/orgs/"+n.OrgID, n.OperatorToken, map[string]any{"plan": "starter"})
	for i := 0; i < 1300; i++ {
		testnode.Do(t, "POST", n.URL+"/admin/v1/orgs/"+n.OrgID+"/wallet/credit", n.OperatorToken, map[string]any{"amountMicros": 1, "reference": fmt.Sprint("r", i)})
	}
	c, _, err := dialWS(t, n, n.Key, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.send(map[string]any{"type": "subscribe", "since": "0"})
	c.until("subscribed")
	for i := 1; i <= 1300; i++ {
		m := c.next(10 * time.Second)
		if m["type"] != "event" || cursorOf(t, m) != uint64(i) {
			t.Fatalf("event %d: %v", i, m)
		}
	}
}

// A realtime generate retried with the same idempotencyKey makes one
// document, whether the retry comes while it renders, after it finished, on
// another connection, or through REST with the same key as Idempotency-Key.
func TestRealtimeGenerateWithAnIdempotencyKeyMakesOneDocument(t *testing.T) {
	n := withInvoice(t, nil)
	c, _, err := dialWS(t, n, n.Key, nil)
	if err != nil {
		t.Fatal(err)
	}
	body := map[string]any{"templateId": "invoice", "data": invoiceData(2), "correlationId": "ws-idem"}
	c.send(map[string]any{"type": "generate", "ref": "a", "idempotencyKey": "order-77", "body": body})
	c.send(map[string]any{"type": "generate", "ref": "b", "idempotencyKey": "order-77", "body": body})
	// Both refs see the one document to its end.
	ids, finished := map[string]string{}, map[string]bool{}
	var replayed int
	for len(finished) < 2 {
		m := c.next(30 * time.Second)
		ref, _ := m["ref"].(string)
		if m["type"] == "error" {
			t.Fatalf("generate refused: %v", m)
		}
		ids[ref] = m["data"].(map[string]any)["id"].(string)
		if m["replayed"] == true {
			replayed++
		}
		if m["type"] == "document.completed" || m["type"] == "document.failed" {
			finished[ref] = true
		}
	}
	if ids["a"] == "" || ids["a"] != ids["b"] || replayed != 1 {
		t.Fatalf("two generates with one key: documents %v, %d frames marked replayed", ids, replayed)
	}
	// After it finished, on another connection: the finished document at once.
	c2, _, err := dialWS(t, n, n.Key, nil)
	if err != nil {
		t.Fatal(err)
	}
	c2.send(map[string]any{"type": "generate", "ref": "c", "idempotencyKey": "order-77", "body": body})
	m := c2.next(10 * time.Second)
	if m["type"] != "document.completed" || m["ref"] != "c" || m["replayed"] != true || m["data"].(map[string]any)["id"] != ids["a"] {
		t.Fatalf("retry after the end: %v", m)
	}
	// Through REST with the same key and body: the same document.
	r := testnode.DoWith(t, "POST", n.URL+"/v1/documents", n.Key, body, map[string]string{"Idempotency-Key": "order-77"})
	if r.Status != 201 || testnode.DataAs[testnode.Document](t, r).ID != ids["a"] || r.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("REST retry of a realtime generate: %s", r)
	}
	// Another body under the key is a conflict, on both ways in.
	body["correlationId"] = "other"
	c2.send(map[string]any{"type": "generate", "ref": "d", "idempotencyKey": "order-77", "body": body})
	if m := c2.next(10 * time.Second); m["type"] != "error" || m["error"].(map[string]any)["code"] != "CONFLICT" {
		t.Fatalf("another body under the key: %v", m)
	}
	docs := listDocuments(t, n, n.Key, "?correlationId=ws-idem").Items
	if len(docs) != 1 {
		t.Fatalf("%d documents for one key", len(docs))
	}
}
