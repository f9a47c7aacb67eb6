// Command einvoice measures what an e-invoice costs over the same invoice
// printed plain, end to end through the REST API with wait true. It starts
// a real node on loopback with a temporary data folder, copies the
// e-invoice starter, and saves a second template with the same markup and
// no einvoice in its manifest. The plain template is given the invoice as
// the e-invoice template prints it (its amounts computed), so both draw the
// same page; the e-invoice adds the EN 16931 checks, the CII XML, PDF/A-3b
// with the embedded file, and the conformance checks of the finished PDF.
// Documents of the two kinds alternate, and the command prints each kind's
// median and 90th percentile and the ratio of the medians. The invoice
// starter on phantom is measured in the same run as a reference.
//
//	go run ./bench/einvoice -n 200
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"time"

	"github.com/platen/platen/bench/internal/kit"
	"github.com/platen/platen/einvoice"
	"github.com/platen/platen/node"
	"github.com/platen/platen/starters"
)

func main() {
	docs := flag.Int("n", 200, "documents of each kind")
	flag.Parse()

	n := kit.StartNode("einvoice", func(cfg *node.Config, _ string) {
		cfg.HTTP.RateLimit, cfg.HTTP.RateBurst = 10000, 10000 // measure documents, not the rate limit
	})
	defer n.Stop()
	base, key := n.Base, n.BenchKey("growth")

	st, ok := starters.Find("e-invoice")
	if !ok {
		panic("no e-invoice starter")
	}
	kit.Call(base, key, "POST", "/v1/templates/library/e-invoice/copy", map[string]any{"slug": "einv"})
	var manifest, sample map[string]any
	kit.Check(json.Unmarshal(st.Version.Manifest, &manifest))
	kit.Check(json.Unmarshal(st.Version.SampleData, &sample))
	delete(manifest, "einvoice")
	// The plain template prints the invoice with its amounts computed, as
	// the e-invoice template is given them.
	var inv einvoice.Invoice
	kit.Check(json.Unmarshal(st.Version.SampleData, &inv))
	if vs := einvoice.Prepare(&inv, einvoice.EN16931); len(vs) > 0 {
		panic(fmt.Sprint(vs))
	}
	raw, err := json.Marshal(inv)
	kit.Check(err)
	var done map[string]any
	kit.Check(json.Unmarshal(raw, &done))
	kit.Call(base, key, "POST", "/v1/templates", map[string]any{"name": "Plain invoice", "slug": "plain", "html": st.Version.HTML,
		"manifest": manifest, "sampleData": done, "assets": st.Version.Assets, "activate": true})
	kit.Call(base, key, "POST", "/v1/templates/library/invoice/copy", map[string]any{"slug": "inv"})
	invSample := map[string]any{}
	inv0, _ := starters.Find("invoice")
	kit.Check(json.Unmarshal(inv0.Version.SampleData, &invSample))

	kinds := []struct {
		name, slug string
		data       map[string]any
	}{
		{"the same invoice, plain", "plain", done},
		{"e-invoice (EN 16931, PDF/A-3b)", "einv", sample},
		{"invoice starter (reference)", "inv", invSample},
	}
	gen := func(slug string, data map[string]any) time.Duration {
		t := time.Now()
		d := kit.Call(base, key, "POST", "/v1/documents", map[string]any{"templateId": slug, "data": data, "engine": "phantom"})
		if d["status"] != "completed" {
			panic(fmt.Sprintf("%s: %v", slug, d))
		}
		return time.Since(t)
	}
	for _, k := range kinds { // warm each path once
		gen(k.slug, k.data)
	}
	lat := make([][]time.Duration, len(kinds))
	for i := 0; i < *docs; i++ {
		for j, k := range kinds {
			lat[j] = append(lat[j], gen(k.slug, k.data))
		}
	}
	fmt.Printf("%d documents of each kind, one client, alternating, through REST with wait true\n", *docs)
	fmt.Printf("%-34s %10s %10s\n", "document", "p50", "p90")
	for j, k := range kinds {
		fmt.Printf("%-34s %10s %10s\n", k.name, kit.Pct(lat[j], 0.5), kit.Pct(lat[j], 0.9))
	}
	fmt.Printf("e-invoice / the same invoice plain, p50: %.2fx (the issue's bound: 2x)\n",
		float64(kit.Pct(lat[1], 0.5))/float64(kit.Pct(lat[0], 0.5)))
}
