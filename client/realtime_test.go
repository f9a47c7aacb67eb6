package client

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/platen/platen/internal/faultproxy"
	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/node"
)

// proxied is a node, a TCP proxy in front of it, a client of the node
// direct and one through the proxy whose realtime frames go to hook.
type proxied struct {
	n      *testnode.Node
	px     *faultproxy.Proxy
	direct *Client
	via    *Client
}

func startProxied(t *testing.T, hook func(typ, ref string)) *proxied {
	t.Helper()
	rec := recordOperations(t)
	t.Cleanup(func() {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		if rec.ops[opRealtime] == 0 {
			t.Error("the realtime operation was never sent")
		}
	})
	n, direct := startNode(t, nil)
	px, err := faultproxy.Start(strings.TrimPrefix(n.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { px.Close() })
	via := New("http://"+px.Addr(), n.Key, fastBackoff, withFrameHook(hook))
	return &proxied{n: n, px: px, direct: direct, via: via}
}

// cutFor cuts every connection through the proxy, refuses new ones while
// during runs, then lets them through again.
func (p *proxied) cutFor(during func()) {
	p.px.CutOff()
	go func() {
		during()
		time.Sleep(100 * time.Millisecond) // a reconnect or two is refused
		p.px.Restore()
	}()
}

// TestRealtimeSurvivesADroppedConnection cuts the realtime connection
// through a TCP proxy as soon as a generate's document is queued (mid-
// render), and again in the middle of a burst of events (mid-subscription),
// each time while documents are made over REST. The generate ends with its
// one document; the subscription delivers every event of the feed once, in
// order, with no cursor missing.
func TestRealtimeSurvivesADroppedConnection(t *testing.T) {
	var p *proxied
	var phase atomic.Int32 // 1: cut at the first document.queued; 2: cut at the 4th event
	var eventsSeen atomic.Int32
	var cuts atomic.Int32
	restCreate := func(corr string, wait bool) {
		_, err := p.direct.Documents.Create(context.Background(), DocumentRequest{
			TemplateID: "hello", Data: map[string]any{"name": corr, "order": corr}, CorrelationID: corr, Wait: Bool(wait)})
		if err != nil {
			t.Error(err)
		}
	}
	p = startProxied(t, func(typ, ref string) {
		if typ == "event" {
			eventsSeen.Add(1)
		}
		switch {
		case phase.Load() == 1 && typ == "document.queued" && ref != "":
			phase.Store(0)
			cuts.Add(1)
			p.cutFor(func() { restCreate("away-1", true); restCreate("away-2", true) })
		case phase.Load() == 2 && typ == "event" && eventsSeen.Load() >= 4:
			phase.Store(0)
			cuts.Add(1)
			p.cutFor(func() {})
		}
	})
	ctx := ctxFor(t, 2*time.Minute)
	helloTemplate(t, p.direct, "hello")

	rt, err := p.via.Realtime(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	events, err := rt.Subscribe(ctx, nil, "")
	if err != nil {
		t.Fatal(err)
	}

	// Mid-render.
	phase.Store(1)
	doc, err := rt.Generate(ctx, DocumentRequest{TemplateID: "hello", Data: map[string]any{"name": "Ada", "order": "rt-1"}, CorrelationID: "rt-1"})
	if err != nil {
		t.Fatal(err)
	}
	if doc.Status != StatusCompleted || doc.CorrelationID != "rt-1" || doc.PageCount != 1 {
		t.Fatalf("generate: %+v", doc)
	}
	if cuts.Load() != 1 {
		t.Fatal("the connection was not cut during the generate")
	}
	got := collect(t, events, 9) // 3 documents × queued, rendering, completed

	// Mid-subscription: a burst of documents, the connection cut after the
	// fourth event.
	phase.Store(2)
	eventsSeen.Store(0)
	for i := range 5 {
		go restCreate("burst-"+strconv.Itoa(i), false)
	}
	got = append(got, collect(t, events, 15)...)
	if cuts.Load() != 2 {
		t.Fatal("the connection was not cut during the burst")
	}

	// Every event once, in the feed's order, none missing.
	perDoc := map[string][]string{}
	for i, ev := range got {
		if i > 0 {
			prev, _ := strconv.Atoi(got[i-1].Cursor)
			cur, _ := strconv.Atoi(ev.Cursor)
			if cur != prev+1 {
				t.Errorf("event %d has cursor %s after %s: %s", i, ev.Cursor, got[i-1].Cursor, cursors(got))
			}
		}
		d, err := ev.Document()
		if err != nil {
			t.Fatal(err)
		}
		perDoc[d.CorrelationID] = append(perDoc[d.CorrelationID], ev.Event)
	}
	if len(perDoc) != 8 {
		t.Errorf("events of %d documents, want 8: %v", len(perDoc), perDoc)
	}
	for corr, kinds := range perDoc {
		if strings.Join(kinds, " ") != "document.queued document.rendering document.completed" {
			t.Errorf("%s: %v", corr, kinds)
		}
	}
	list, err := p.direct.Documents.List(ctx, ListDocumentsParams{CorrelationID: "rt-1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 || list.Items[0].ID != doc.ID {
		t.Fatalf("the generate made %d documents: %+v", len(list.Items), list.Items)
	}
	if rt.connections() < 3 {
		t.Fatalf("%d connections, want the first and one after each cut", rt.connections())
	}
}

// collect reads n events, or fails the test.
func collect(t *testing.T, events <-chan Event, n int) []Event {
	t.Helper()
	var got []Event
	timeout := time.After(time.Minute)
	for len(got) < n {
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatalf("the events closed after %d of %d", len(got), n)
			}
			got = append(got, ev)
		case <-timeout:
			t.Fatalf("%d events of %d: %s", len(got), n, cursors(got))
		}
	}
	select {
	case ev := <-events:
		t.Fatalf("an event more than the %d expected: %+v", n, ev)
	case <-time.After(300 * time.Millisecond):
	}
	return got
}

func cursors(evs []Event) string {
	var b strings.Builder
	for _, ev := range evs {
		fmt.Fprintf(&b, "%s:%s ", ev.Cursor, ev.Event)
	}
	return b.String()
}

// TestRealtimeRefusalsAndClose: a generate refused is an *Error as over
// REST; a subscription to an unknown kind is refused; Close ends the
// subscription and later calls.
func TestRealtimeRefusalsAndClose(t *testing.T) {
	p := startProxied(t, nil)
	ctx := ctxFor(t, time.Minute)
	if _, err := p.direct.Templates.CopyStarter(ctx, "invoice", CopyStarterRequest{}); err != nil {
		t.Fatal(err)
	}
	rt, err := p.via.Realtime(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, err = rt.Generate(ctx, DocumentRequest{TemplateID: "invoice", Data: map[string]any{}})
	var e *Error
	if !errors.As(err, &e) || e.Code != CodePayloadValidationFailed || e.Status != 422 || e.Field != "customer" || len(e.Violations) < 2 || e.Violations[0].Field != "customer" {
		t.Fatalf("an invalid generate: %#v", err)
	}
	helloTemplate(t, p.direct, "hello")
	q, err := rt.Quote(ctx, DocumentRequest{TemplateID: "hello", Data: map[string]any{"name": "q", "order": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	if q.PageCount != 1 || q.AllowancePages != 1 || !q.Payable || q.Report == nil || len(q.Report.SHA256) != 64 {
		t.Fatalf("a realtime quote: %+v", q)
	}
	if _, err := rt.Quote(ctx, DocumentRequest{TemplateID: "invoice", Data: map[string]any{}}); !errors.As(err, &e) || e.Code != CodePayloadValidationFailed {
		t.Fatalf("an invalid dry run: %#v", err)
	}
	if page, err := p.direct.Documents.List(ctx, ListDocumentsParams{}); err != nil || len(page.Items) != 0 {
		t.Fatalf("dry runs made documents: %v %+v", err, page)
	}
	if _, err := rt.Subscribe(ctx, []string{"document.exploded"}, ""); !errors.As(err, &e) || e.Field != "events[0]" {
		t.Fatalf("an unknown kind: %#v", err)
	}
	events, err := rt.Subscribe(ctx, []string{"document.completed"}, "")
	if err != nil {
		t.Fatal(err)
	}
	rt.Close()
	select {
	case _, ok := <-events:
		if ok {
			t.Fatal("an event after Close")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the events did not close")
	}
	if _, err := rt.Generate(ctx, DocumentRequest{TemplateID: "invoice"}); !errors.Is(err, ErrClosed) {
		t.Fatalf("a generate after Close: %v", err)
	}

	// A bad key is refused at the upgrade, as an *Error.
	if _, err := New(p.n.URL, "plt_wrong").Realtime(ctx); !errors.As(err, &e) || e.Status != 401 {
		t.Fatalf("a bad key: %#v", err)
	}
}

// TestRealtimeRevokedKeyEndsTheConnection: a key revoked while connected
// closes the connection with 4401; the client does not reconnect and a
// waiting subscription ends.
func TestRealtimeRevokedKeyEndsTheConnection(t *testing.T) {
	p := startProxied(t, nil)
	ctx := ctxFor(t, time.Minute)
	k, err := p.direct.Keys.Create(ctx, CreateKeyRequest{Name: "rt", Scopes: []string{"documents.generate"}})
	if err != nil {
		t.Fatal(err)
	}
	rt, err := New(p.n.URL, k.Key, fastBackoff).Realtime(ctx)
	if err != nil {
		t.Fatal(err)
	}
	events, err := rt.Subscribe(ctx, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.direct.Keys.Revoke(ctx, k.ID); err != nil {
		t.Fatal(err)
	}
	// The node checks the key at the next frame.
	var wg sync.WaitGroup
	wg.Add(1)
	var gerr error
	go func() {
		defer wg.Done()
		_, gerr = rt.Generate(ctx, DocumentRequest{TemplateID: "x"})
	}()
	select {
	case _, ok := <-events:
		if ok {
			t.Fatal("an event for a revoked key")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the subscription did not end")
	}
	wg.Wait()
	if gerr == nil || errors.Is(gerr, context.DeadlineExceeded) {
		t.Fatalf("the generate: %v", gerr)
	}
	if rt.connections() != 1 {
		t.Fatalf("%d connections: the client reconnected with a revoked key", rt.connections())
	}
}

// TestRealtimeRateLimitedGeneratesAreResent: generates beyond the key's
// rate are refused RATE_LIMITED, resent after the wait with the same key,
// and each makes one document; a subscription refused for the rate is
// asked for again.
func TestRealtimeRateLimitedGeneratesAreResent(t *testing.T) {
	var refusals atomic.Int32
	n, c := startNode(t, func(c *node.Config) { c.HTTP.RateLimit, c.HTTP.RateBurst = 2, 2 }, WithMaxRetries(8),
		withFrameHook(func(typ, ref string) {
			if typ == "error" {
				refusals.Add(1)
			}
		}))
	ctx := ctxFor(t, time.Minute)
	helloTemplate(t, c, "hello")
	rt, err := c.Realtime(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = rt.Generate(ctx, DocumentRequest{TemplateID: "hello", Data: map[string]any{"name": "x", "order": strconv.Itoa(i)}, CorrelationID: "rl-" + strconv.Itoa(i)})
		}()
	}
	events, err := rt.Subscribe(ctx, []string{"document.completed"}, "")
	if err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("generate %d: %v", i, err)
		}
	}
	_ = events
	if refusals.Load() == 0 {
		t.Fatal("nothing was refused for the rate: the test tests nothing")
	}
	var total int
	for d, err := range New(n.URL, n.Key, fastBackoff, WithMaxRetries(8)).Documents.All(ctx, ListDocumentsParams{}) {
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(d.CorrelationID, "rl-") {
			total++
		}
	}
	if total != 4 {
		t.Fatalf("%d documents, want 4", total)
	}
}
