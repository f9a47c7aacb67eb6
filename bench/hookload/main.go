// Command hookload measures webhook delivery: it starts a real node on
// loopback (with the test-only flags that let it deliver to loopback and
// trust a local CA), 100 organisations each with one HTTPS endpoint on a
// local receiver, 20 of which fail half the time (the first attempt of each
// delivery; its retry succeeds), and makes 10,000
// events (wallet credits). It reports deliveries per second and the time from
// each event to its delivery, and checks that every event arrived, under one
// delivery id. It talks only to what it started.
//
//	go run ./bench/hookload -orgs 100 -events 100
package main

import (
	"encoding/json"
	"encoding/pem"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/platen/platen/bench/internal/kit"

	"github.com/platen/platen/node"
)

type receipt struct {
	delivery, event string
	latency         time.Duration
	healthy         bool
}

func main() {
	orgs := flag.Int("orgs", 100, "organisations, one endpoint each")
	perOrg := flag.Int("events", 100, "events per organisation")
	failing := flag.Int("failing", 20, "endpoints that fail the first attempt of every delivery")
	rate := flag.Int("rate", 0, "events a second in all (0: as fast as the node takes them)")
	flag.Parse()

	var mu sync.Mutex
	var got []receipt
	seen := map[string]bool{}
	recv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/ep/"))
		id := r.Header.Get("x-service-delivery")
		mu.Lock()
		fail := n < *failing && !seen[id]
		seen[id] = true
		mu.Unlock()
		if fail {
			w.WriteHeader(500)
			return
		}
		var p struct {
			ID    string    `json:"id"`
			At    time.Time `json:"at"`
			Event string    `json:"event"`
			Data  struct {
				LedgerEntryID string `json:"ledgerEntryId"`
			} `json:"data"`
		}
		json.Unmarshal(body, &p)
		mu.Lock()
		got = append(got, receipt{delivery: p.ID, event: p.Data.LedgerEntryID, latency: time.Since(p.At), healthy: n >= *failing})
		mu.Unlock()
	}))
	defer recv.Close()

	n := kit.StartNode("hookload", func(cfg *node.Config, dir string) {
		ca := filepath.Join(dir, "ca.pem")
		kit.Check(os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: recv.Certificate().Raw}), 0o600))
		cfg.WarmEngine = false
		cfg.WebhookAllowPrivate, cfg.WebhookCAFile = true, ca
		// The schedule's shape with seconds for minutes, so retries finish in a run.
		cfg.WebhookSchedule = []time.Duration{50 * time.Millisecond, 200 * time.Millisecond, 500 * time.Millisecond, time.Second, time.Second, 2 * time.Second}
	})
	defer n.Stop()
	base, opToken := n.Base, n.OperatorToken

	var orgIDs []string
	for i := 0; i < *orgs; i++ {
		org := kit.Call(base, opToken, "POST", "/admin/v1/orgs", map[string]any{"name": fmt.Sprint("org ", i), "plan": "starter"})["id"].(string)
		key := kit.Call(base, opToken, "POST", "/admin/v1/orgs/"+org+"/keys", map[string]any{"name": "k", "scopes": []string{"webhooks.write"}})["key"].(string)
		kit.Call(base, key, "POST", "/v1/webhooks", map[string]any{"name": "ep", "url": fmt.Sprintf("%s/ep/%d", recv.URL, i), "events": []string{"wallet.credited"}})
		orgIDs = append(orgIDs, org)
	}
	total := *orgs * *perOrg
	start := time.Now()
	var wg sync.WaitGroup
	var tick <-chan time.Time
	if *rate > 0 {
		t := time.NewTicker(time.Second / time.Duration(*rate))
		defer t.Stop()
		tick = t.C
	}
	for _, org := range orgIDs {
		wg.Add(1)
		go func(org string) {
			defer wg.Done()
			for j := 0; j < *perOrg; j++ {
				if tick != nil {
					<-tick
				}
				kit.Call(base, opToken, "POST", "/admin/v1/orgs/"+org+"/wallet/credit", map[string]any{"amountMicros": 1, "reference": fmt.Sprint("e", j)})
			}
		}(org)
	}
	wg.Wait()
	made := time.Since(start)
	for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		mu.Lock()
		done := len(got)
		mu.Unlock()
		if done >= total || time.Now().After(deadline) {
			break
		}
	}
	elapsed := time.Since(start)
	mu.Lock()
	defer mu.Unlock()
	byEvent := map[string]map[string]bool{}
	var healthy []time.Duration
	for _, r := range got {
		if byEvent[r.event] == nil {
			byEvent[r.event] = map[string]bool{}
		}
		byEvent[r.event][r.delivery] = true
		if r.healthy {
			healthy = append(healthy, r.latency)
		}
	}
	split := 0
	for _, ids := range byEvent {
		if len(ids) > 1 {
			split++
		}
	}
	sort.Slice(healthy, func(i, j int) bool { return healthy[i] < healthy[j] })
	pct := func(p float64) time.Duration {
		return healthy[int(p*float64(len(healthy)-1))].Round(100 * time.Microsecond)
	}
	fmt.Printf("%d events to %d endpoints (%d failing half their requests); events made in %s\n", total, *orgs, *failing, made.Round(time.Millisecond))
	fmt.Printf("delivered %d distinct events in %s: %.0f deliveries/s; %d receipts (duplicates %d), %d events under more than one delivery id\n",
		len(byEvent), elapsed.Round(time.Millisecond), float64(len(got))/elapsed.Seconds(), len(got), len(got)-len(byEvent), split)
	fmt.Printf("event to delivery, healthy endpoints: p50 %s, p99 %s\n", pct(0.5), pct(0.99))
	if len(byEvent) != total || split != 0 {
		fmt.Println("FAIL: not every event was delivered exactly under one id")
		os.Exit(1)
	}
}
