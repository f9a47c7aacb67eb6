// Command pdftemplateload measures templates made from an uploaded PDF end to end.
// It starts a real node on loopback with a temporary data folder and:
//
//   - uploads each PDF of the test corpus several times and reports the
//     median analysis time per page (the upload's round trip);
//   - marks two fields of the Chromium invoice and generates one-page
//     documents from it, interleaved with one-page documents of the
//     written invoice starter (the baseline, rendered by Chromium), and
//     reports both medians and their ratio.
//
// It talks only to the node it started.
//
//	go run ./bench/pdftemplateload -n 60
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/platen/platen/bench/internal/kit"
	"github.com/platen/platen/node"
)

func main() {
	docs := flag.Int("n", 60, "documents of each kind")
	uploads := flag.Int("uploads", 7, "uploads of each corpus PDF")
	flag.Parse()

	n := kit.StartNode("pdftemplateload", func(cfg *node.Config, _ string) {
		cfg.HTTP.RateLimit, cfg.HTTP.RateBurst = 10000, 10000 // measure filling, not the rate limit
	})
	defer n.Stop()
	base, key := n.Base, n.BenchKey("growth")

	corpus := []string{"pdftemplate/testdata/chromium-invoice.pdf"}
	more, _ := filepath.Glob("pdftemplate/testdata/corpus/*.pdf")
	corpus = append(corpus, more...)
	fmt.Printf("upload analysis, median of %d uploads each (the first warms PDFium)\n", *uploads)
	fmt.Printf("%-34s %6s %8s %10s %10s\n", "file", "pages", "pieces", "median", "per page")
	var invoice map[string]any
	for _, path := range corpus {
		var lat []time.Duration
		var last map[string]any
		for i := 0; i <= *uploads; i++ {
			t := time.Now()
			last = upload(base, key, path, fmt.Sprintf("%s-%d", slug(path), i))
			if i > 0 {
				lat = append(lat, time.Since(t))
			}
		}
		pages := len(last["source"].(map[string]any)["pages"].([]any))
		med := median(lat)
		fmt.Printf("%-34s %6d %8d %10s %10s\n", filepath.Base(path), pages, len(last["pieces"].([]any)), med, med/time.Duration(pages))
		if invoice == nil {
			invoice = last
		}
	}

	// Two fields of the invoice: its number and its customer.
	var fields []map[string]any
	for _, p := range invoice["pieces"].([]any) {
		p := p.(map[string]any)
		switch p["text"] {
		case "INV-2026-0142":
			if len(fields) == 0 {
				fields = append(fields, map[string]any{"pieceId": p["id"], "key": "number", "required": true})
			}
		case "Marlow Coffee Roasters Ltd":
			fields = append(fields, map[string]any{"pieceId": p["id"], "key": "customer"})
		}
	}
	slugOf := invoice["slug"].(string)
	kit.Call(base, key, "POST", "/v1/templates/"+slugOf+"/versions", map[string]any{"fields": fields, "activate": true})
	kit.Call(base, key, "POST", "/v1/templates/library/invoice/copy", nil)
	var sample any
	for _, it := range kit.Call(base, key, "GET", "/v1/templates/library", nil)["items"].([]any) {
		if st := it.(map[string]any); st["slug"] == "invoice" {
			sample = st["sampleData"]
		}
	}
	form := map[string]any{"templateId": slugOf, "data": map[string]any{"number": "INV-2026-0999", "customer": "Acme Ltd"}}
	written := map[string]any{"templateId": "invoice", "data": sample}
	for i := 0; i < 5; i++ { // warm both paths
		generate(base, key, form)
		generate(base, key, written)
	}
	var formLat, writtenLat []time.Duration
	for i := 0; i < *docs; i++ {
		t := time.Now()
		generate(base, key, form)
		formLat = append(formLat, time.Since(t))
		t = time.Now()
		generate(base, key, written)
		writtenLat = append(writtenLat, time.Since(t))
	}
	fm, wm := median(formLat), median(writtenLat)
	fmt.Printf("\none-page documents, wait=true, one client, %d of each interleaved\n", *docs)
	fmt.Printf("%-44s %10s\n", "uploaded-PDF invoice, 2 fields", fm)
	fmt.Printf("%-44s %10s\n", "written invoice starter (Chromium; baseline)", wm)
	fmt.Printf("%-44s %10.2f\n", "ratio", float64(fm)/float64(wm))
}

func upload(base, key, path, slug string) map[string]any {
	file, err := os.ReadFile(path)
	kit.Check(err)
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	w.WriteField("slug", slug)
	part, _ := w.CreateFormFile("file", filepath.Base(path))
	part.Write(file)
	w.Close()
	req, _ := http.NewRequest("POST", base+"/v1/templates/pdf", &body)
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", w.FormDataContentType())
	res, err := http.DefaultClient.Do(req)
	kit.Check(err)
	defer res.Body.Close()
	var out struct {
		Data map[string]any `json:"data"`
	}
	raw, _ := io.ReadAll(res.Body)
	if err := json.Unmarshal(raw, &out); err != nil || res.StatusCode != 201 {
		kit.Check(fmt.Errorf("upload %s: HTTP %d %.300s", path, res.StatusCode, raw))
	}
	return out.Data
}

func generate(base, key string, body map[string]any) {
	if d := kit.Call(base, key, "POST", "/v1/documents", body); d["status"] != "completed" {
		kit.Check(fmt.Errorf("document %v", d))
	}
}

func slug(path string) string {
	s := filepath.Base(path)
	s = s[:len(s)-len(filepath.Ext(s))]
	return s
}

func median(lat []time.Duration) time.Duration {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	return lat[len(lat)/2].Round(100 * time.Microsecond)
}
