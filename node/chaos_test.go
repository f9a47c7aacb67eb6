package node_test

import (
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/platen/platen/internal/poll"
	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/internal/tier"
)

// TestChaos runs three real nodes under steady load (documents, wallet
// credits, and the debits documents make, webhook deliveries to a local
// HTTPS receiver) while it kills -9 and restarts nodes, pauses one
// (SIGSTOP), and cuts one off from its peers (a proxy in front of its
// cluster port). Afterwards:
//   - every acknowledged document is completed, readable and downloadable;
//   - every acknowledged credit is in the ledger once;
//   - on every node, the balance is the sum of the ledger (credits minus
//     charges), nothing is held, and no document was charged twice;
//   - every completed document reached the webhook receiver at least once.
//
// PLATEN_CHAOS sets how long the chaos lasts: 40s by default (CI); `make
// chaos` runs it for 10 minutes and prints its figures.
func TestChaos(t *testing.T) {
	tier.Full(t, "kills, stops and cuts off node processes under load")
	length := 40 * time.Second
	if v := os.Getenv("PLATEN_CHAOS"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("PLATEN_CHAOS: %v", err)
		}
		length = d
	}

	// The webhook receiver records the documents it is told are completed.
	var hmu sync.Mutex
	hooked := map[string]int{}
	recv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var p struct {
			Event string `json:"event"`
			Data  struct {
				ID string `json:"id"`
			} `json:"data"`
		}
		body, _ := io.ReadAll(r.Body)
		if json.Unmarshal(body, &p) == nil && p.Event == "document.completed" {
			hmu.Lock()
			hooked[p.Data.ID]++
			hmu.Unlock()
		}
		w.WriteHeader(200)
	}))
	defer recv.Close()
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: recv.Certificate().Raw}), 0o600)

	c := newTestCluster(t, 3, clusterOpts{proxies: true, extra: []string{
		"--webhook-allow-private", "--webhook-ca-file", caFile, "--janitor-interval", "2s", "--render-pages", "1"}})
	url := c.url

	testnode.Do(t, "PUT", url(0)+"/admin/v1/plans/starter", opToken, map[string]any{"monthlyPages": 5, "pageRateMicros": 1000})
	org := testnode.DataAs[testnode.Org](t, testnode.Do(t, "POST", url(1)+"/admin/v1/orgs", opToken, map[string]any{"name": "Chaos", "plan": "starter"})).ID
	apiKey := testnode.DataAs[testnode.Key](t, testnode.Do(t, "POST", url(2)+"/admin/v1/orgs/"+org+"/keys", opToken, map[string]any{"name": "k",
		"scopes": []string{"documents.generate", "documents.read", "templates.write", "templates.read", "webhooks.write", "webhooks.read", "wallet.read"}})).Key
	if r := testnode.Do(t, "POST", url(0)+"/v1/templates", apiKey, map[string]any{"name": "Note", "slug": "note",
		"html": `<html><body><div class="sheet" style="padding:20mm"><h1>Note {{n}}</h1></div></body></html>`}); r.Status != 201 {
		t.Fatal(r)
	}
	if r := testnode.Do(t, "POST", url(1)+"/v1/webhooks", apiKey, map[string]any{"name": "recv", "url": recv.URL + "/hook", "events": []string{"document.completed"}}); r.Status != 201 {
		t.Fatal(r)
	}

	// Steady load on random nodes until stop.
	var (
		mu      sync.Mutex
		docs    []string
		credits = map[string]int64{}
		tries   = map[string]int{}
		refused = map[string]int{} // what unacknowledged requests got
	)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 8 * time.Second}
	outcome := func(kind string, r testnode.Response, err error) {
		what := fmt.Sprint(r.Status)
		if err != nil {
			what = "no answer"
		}
		mu.Lock()
		refused[kind+" "+what]++
		mu.Unlock()
	}
	load := func(kind string, every time.Duration, do func(i int) (string, int64, bool)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				case <-time.After(every):
				}
				id, amount, ok := do(i)
				mu.Lock()
				tries[kind]++
				if ok && kind == "document" {
					docs = append(docs, id)
				} else if ok {
					credits[id] = amount
				}
				mu.Unlock()
			}
		}()
	}
	for g := 0; g < 2; g++ {
		load("document", 150*time.Millisecond, func(i int) (string, int64, bool) {
			r, err := postAs(client, apiKey, url(rand.IntN(3))+"/v1/documents", fmt.Sprintf(`{"templateId":"note","data":{"n":%d},"wait":%v}`, i, i%3 == 0))
			if err != nil || (r.Status != 201 && r.Status != 202) {
				outcome("document", r, err)
				return "", 0, false
			}
			d, err := testnode.ParseData[testnode.Document](r)
			if err != nil {
				t.Errorf("an acknowledged document: %v: %s", err, r)
				return "", 0, false
			}
			return d.ID, 0, true
		})
	}
	load("credit", 100*time.Millisecond, func(i int) (string, int64, bool) {
		ref := fmt.Sprintf("chaos-%d", i)
		amount := int64(1000 + i)
		// A credit whose answer was lost is retried with its reference, as
		// a client should; only an acknowledged one counts.
		for attempt := 0; attempt < 3; attempt++ {
			r, err := post(client, url(rand.IntN(3))+"/admin/v1/orgs/"+org+"/wallet/credit", fmt.Sprintf(`{"amountMicros":%d,"reference":%q}`, amount, ref))
			if err == nil && (r.Status == 200 || r.Status == 201) {
				return ref, amount, true
			}
			outcome("credit attempt", r, err)
		}
		return "", 0, false
	})

	// Chaos: one node disturbed at a time, so two of three always vote.
	events := map[string]int{}
	end := time.Now().Add(length)
	for n := 0; time.Now().Before(end); n++ {
		time.Sleep(3 * time.Second)
		victim := rand.IntN(3)
		switch n % 3 {
		case 0:
			c.kill(victim)
			time.Sleep(2 * time.Second)
			c.start(victim)
			events["kill -9 and restart"]++
		case 1:
			c.nodes[victim].cmd.Process.Signal(syscall.SIGSTOP)
			time.Sleep(4 * time.Second)
			c.nodes[victim].cmd.Process.Signal(syscall.SIGCONT)
			events["SIGSTOP 4s"]++
		case 2:
			c.proxies[victim].CutOff()
			time.Sleep(4 * time.Second)
			c.proxies[victim].Restore()
			events["cluster port cut off 4s"]++
		}
		c.waitVoters(3)
	}
	close(stop)
	wg.Wait()
	t.Logf("chaos for %s: %v; load tried %v, acknowledged %d documents and %d credits; the rest got %v",
		length, events, tries, len(docs), len(credits), refused)
	if len(docs) == 0 || len(credits) == 0 {
		t.Fatal("no load was acknowledged; the test proves nothing")
	}

	// Every acknowledged document completes, is readable on every node and
	// downloadable from a node other than the one that answers.
	settled := time.Now()
	for k, id := range docs {
		reader := k % 3
		poll.Until(t, 120*time.Second, func() error {
			d := testnode.DataAs[testnode.Document](t, testnode.Do(t, "GET", url(reader)+"/v1/documents/"+id, apiKey, nil))
			if d.Status == "failed" {
				t.Fatalf("acknowledged document %s: %+v", id, d)
			}
			if d.Status != "completed" {
				return fmt.Errorf("acknowledged document %s: %+v", id, d)
			}
			if k%10 != 0 {
				return nil
			}
			// Minting a link records a download: a write, which may be
			// refused with 503 while the cluster settles.
			r := testnode.Do(t, "GET", url(reader)+"/v1/documents/"+id+"/download", apiKey, nil)
			if r.Status == http.StatusServiceUnavailable {
				return fmt.Errorf("document %s: a download link from node %d: %s", id, reader, r)
			}
			link, err := testnode.ParseData[testnode.Link](r)
			if err != nil {
				t.Fatalf("document %s: a download link from node %d: %v: %s", id, reader, err, r)
			}
			other := strings.Replace(link.URL, c.nodes[reader].httpAddr, c.nodes[(reader+1)%3].httpAddr, 1)
			res, err := http.Get(other)
			if err != nil || res.StatusCode != 200 {
				t.Fatalf("document %s from node %d: %v %v", id, (reader+1)%3, res, err)
			}
			res.Body.Close()
			return nil
		})
	}
	t.Logf("every acknowledged document completed %s after the chaos ended", time.Since(settled).Round(time.Millisecond))

	// Money adds up on every node, and every acknowledged credit is there once.
	for i := range c.nodes {
		checkLedger(t, url(i), org)
	}
	seen := map[string]int{}
	l := testnode.DataAs[testnode.Ledger](t, testnode.Do(t, "GET", url(0)+"/admin/v1/orgs/"+org+"/ledger?limit=10000", opToken, nil))
	for _, e := range l.Items {
		if e.Kind != "credit" {
			continue
		}
		seen[e.Reference]++
		if want, ok := credits[e.Reference]; ok && e.AmountMicros != want {
			t.Fatalf("credit %s: %d, want %d", e.Reference, e.AmountMicros, want)
		}
	}
	for ref := range credits {
		if seen[ref] != 1 {
			t.Fatalf("acknowledged credit %s is in the ledger %d times", ref, seen[ref])
		}
	}

	// Every completed document reached the receiver at least once.
	dup := 0
	poll.Until(t, 90*time.Second, func() error {
		hmu.Lock()
		defer hmu.Unlock()
		missing := 0
		for _, id := range docs {
			if hooked[id] == 0 {
				missing++
			}
		}
		dup = 0
		for _, n := range hooked {
			if n > 1 {
				dup++
			}
		}
		if missing > 0 {
			return fmt.Errorf("%d completed documents have not reached the webhook receiver", missing)
		}
		return nil
	})
	t.Logf("every completed document's webhook arrived (%d documents delivered more than once)", dup)
}
