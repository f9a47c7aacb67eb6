package transport_test

import (
	"strings"
	"testing"

	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/node"
)

// TestRateLimitsAreTheOperatorsToSet: each key's rate is the node's
// (--rate-limit, --rate-burst), unless its plan sets one, unless its
// organisation does; the operator sets both through the operator API, and
// the 429 names the rate in force and says when to retry.
func TestRateLimitsAreTheOperatorsToSet(t *testing.T) {
	n := testnode.Start(t, func(c *node.Config) { c.HTTP.RateLimit, c.HTTP.RateBurst = 0.01, 3 })
	// burst sends requests until the first 429 and returns how many passed.
	burst := func(limit int) (int, testnode.Response) {
		for i := 0; i < limit; i++ {
			if r := testnode.Do(t, "GET", n.URL+"/v1/templates", n.Key, nil); r.Status == 429 {
				return i, r
			} else if r.Status != 200 {
				t.Fatalf("request %d: %s", i, r)
			}
		}
		return limit, testnode.Response{}
	}
	passed, r := burst(50)
	if passed != 3 || r.Code() != "RATE_LIMITED" || r.Header.Get("Retry-After") == "" ||
		!strings.Contains(string(r.Body), "0.01 requests a second with bursts of 3") {
		t.Fatalf("the node's rate: %d passed, then %s", passed, r)
	}
	org := testnode.DataAs[testnode.Org](t, testnode.Do(t, "GET", n.URL+"/admin/v1/orgs/"+n.OrgID, n.OperatorToken, nil))

	// The plan's rate: a burst of 20.
	if r := testnode.Do(t, "PUT", n.URL+"/admin/v1/plans/"+org.Plan, n.OperatorToken, map[string]any{"rateLimit": 0.01, "rateBurst": 20}); r.Status != 200 {
		t.Fatalf("plan: %s", r)
	}
	if passed, r := burst(50); passed != 20 || !strings.Contains(string(r.Body), "bursts of 20") {
		t.Fatalf("the plan's burst of 20: %d passed, then %s", passed, r)
	}

	// The organisation's own burst, over its plan's.
	r = testnode.Do(t, "PATCH", n.URL+"/admin/v1/orgs/"+n.OrgID, n.OperatorToken, map[string]any{"rateBurst": 40})
	if o := testnode.DataAs[testnode.Org](t, r); r.Status != 200 || o.RateBurst != 40 || !strings.Contains(r.Message(), "bursts of 40") {
		t.Fatalf("org: %s", r)
	}
	if passed, _ := burst(60); passed != 40 {
		t.Fatalf("the organisation's burst of 40: %d passed", passed)
	}
	// Cleared: the plan's again; refusals change nothing.
	for _, bad := range []map[string]any{{"rateLimit": -1}, {"rateBurst": 2_000_000}, {"plan": "no-such-plan", "rateBurst": 5}, {}} {
		if r := testnode.Do(t, "PATCH", n.URL+"/admin/v1/orgs/"+n.OrgID, n.OperatorToken, bad); r.Status != 400 && r.Status != 404 {
			t.Fatalf("PATCH %v: %s", bad, r)
		}
	}
	if r := testnode.Do(t, "PUT", n.URL+"/admin/v1/plans/"+org.Plan, n.OperatorToken, map[string]any{"rateLimit": 1e9}); r.Status != 400 || r.Field() != "rateLimit" {
		t.Fatalf("a plan's rate beyond the bound: %s", r)
	}
	r = testnode.Do(t, "PATCH", n.URL+"/admin/v1/orgs/"+n.OrgID, n.OperatorToken, map[string]any{"rateBurst": 0})
	if o := testnode.DataAs[testnode.Org](t, r); r.Status != 200 || o.RateBurst != 0 || o.Plan != org.Plan {
		t.Fatalf("cleared: %s", r)
	}
}
