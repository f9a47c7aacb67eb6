// Command onewrite measures what persistence costs a document its caller
// waits for: in one run, for each starter named, the documents per second
// and the latency of the engine alone (render.Renderer with phantom, in
// process, as a node renders: filled, laid out, written, no watermark) and
// of the same documents through a real node's REST API with wait true
// (admitted, held, rendered, recorded in one raft command with its PDF,
// answered), at 1 and 2 clients, the process's CPU time per document at 2
// clients, and the ratios. A floor follows: one authenticated GET of a
// document, which no REST call costs less than. A wait-false
// burst and the three-page statement show the paths that keep the three
// commands. It talks only to the node it started.
//
//	go run ./bench/onewrite -n 400
//	go run ./bench/onewrite -docs invoice -n 1000 -cpuprofile /tmp/cpu.out
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/platen/platen/bench/internal/kit"
	clusterpkg "github.com/platen/platen/cluster"
	"github.com/platen/platen/node"
	"github.com/platen/platen/render"
	"github.com/platen/platen/render/phantom"
	"github.com/platen/platen/starters"
)

func main() {
	perLevel := flag.Int("n", 400, "documents per measurement")
	docs := flag.String("docs", "invoice,letter", "starters measured against the engine alone")
	long := flag.String("long", "statement", "starters measured through the node only (longer documents)")
	burst := flag.Int("burst", 200, "documents of the wait-false burst (0 skips it)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the REST runs at 2 clients")
	memprofile := flag.String("memprofile", "", "write an allocation profile of the whole run when it ends")
	nodes := flag.Int("nodes", 1, "nodes in the cluster the REST runs go to (round robin); 3 starts three peers in this process")
	flag.Parse()

	if *memprofile != "" {
		defer func() {
			runtime.GC() // the profile counts allocations up to the last collection
			out, err := os.Create(*memprofile)
			kit.Check(err)
			kit.Check(pprof.Lookup("allocs").WriteTo(out, 0))
			kit.Check(out.Close())
		}()
	}
	cluster := startCluster(*nodes)
	defer func() {
		for _, n := range cluster {
			n.Stop()
		}
	}()
	n := cluster[0]
	kit.Call(n.Base, n.OperatorToken, "PUT", "/admin/v1/plans/bench", map[string]any{"monthlyPages": 1_000_000_000, "pageRateMicros": 0, "wallet": false, "watermark": false})
	key := n.BenchKey("bench")
	var turn atomic.Int64
	base := func() string { return cluster[int(turn.Add(1))%len(cluster)].Base }

	engine, err := phantom.New(phantom.Config{Workers: max(runtime.NumCPU(), 1), MaxPages: render.DefaultRendererConfig().MaxPages})
	kit.Check(err)
	renderer := render.NewRenderer(render.DefaultRendererConfig(), engine)
	all, err := starters.All()
	kit.Check(err)
	byName := map[string]starters.Starter{}
	for _, s := range all {
		byName[s.Slug] = s
	}

	var engineCPU []time.Duration // the engine's CPU per document of each of engineDocs
	var engineDocs []string
	fmt.Printf("%d documents per measurement; %d node(s); GOMAXPROCS %d\n\n", *perLevel, len(cluster), runtime.GOMAXPROCS(0))
	fmt.Printf("%-10s %-8s %8s %8s %10s %10s %9s\n", "document", "path", "p50", "p95", "1 client", "2 clients", "CPU/doc")
	for _, slug := range strings.Split(*docs, ",") {
		st, ok := byName[slug]
		if !ok {
			kit.Check(fmt.Errorf("no starter %q", slug))
		}
		checked, err := st.Version.Check()
		kit.Check(err)
		var sample map[string]any
		kit.Check(json.Unmarshal(st.Version.SampleData, &sample))
		kit.Call(n.Base, key, "POST", "/v1/templates/library/"+slug+"/copy", nil)

		alone := func() {
			req := render.Request{Version: checked, Data: vary(sample), Engine: render.EnginePhantom, Now: time.Now()}
			_, err := renderer.Render(context.Background(), req)
			kit.Check(err)
		}
		rest := func() {
			d := kit.Call(base(), key, "POST", "/v1/documents", map[string]any{"templateId": slug, "data": vary(sample), "engine": render.EnginePhantom})
			if d["status"] != "completed" {
				kit.Check(fmt.Errorf("%s: %v %v", slug, d["status"], d["message"]))
			}
			lastID.Store(d["id"])
		}
		for i := 0; i < 20; i++ { // warm both
			alone()
			rest()
		}
		// Interleaved, so that both see the same machine.
		eng, node := measure("engine", alone, *perLevel, ""), measure("REST", rest, *perLevel, *cpuprofile)
		for _, m := range []figures{eng, node} {
			fmt.Printf("%-10s %-8s %8s %8s %10.1f %10.1f %9s\n", slug, m.name, m.p50, m.p95, m.rate[1], m.rate[2], m.cpu.Round(time.Microsecond))
		}
		fmt.Printf("%-10s %-8s %8s %8s %9.0f%% %9.0f%% %8.0f%%\n\n", slug, "ratio", "+"+(node.p50-eng.p50).String(), "", 100*node.rate[1]/eng.rate[1], 100*node.rate[2]/eng.rate[2], 100*float64(eng.cpu)/float64(node.cpu))
		engineCPU, engineDocs = append(engineCPU, eng.cpu), append(engineDocs, slug)
	}
	if id, ok := lastID.Load().(string); ok {
		// The floor: what one authenticated REST call costs with no render
		// and no write, the least a document through REST can add.
		get := func() { kit.Call(base(), key, "GET", "/v1/documents/"+id, nil) }
		for i := 0; i < 20; i++ {
			get()
		}
		m := measure("GET", get, *perLevel, "")
		fmt.Printf("%-10s %-8s %8s %8s %10.1f %10.1f %9s", "floor", m.name, m.p50, m.p95, m.rate[1], m.rate[2], m.cpu.Round(time.Microsecond))
		for i, c := range engineCPU {
			fmt.Printf("  %.0f%% of an engine %s", 100*float64(m.cpu)/float64(c), engineDocs[i])
		}
		fmt.Print("\n\n")
	}

	for _, slug := range strings.Split(*long, ",") {
		if slug == "" {
			continue
		}
		var sample map[string]any
		kit.Check(json.Unmarshal(byName[slug].Version.SampleData, &sample))
		kit.Call(n.Base, key, "POST", "/v1/templates/library/"+slug+"/copy", nil)
		rest := func() {
			d := kit.Call(base(), key, "POST", "/v1/documents", map[string]any{"templateId": slug, "data": vary(sample), "engine": render.EnginePhantom})
			if d["status"] != "completed" {
				kit.Check(fmt.Errorf("%s: %v", slug, d["status"]))
			}
		}
		for i := 0; i < 5; i++ {
			rest()
		}
		m := measure("REST", rest, *perLevel/4, "")
		fmt.Printf("%-10s %-8s %8s %8s %10.1f %10.1f %9s\n", slug, m.name, m.p50, m.p95, m.rate[1], m.rate[2], m.cpu.Round(time.Microsecond))
	}

	if *burst > 0 {
		var sample map[string]any
		kit.Check(json.Unmarshal(byName["invoice"].Version.SampleData, &sample))
		start := time.Now()
		lat, _ := kit.Run(4, *burst, func() {
			d := kit.Call(base(), key, "POST", "/v1/documents", map[string]any{"templateId": "invoice", "data": vary(sample), "wait": false})
			if d["status"] != "queued" && d["status"] != "rendering" && d["status"] != "completed" {
				kit.Check(fmt.Errorf("wait false: %v", d["status"]))
			}
		})
		accepted := time.Since(start)
		for pending(n.Base, key) {
			time.Sleep(5 * time.Millisecond)
		}
		fmt.Printf("\nwait-false burst of %d invoices at 4 clients: accepted in %s (p50 %s), all completed after %s: %.1f documents/s\n",
			*burst, accepted.Round(time.Millisecond), kit.Pct(lat, 0.5), time.Since(start).Round(time.Millisecond), float64(*burst)/time.Since(start).Seconds())
	}
}

// startCluster starts size nodes in this process: one alone, or peers
// that join the first.
func startCluster(size int) []*kit.Node {
	key := clusterpkg.NewKey()
	var out []*kit.Node
	var first string
	for i := 0; i < size; i++ {
		gossip := kit.FreeAddr()
		n := kit.StartNode(fmt.Sprintf("onewrite%d", i), func(cfg *node.Config, _ string) {
			cfg.HTTP.RateLimit, cfg.HTTP.RateBurst = 100_000, 1_000_000 // measure documents, not the rate limit
			if size > 1 {
				cfg.ClusterKey, cfg.GossipAddr = key, gossip
				if i > 0 {
					cfg.Join = []string{first}
				}
			}
		})
		if i == 0 {
			first = gossip
		}
		out = append(out, n)
	}
	return out
}

type figures struct {
	name     string
	p50, p95 time.Duration
	rate     map[int]float64
	cpu      time.Duration // the process's CPU time per document at 2 clients
}

// measure times count calls of f one at a time (the latency) and at 1 and
// 2 clients (documents per second).
func measure(name string, f func(), count int, profile string) figures {
	lat, _ := kit.Run(1, count, f)
	m := figures{name: name, p50: kit.Pct(lat, 0.5), p95: kit.Pct(lat, 0.95), rate: map[int]float64{}}
	for _, clients := range []int{1, 2} {
		if clients == 2 && profile != "" {
			out, err := os.Create(profile)
			kit.Check(err)
			kit.Check(pprof.StartCPUProfile(out))
			defer func() { pprof.StopCPUProfile(); out.Close() }()
		}
		before := cpuTime()
		l, elapsed := kit.Run(clients, count, f)
		m.rate[clients] = float64(len(l)) / elapsed.Seconds()
		if clients == 2 {
			m.cpu = (cpuTime() - before) / time.Duration(len(l))
		}
	}
	return m
}

// cpuTime is the CPU time (user and system) this process has used.
func cpuTime() time.Duration {
	var u syscall.Rusage
	kit.Check(syscall.Getrusage(syscall.RUSAGE_SELF, &u))
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// pending reports whether any document is queued or rendering.
func pending(base, key string) bool {
	for _, status := range []string{"queued", "rendering"} {
		if items, _ := kit.Call(base, key, "GET", "/v1/documents?limit=1&status="+status, nil)["items"].([]any); len(items) > 0 {
			return true
		}
	}
	return false
}

var (
	seq    atomic.Int64
	lastID atomic.Value // the id of a document made through REST
)

// vary is the sample with a number of its own in every top-level string
// that holds a space (a name, an address line): no cache serves a render
// whole, as none would for real traffic.
func vary(sample map[string]any) map[string]any {
	n := seq.Add(1)
	out := make(map[string]any, len(sample))
	for k, v := range sample {
		if s, ok := v.(string); ok && strings.Contains(s, " ") {
			v = fmt.Sprintf("%s %d", s, n)
		}
		out[k] = v
	}
	return out
}
