package transport_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/platen/platen/internal/poll"
	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/node"
)

// quiet waits until the node's store has applied nothing new for a while:
// a key's first use is recorded in the background.
func quiet(t *testing.T, n *testnode.Node) uint64 {
	t.Helper()
	last := n.Store().AppliedIndex()
	poll.Until(t, 10*time.Second, func() error {
		time.Sleep(100 * time.Millisecond)
		now := n.Store().AppliedIndex()
		if now != last {
			last = now
			return fmt.Errorf("the store moved to %d", now)
		}
		return nil
	})
	return last
}

// TestAWaitedDocumentIsOneWrite: a document its caller waits for, rendered
// where it was taken, is one raft command, and the change feed still
// shows it queued, rendering and completed, in order, at their times.
func TestAWaitedDocumentIsOneWrite(t *testing.T) {
	n := withInvoice(t, nil)
	c, _, err := dialWS(t, n, n.Key, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.send(map[string]any{"type": "subscribe"})
	c.until("subscribed")
	post := func() testnode.Document {
		r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(2)})
		d := testnode.DataAs[testnode.Document](t, r)
		if r.Status != 201 || d.Status != "completed" || d.PageCount != 1 || d.DownloadURL == "" {
			t.Fatalf("generate: %s", r)
		}
		return d
	}
	post() // the key's first use is recorded once
	before := quiet(t, n)
	var docs []testnode.Document
	for i := 0; i < 5; i++ {
		docs = append(docs, post())
	}
	if moved := quiet(t, n) - before; moved != 5 {
		t.Fatalf("5 documents took %d raft entries, not 5", moved)
	}
	for _, d := range docs {
		if res, pdf := download(t, d.DownloadURL); res.StatusCode != 200 || len(pdf) != int(d.ByteSize) {
			t.Fatalf("document %s's file: HTTP %d, %d bytes of %d", d.ID, res.StatusCode, len(pdf), d.ByteSize)
		}
	}
	// The feed: each document's three events, one after another, in order
	// and at times that do not go back.
	want := []string{"document.queued", "document.rendering", "document.completed"}
	seen := map[string][]string{}
	var order []string
	at := map[string]time.Time{}
	for len(order) < 3*6 {
		m := c.next(10 * time.Second)
		if m["type"] != "event" {
			continue
		}
		data, _ := m["data"].(map[string]any)
		id, _ := data["id"].(string)
		ev, _ := m["event"].(string)
		if id == "" || len(ev) < 9 || ev[:9] != "document." {
			continue
		}
		when, err := time.Parse(time.RFC3339Nano, fmt.Sprint(m["at"]))
		if err != nil {
			t.Fatalf("event %v: at: %v", m, err)
		}
		if when.Before(at[id]) {
			t.Fatalf("document %s: %s at %s, before the event ahead of it", id, ev, when)
		}
		at[id] = when
		seen[id] = append(seen[id], ev)
		order = append(order, id)
	}
	for i := 0; i < len(order); i += 3 {
		id := order[i]
		if order[i+1] != id || order[i+2] != id || fmt.Sprint(seen[id]) != fmt.Sprint(want) {
			t.Fatalf("document %s's events: %v (feed order %v)", id, seen[id], order)
		}
	}
}

// TestADocumentThatOutlivesTheWaitIsRecordedAsItRenders: when the wait
// runs out first, the document is recorded created and started (202),
// and its completion comes as any other's: three entries, not one.
func TestADocumentThatOutlivesTheWaitIsRecordedAsItRenders(t *testing.T) {
	n := withInvoice(t, func(c *node.Config) { c.WaitTimeout = time.Nanosecond })
	testnode.Do(t, "GET", n.URL+"/v1/templates", n.Key, nil)
	before := quiet(t, n)
	r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(2)})
	d := testnode.DataAs[testnode.Document](t, r)
	if r.Status != 202 || (d.Status != "queued" && d.Status != "rendering") {
		t.Fatalf("generate: %s", r)
	}
	poll.Until(t, 30*time.Second, func() error {
		got := testnode.DataAs[testnode.Document](t, testnode.Do(t, "GET", n.URL+"/v1/documents/"+d.ID, n.Key, nil))
		if got.Status != "completed" {
			return fmt.Errorf("document %s", got.Status)
		}
		return nil
	})
	if moved := quiet(t, n) - before; moved != 3 {
		t.Fatalf("a document that outlived its wait took %d raft entries, not 3 (created, started, completed)", moved)
	}
}

// TestOneIdempotencyKeyAtOnceMakesOneDocument: two requests with one key
// at the same moment make one document, rendered once; the second is told
// to retry while the first renders, or answered with it.
func TestOneIdempotencyKeyAtOnceMakesOneDocument(t *testing.T) {
	n := withInvoice(t, nil)
	body := map[string]any{"templateId": "invoice", "data": invoiceData(3)}
	ids := make([]string, 4)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for try := 0; try < 100; try++ {
				r := testnode.DoWith(t, "POST", n.URL+"/v1/documents", n.Key, body, map[string]string{"Idempotency-Key": "same"})
				if r.Status == 503 && r.Code() == "UNAVAILABLE" && r.Header.Get("Retry-After") != "" {
					time.Sleep(50 * time.Millisecond)
					continue
				}
				d, err := testnode.ParseData[testnode.Document](r)
				if err != nil || (r.Status != 201 && r.Status != 200) || d.Status != "completed" {
					t.Errorf("request %d: %s", i, r)
					return
				}
				ids[i] = d.ID
				return
			}
			t.Errorf("request %d was told to retry 100 times", i)
		}()
	}
	wg.Wait()
	for _, id := range ids {
		if id != ids[0] {
			t.Fatalf("one key made documents %v", ids)
		}
	}
	if list := listDocuments(t, n, n.Key, "").Items; len(list) != 1 {
		t.Fatalf("%d documents exist", len(list))
	}
}
