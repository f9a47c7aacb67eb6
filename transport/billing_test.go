package transport_test

import (
	"bytes"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/platen/platen/internal/testnode"
)

// paidOrg makes an organisation on the starter plan with an invoice template
// and a key, after setting the starter plan's terms.
func paidOrg(t *testing.T, n *testnode.Node, monthlyPages, rate int64) (org, key string) {
	t.Helper()
	if r := testnode.Do(t, "PUT", n.URL+"/admin/v1/plans/starter", n.OperatorToken, map[string]any{"monthlyPages": monthlyPages, "pageRateMicros": rate}); r.Status != 200 {
		t.Fatal(r)
	}
	org = createOrg(t, n, "Paid", "starter")
	_, key = createKey(t, n, org, "documents.generate", "templates.write", "templates.read", "wallet.read")
	body := invoiceVersion(true)
	body["name"], body["slug"] = "Invoice", "invoice"
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates", key, body); r.Status != 201 {
		t.Fatal(r)
	}
	return org, key
}

func credit(t *testing.T, n *testnode.Node, org string, micros int64, ref string) {
	t.Helper()
	if r := testnode.Do(t, "POST", n.URL+"/admin/v1/orgs/"+org+"/wallet/credit", n.OperatorToken, map[string]any{"amountMicros": micros, "reference": ref}); r.Status != 201 {
		t.Fatal(r)
	}
}

// ledger returns the org's whole ledger and checks that its rows add up to
// the stored balance.
func ledger(t *testing.T, n *testnode.Node, org string) map[string]any {
	t.Helper()
	d := testnode.Do(t, "GET", n.URL+"/admin/v1/orgs/"+org+"/ledger", n.OperatorToken, nil).Data()
	var sum float64
	for _, row := range d["items"].([]any) {
		sum += row.(map[string]any)["amountMicros"].(float64)
	}
	if sum != d["balanceMicros"].(float64) {
		t.Fatalf("ledger sums to %v, balance is %v", sum, d["balanceMicros"])
	}
	return d
}

// TestConcurrentDocumentsPayExactly: 3 pages of allowance and a wallet for 5
// more; 24 one-page documents at once over REST. Exactly 8 are made; the
// others are refused with 402 before anything renders.
func TestConcurrentDocumentsPayExactly(t *testing.T) {
	n := testnode.Start(t, nil)
	org, key := paidOrg(t, n, 3, 5000)
	credit(t, n, org, 5*5000, "topup-1")
	var mu sync.Mutex
	status := map[int]int{}
	var wg sync.WaitGroup
	for i := 0; i < 24; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := testnode.Do(t, "POST", n.URL+"/v1/documents", key, map[string]any{"templateId": "invoice", "data": invoiceData(1)})
			mu.Lock()
			status[r.Status]++
			mu.Unlock()
			if r.Status == 402 && r.Code() != "PAYMENT_REQUIRED" {
				t.Errorf("402 with code %s", r.Code())
			}
			if r.Status == 201 && r.Data()["status"] != "completed" {
				t.Errorf("document %v", r.Data()["status"])
			}
		}()
	}
	wg.Wait()
	if status[201] != 8 || status[402] != 16 {
		t.Fatalf("answers %v, want 8 made and 16 refused", status)
	}
	l := ledger(t, n, org)
	if l["balanceMicros"].(float64) != 0 || l["pagesUsed"].(float64) != 3 || l["heldMicros"].(float64) != 0 || len(l["items"].([]any)) != 6 {
		t.Fatalf("ledger %v", l)
	}
	list := testnode.Do(t, "GET", n.URL+"/v1/documents?limit=100", key, nil).Data()["items"].([]any)
	if len(list) != 8 {
		t.Fatalf("%d documents exist; refusals must make none", len(list))
	}
	w := testnode.Do(t, "GET", n.URL+"/v1/wallet", key, nil).Data()
	if w["allowance"].(map[string]any)["usedPages"].(float64) != 3 || w["balanceMicros"].(float64) != 0 {
		t.Fatalf("wallet %v", w)
	}
	feed, _ := n.Store().Feed(org, 0, 0)
	debited := 0
	for _, e := range feed {
		if e.Kind == "wallet.debited" {
			debited++
		}
	}
	if debited != 5 {
		t.Fatalf("%d wallet.debited events, want 5", debited)
	}
}

func TestIdempotencyKey(t *testing.T) {
	n := testnode.Start(t, nil)
	org, key := paidOrg(t, n, 0, 5000)
	credit(t, n, org, 5000, "topup")
	post := func(idem string, body map[string]any) testnode.Response {
		raw, _ := jsonBody(body)
		req, _ := http.NewRequest("POST", n.URL+"/v1/documents", bytes.NewReader(raw))
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Idempotency-Key", idem)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var buf bytes.Buffer
		buf.ReadFrom(res.Body)
		r := testnode.Response{Status: res.StatusCode, Header: res.Header, Body: buf.Bytes()}
		jsonInto(&r)
		return r
	}
	body := map[string]any{"templateId": "invoice", "data": invoiceData(1), "correlationId": "o-1"}
	first := post("retry-me", body)
	// The same request again, keys in another order: the same answer.
	again := post("retry-me", map[string]any{"correlationId": "o-1", "data": invoiceData(1), "templateId": "invoice"})
	if first.Status != 201 || again.Status != 201 || again.Data()["id"] != first.Data()["id"] || again.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("retry: %s / %s", first, again)
	}
	if r := post("retry-me", map[string]any{"templateId": "invoice", "data": invoiceData(2)}); r.Status != 409 || r.Code() != "CONFLICT" {
		t.Fatalf("same key, other body: %s", r)
	}
	// The wallet paid once: a second document now needs a top-up.
	if r := post("another", body); r.Status != 402 {
		t.Fatalf("the retry was charged again or the wallet is wrong: %s", r)
	}
	if l := ledger(t, n, org); len(l["items"].([]any)) != 2 {
		t.Fatalf("ledger %v", l["items"])
	}
}

func TestFailedRenderLeavesTheLedgerAndHoldsUntouched(t *testing.T) {
	n := testnode.Start(t, nil)
	org, key := paidOrg(t, n, 0, 5000)
	credit(t, n, org, 5000, "topup")
	bad := invoiceVersion(true)
	bad["html"] = `{{#each items}}{{asset "missing.png"}}{{/each}}`
	bad["sampleData"] = map[string]any{"number": "S", "items": []any{}}
	testnode.Do(t, "POST", n.URL+"/v1/templates/invoice/versions", key, bad)
	for i := 0; i < 3; i++ {
		r := testnode.Do(t, "POST", n.URL+"/v1/documents", key, map[string]any{"templateId": "invoice", "data": invoiceData(1)})
		if r.Status != 201 || r.Data()["status"] != "failed" {
			t.Fatalf("failing render: %s", r)
		}
	}
	l := ledger(t, n, org)
	if len(l["items"].([]any)) != 1 || l["balanceMicros"].(float64) != 5000 || l["heldMicros"].(float64) != 0 || l["heldPages"].(float64) != 0 {
		t.Fatalf("after three failed renders: %v", l)
	}
}

func TestSandboxCapAndWatermark(t *testing.T) {
	n := withInvoice(t, nil)
	if r := testnode.Do(t, "PUT", n.URL+"/admin/v1/plans/sandbox", n.OperatorToken, map[string]any{"monthlyPages": 3}); r.Status != 200 {
		t.Fatal(r)
	}
	var last testnode.Response
	for i := 0; i < 3; i++ {
		last = testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(1)})
		if last.Status != 201 || last.Data()["watermarked"] != true {
			t.Fatalf("sandbox document %d: %s", i+1, last)
		}
	}
	r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(1)})
	if r.Status != 402 || r.Code() != "PAYMENT_REQUIRED" || !strings.Contains(r.JSON["message"].(string), "sandbox") {
		t.Fatalf("fourth sandbox page: %s", r)
	}
	_, pdf := download(t, last.Data()["downloadUrl"].(string))
	if text := pdfText(t, pdf); !strings.Contains(text, "Sandbox document: not for production use") {
		t.Fatalf("no watermark in the text:\n%s", text)
	}
	if l := ledger(t, n, n.OrgID); l["balanceMicros"].(float64) != 0 || len(l["items"].([]any)) != 0 {
		t.Fatalf("a sandbox was charged: %v", l)
	}
}
