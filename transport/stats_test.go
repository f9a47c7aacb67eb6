package transport_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/platen/platen/internal/testnode"
)

type dayCount struct {
	Day       string `json:"day"`
	Completed int    `json:"completed"`
	Failed    int    `json:"failed"`
	Pending   int    `json:"pending"`
}

type documentStats struct {
	Days  []dayCount `json:"days"`
	Total dayCount   `json:"total"`
}

type monthUsage struct {
	Month          string `json:"month"`
	Documents      int    `json:"documents"`
	AllowancePages int64  `json:"allowancePages"`
	WalletPages    int64  `json:"walletPages"`
	AmountMicros   int64  `json:"amountMicros"`
}

// TestDocumentStatsAndUsageByMonth: two pages of allowance, then the wallet
// at 5000 micros a page. Three one-page documents and a failed one show in
// today's bar of GET /v1/documents/stats, and this month's row of GET
// /v1/wallet/usage splits the three pages as the charges did; GET
// /v1/wallet/ledger pages through the debit and the credit; another
// organisation sees none of it; the windows are checked at the field; each
// route needs its scope.
func TestDocumentStatsAndUsageByMonth(t *testing.T) {
	n := testnode.Start(t, nil)
	org, key := paidOrg(t, n, 2, 5000)
	credit(t, n, org, 10*5000, "topup")
	for i := 0; i < 3; i++ {
		r := testnode.Do(t, "POST", n.URL+"/v1/documents", key, map[string]any{"templateId": "invoice", "data": invoiceData(1)})
		if d := testnode.DataAs[testnode.Document](t, r); r.Status != 201 || d.Status != "completed" || d.PageCount != 1 {
			t.Fatalf("document %d: %s", i, r)
		}
	}
	bad := invoiceVersion(true)
	bad["html"] = `{{#each items}}{{asset "missing.png"}}{{/each}}`
	bad["sampleData"] = map[string]any{"number": "S", "items": []any{}}
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates/invoice/versions", key, bad); r.Status != 201 {
		t.Fatal(r)
	}
	if r := testnode.Do(t, "POST", n.URL+"/v1/documents", key, map[string]any{"templateId": "invoice", "data": invoiceData(1)}); testnode.DataAs[testnode.Document](t, r).Status != "failed" {
		t.Fatalf("the failing render: %s", r)
	}
	now := time.Now().UTC()

	r := testnode.Do(t, "GET", n.URL+"/v1/documents/stats", key, nil)
	st := testnode.DataAs[documentStats](t, r)
	if r.Status != 200 || len(st.Days) != 30 {
		t.Fatalf("stats: %s", r)
	}
	today := st.Days[29]
	if today.Day != now.Format(time.DateOnly) || today.Completed != 3 || today.Failed != 1 || today.Pending != 0 {
		t.Fatalf("today: %+v (now %s)", today, now)
	}
	if st.Days[0].Day != now.AddDate(0, 0, -29).Format(time.DateOnly) || st.Days[0].Completed != 0 {
		t.Fatalf("first day: %+v", st.Days[0])
	}
	if st.Total.Completed != 3 || st.Total.Failed != 1 {
		t.Fatalf("totals: %+v", st.Total)
	}
	if st := testnode.DataAs[documentStats](t, testnode.Do(t, "GET", n.URL+"/v1/documents/stats?days=7", key, nil)); len(st.Days) != 7 || st.Days[6].Completed != 3 {
		t.Fatalf("seven days: %+v", st)
	}

	r = testnode.Do(t, "GET", n.URL+"/v1/wallet/usage", key, nil)
	usage := testnode.DataAs[struct {
		Months []monthUsage `json:"months"`
	}](t, r).Months
	if r.Status != 200 || len(usage) != 12 {
		t.Fatalf("usage: %s", r)
	}
	want := monthUsage{Month: now.Format("2006-01"), Documents: 3, AllowancePages: 2, WalletPages: 1, AmountMicros: 5000}
	if usage[0] != want {
		t.Fatalf("this month: %+v, want %+v", usage[0], want)
	}
	if usage[1].Month != time.Date(now.Year(), now.Month()-1, 1, 0, 0, 0, 0, time.UTC).Format("2006-01") || usage[1].Documents != 0 {
		t.Fatalf("last month: %+v", usage[1])
	}
	// The same figures the ledger holds: one debit row of 5000.
	var debited int64
	for _, row := range ledger(t, n, org).Items {
		if row.Kind == "debit" {
			debited -= row.AmountMicros
		}
	}
	if debited != want.AmountMicros {
		t.Fatalf("the ledger debited %d, usage says %d", debited, want.AmountMicros)
	}

	// The ledger a page at a time, newest first: the debit, then the credit.
	type ledgerPage struct {
		Items      []testnode.LedgerEntry `json:"items"`
		NextBefore *uint64                `json:"nextBefore"`
	}
	first := testnode.DataAs[ledgerPage](t, testnode.Do(t, "GET", n.URL+"/v1/wallet/ledger?limit=1", key, nil))
	if len(first.Items) != 1 || first.Items[0].Kind != "debit" || first.NextBefore == nil || *first.NextBefore != first.Items[0].Seq {
		t.Fatalf("first ledger page: %+v", first)
	}
	second := testnode.DataAs[ledgerPage](t, testnode.Do(t, "GET", fmt.Sprintf("%s/v1/wallet/ledger?limit=1&before=%d", n.URL, *first.NextBefore), key, nil))
	if len(second.Items) != 1 || second.Items[0].Kind != "credit" || second.Items[0].Reference != "topup" || second.NextBefore != nil {
		t.Fatalf("second ledger page: %+v", second)
	}

	// Another organisation's documents are not counted.
	other := createOrg(t, n, "Other", "starter")
	_, otherKey := createKey(t, n, other, "documents.read", "wallet.read")
	if st := testnode.DataAs[documentStats](t, testnode.Do(t, "GET", n.URL+"/v1/documents/stats", otherKey, nil)); st.Total.Completed != 0 || st.Total.Failed != 0 {
		t.Fatalf("another org's stats: %+v", st)
	}

	for _, c := range []struct{ path, field string }{
		{"/v1/documents/stats?days=0", "days"},
		{"/v1/documents/stats?days=91", "days"},
		{"/v1/documents/stats?days=x", "days"},
		{"/v1/wallet/usage?months=25", "months"},
		{"/v1/wallet/usage?months=-1", "months"},
		{"/v1/wallet/ledger?before=0", "before"},
		{"/v1/wallet/ledger?before=x", "before"},
		{"/v1/wallet/ledger?limit=101", "limit"},
	} {
		if r := testnode.Do(t, "GET", n.URL+c.path, key, nil); r.Status != 400 || r.Field() != c.field {
			t.Errorf("%s: %s", c.path, r)
		}
	}
	_, templatesOnly := createKey(t, n, org, "templates.read")
	for _, p := range []string{"/v1/documents/stats", "/v1/wallet/usage", "/v1/wallet/ledger"} {
		if r := testnode.Do(t, "GET", n.URL+p, templatesOnly, nil); r.Status != 403 {
			t.Errorf("%s without its scope: %s", p, r)
		}
	}
	_, docsOnly := createKey(t, n, org, "documents.generate")
	for _, p := range []string{"/v1/wallet/usage", "/v1/wallet/ledger"} {
		if r := testnode.Do(t, "GET", n.URL+p, docsOnly, nil); r.Status != 403 {
			t.Errorf("%s without wallet.read: %s", p, r)
		}
	}
}
