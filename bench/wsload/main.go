// Command wsload measures the realtime namespace: it builds and starts a
// node as its own process on loopback, opens 5,000 idle WebSocket
// connections subscribed to the feed (50 organisations, 100 each), reads the
// node's memory before and after, then makes 100 events a second for ten
// seconds and measures when each connection receives each event. It talks
// only to the node it started.
//
//	go run ./bench/wsload -conns 5000 -orgs 50 -rate 100 -seconds 10
package main

import (
	"bytes"
	"flag"
	"fmt"
	"github.com/platen/platen/bench/internal/kit"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fasthttp/websocket"
)

func main() {
	conns := flag.Int("conns", 5000, "idle connections")
	orgs := flag.Int("orgs", 50, "organisations they belong to")
	rate := flag.Int("rate", 100, "events a second")
	seconds := flag.Int("seconds", 10, "how long to make events")
	flag.Parse()

	var lim syscall.Rlimit
	syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim)
	lim.Cur = lim.Max
	syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)

	dir, err := os.MkdirTemp("", "platen-wsload-")
	kit.Check(err)
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "platen")
	build := exec.Command("go", "build", "-o", bin, "./cmd/platen")
	build.Stderr = os.Stderr
	kit.Check(build.Run())
	httpAddr, raftAddr := kit.FreeAddr(), kit.FreeAddr()
	token := "wsload-operator-token-123456"
	srv := exec.Command(bin, "serve", "--data-dir", filepath.Join(dir, "data"), "--http", httpAddr, "--raft", raftAddr, "--operator-token", token, "--log-level", "error")
	kit.Check(srv.Start())
	defer srv.Process.Kill()
	base := "http://" + httpAddr
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if res, err := http.Get(base + "/readyz"); err == nil && res.StatusCode == 200 {
			res.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			kit.Check(fmt.Errorf("node not ready"))
		}
	}

	// A key per 25 connections: each key's rate limit (a burst of 100) covers
	// its connections' upgrades and subscribe frames.
	var orgIDs []string
	keys := map[int][]string{}
	perOrg := *conns / *orgs
	for i := 0; i < *orgs; i++ {
		org := kit.Call(base, token, "POST", "/admin/v1/orgs", map[string]any{"name": fmt.Sprint("org ", i), "plan": "starter"})["id"].(string)
		orgIDs = append(orgIDs, org)
		for k := 0; k < (perOrg+24)/25; k++ {
			keys[i] = append(keys[i], kit.Call(base, token, "POST", "/admin/v1/orgs/"+org+"/keys", map[string]any{"name": "k", "scopes": []string{"wallet.read"}})["key"].(string))
		}
	}
	time.Sleep(time.Second)
	before, beforeGo := rss(srv.Process.Pid), goMemory(base)

	var mu sync.Mutex
	var lat []time.Duration
	received := 0
	wsURL := strings.Replace(base, "http://", "ws://", 1) + "/v1/realtime"
	dialer := &websocket.Dialer{HandshakeTimeout: 30 * time.Second, ReadBufferSize: 1024, WriteBufferSize: 1024}
	var ready sync.WaitGroup
	open := make(chan struct{}, 64)
	for i := 0; i < *conns; i++ {
		ready.Add(1)
		open <- struct{}{}
		go func(i int) {
			h := http.Header{}
			org := i % *orgs
			h.Set("Authorization", "Bearer "+keys[org][(i / *orgs)/25])
			c, _, err := dialer.Dial(wsURL, h)
			<-open
			if err != nil {
				kit.Check(fmt.Errorf("connection %d: %w", i, err))
			}
			c.WriteJSON(map[string]any{"type": "subscribe", "events": []string{"wallet.credited"}})
			subscribed := false
			for {
				var m struct {
					Type string    `json:"type"`
					At   time.Time `json:"at"`
				}
				if err := c.ReadJSON(&m); err != nil {
					return
				}
				switch m.Type {
				case "subscribed":
					if !subscribed {
						subscribed = true
						ready.Done()
					}
				case "event":
					d := time.Since(m.At)
					mu.Lock()
					lat = append(lat, d)
					received++
					mu.Unlock()
				}
			}
		}(i)
	}
	ready.Wait()
	// fasthttp keeps the worker goroutine that served each upgrade idle in its
	// pool for 10 s; measure the steady state, after they are gone.
	time.Sleep(12 * time.Second)
	after, afterGo := rss(srv.Process.Pid), goMemory(base)
	fmt.Printf("%d idle connections on %d organisations: node RSS %.0f MiB → %.0f MiB (%.1f KB a connection); Go heap and stacks in use %.0f MiB → %.0f MiB (%.1f KB a connection)\n",
		*conns, *orgs, float64(before)/(1<<20), float64(after)/(1<<20), float64(after-before)/float64(*conns)/1024,
		float64(beforeGo)/(1<<20), float64(afterGo)/(1<<20), float64(afterGo-beforeGo)/float64(*conns)/1024)

	total := *rate * *seconds
	tick := time.NewTicker(time.Second / time.Duration(*rate))
	start := time.Now()
	for i := 0; i < total; i++ {
		<-tick.C
		go kit.Call(base, token, "POST", "/admin/v1/orgs/"+orgIDs[rand.IntN(*orgs)]+"/wallet/credit", map[string]any{"amountMicros": 1, "reference": fmt.Sprint("e", i)})
	}
	want := total * (*conns / *orgs)
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		mu.Lock()
		done := received >= want
		mu.Unlock()
		if done {
			break
		}
	}
	elapsed := time.Since(start)
	mu.Lock()
	defer mu.Unlock()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(p float64) time.Duration { return lat[int(p*float64(len(lat)-1))].Round(100 * time.Microsecond) }
	fmt.Printf("%d events at %d/s, each to %d connections: %d of %d frames received (%.0f frames/s)\n",
		total, *rate, *conns / *orgs, received, want, float64(received)/elapsed.Seconds())
	fmt.Printf("event to connection: p50 %s, p99 %s, max %s; node RSS after %.0f MiB\n", pct(0.5), pct(0.99), pct(1), float64(rss(srv.Process.Pid))/(1<<20))
}

// goMemory is the node's Go heap and goroutine stacks in use, from /metrics:
// what its live objects take, without the garbage RSS also counts.
func goMemory(base string) int64 {
	res, err := http.Get(base + "/metrics")
	kit.Check(err)
	defer res.Body.Close()
	var buf bytes.Buffer
	buf.ReadFrom(res.Body)
	var total int64
	for _, line := range strings.Split(buf.String(), "\n") {
		for _, name := range []string{"go_memstats_heap_inuse_bytes ", "go_memstats_stack_inuse_bytes "} {
			if rest, ok := strings.CutPrefix(line, name); ok {
				f, _ := strconv.ParseFloat(strings.TrimSpace(rest), 64)
				total += int64(f)
			}
		}
	}
	return total
}

// rss is a process's resident memory in bytes.
func rss(pid int) int64 {
	raw, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}
