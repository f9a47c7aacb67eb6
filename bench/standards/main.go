// Command standards measures what the standards output costs over the same
// document printed plain, end to end through the REST API with wait true:
// tagged PDF and PDF/UA-1, a PAdES signature, invisible and visible (B-B),
// time-stamped by an RFC 3161 authority on loopback (B-T), and on a
// PDF/A-3b document. It starts
// two real nodes on loopback with temporary data folders, one without a
// time-stamp authority (B-B) and one with (B-T), uploads the same PKCS#12
// certificate (an RSA 3072 key made by the command) to each, copies the
// invoice starter, and alternates documents of each kind on one client. It
// prints each kind's median and 90th percentile, and each median's ratio to
// the plain document's.
//
//	go run ./bench/standards -n 200
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"time"

	"github.com/platen/platen/bench/internal/kit"
	"github.com/platen/platen/node"
	"github.com/platen/platen/sign/signtest"
	"github.com/platen/platen/starters"
)

func main() {
	docs := flag.Int("n", 200, "documents of each kind")
	flag.Parse()

	tsa, err := signtest.StartTSA()
	kit.Check(err)
	defer tsa.Close()
	ca, err := signtest.NewAuthority("Platen bench root")
	kit.Check(err)
	id, err := ca.Issue("Platen bench signer", signtest.Options{RSA: 3072})
	kit.Check(err)
	p12, err := signtest.PKCS12(id, "bench")
	kit.Check(err)

	fast := func(cfg *node.Config, _ string) {
		cfg.HTTP.RateLimit, cfg.HTTP.RateBurst = 10000, 10000 // measure documents, not the rate limit
	}
	bb := kit.StartNode("standards-bb", fast)
	defer bb.Stop()
	bt := kit.StartNode("standards-bt", func(cfg *node.Config, dir string) { fast(cfg, dir); cfg.TSAURL = tsa.URL })
	defer bt.Stop()

	st, ok := starters.Find("invoice")
	if !ok {
		panic("no invoice starter")
	}
	var sample map[string]any
	kit.Check(json.Unmarshal(st.Version.SampleData, &sample))
	type target struct{ base, key, cert string }
	var manifest map[string]any
	kit.Check(json.Unmarshal(st.Version.Manifest, &manifest))
	setup := func(n *kit.Node) target {
		t := target{base: n.Base, key: n.BenchKey("growth")}
		kit.Call(t.base, t.key, "POST", "/v1/templates/library/invoice/copy", map[string]any{"slug": "inv"})
		// The same invoice, tagged.
		tagged := map[string]any{"taggedPdf": true}
		for k, v := range manifest {
			tagged[k] = v
		}
		kit.Call(t.base, t.key, "POST", "/v1/templates", map[string]any{"name": "Tagged invoice", "slug": "inv-tagged", "html": st.Version.HTML,
			"manifest": tagged, "sampleData": sample, "content": json.RawMessage(st.Version.Content), "assets": st.Version.Assets, "activate": true})
		t.cert = upload(t.base, t.key, p12)
		return t
	}
	nb, nt := setup(bb), setup(bt)

	kinds := []struct {
		name string
		at   target
		req  map[string]any
	}{
		{"plain", nb, nil},
		{"tagged (taggedPdf)", nb, map[string]any{"templateId": "inv-tagged"}},
		{"PDF/UA-1", nb, map[string]any{"pdfua": "1"}},
		{"PDF/A-3b + PDF/UA-1", nb, map[string]any{"pdfa": "3b", "pdfua": "1"}},
		{"PAdES B-B, invisible", nb, map[string]any{"sign": map[string]any{"certificateId": nb.cert}}},
		{"PAdES B-B, visible", nb, map[string]any{"sign": map[string]any{"certificateId": nb.cert, "appearance": "visible", "reason": "Invoice issued"}}},
		{"PAdES B-T (TSA on loopback)", nt, map[string]any{"sign": map[string]any{"certificateId": nt.cert}}},
		{"PDF/A-3b", nb, map[string]any{"pdfa": "3b"}},
		{"PDF/A-3b + PAdES B-B", nb, map[string]any{"pdfa": "3b", "sign": map[string]any{"certificateId": nb.cert}}},
	}
	gen := func(at target, extra map[string]any) time.Duration {
		body := map[string]any{"templateId": "inv", "data": sample, "engine": "phantom"}
		for k, v := range extra {
			body[k] = v
		}
		t := time.Now()
		d := kit.Call(at.base, at.key, "POST", "/v1/documents", body)
		if d["status"] != "completed" {
			panic(fmt.Sprintf("%v", d))
		}
		return time.Since(t)
	}
	for _, k := range kinds { // warm each path once
		gen(k.at, k.req)
	}
	lat := make([][]time.Duration, len(kinds))
	for i := 0; i < *docs; i++ {
		for j, k := range kinds {
			lat[j] = append(lat[j], gen(k.at, k.req))
		}
	}
	fmt.Printf("%d documents of each kind (the invoice starter on phantom), one client, alternating, through REST with wait true\n", *docs)
	fmt.Printf("%-30s %10s %10s %8s\n", "document", "p50", "p90", "p50/plain")
	base := kit.Pct(lat[0], 0.5)
	for j, k := range kinds {
		p50 := kit.Pct(lat[j], 0.5)
		fmt.Printf("%-30s %10s %10s %7.2fx\n", k.name, p50, kit.Pct(lat[j], 0.9), float64(p50)/float64(base))
	}
}

// upload stores a PKCS#12 certificate and returns its id.
func upload(base, key string, p12 []byte) string {
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	w.WriteField("password", "bench")
	part, err := w.CreateFormFile("file", "bench.p12")
	kit.Check(err)
	part.Write(p12)
	kit.Check(w.Close())
	req, err := http.NewRequest("POST", base+"/v1/signing/certificates", &body)
	kit.Check(err)
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", w.FormDataContentType())
	resp, err := http.DefaultClient.Do(req)
	kit.Check(err)
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var env struct {
		Data struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	kit.Check(json.Unmarshal(raw, &env))
	if resp.StatusCode != 201 {
		panic(string(raw))
	}
	return env.Data.ID
}
