package transport_test

import (
	"bytes"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/internal/tier"
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
func ledger(t *testing.T, n *testnode.Node, org string) testnode.Ledger {
	t.Helper()
	l := testnode.DataAs[testnode.Ledger](t, testnode.Do(t, "GET", n.URL+"/admin/v1/orgs/"+org+"/ledger", n.OperatorToken, nil))
	var sum int64
	for _, row := range l.Items {
		sum += row.AmountMicros
	}
	if sum != l.BalanceMicros {
		t.Fatalf("ledger sums to %v, balance is %v", sum, l.BalanceMicros)
	}
	return l
}

// TestConcurrentDocumentsPayExactly: 3 pages of allowance and a wallet for 5
// more; 24 one-page documents at once over REST. Exactly 8 are made; the
// others are refused with 402 before anything renders.
func TestConcurrentDocumentsPayExactly(t *testing.T) {
	tier.Full(t, "renders documents concurrently until the wallet runs out")
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
			if r.Status == 201 {
				// Not DataAs: a test stops only from its own goroutine.
				if d, err := testnode.ParseData[testnode.Document](r); err != nil || d.Status != "completed" {
					t.Errorf("document %q (%v)", d.Status, err)
				}
			}
		}()
	}
	wg.Wait()
	if status[201] != 8 || status[402] != 16 {
		t.Fatalf("answers %v, want 8 made and 16 refused", status)
	}
	l := ledger(t, n, org)
	if l.BalanceMicros != 0 || l.PagesUsed != 3 || l.HeldMicros != 0 || len(l.Items) != 6 {
		t.Fatalf("ledger %+v", l)
	}
	list := listDocuments(t, n, key, "?limit=100").Items
	if len(list) != 8 {
		t.Fatalf("%d documents exist; refusals must make none", len(list))
	}
	w := testnode.DataAs[testnode.Wallet](t, testnode.Do(t, "GET", n.URL+"/v1/wallet", key, nil))
	if w.Allowance.UsedPages != 3 || w.BalanceMicros != 0 {
		t.Fatalf("wallet %+v", w)
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
	if first.Status != 201 || again.Status != 201 || testnode.DataAs[testnode.Document](t, again).ID != testnode.DataAs[testnode.Document](t, first).ID || again.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("retry: %s / %s", first, again)
	}
	if r := post("retry-me", map[string]any{"templateId": "invoice", "data": invoiceData(2)}); r.Status != 409 || r.Code() != "CONFLICT" {
		t.Fatalf("same key, other body: %s", r)
	}
	// The wallet paid once: a second document now needs a top-up.
	if r := post("another", body); r.Status != 402 {
		t.Fatalf("the retry was charged again or the wallet is wrong: %s", r)
	}
	if l := ledger(t, n, org); len(l.Items) != 2 {
		t.Fatalf("ledger %+v", l.Items)
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
		if r.Status != 201 || testnode.DataAs[testnode.Document](t, r).Status != "failed" {
			t.Fatalf("failing render: %s", r)
		}
	}
	l := ledger(t, n, org)
	if len(l.Items) != 1 || l.BalanceMicros != 5000 || l.HeldMicros != 0 || l.HeldPages != 0 {
		t.Fatalf("after three failed renders: %+v", l)
	}
}

func TestSandboxCapAndWatermark(t *testing.T) {
	tier.Full(t, "renders the sandbox allowance to its end")
	n := withInvoice(t, nil)
	if r := testnode.Do(t, "PUT", n.URL+"/admin/v1/plans/sandbox", n.OperatorToken, map[string]any{"monthlyPages": 3}); r.Status != 200 {
		t.Fatal(r)
	}
	var last testnode.Response
	for i := 0; i < 3; i++ {
		last = testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(1)})
		if last.Status != 201 || !testnode.DataAs[testnode.Document](t, last).Watermarked {
			t.Fatalf("sandbox document %d: %s", i+1, last)
		}
	}
	r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(1)})
	if r.Status != 402 || r.Code() != "PAYMENT_REQUIRED" || !strings.Contains(r.Message(), "sandbox") {
		t.Fatalf("fourth sandbox page: %s", r)
	}
	_, pdf := download(t, testnode.DataAs[testnode.Document](t, last).DownloadURL)
	if text := pdfText(t, pdf); !strings.Contains(text, "Sandbox document: not for production use") {
		t.Fatalf("no watermark in the text:\n%s", text)
	}
	if l := ledger(t, n, n.OrgID); l.BalanceMicros != 0 || len(l.Items) != 0 {
		t.Fatalf("a sandbox was charged: %+v", l)
	}
}

// TestPlanChromiumPages: a plan's share of a node's Chromium pages is set
// and read back with its terms, and refused, naming the field, out of range.
func TestPlanChromiumPages(t *testing.T) {
	n := testnode.Start(t, nil)
	for _, bad := range []int{-1, 1001} {
		r := testnode.Do(t, "PUT", n.URL+"/admin/v1/plans/growth", n.OperatorToken, map[string]any{"chromiumPages": bad})
		if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), "chromiumPages") {
			t.Fatalf("chromiumPages %d: %v", bad, r)
		}
	}
	if r := testnode.Do(t, "PUT", n.URL+"/admin/v1/plans/growth", n.OperatorToken, map[string]any{"chromiumPages": 2}); r.Status != 200 {
		t.Fatal(r)
	}
	r := testnode.Do(t, "GET", n.URL+"/admin/v1/plans", n.OperatorToken, nil)
	if !strings.Contains(string(r.Body), `"name":"growth","monthlyPages":10000,"pageRateMicros":3000,"wallet":true,"watermark":false,"chromiumPages":2`) {
		t.Fatalf("plans: %s", r.Body)
	}
	// An organisation on the plan reads it in its wallet (the answer is
	// checked against the document's Wallet schema, chromiumPages included).
	if r := testnode.Do(t, "PATCH", n.URL+"/admin/v1/orgs/"+n.OrgID, n.OperatorToken, map[string]any{"plan": "growth"}); r.Status != 200 {
		t.Fatal(r)
	}
	w := testnode.Do(t, "GET", n.URL+"/v1/wallet", n.Key, nil)
	if w.Status != 200 || !strings.Contains(string(w.Body), `"chromiumPages":2`) {
		t.Fatalf("wallet on the growth plan: %s", w)
	}
}
