// Command docload measures documents end to end: it starts a real node on
// loopback with a temporary data folder, copies the invoice starter, and
// generates one-page documents through the REST API with wait true at 1, 2
// and 4 concurrent clients, then runs a long series to see whether the
// browser's memory stays flat. It talks only to the node it started.
//
//	go run ./bench/docload -n 150 -long 1000
package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/platen/platen/bench/internal/kit"

	"github.com/platen/platen/node"
)

func main() {
	perLevel := flag.Int("n", 150, "documents per concurrency level")
	long := flag.Int("long", 1000, "documents in the memory run (0 skips it)")
	flag.Parse()

	n := kit.StartNode("docload", func(cfg *node.Config, _ string) {
		cfg.HTTP.RateLimit, cfg.HTTP.RateBurst = 10000, 10000 // measure rendering, not the rate limit
	})
	defer n.Stop()
	base := n.Base

	// A starter plan: the bench measures rendering, not the sandbox cap.
	op := client{base: base, key: n.OperatorToken}
	org := op.do("POST", "/admin/v1/orgs", map[string]any{"name": "Bench", "plan": "starter"})["id"].(string)
	key := op.do("POST", "/admin/v1/orgs/"+org+"/keys", map[string]any{"name": "bench", "scopes": []string{"documents.generate", "templates.write", "templates.read"}})["key"].(string)
	c := client{base: base, key: key}
	c.do("POST", "/v1/templates/library/invoice/copy", nil)
	var sample any
	for _, it := range c.do("GET", "/v1/templates/library", nil)["items"].([]any) {
		if st := it.(map[string]any); st["slug"] == "invoice" {
			sample = st["sampleData"]
		}
	}
	body := map[string]any{"templateId": "invoice", "data": sample} // the starter's sample: one page

	for i := 0; i < 10; i++ { // warm the browser and the caches
		c.generate(body)
	}
	fmt.Printf("one-page invoice (starter), wait=true, %d documents per level\n", *perLevel)
	fmt.Printf("%-8s %10s %10s %10s %12s\n", "clients", "docs/s", "p50", "p95", "chromium PSS")
	for _, clients := range []int{1, 2, 4} {
		lat, elapsed := run(c, body, clients, *perLevel)
		fmt.Printf("%-8d %10.1f %10s %10s %9.0f MiB\n", clients, float64(len(lat))/elapsed.Seconds(),
			kit.Pct(lat, 0.5), kit.Pct(lat, 0.95), float64(n.EngineMemory())/(1<<20))
	}
	if *long > 0 {
		fmt.Printf("\nmemory over %d documents at 2 clients (PSS of the browser's processes):\n", *long)
		step := *long / 10
		for done := 0; done < *long; done += step {
			run(c, body, 2, step)
			fmt.Printf("  after %5d: %6.0f MiB\n", done+step, float64(n.EngineMemory())/(1<<20))
		}
	}
}

// run generates count documents with clients in parallel and returns each
// latency and the wall time.
func run(c client, body map[string]any, clients, count int) ([]time.Duration, time.Duration) {
	return kit.Run(clients, count, func() { c.generate(body) })
}

type client struct{ base, key string }

func (c client) do(method, path string, body any) map[string]any {
	return kit.Call(c.base, c.key, method, path, body)
}

func (c client) generate(body map[string]any) {
	d := c.do("POST", "/v1/documents", body)
	if d["status"] != "completed" {
		kit.Check(fmt.Errorf("document %v", d["status"]))
	}
}
