// Command engineload measures the two engines against each other, end to
// end through the REST API with wait true, in one run: it starts a real
// node on loopback with a temporary data folder, copies the letter, invoice
// and statement starters, and for each engine and document prints the
// latency (p50, p95) of documents made one at a time, the documents per
// second at 1, 2 and 4 clients, the CPU per document (this process and the
// browser's processes) and the memory; then a long run of phantom letters
// shows whether the node's memory stays flat. It talks only to the node it
// started.
//
//	go run ./bench/engineload -n 200 -long 10000
//	go run ./bench/engineload -engines phantom -long 0 -cpuprofile /tmp/cpu.out
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/platen/platen/bench/internal/kit"
	"github.com/platen/platen/node"
	"github.com/platen/platen/render"
)

func main() {
	perLevel := flag.Int("n", 200, "documents per measurement")
	long := flag.Int("long", 10000, "phantom letters in the memory run (0 skips it)")
	engines := flag.String("engines", "phantom,chromium", "engines to compare, the baseline last")
	docs := flag.String("docs", "letter,invoice,statement", "starters to render with their sample data, or flex and float: the real-world corpus's Bootstrap 4 (flex) quote and Bootstrap 3 (float grid) invoice")
	cpuprofile := flag.String("cpuprofile", "", "write CPU profiles of the whole process (node and load) during the phantom runs: one file per document, named by inserting the document before the extension (cpu.out gives cpu.letter.out)")
	flag.Parse()

	n := kit.StartNode("engineload", func(cfg *node.Config, _ string) {
		cfg.HTTP.RateLimit, cfg.HTTP.RateBurst = 100000, 100000 // measure rendering, not the rate limit
	})
	defer n.Stop()
	op := client{base: n.Base, key: n.OperatorToken}
	// A plan whose allowance a long run cannot use up: the bench measures
	// rendering, not billing's refusals.
	op.do("PUT", "/admin/v1/plans/bench", map[string]any{"monthlyPages": 1_000_000_000, "pageRateMicros": 0, "wallet": false, "watermark": false})
	org := op.do("POST", "/admin/v1/orgs", map[string]any{"name": "Bench", "plan": "bench"})["id"].(string)
	key := op.do("POST", "/admin/v1/orgs/"+org+"/keys", map[string]any{"name": "bench", "scopes": []string{"documents.generate", "templates.write", "templates.read"}})["key"].(string)
	c := client{base: n.Base, key: key}
	samples := map[string]any{}
	for _, it := range c.do("GET", "/v1/templates/library", nil)["items"].([]any) {
		st := it.(map[string]any)
		samples[st["slug"].(string)] = st["sampleData"]
	}
	names := strings.Split(*engines, ",")
	type figures struct{ rate map[int]float64 }
	results := map[string]map[string]figures{}
	fmt.Printf("%d documents per measurement; GOMAXPROCS %d\n\n", *perLevel, runtime.GOMAXPROCS(0))
	fmt.Printf("%-10s %-9s %6s %9s %9s %9s %9s %9s %10s %11s\n", "document", "engine", "pages", "p50", "p95", "1 client", "2 clients", "4 clients", "CPU/doc", "memory")
	for _, doc := range strings.Split(*docs, ",") {
		if file, ok := corpusDocs[doc]; ok {
			html, err := os.ReadFile(filepath.Join("render", "phantom", "corpus", "realworld", file))
			kit.Check(err)
			c.do("POST", "/v1/templates", map[string]any{"name": doc, "slug": doc, "html": string(html),
				"manifest": map[string]any{"pageSize": "A4"}, "sampleData": map[string]any{"n": "x y"}})
			samples[doc] = map[string]any{"n": "x y"}
		} else {
			c.do("POST", "/v1/templates/library/"+doc+"/copy", nil)
		}
		results[doc] = map[string]figures{}
		for _, engine := range names {
			body := map[string]any{"templateId": doc, "data": samples[doc], "engine": engine}
			var pages any
			for i := 0; i < 10; i++ { // warm the engine and the caches
				d := c.generate(body)
				pages = d["pageCount"]
				if got := d["engine"]; got != engine {
					kit.Check(fmt.Errorf("%s asked for %s but rendered with %v", doc, engine, got))
				}
			}
			var profile *os.File
			if *cpuprofile != "" && engine == render.EnginePhantom {
				ext := filepath.Ext(*cpuprofile)
				var err error
				profile, err = os.Create(strings.TrimSuffix(*cpuprofile, ext) + "." + doc + ext)
				kit.Check(err)
				kit.Check(pprof.StartCPUProfile(profile))
			}
			lat, _ := run(c, body, 1, *perLevel)
			f := figures{rate: map[int]float64{}}
			var cpuPerDoc time.Duration
			for _, clients := range []int{1, 2, 4} {
				cpu0 := selfCPU() + n.EngineCPU()
				l, elapsed := run(c, body, clients, *perLevel)
				if clients == 2 {
					cpuPerDoc = (selfCPU() + n.EngineCPU() - cpu0) / time.Duration(len(l))
				}
				f.rate[clients] = float64(len(l)) / elapsed.Seconds()
			}
			if profile != nil {
				pprof.StopCPUProfile()
				kit.Check(profile.Close())
			}
			results[doc][engine] = f
			fmt.Printf("%-10s %-9s %6v %9s %9s %9.1f %9.1f %9.1f %10s %7.0f MiB\n", doc, engine, pages, kit.Pct(lat, 0.5), kit.Pct(lat, 0.95),
				f.rate[1], f.rate[2], f.rate[4], cpuPerDoc.Round(100*time.Microsecond), float64(selfRSS()+n.EngineMemory())/(1<<20))
		}
	}
	if len(names) == 2 {
		fmt.Printf("\nthroughput of %s over %s in this run:\n", names[0], names[1])
		for _, doc := range strings.Split(*docs, ",") {
			a, b := results[doc][names[0]].rate, results[doc][names[1]].rate
			fmt.Printf("  %-10s 1 client %5.1fx   2 clients %5.1fx   4 clients %5.1fx\n", doc, a[1]/b[1], a[2]/b[2], a[4]/b[4])
		}
	}
	if *long > 0 {
		body := map[string]any{"templateId": "letter", "data": samples["letter"], "engine": render.EnginePhantom}
		fmt.Printf("\nnode memory over %d phantom letters at 2 clients (RSS of this process, Go heap in use):\n", *long)
		step := max(*long/10, 1)
		for done := 0; done < *long; done += step {
			run(c, body, 2, step)
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			fmt.Printf("  after %6d: RSS %6.0f MiB   heap %6.0f MiB\n", done+step, float64(selfRSS())/(1<<20), float64(ms.HeapInuse)/(1<<20))
		}
	}
}

// corpusDocs are the documents of the real-world corpus the bench can
// render besides the starters (run from the repository's root).
var corpusDocs = map[string]string{"flex": "bootstrap4-flex-quote.html", "float": "bootstrap3-invoice.html"}

// run generates count documents with clients in parallel and returns each
// latency and the wall time.
//
// Each document's data differs from the others' (see vary), so no cache
// keyed by a document's content serves a render the whole way, as none
// would for real traffic.
func run(c client, body map[string]any, clients, count int) ([]time.Duration, time.Duration) {
	return kit.Run(clients, count, func() {
		b := map[string]any{}
		for k, v := range body {
			b[k] = v
		}
		b["data"] = vary(body["data"], int(seq.Add(1)))
		c.generate(b)
	})
}

// selfCPU is this process's CPU time: the node, which renders phantom
// documents in process, and the load's own HTTP client.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	kit.Check(syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// selfRSS is this process's resident memory, from /proc/self/status.
func selfRSS() int64 {
	raw, err := os.ReadFile("/proc/self/status")
	kit.Check(err)
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

type client struct{ base, key string }

func (c client) do(method, path string, body any) map[string]any {
	return kit.Call(c.base, c.key, method, path, body)
}

func (c client) generate(body map[string]any) map[string]any {
	d := c.do("POST", "/v1/documents", body)
	if d["status"] != "completed" {
		kit.Check(fmt.Errorf("document %v: %v", d["status"], d["message"]))
	}
	return d
}

// seq numbers the documents of a run, for vary.
var seq atomic.Int64

// vary returns a copy of a starter's sample data in which the first free
// text (a string with a space, in key order: a name or an address line,
// never a date, a code or an enum) ends with n.
func vary(data any, n int) any {
	raw, err := json.Marshal(data)
	kit.Check(err)
	var out any
	kit.Check(json.Unmarshal(raw, &out))
	done := false
	var walk func(v any) any
	walk = func(v any) any {
		if done {
			return v
		}
		switch x := v.(type) {
		case string:
			if strings.Contains(x, " ") {
				done = true
				return x + " " + strconv.Itoa(n)
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				x[k] = walk(x[k])
			}
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		}
		return v
	}
	return walk(out)
}
