package node_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/platen/platen/client"
	"github.com/platen/platen/cluster"
	"github.com/platen/platen/internal/poll"
	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/internal/tier"
)

// TestFailoverIsInvisibleToClients runs three node processes under a steady
// load of documents, made through the Go client (client/) with an
// Idempotency-Key each, as a program using Platen would. It kills -9 the
// raft leader five times and, separately, the node that owns an
// organisation's actor five times, restarting each killed node, and asserts:
//   - no acknowledged document is lost or doubled: every key the client
//     was answered for made exactly one document, and no key made two;
//   - money adds up: on every node the balance is the sum of the ledger,
//     nothing is held, and every completed document beyond the allowance is
//     charged exactly once;
//   - no 503 is client-visible: every Documents.Create returns a document.
//     "Client-visible" means what the client library hands its caller,
//     after its own documented retries (client/doc.go "Retries": a lost
//     connection or a 503 UNAVAILABLE of a generate is sent again with the
//     same key); the 503s the library saw on the wire and retried are
//     counted and logged, and each must carry fixed words only: no peer
//     address, internal route or Go error text;
//   - writes resume soon after each kill: the time from the kill to the
//     first acknowledgement of a write sent after it (for a leader's kill,
//     the last organisation to get one; for an owner's, its organisation) is
//     logged as min / median / max (a figure, not a check: a wall-clock
//     bound fails on a loaded machine; writes that do not resume within
//     30 s fail the test).
//
// The load goes, as a load balancer with health checks would send it, to
// live nodes only: the node about to be killed gets no new requests, and
// the kill waits until the requests it was serving are answered. A client
// whose own node dies is not what this test is about; one whose request
// reached a live node is.
func TestFailoverIsInvisibleToClients(t *testing.T) {
	tier.Full(t, "kills -9 raft leaders and actor owners of three node processes under load")
	// Nodes without the race detector: how soon writes resume is what is
	// measured, and the detector slows every step several times (the
	// other cluster tests run it).
	c := newTestCluster(t, 3, clusterOpts{binary: plain(t)})
	url := c.url

	// Node ids, to find who owns an organisation.
	nodeIDs := make([]string, 3)
	for i := range c.nodes {
		inf, err := c.info(i)
		if err != nil {
			t.Fatal(err)
		}
		nodeIDs[i] = inf.Node.ID
	}
	owner := func(org string) int {
		r := cluster.NewRendezvous(cluster.Member{ID: nodeIDs[0]})
		r.SetMembers([]cluster.Member{{ID: nodeIDs[1]}, {ID: nodeIDs[2]}})
		return slices.Index(nodeIDs, r.Owner(org).ID)
	}

	// One organisation owned by each node, each with money, a key and a template.
	const allowance, rate = 2, 10
	testnode.Do(t, "PUT", url(0)+"/admin/v1/plans/starter", opToken, map[string]any{"monthlyPages": allowance, "pageRateMicros": rate})
	type tenant struct {
		id, key string
		// clients are the Go client on each node, sharing one counting transport.
		clients [3]*client.Client
	}
	tenants := make([]*tenant, 3)
	for n := 0; n < 60 && slices.Contains(tenants, nil); n++ {
		id := testnode.DataAs[testnode.Org](t, testnode.Do(t, "POST", url(n%3)+"/admin/v1/orgs", opToken, map[string]any{"name": fmt.Sprint("Org ", n), "plan": "starter"})).ID
		if tenants[owner(id)] == nil {
			tenants[owner(id)] = &tenant{id: id}
		}
	}
	if slices.Contains(tenants, nil) {
		t.Fatal("no organisation owned by every node after 60 tries")
	}
	wire := &wireCounter{base: http.DefaultTransport}
	hc := &http.Client{Transport: wire, Timeout: 20 * time.Second}
	for i, tn := range tenants {
		if r := testnode.Do(t, "POST", url(i)+"/admin/v1/orgs/"+tn.id+"/wallet/credit", opToken, map[string]any{"amountMicros": 100_000_000, "reference": "topup"}); r.Status != 201 {
			t.Fatal(r)
		}
		tn.key = testnode.DataAs[testnode.Key](t, testnode.Do(t, "POST", url(i)+"/admin/v1/orgs/"+tn.id+"/keys", opToken, map[string]any{"name": "k",
			"scopes": []string{"documents.generate", "documents.read", "templates.write"}})).Key
		if r := testnode.Do(t, "POST", url(i)+"/v1/templates", tn.key, map[string]any{"name": "Note", "slug": "note",
			"html": `<html><body><div class="sheet" style="padding:20mm"><h1>Note {{n}}</h1></div></body></html>`}); r.Status != 201 {
			t.Fatal(r)
		}
		for j := range tn.clients {
			tn.clients[j] = client.New(url(j), tn.key, client.WithHTTPClient(hc))
		}
	}

	// The load: two workers per organisation, each sending a document to a
	// random live node, then pausing.
	type write struct {
		org         int
		key         string
		sent, acked time.Time
		id          string
		err         error
		attempts    int
	}
	var (
		mu       sync.Mutex
		writes   []write
		victim   atomic.Int32 // the node about to be killed, or -1
		inflight [3]atomic.Int32
	)
	victim.Store(-1)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for o := range tenants {
		for w := 0; w < 2; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					case <-time.After(200 * time.Millisecond):
					}
					target := rand.IntN(3)
					for int32(target) == victim.Load() {
						target = rand.IntN(3)
					}
					inflight[target].Add(1)
					wr := write{org: o, key: fmt.Sprintf("fo-%d-%d-%d", o, w, i), sent: time.Now()}
					ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
					var res client.Response
					d, err := tenants[o].clients[target].Documents.Create(ctx, client.DocumentRequest{TemplateID: "note",
						Data: map[string]any{"n": i}, CorrelationID: wr.key, Wait: client.Bool(false)},
						client.IdempotencyKey(wr.key), client.ResponseInto(&res))
					cancel()
					inflight[target].Add(-1)
					wr.acked, wr.err, wr.attempts = time.Now(), err, res.Attempts
					if err == nil {
						wr.id = d.ID
					}
					mu.Lock()
					writes = append(writes, wr)
					mu.Unlock()
				}
			}()
		}
	}

	// resumed is how long after the kill at `at` every organisation in orgs
	// had a write sent after the kill acknowledged; false until then.
	resumed := func(at time.Time, orgs []int) (time.Duration, bool) {
		mu.Lock()
		defer mu.Unlock()
		var worst time.Duration
		for _, o := range orgs {
			first := time.Duration(-1)
			for _, w := range writes {
				if w.org == o && w.err == nil && !w.sent.Before(at) && (first < 0 || w.acked.Sub(at) < first) {
					first = w.acked.Sub(at)
				}
			}
			if first < 0 {
				return 0, false
			}
			worst = max(worst, first)
		}
		return worst, true
	}
	// kill takes node i out of the load, waits for its requests to be
	// answered, kills it, waits for the writes of orgs to resume, restarts
	// it, and returns how long the writes took to resume.
	kill := func(i int, orgs []int) time.Duration {
		victim.Store(int32(i))
		poll.Until(t, 30*time.Second, func() error {
			if n := inflight[i].Load(); n > 0 {
				return fmt.Errorf("node %d still serves %d requests", i, n)
			}
			return nil
		})
		at := time.Now()
		t.Logf("killing node %d at %s", i, at.Format("15:04:05.000"))
		c.kill(i)
		var took time.Duration
		poll.Until(t, 30*time.Second, func() error {
			var ok bool
			if took, ok = resumed(at, orgs); !ok {
				return fmt.Errorf("writes of organisations %v have not resumed since node %d was killed", orgs, i)
			}
			return nil
		})
		c.start(i)
		c.waitVoters(3)
		victim.Store(-1)
		return took
	}

	time.Sleep(2 * time.Second) // the load settles
	var leaderKills, ownerKills []time.Duration
	for n := 0; n < 5; n++ {
		l, err := c.leader()
		if err != nil {
			t.Fatal(err)
		}
		took := kill(l, []int{0, 1, 2})
		t.Logf("kill -9 of the raft leader (node %d): writes of every organisation resumed after %s", l, took.Round(time.Millisecond))
		leaderKills = append(leaderKills, took)
		time.Sleep(time.Second)
	}
	for n := 0; n < 5; n++ {
		l, err := c.leader()
		if err != nil {
			t.Fatal(err)
		}
		o := (l + 1 + n%2) % 3 // an organisation owned by a node that does not lead
		took := kill(o, []int{o})
		t.Logf("kill -9 of node %d, owner of organisation %d: its writes resumed after %s", o, o, took.Round(time.Millisecond))
		ownerKills = append(ownerKills, took)
		time.Sleep(time.Second)
	}
	close(stop)
	wg.Wait()
	if dir := os.Getenv("PLATEN_FAILOVER_LOGS"); dir != "" {
		c.saveLogs(dir) // to study a run: the nodes' whole logs
	}

	// What the client saw.
	var failed []string
	acked := map[string]write{}
	for _, w := range writes {
		if w.err != nil {
			failed = append(failed, fmt.Sprintf("%s (sent %s): %v", w.key, w.sent.Format("15:04:05.000"), w.err))
			continue
		}
		acked[w.key] = w
	}
	wire.mu.Lock()
	t.Logf("%d writes, %d acknowledged; on the wire the client library saw %d answers 503 (%v) and %d lost connections, and retried them",
		len(writes), len(acked), wire.unavailable, wire.codes, wire.lost)
	leaks := wire.leaks
	unavailable := slices.Clone(wire.answers503)
	wire.mu.Unlock()
	t.Logf("writes resumed after a kill -9 of the raft leader in %s; of an organisation's owner in %s (min / median / max of 5; the target for the median is %s)",
		spread(leaderKills), spread(ownerKills), failoverMedianBound)
	if len(leaks) > 0 {
		t.Errorf("%d answers 503 carried internal detail, such as:\n%s", len(leaks), strings.Join(leaks[:min(len(leaks), 3)], "\n"))
	}
	if len(failed) > 0 {
		t.Errorf("%d writes reached their caller as errors:\n%s", len(failed), strings.Join(failed, "\n"))
	}
	if len(failed) > 0 || t.Failed() {
		// What the nodes logged of each 503, to see why.
		var ids, lines []string
		for _, u := range unavailable {
			ids = append(ids, u.id)
			lines = append(lines, fmt.Sprintf("%s at %s from %s", u.id, u.at.Format("15:04:05.000"), u.host))
		}
		t.Logf("503s on the wire:\n%s\nwhat the nodes logged of them:\n%s", strings.Join(lines, "\n"), strings.Join(c.logLines(ids), "\n"))
	}

	// Every key made one document, and every acknowledged one is there.
	byKey := map[string][]testnode.Document{}
	for i, tn := range tenants {
		poll.Until(t, 90*time.Second, func() error {
			clear(byKey)
			pending := 0
			cursor := ""
			for {
				page := testnode.DataAs[testnode.List[testnode.Document]](t, testnode.Do(t, "GET", url(i)+"/v1/documents?limit=100&cursor="+cursor, tn.key, nil))
				for _, d := range page.Items {
					byKey[d.CorrelationID] = append(byKey[d.CorrelationID], d)
					if d.Status == "queued" || d.Status == "rendering" {
						pending++
					}
				}
				if page.NextCursor == nil || *page.NextCursor == "" {
					break
				}
				cursor = *page.NextCursor
			}
			if pending > 0 {
				return fmt.Errorf("organisation %d: %d documents still pending", i, pending)
			}
			return nil
		})
		completed := 0
		for key, docs := range byKey {
			if len(docs) > 1 {
				t.Errorf("Idempotency-Key %s made %d documents", key, len(docs))
			}
			if docs[0].Status == "completed" {
				completed++
			}
		}
		for key, w := range acked {
			if w.org != i {
				continue
			}
			if docs := byKey[key]; len(docs) != 1 || docs[0].ID != w.id {
				t.Errorf("acknowledged document %s (key %s) is not there once: %v", w.id, key, docs)
			}
		}
		for j := range c.nodes {
			checkLedger(t, url(j), tn.id)
		}
		l := testnode.DataAs[testnode.Ledger](t, testnode.Do(t, "GET", url(i)+"/admin/v1/orgs/"+tn.id+"/ledger?limit=10000", opToken, nil))
		debits := 0
		for _, e := range l.Items {
			if e.Kind == "debit" {
				debits++
			}
		}
		if debits != completed-allowance || l.PagesUsed != allowance || l.HeldPages != 0 {
			t.Errorf("organisation %d: %d documents completed, %d charged (want %d), %d pages used, %d held",
				i, completed, debits, completed-allowance, l.PagesUsed, l.HeldPages)
		}
	}
}

// failoverMedianBound is issue 24's target for the median time writes take
// to resume after a kill (docs/operator.md "Failover"), which the test
// logs its figures beside. A leader's death costs the leader lease
// (400 ms) and an election; an owner's, the first refused connection.
// Measured here: about 0.5 s and 0.25 s, and over 1 s on a loaded machine.
const failoverMedianBound = time.Second

// wireCounter is the client's transport: it counts what the client library
// saw on the wire and retried, and keeps any 503 whose words say more than
// a caller should read.
type wireCounter struct {
	base http.RoundTripper

	mu          sync.Mutex // guards the fields below
	unavailable int
	lost        int
	codes       map[string]int
	leaks       []string
	// answers503 are the 503s: request id, when and from which node.
	answers503 []answer503
}

type answer503 struct {
	id, host string
	at       time.Time
}

// internalDetail is what no answer may show: internal routes, addresses,
// Go's network and error-chain text.
var internalDetail = regexp.MustCompile(`/peer/|\d+\.\d+\.\d+\.\d+:\d+|dial tcp|connection refused|EOF|context deadline|node [a-z0-9_]+ |goroutine`)

func (w *wireCounter) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := w.base.RoundTrip(req)
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil {
		w.lost++
		return res, err
	}
	if res.StatusCode != http.StatusServiceUnavailable {
		return res, nil
	}
	body, rerr := io.ReadAll(res.Body)
	res.Body.Close()
	res.Body = io.NopCloser(bytes.NewReader(body))
	if rerr != nil {
		return res, nil
	}
	w.unavailable++
	w.answers503 = append(w.answers503, answer503{id: res.Header.Get("X-Request-Id"), host: req.URL.Host, at: time.Now()})
	if w.codes == nil {
		w.codes = map[string]int{}
	}
	code := regexp.MustCompile(`"code":"([A-Z_]+)"`).FindSubmatch(body)
	if code != nil {
		w.codes[string(code[1])]++
	}
	if internalDetail.Match(body) {
		w.leaks = append(w.leaks, string(body))
	}
	return res, nil
}

// spread is "min / median / max" of ds.
func spread(ds []time.Duration) string {
	if len(ds) == 0 {
		return "nothing"
	}
	s := slices.Clone(ds)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return fmt.Sprintf("%s / %s / %s", s[0].Round(10*time.Millisecond), median(s).Round(10*time.Millisecond), s[len(s)-1].Round(10*time.Millisecond))
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
