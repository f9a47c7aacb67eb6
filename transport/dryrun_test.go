package transport_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/node"
)

// sheetsVersion is a template with one page per string of data's sheets and
// no pagination: its estimate is the version's last page count, so a
// document may be longer than its estimate, as at an allowance's edge.
func sheetsVersion() map[string]any {
	return map[string]any{
		"name": "Sheets", "slug": "sheets", "activate": true,
		"html": `<html><body>{{#each sheets}}<div class="sheet" style="font-family:sans-serif"><p>{{text}}</p></div>{{/each}}</body></html>`,
		"manifest": map[string]any{"dataSchema": map[string]any{
			"sheets": map[string]any{"type": "array", "required": true, "items": map[string]any{"text": map[string]any{"type": "string"}}}}},
		"sampleData": map[string]any{"sheets": []any{map[string]any{"text": "one"}}},
	}
}

func sheetsBody(pages int, dry bool) map[string]any {
	var sheets []any
	for i := 0; i < pages; i++ {
		sheets = append(sheets, map[string]any{"text": fmt.Sprintf("page %d", i+1)})
	}
	b := map[string]any{"templateId": "sheets", "data": map[string]any{"sheets": sheets}}
	if dry {
		b["dryRun"] = true
	}
	return b
}

type quote = testnode.Quote

// generateFor is a real generate that must complete.
func generateFor(t *testing.T, n *testnode.Node, key string, body map[string]any) testnode.Document {
	t.Helper()
	r := testnode.Do(t, "POST", n.URL+"/v1/documents", key, body)
	if r.Status != http.StatusCreated {
		t.Fatalf("generate: %s", r)
	}
	d := testnode.DataAs[testnode.Document](t, r)
	if d.Status != "completed" {
		t.Fatalf("generate: %s", r)
	}
	return d
}

// dryRun asks for a quote and checks that it recorded nothing: no document,
// no event, no ledger row, no allowance or wallet change.
func dryRun(t *testing.T, n *testnode.Node, org, key string, body map[string]any) (testnode.Response, quote) {
	t.Helper()
	return dryRunWith(t, n, org, key, body, nil)
}

// dryRunWith is dryRun with request headers.
func dryRunWith(t *testing.T, n *testnode.Node, org, key string, body map[string]any, headers map[string]string) (testnode.Response, quote) {
	t.Helper()
	docs := len(listDocuments(t, n, key, "?limit=100").Items)
	seq := n.Store().FeedSeq(org)
	before := ledger(t, n, org)
	r := testnode.DoWith(t, "POST", n.URL+"/v1/documents", key, body, headers)
	var q quote
	if r.Status == http.StatusOK {
		q = testnode.DataAs[quote](t, r)
	}
	if after := len(listDocuments(t, n, key, "?limit=100").Items); after != docs {
		t.Fatalf("a dry run made a document: %d then %d", docs, after)
	}
	if after := n.Store().FeedSeq(org); after != seq {
		t.Fatalf("a dry run emitted events: feed %d then %d", seq, after)
	}
	after := ledger(t, n, org)
	if len(after.Items) != len(before.Items) || after.PagesUsed != before.PagesUsed || after.BalanceMicros != before.BalanceMicros || after.HeldPages != before.HeldPages || after.HeldMicros != before.HeldMicros {
		t.Fatalf("a dry run moved the account: %+v then %+v", before, after)
	}
	return r, q
}

// checkQuoteIsTheCharge makes for real what was quoted, and checks that the
// charge is the quote.
func checkQuoteIsTheCharge(t *testing.T, n *testnode.Node, org, key string, pages int, q quote) {
	t.Helper()
	before := ledger(t, n, org)
	d := generateFor(t, n, key, sheetsBody(pages, false))
	after := ledger(t, n, org)
	if d.PageCount != q.PageCount {
		t.Fatalf("quoted %d pages, made %d", q.PageCount, d.PageCount)
	}
	allowance := after.PagesUsed - before.PagesUsed
	wallet := before.BalanceMicros - after.BalanceMicros
	if allowance != q.AllowancePages || wallet != q.WalletMicros {
		t.Fatalf("quoted %d allowance pages and %d micros; charged %d and %d", q.AllowancePages, q.WalletMicros, allowance, wallet)
	}
}

// sameRefusal checks that a dry run and the real request refuse alike.
func sameRefusal(t *testing.T, n *testnode.Node, org, key string, body map[string]any, status int, code string) {
	t.Helper()
	dry, _ := dryRun(t, n, org, key, withDry(body))
	real := testnode.Do(t, "POST", n.URL+"/v1/documents", key, body)
	if dry.Status != status || dry.Code() != code {
		t.Fatalf("dry run: %s, want %d %s", dry, status, code)
	}
	if real.Status != dry.Status || !reflect.DeepEqual(real.Problem(), dry.Problem()) {
		t.Fatalf("the dry run refused with %s, the real request with %s", dry, real)
	}
}

func withDry(body map[string]any) map[string]any {
	out := map[string]any{"dryRun": true}
	for k, v := range body {
		out[k] = v
	}
	return out
}

// TestDryRunQuotesTheChargeOnTheSandbox: at the allowance's edge (one page
// left, a three-page document estimated at one), the quote is the charge,
// not payable; once the allowance is exactly used up, the dry run and the
// real request are refused alike.
func TestDryRunQuotesTheChargeOnTheSandbox(t *testing.T) {
	n := testnode.Start(t, nil)
	if r := testnode.Do(t, "PUT", n.URL+"/admin/v1/plans/sandbox", n.OperatorToken, map[string]any{"monthlyPages": 4}); r.Status != 200 {
		t.Fatal(r)
	}
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates", n.Key, sheetsVersion()); r.Status != 201 {
		t.Fatal(r)
	}
	org, key := n.OrgID, n.Key
	// A refusal of the schema, and of the request, is the real one's.
	sameRefusal(t, n, org, key, map[string]any{"templateId": "sheets", "data": map[string]any{"sheets": 5}}, 422, "PAYLOAD_VALIDATION_FAILED")
	sameRefusal(t, n, org, key, map[string]any{"templateId": "sheets", "data": map[string]any{}}, 422, "PAYLOAD_VALIDATION_FAILED")
	sameRefusal(t, n, org, key, map[string]any{"templateId": "nope"}, 404, "NOT_FOUND")
	sameRefusal(t, n, org, key, map[string]any{"templateId": "sheets", "templateVersion": 9}, 400, "INVALID_REQUEST")
	sameRefusal(t, n, org, key, map[string]any{"templateId": "sheets", "engine": "gecko"}, 400, "INVALID_REQUEST")

	// Far from the edge: payable, all allowance, and the same page count.
	_, q := dryRun(t, n, org, key, sheetsBody(2, true))
	if q.PageCount != 2 || q.AllowancePages != 2 || q.WalletMicros != 0 || !q.Payable {
		t.Fatalf("quote %+v", q)
	}
	checkQuoteIsTheCharge(t, n, org, key, 2, q)
	generateFor(t, n, key, sheetsBody(1, false)) // 3 used, 1 left; the version's last count is 1

	_, q = dryRun(t, n, org, key, sheetsBody(3, true))
	if q.PageCount != 3 || q.AllowancePages != 3 || q.WalletMicros != 0 || q.Payable {
		t.Fatalf("quote at the edge %+v", q)
	}
	checkQuoteIsTheCharge(t, n, org, key, 3, q) // 6 used of 4: a finished render is never thrown away

	// Exactly used up: 6 of 6.
	if r := testnode.Do(t, "PUT", n.URL+"/admin/v1/plans/sandbox", n.OperatorToken, map[string]any{"monthlyPages": 6}); r.Status != 200 {
		t.Fatal(r)
	}
	sameRefusal(t, n, org, key, sheetsBody(1, false), 402, "PAYMENT_REQUIRED")
}

// TestDryRunQuotesTheChargeOnAWalletPlan: the allowance then the wallet, a
// quote that would take the wallet below zero, the refusal while it is, and
// a payable quote paid from the wallet alone.
func TestDryRunQuotesTheChargeOnAWalletPlan(t *testing.T) {
	n := testnode.Start(t, nil)
	org, key := paidOrg(t, n, 4, 5000)
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates", key, sheetsVersion()); r.Status != 201 {
		t.Fatal(r)
	}
	credit(t, n, org, 6000, "topup-1")
	generateFor(t, n, key, sheetsBody(2, false))
	generateFor(t, n, key, sheetsBody(1, false)) // 3 used, 1 left, estimate 1

	_, q := dryRun(t, n, org, key, sheetsBody(3, true))
	if q.PageCount != 3 || q.AllowancePages != 1 || q.WalletMicros != 10000 || q.Payable {
		t.Fatalf("quote at the edge %+v", q)
	}
	checkQuoteIsTheCharge(t, n, org, key, 3, q) // the wallet is at -4000

	sameRefusal(t, n, org, key, sheetsBody(1, false), 402, "PAYMENT_REQUIRED")

	credit(t, n, org, 20000, "topup-2") // 16000; the allowance is exactly used up
	_, q = dryRun(t, n, org, key, sheetsBody(1, true))
	if q.PageCount != 1 || q.AllowancePages != 0 || q.WalletMicros != 5000 || !q.Payable {
		t.Fatalf("quote from the wallet %+v", q)
	}
	checkQuoteIsTheCharge(t, n, org, key, 1, q)
	// Three pages estimated at one: the estimate's 5000 micros fit the 11000
	// left, the 15000 of three pages do not. Accepted, not payable.
	_, q = dryRun(t, n, org, key, sheetsBody(3, true))
	if q.WalletMicros != 15000 || q.Payable {
		t.Fatalf("quote over the wallet %+v", q)
	}
	checkQuoteIsTheCharge(t, n, org, key, 3, q) // accepted, and charged as quoted: the wallet is at -4000
}

// TestDryRunQuotesTheChargeThatFillsTheAllowanceExactly: on both plans, a
// document of exactly the pages left is quoted payable and all from the
// allowance, and charged so; on the wallet plan, a document that takes the
// wallet exactly to zero is quoted payable and charged so. The next request,
// dry or real, is refused alike.
func TestDryRunQuotesTheChargeThatFillsTheAllowanceExactly(t *testing.T) {
	for _, plan := range []string{"sandbox", "starter"} {
		t.Run(plan, func(t *testing.T) {
			n := testnode.Start(t, nil)
			org, key := n.OrgID, n.Key
			if plan == "sandbox" {
				if r := testnode.Do(t, "PUT", n.URL+"/admin/v1/plans/sandbox", n.OperatorToken, map[string]any{"monthlyPages": 3}); r.Status != 200 {
					t.Fatal(r)
				}
			} else {
				org, key = paidOrg(t, n, 3, 5000)
			}
			if r := testnode.Do(t, "POST", n.URL+"/v1/templates", key, sheetsVersion()); r.Status != 201 {
				t.Fatal(r)
			}
			_, q := dryRun(t, n, org, key, sheetsBody(3, true))
			if q.PageCount != 3 || q.AllowancePages != 3 || q.WalletMicros != 0 || !q.Payable {
				t.Fatalf("quote of exactly the allowance left %+v", q)
			}
			checkQuoteIsTheCharge(t, n, org, key, 3, q)
			if l := ledger(t, n, org); l.PagesUsed != 3 {
				t.Fatalf("%d pages used, want 3", l.PagesUsed)
			}
			if plan == "starter" {
				credit(t, n, org, 15000, "topup-exact")
				_, q = dryRun(t, n, org, key, sheetsBody(3, true))
				if q.PageCount != 3 || q.AllowancePages != 0 || q.WalletMicros != 15000 || !q.Payable {
					t.Fatalf("quote of exactly the wallet %+v", q)
				}
				checkQuoteIsTheCharge(t, n, org, key, 3, q)
				if l := ledger(t, n, org); l.BalanceMicros != 0 {
					t.Fatalf("balance %d, want 0", l.BalanceMicros)
				}
			}
			sameRefusal(t, n, org, key, sheetsBody(1, false), 402, "PAYMENT_REQUIRED")
		})
	}
}

// TestDryRunKeepsNothing: the Idempotency-Key of a dry run is not used up,
// and the quote carries the render's report.
func TestDryRunKeepsNothing(t *testing.T) {
	n := testnode.Start(t, nil)
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates", n.Key, sheetsVersion()); r.Status != 201 {
		t.Fatal(r)
	}
	dry := testnode.DoWith(t, "POST", n.URL+"/v1/documents", n.Key, sheetsBody(2, true), map[string]string{"Idempotency-Key": "k-1"})
	if dry.Status != http.StatusOK || dry.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("dry run: %s", dry)
	}
	q := testnode.DataAs[quote](t, dry)
	rep := q.Report
	if rep.Engine == "" || rep.EngineReason == "" || rep.Bytes == 0 || len(rep.SHA256) != 64 || rep.Fonts.Used == nil || rep.FailedAssets == nil {
		t.Fatalf("report %s", dry.Body)
	}
	for _, s := range []string{"queued", "filling", "rendering", "counting", "storing"} {
		if _, ok := rep.Ms[s]; !ok {
			t.Fatalf("report's ms lacks %s: %s", s, dry.Body)
		}
	}
	if rep.Ms["queued"] != 0 || rep.Ms["storing"] != 0 {
		t.Fatalf("a dry run queued or stored: %s", dry.Body)
	}
	// The key is free: a real request with another body under it is made.
	real := testnode.DoWith(t, "POST", n.URL+"/v1/documents", n.Key, sheetsBody(1, false), map[string]string{"Idempotency-Key": "k-1"})
	if real.Status != http.StatusCreated || real.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("the dry run used the Idempotency-Key: %s", real)
	}
	// A render that fails is answered as the error.
	bad := sheetsVersion()
	delete(bad, "name")
	delete(bad, "slug")
	bad["html"] = `{{#each sheets}}{{asset "missing.png"}}{{/each}}`
	bad["sampleData"] = map[string]any{"sheets": []any{}}
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates/sheets/versions", n.Key, bad); r.Status != 201 {
		t.Fatal(r)
	}
	if r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, sheetsBody(1, true)); r.Status != 422 || r.Code() != "RENDER_FAILED" {
		t.Fatalf("a failing dry run: %s", r)
	}
	if docs := listDocuments(t, n, n.Key, "").Items; len(docs) != 1 {
		t.Fatalf("%d documents", len(docs))
	}
}

// TestRealtimeDryRun: a generate frame with dryRun answers one quote frame.
func TestRealtimeDryRun(t *testing.T) {
	n := testnode.Start(t, nil)
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates", n.Key, sheetsVersion()); r.Status != 201 {
		t.Fatal(r)
	}
	c, _, err := dialWS(t, n, n.Key, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.send(map[string]any{"type": "generate", "ref": "r1", "body": sheetsBody(3, true)})
	m := c.next(30 * time.Second)
	data, _ := m["data"].(map[string]any)
	if m["type"] != "quote" || m["ref"] != "r1" || data["pageCount"] != 3.0 || data["allowancePages"] != 3.0 || data["payable"] != true || data["report"] == nil {
		t.Fatalf("frame %v", m)
	}
	c.send(map[string]any{"type": "generate", "ref": "r2", "body": map[string]any{"templateId": "sheets", "dryRun": true, "data": map[string]any{}}})
	m = c.next(30 * time.Second)
	if e, _ := m["error"].(map[string]any); m["type"] != "error" || m["ref"] != "r2" || e["code"] != "PAYLOAD_VALIDATION_FAILED" {
		t.Fatalf("frame %v", m)
	}
	c.send(map[string]any{"type": "ping"})
	if m := c.next(10 * time.Second); m["type"] != "pong" {
		t.Fatalf("a dry run left a frame behind: %v", m)
	}
	if docs := listDocuments(t, n, n.Key, "").Items; len(docs) != 0 {
		t.Fatalf("%d documents", len(docs))
	}
}

// TestDryRunRenderFailureTellsNoInternals: a dry run whose engine fails is
// refused with words that say what failed and what to change, not the
// engine's own error (the browser's output, the node's paths), which only
// the log gets, and not its document's "contact support with its id": a
// dry run has no id.
func TestDryRunRenderFailureTellsNoInternals(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "chromium")
	script := "#!/bin/sh\necho 'fatal: cannot open /srv/platen-internal/profile-9f3a' >&2\nexit 1\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	n := testnode.Start(t, func(c *node.Config) { c.ChromiumBin = bin })
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates", n.Key, sheetsVersion()); r.Status != 201 {
		t.Fatal(r)
	}
	body := sheetsBody(1, true)
	body["engine"] = "chromium"
	dry := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, body)
	if dry.Status != 422 || dry.Code() != "RENDER_FAILED" {
		t.Fatalf("dry run: %s", dry)
	}
	if strings.Contains(string(dry.Body), "platen-internal") || strings.Contains(string(dry.Body), bin) {
		t.Fatalf("the dry run's refusal tells the engine's error: %s", dry.Body)
	}
	delete(body, "dryRun")
	real := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, body)
	doc := testnode.DataAs[map[string]any](t, real)
	if doc["status"] != "failed" || doc["errorCode"] != "RENDER_FAILED" {
		t.Fatalf("the real request: %s", real.Body)
	}
	if msg := dry.Message(); !strings.Contains(msg, "Chromium could not print this document") || strings.Contains(msg, "its id") {
		t.Fatalf("the dry run says %q (its document %q)", msg, doc["message"])
	}
}

// TestPreviewRenderFailureTellsNoInternals: a preview whose engine fails is
// refused with a document's message, not the engine's own error.
func TestPreviewRenderFailureTellsNoInternals(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "chromium")
	script := "#!/bin/sh\necho 'fatal: cannot open /srv/platen-internal/profile-9f3a' >&2\nexit 1\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	n := testnode.Start(t, func(c *node.Config) { c.ChromiumBin = bin })
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates", n.Key, sheetsVersion()); r.Status != 201 {
		t.Fatal(r)
	}
	r := testnode.Do(t, "POST", n.URL+"/v1/templates/sheets/preview", n.Key, map[string]any{"engine": "chromium"})
	if r.Status != 422 || r.Code() != "RENDER_FAILED" {
		t.Fatalf("preview: %s", r)
	}
	if strings.Contains(string(r.Body), "platen-internal") || strings.Contains(string(r.Body), bin) {
		t.Fatalf("the preview's refusal tells the engine's error: %s", r.Body)
	}
}

// TestDryRunUnderAUsedIdempotencyKey: a dry run under an Idempotency-Key
// already used answers as the real request would. With another body it is
// the same 409 CONFLICT; with the same body (dryRun aside) the real request
// would replay the first document and charge nothing, so the quote is that
// document's pages, nothing from the allowance or the wallet, payable. The
// dry run records nothing, the key included.
func TestDryRunUnderAUsedIdempotencyKey(t *testing.T) {
	n := testnode.Start(t, nil)
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates", n.Key, sheetsVersion()); r.Status != 201 {
		t.Fatal(r)
	}
	used := map[string]string{"Idempotency-Key": "order-1"}
	first := testnode.DoWith(t, "POST", n.URL+"/v1/documents", n.Key, sheetsBody(3, false), used)
	if first.Status != http.StatusCreated {
		t.Fatal(first)
	}
	doc := testnode.DataAs[testnode.Document](t, first)
	if doc.Status != "completed" || doc.PageCount != 3 {
		t.Fatalf("first: %s", first)
	}

	// The same body: the replay's quote.
	r, q := dryRunWith(t, n, n.OrgID, n.Key, sheetsBody(3, true), used)
	if r.Status != http.StatusOK || r.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("dry run of a replay: %s", r)
	}
	if q.PageCount != 3 || q.AllowancePages != 0 || q.WalletMicros != 0 || !q.Payable {
		t.Fatalf("quote of a replay %+v, want 3 pages, nothing charged, payable: %s", q, r.Body)
	}
	before := ledger(t, n, n.OrgID)
	replay := testnode.DoWith(t, "POST", n.URL+"/v1/documents", n.Key, sheetsBody(3, false), used)
	after := ledger(t, n, n.OrgID)
	if replay.Status != http.StatusCreated || testnode.DataAs[testnode.Document](t, replay).ID != doc.ID ||
		after.PagesUsed != before.PagesUsed || after.BalanceMicros != before.BalanceMicros {
		t.Fatalf("the real replay: %s; account %+v then %+v", replay, before, after)
	}

	// Another body: the real request's conflict.
	dry, _ := dryRunWith(t, n, n.OrgID, n.Key, sheetsBody(2, true), used)
	real := testnode.DoWith(t, "POST", n.URL+"/v1/documents", n.Key, sheetsBody(2, false), used)
	if dry.Status != http.StatusConflict || dry.Code() != "CONFLICT" {
		t.Fatalf("dry run under a key used with another body: %s", dry)
	}
	if real.Status != dry.Status || !reflect.DeepEqual(real.Problem(), dry.Problem()) {
		t.Fatalf("the dry run refused with %s, the real request with %s", dry, real)
	}

	// A dry run first records nothing: the same body made for real under
	// the key is a new document, not a replay.
	fresh := map[string]string{"Idempotency-Key": "order-2"}
	if r, q := dryRunWith(t, n, n.OrgID, n.Key, sheetsBody(1, true), fresh); r.Status != http.StatusOK || q.PageCount != 1 || q.AllowancePages != 1 {
		t.Fatalf("dry run under a new key: %s", r)
	}
	made := testnode.DoWith(t, "POST", n.URL+"/v1/documents", n.Key, sheetsBody(1, false), fresh)
	if made.Status != http.StatusCreated || made.Header.Get("Idempotent-Replayed") != "" || testnode.DataAs[testnode.Document](t, made).ID == doc.ID {
		t.Fatalf("after a dry run, the real request: %s", made)
	}
	if r, q := dryRunWith(t, n, n.OrgID, n.Key, sheetsBody(1, true), fresh); r.Status != http.StatusOK || q.PageCount != 1 || q.AllowancePages != 0 || !q.Payable {
		t.Fatalf("dry run after the real request under the same key: %s", r)
	}
}
