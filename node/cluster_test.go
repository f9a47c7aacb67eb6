package node_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fasthttp/websocket"

	"github.com/platen/platen/cluster"
	"github.com/platen/platen/internal/faultproxy"
	"github.com/platen/platen/internal/poll"
	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/internal/tier"
)

// peerProc is one node of a three-node cluster of real processes.
type peerProc struct {
	*proc
	dir, httpAddr, raftAddr, gossipAddr string
	// past holds the logs of the node's earlier processes.
	past []*testnode.SyncBuffer
}

type testCluster struct {
	t       *testing.T
	keyFile string
	nodes   []*peerProc
	// proxies, when set, stand in front of each node's cluster port: peers
	// dial the proxy, which the test can cut off.
	proxies []*faultproxy.Proxy
	extra   []string
	binary  string
}

// clusterOpts changes how a test cluster's nodes run.
type clusterOpts struct {
	proxies bool
	extra   []string // more flags for every node
	// binary, when set, is the platen build the nodes run (plain(t), say).
	binary string
}

func newTestCluster(t *testing.T, size int, opts ...clusterOpts) *testCluster {
	keyFile := filepath.Join(t.TempDir(), "cluster.key")
	if err := os.WriteFile(keyFile, []byte(cluster.NewKey()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := &testCluster{t: t, keyFile: keyFile}
	var o clusterOpts
	if len(opts) > 0 {
		o = opts[0]
	}
	c.extra = o.extra
	c.binary = o.binary
	if c.binary == "" {
		c.binary = binary
	}
	for i := 0; i < size; i++ {
		n := &peerProc{dir: t.TempDir(), httpAddr: testnode.FreeAddr(t), raftAddr: testnode.FreeAddr(t), gossipAddr: testnode.FreeAddr(t)}
		c.nodes = append(c.nodes, n)
		if o.proxies {
			p, err := faultproxy.Start(n.raftAddr)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { p.Close() })
			c.proxies = append(c.proxies, p)
		}
	}
	for i := range c.nodes {
		c.start(i)
	}
	c.waitVoters(min(size, 3))
	return c
}

// start starts node i; every node but the first joins through the first
// (or, when the first is down, through another).
func (c *testCluster) start(i int) {
	t := c.t
	n := c.nodes[i]
	args := []string{"serve", "--data-dir", n.dir, "--http", n.httpAddr, "--raft", n.raftAddr,
		"--gossip", n.gossipAddr, "--cluster-key-file", c.keyFile}
	if c.proxies != nil {
		args = append(args, "--raft-advertise", c.proxies[i].Addr())
	}
	args = append(args, c.extra...)
	var peers []string
	for j, o := range c.nodes {
		if j != i {
			peers = append(peers, o.gossipAddr)
		}
	}
	if i != 0 || n.proc != nil { // the first node's first start makes the cluster
		args = append(args, "--join", strings.Join(peers, ","))
	}
	if n.proc != nil {
		n.past = append(n.past, n.proc.stdout, n.proc.stderr)
	}
	n.proc = launchBinary(t, c.binary, n.httpAddr, 90*time.Second, args...)
}

// logs are the node's logs, its earlier processes' first.
func (n *peerProc) logs() []*testnode.SyncBuffer {
	return append(slices.Clone(n.past), n.proc.stdout, n.proc.stderr)
}

// logLines returns the lines of every node's logs, past processes
// included, that contain one of subs, each prefixed with its node.
func (c *testCluster) logLines(subs []string) []string {
	var out []string
	for i, n := range c.nodes {
		for _, b := range n.logs() {
			for _, line := range strings.Split(b.String(), "\n") {
				for _, s := range subs {
					if strings.Contains(line, s) {
						out = append(out, fmt.Sprintf("node %d: %s", i, line))
						break
					}
				}
			}
		}
	}
	return out
}

// saveLogs writes every node's logs, past processes included, to dir.
func (c *testCluster) saveLogs(dir string) {
	for i, n := range c.nodes {
		var all bytes.Buffer
		for _, b := range n.logs() {
			all.WriteString(b.String())
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("node%d.log", i)), all.Bytes(), 0o644); err != nil {
			c.t.Error(err)
		}
	}
}

// url is node i's base URL; fixed, where the process behind it changes.
func (c *testCluster) url(i int) string { return "http://" + c.nodes[i].httpAddr }

func (c *testCluster) kill(i int) {
	c.nodes[i].cmd.Process.Signal(syscall.SIGKILL)
	c.nodes[i].wait(c.t, 10*time.Second)
}

// info is GET /admin/v1/cluster on node i, or why it has none.
func (c *testCluster) info(i int) (testnode.Cluster, error) {
	client := &http.Client{Timeout: 2 * time.Second}
	req, _ := http.NewRequest("GET", c.nodes[i].url+"/admin/v1/cluster", nil)
	req.Header.Set("Authorization", "Bearer "+opToken)
	res, err := client.Do(req)
	if err != nil {
		return testnode.Cluster{}, fmt.Errorf("node %d: %w", i, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return testnode.Cluster{}, fmt.Errorf("node %d: %w", i, err)
	}
	r := testnode.Response{Status: res.StatusCode, Body: body}
	if r.Status != 200 {
		return testnode.Cluster{}, fmt.Errorf("node %d: %s", i, r)
	}
	inf, err := testnode.ParseData[testnode.Cluster](r)
	if err != nil {
		return testnode.Cluster{}, fmt.Errorf("node %d: %w", i, err)
	}
	return inf, nil
}

// leader is the node that says it leads, or an error with what each said.
func (c *testCluster) leader() (int, error) {
	var said []string
	for i := range c.nodes {
		inf, err := c.info(i)
		if err != nil {
			said = append(said, err.Error())
			continue
		}
		if inf.Raft.State == "Leader" {
			return i, nil
		}
		said = append(said, fmt.Sprintf("node %d: %s", i, inf.Raft.State))
	}
	return -1, fmt.Errorf("no leader (%s)", strings.Join(said, "; "))
}

func (c *testCluster) waitVoters(want int) {
	c.t.Helper()
	poll.Until(c.t, 60*time.Second, func() error {
		l, err := c.leader()
		if err != nil {
			return fmt.Errorf("the cluster has not reached %d voters: %w", want, err)
		}
		inf, err := c.info(l)
		if err != nil {
			return fmt.Errorf("the cluster has not reached %d voters: the leader: %w", want, err)
		}
		voters := 0
		for _, s := range inf.Servers {
			if s.Suffrage == "Voter" {
				voters++
			}
		}
		if voters < want {
			return fmt.Errorf("the cluster has not reached %d voters: node %d leads %+v", want, l, inf.Servers)
		}
		return nil
	})
}

// TestClusterOfProcessesSurvivesKill9 runs three real nodes: every call works
// on every node (forwarded to the owner actor or the leader where needed),
// a PDF rendered on one downloads from the others, writes go on after the
// leader is killed, a killed node's unfinished documents complete on the
// others, a returning node catches up, and the ledger adds up at the end.
func TestClusterOfProcessesSurvivesKill9(t *testing.T) {
	tier.Full(t, "runs a cluster of three node processes")
	c := newTestCluster(t, 3)
	url := c.url

	testnode.Do(t, "PUT", url(2)+"/admin/v1/plans/starter", opToken, map[string]any{"monthlyPages": 2, "pageRateMicros": 1000})
	org := testnode.DataAs[testnode.Org](t, testnode.Do(t, "POST", url(1)+"/admin/v1/orgs", opToken, map[string]any{"name": "Paid", "plan": "starter"})).ID
	if r := testnode.Do(t, "POST", url(2)+"/admin/v1/orgs/"+org+"/wallet/credit", opToken, map[string]any{"amountMicros": 1000000, "reference": "topup"}); r.Status != 200 && r.Status != 201 {
		t.Fatal(r)
	}
	key := testnode.DataAs[testnode.Key](t, testnode.Do(t, "POST", url(0)+"/admin/v1/orgs/"+org+"/keys", opToken, map[string]any{"name": "k", "scopes": []string{"documents.generate", "documents.read", "templates.write", "templates.read"}})).Key
	if r := testnode.Do(t, "POST", url(1)+"/v1/templates", key, map[string]any{"name": "Note", "slug": "note",
		"html": `<html><body><div class="sheet" style="padding:20mm"><h1>Note {{n}}</h1></div></body></html>`}); r.Status != 201 {
		t.Fatal(r)
	}

	// Rendered on each node, downloaded from each of the others.
	for i := range c.nodes {
		r := testnode.Do(t, "POST", url(i)+"/v1/documents", key, map[string]any{"templateId": "note", "data": map[string]any{"n": i}})
		if r.Status != 201 {
			t.Fatalf("document on node %d: %s", i, r)
		}
		d := testnode.DataAs[testnode.Document](t, r)
		if d.Status != "completed" {
			t.Fatalf("document on node %d: %s", i, r)
		}
		link := d.DownloadURL
		for j := range c.nodes {
			if j == i {
				continue
			}
			other := strings.Replace(link, c.nodes[i].httpAddr, c.nodes[j].httpAddr, 1)
			res, err := http.Get(other)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != 200 || !bytes.HasPrefix(body, []byte("%PDF")) {
				t.Fatalf("node %d's document from node %d: HTTP %d %.200s", i, j, res.StatusCode, body)
			}
		}
	}

	// A template made from a PDF uploaded to one node fills on every node:
	// a node without the upload fetches it from a holder.
	upload := uploadPDF(t, url(0), key, "../pdftemplate/testdata/chromium-invoice.pdf", "pdf-invoice", c.nodes[0].stderr)
	var numberPiece string
	for _, p := range upload.Pieces {
		if p.Text == "INV-2026-0142" && numberPiece == "" {
			numberPiece = p.ID
		}
	}
	if r := testnode.Do(t, "POST", url(1)+"/v1/templates/pdf-invoice/versions", key, map[string]any{
		"fields": []map[string]any{{"pieceId": numberPiece, "key": "number", "required": true}}, "activate": true}); r.Status != 201 {
		t.Fatalf("fields: %s", r)
	}
	for i := range c.nodes {
		r := testnode.Do(t, "POST", url(i)+"/v1/documents", key, map[string]any{"templateId": "pdf-invoice", "data": map[string]any{"number": fmt.Sprintf("INV-2026-090%d", i)}})
		if r.Status == 202 {
			// The node's first fill compiles PDFium (seconds under -race
			// on a loaded machine), which can outlive the wait: the
			// document completes all the same.
			id := testnode.DataAs[testnode.Document](t, r).ID
			poll.Until(t, 2*time.Minute, func() error {
				r = testnode.Do(t, "GET", url(i)+"/v1/documents/"+id, key, nil)
				if st := testnode.DataAs[testnode.Document](t, r).Status; st == "queued" || st == "rendering" {
					return fmt.Errorf("PDF template document on node %d still %s", i, st)
				}
				return nil
			})
		} else if r.Status != 201 {
			t.Fatalf("PDF template document on node %d: %s", i, r)
		}
		if d := testnode.DataAs[testnode.Document](t, r); d.Status != "completed" || d.Engine != "pdfium" {
			t.Fatalf("PDF template document on node %d: %s", i, r)
		}
		if img := testnode.Do(t, "GET", url(i)+"/v1/templates/pdf-invoice/pages/1.png", key, nil); img.Status != 200 || img.Header.Get("Content-Type") != "image/png" {
			t.Fatalf("page image on node %d: HTTP %d", i, img.Status)
		}
	}

	// A console session made on one node signs its person in on every node:
	// sessions live in the replicated state.
	inv := testnode.Do(t, "POST", url(0)+"/admin/v1/orgs/"+org+"/invites", opToken, map[string]any{"email": "ada@example.com", "role": "owner"})
	if inv.Status != 201 {
		t.Fatalf("invite: %s", inv)
	}
	link := strings.Replace(inv.Data()["link"].(string), c.nodes[0].httpAddr, c.nodes[1].httpAddr, 1)
	_, token, _ := strings.Cut(link, "#")
	accepted := testnode.DoWith(t, "POST", url(1)+"/console/api/links/accept", "", map[string]any{"token": token, "password": "correct horse battery"},
		map[string]string{"Origin": url(1), "Content-Type": "application/json"})
	if accepted.Status != 200 {
		t.Fatalf("accept on node 1: %s", accepted)
	}
	cookie := ""
	for _, ck := range (&http.Response{Header: accepted.Header}).Cookies() {
		if ck.Name == "platen_session" {
			cookie = ck.Name + "=" + ck.Value
		}
	}
	csrf := accepted.Data()["csrf"].(string)
	for i := range c.nodes {
		r := testnode.DoWith(t, "POST", url(i)+"/console/api/keys", "", map[string]any{"name": fmt.Sprintf("from node %d", i), "scopes": []string{"templates.read"}},
			map[string]string{"Cookie": cookie, "Origin": url(i), "X-CSRF-Token": csrf})
		if r.Status != 201 {
			t.Fatalf("the session from node 1 on node %d: %s", i, r)
		}
	}

	// The leader dies; a write through a survivor goes through once a new
	// leader is elected.
	lead, err := c.leader()
	if err != nil {
		t.Fatal(err)
	}
	survivor := (lead + 1) % 3
	killed := time.Now()
	c.kill(lead)
	// A write through a survivor goes through within 30 s.
	poll.Until(t, 30*time.Second, func() error {
		r, err := post(&http.Client{Timeout: 5 * time.Second}, url(survivor)+"/admin/v1/orgs/"+org+"/wallet/credit",
			`{"amountMicros":1,"reference":"after-kill"}`)
		if err != nil {
			return fmt.Errorf("no write through node %d after the leader's kill: %v", survivor, err)
		}
		if r.Status != 200 && r.Status != 201 {
			return fmt.Errorf("no write through node %d after the leader's kill: %s", survivor, r)
		}
		return nil
	})
	t.Logf("failover: a write through a survivor committed %s after the leader's kill -9", time.Since(killed).Round(time.Millisecond))

	// The old leader returns and catches up.
	c.start(lead)
	if r := testnode.Do(t, "GET", url(lead)+"/v1/templates/note", key, nil); r.Status != 200 {
		t.Fatalf("returned node: %s", r)
	}

	// A burst of documents on one node, which is killed at once: they
	// complete on the others. A realtime client on that node reconnects to
	// another and resumes from its cursor.
	victim := (lead + 2) % 3
	feed := newFeedClient(t, c.nodes[victim].httpAddr, key, "")
	var ids []string
	var mu sync.Mutex
	var wg sync.WaitGroup
	for g := 0; g < 3; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 5; i++ {
				// As a client should, a 503 is retried after its Retry-After
				// (an org actor may be moving to the node that just returned).
				var r testnode.Response
				var err error
				for attempt := 0; attempt < 5; attempt++ {
					r, err = postAs(&http.Client{Timeout: 10 * time.Second}, key, url(victim)+"/v1/documents", fmt.Sprintf(`{"templateId":"note","data":{"n":%d},"wait":false}`, g*10+i))
					if err != nil || r.Status != 503 {
						break
					}
					time.Sleep(time.Second)
				}
				if err != nil || r.Status != 202 {
					t.Errorf("document on node %d: %v %v", victim, r, err)
					continue
				}
				d, err := testnode.ParseData[testnode.Document](r)
				if err != nil {
					t.Errorf("document on node %d: %v: %s", victim, err, r)
					continue
				}
				mu.Lock()
				ids = append(ids, d.ID)
				mu.Unlock()
			}
		}(g)
	}
	wg.Wait()
	c.kill(victim)
	killed = time.Now()
	reader := (victim + 1) % 3
	// Each document is read until it completes, in order, within 90 s for all.
	pendingAtKill := 0
	read := map[string]bool{} // documents read at least once
	done := 0                 // ids[:done] are completed
	poll.Until(t, 90*time.Second, func() error {
		for ; done < len(ids); done++ {
			id := ids[done]
			d := testnode.DataAs[testnode.Document](t, testnode.Do(t, "GET", url(reader)+"/v1/documents/"+id, key, nil))
			if !read[id] && d.Status != "completed" {
				pendingAtKill++
			}
			read[id] = true
			if d.Status == "failed" {
				t.Fatalf("document %s after its node's kill: %+v", id, d)
			}
			if d.Status != "completed" {
				return fmt.Errorf("document %s after its node's kill: %+v", id, d)
			}
		}
		return nil
	})
	t.Logf("%d of %d documents were unfinished when their node was killed; all completed elsewhere %s after the kill",
		pendingAtKill, len(ids), time.Since(killed).Round(time.Millisecond))
	if testing.Verbose() {
		slow := time.Since(killed) > 10*time.Second
		for i, n := range c.nodes {
			for _, line := range strings.Split(n.stderr.String(), "\n") {
				if strings.Contains(line, "taken over") || strings.Contains(line, "resumed") || strings.Contains(line, "joined") ||
					(slow && strings.Contains(line, "document") && !strings.Contains(line, `"msg":"request"`)) {
					t.Logf("node %d: %.300s", i, line)
				}
			}
		}
		t.Logf("killed at %s", killed.UTC().Format(time.RFC3339Nano))
		for i := range c.nodes {
			if inf, err := c.info(i); err == nil {
				t.Logf("node %d (%s) places on %+v", i, inf.Node.ID, inf.Placement)
			}
		}
	}

	before, cursor := feed.completed()
	resumed := newFeedClient(t, c.nodes[reader].httpAddr, key, cursor)
	poll.Until(t, 30*time.Second, func() error {
		after, _ := resumed.completed()
		missing := 0
		for _, id := range ids {
			if before[id]+after[id] == 0 {
				missing++
			}
			if before[id] > 0 && after[id] > 0 {
				t.Fatalf("document %s's completion came again after resuming from cursor %s", id, cursor)
			}
		}
		if missing > 0 {
			return fmt.Errorf("%d completions have not reached the realtime client", missing)
		}
		return nil
	})
	t.Logf("realtime: %d completions on the killed node's connection, the rest after resuming on another node from cursor %q", len(before), cursor)

	c.start(victim)
	for i := range c.nodes {
		checkLedger(t, url(i), org)
	}

	// The operator removes a node that is gone, through any node; it comes
	// back into raft when it runs again.
	servers := func(i int) (map[string]string, error) {
		inf, err := c.info(i)
		if err != nil {
			return nil, err
		}
		out := map[string]string{}
		for _, s := range inf.Servers {
			out[s.ID] = s.Suffrage
		}
		return out, nil
	}
	gone, err := c.info(victim)
	if err != nil {
		t.Fatal(err)
	}
	goneID := gone.Node.ID
	c.kill(victim)
	asker := (victim + 1) % 3
	if r := testnode.Do(t, "DELETE", url(asker)+"/admin/v1/cluster/nodes/node_unknown", opToken, nil); r.Status != 404 {
		t.Fatalf("removing an unknown node: %s", r)
	}
	// Retried while a new leader settles if the victim led.
	poll.Until(t, 20*time.Second, func() error {
		if r := testnode.Do(t, "DELETE", url(asker)+"/admin/v1/cluster/nodes/"+goneID, opToken, nil); r.Status != 200 {
			return fmt.Errorf("removing the dead node: %s", r)
		}
		return nil
	})
	poll.Until(t, 5*time.Second, func() error {
		s, err := servers(asker)
		if err != nil {
			return err
		}
		if len(s) != 2 || s[goneID] != "" {
			return fmt.Errorf("raft servers after the removal: %v", s)
		}
		return nil
	})
	c.start(victim)
	poll.Until(t, 20*time.Second, func() error {
		s, err := servers(asker)
		if err != nil {
			return err
		}
		if s[goneID] != "Voter" {
			return fmt.Errorf("the removed node has not come back as a voter: %v", s)
		}
		return nil
	})
}

// checkLedger checks, on one node, that the balance is the sum of the
// ledger, that no document was charged twice, and that nothing is held.
func checkLedger(t *testing.T, url, org string) {
	t.Helper()
	poll.Until(t, 30*time.Second, func() error {
		l := testnode.DataAs[testnode.Ledger](t, testnode.Do(t, "GET", url+"/admin/v1/orgs/"+org+"/ledger?limit=10000", opToken, nil))
		var sum int64
		charged := map[string]bool{}
		for _, e := range l.Items {
			sum += e.AmountMicros
			if e.Kind == "debit" {
				if charged[e.Reference] {
					t.Fatalf("%s: document %s charged twice", url, e.Reference)
				}
				charged[e.Reference] = true
			}
		}
		if sum != l.BalanceMicros || l.HeldMicros != 0 {
			return fmt.Errorf("%s: ledger sum %d, balance %d, held %d", url, sum, l.BalanceMicros, l.HeldMicros)
		}
		return nil
	})
}

// TestLoadedNodeHandsDocumentsToAPeer sends every document to one node whose
// queue holds one: the rest go to its peer, which renders them.
func TestLoadedNodeHandsDocumentsToAPeer(t *testing.T) {
	tier.Full(t, "runs a cluster of node processes")
	c := newTestCluster(t, 2, clusterOpts{extra: []string{"--document-queue", "1", "--render-pages", "1"}})
	org := testnode.DataAs[testnode.Org](t, testnode.Do(t, "POST", c.nodes[0].url+"/admin/v1/orgs", opToken, map[string]any{"name": "Busy", "plan": "starter"})).ID
	key := testnode.DataAs[testnode.Key](t, testnode.Do(t, "POST", c.nodes[0].url+"/admin/v1/orgs/"+org+"/keys", opToken, map[string]any{"name": "k", "scopes": []string{"documents.generate", "documents.read", "templates.write"}})).Key
	if r := testnode.Do(t, "POST", c.nodes[0].url+"/v1/templates", key, map[string]any{"name": "Note", "slug": "note",
		"html": `<html><body><h1>Note {{n}}</h1></body></html>`}); r.Status != 201 {
		t.Fatal(r)
	}
	var ids []string
	for i := 0; len(ids) < 8 && i < 100; i++ {
		r, err := postAs(&http.Client{Timeout: 10 * time.Second}, key, c.nodes[0].url+"/v1/documents", fmt.Sprintf(`{"templateId":"note","data":{"n":%d},"wait":false}`, i))
		if err == nil && r.Status == 202 {
			ids = append(ids, testnode.DataAs[testnode.Document](t, r).ID)
		}
	}
	for _, id := range ids {
		poll.Until(t, 60*time.Second, func() error {
			switch d := testnode.DataAs[testnode.Document](t, testnode.Do(t, "GET", c.nodes[0].url+"/v1/documents/"+id, key, nil)); d.Status {
			case "completed":
				return nil
			case "failed":
				t.Fatalf("document %s: %+v", id, d)
				return nil
			default:
				return fmt.Errorf("document %s: %+v", id, d)
			}
		})
	}
	rendered := func(i int) string {
		res, err := http.Get(c.nodes[i].url + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		for _, line := range strings.Split(string(body), "\n") {
			if strings.HasPrefix(line, "platen_documents_completed_total ") {
				return strings.TrimPrefix(line, "platen_documents_completed_total ")
			}
		}
		return "?"
	}
	here, there := rendered(0), rendered(1)
	t.Logf("%d documents sent to node 0: it rendered %s, its peer %s", len(ids), here, there)
	if there == "0" || there == "?" {
		t.Fatal("the loaded node handed nothing to its peer")
	}
}

// feedClient is a realtime connection subscribed to document.completed that
// records, in the background, each document's completions and the last cursor.
type feedClient struct {
	mu     sync.Mutex
	seen   map[string]int
	cursor string
}

func newFeedClient(t *testing.T, httpAddr, key, since string) *feedClient {
	t.Helper()
	h := http.Header{}
	h.Set("Authorization", "Bearer "+key)
	conn, _, err := websocket.DefaultDialer.Dial("ws://"+httpAddr+"/v1/realtime", h)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	sub := map[string]any{"type": "subscribe", "events": []string{"document.completed"}}
	if since != "" {
		sub["since"] = since
	}
	if err := conn.WriteJSON(sub); err != nil {
		t.Fatal(err)
	}
	f := &feedClient{seen: map[string]int{}, cursor: since}
	var first map[string]any
	if err := conn.ReadJSON(&first); err != nil || first["type"] != "subscribed" {
		t.Fatalf("subscribe: %v %v", first, err)
	}
	if since == "" {
		f.cursor, _ = first["cursor"].(string)
	}
	go func() {
		for {
			var m map[string]any
			if err := conn.ReadJSON(&m); err != nil {
				return // the node went away, or the test ended
			}
			if m["type"] != "event" {
				continue
			}
			data, _ := m["data"].(map[string]any)
			f.mu.Lock()
			f.seen[fmt.Sprint(data["id"])]++
			f.cursor = fmt.Sprint(m["cursor"])
			f.mu.Unlock()
		}
	}()
	return f
}

// completed returns how often each document's completion arrived, and the
// cursor of the last event processed.
func (f *feedClient) completed() (map[string]int, string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]int{}
	for k, v := range f.seen {
		out[k] = v
	}
	return out, f.cursor
}

// uploadPDF makes a template from a PDF file through POST /v1/templates/pdf.
func uploadPDF(t *testing.T, baseURL, key, path, slug string, logs fmt.Stringer) testnode.PDFTemplate {
	t.Helper()
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := testnode.Upload(t, baseURL+"/v1/templates/pdf", key, filepath.Base(path), file, map[string]string{"slug": slug})
	if r.Status != 201 {
		t.Fatalf("upload: %s; the node's log:\n%s", r, logs)
	}
	return testnode.DataAs[testnode.PDFTemplate](t, r)
}
