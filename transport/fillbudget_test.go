package transport_test

import (
	"strings"
	"testing"

	"github.com/platen/platen/internal/testnode"
)

// TestPreviewRefusalsSayWhy: what a draft preview is told when its fill
// runs past its budget (the triple loop of issue 24 over 1,000 items: its
// steps, or its time on a loaded machine, whichever ends first), when
// its @page size is out of bounds, and when the forced phantom engine
// cannot print it: 422 or 400 with words that say what failed and what to
// change, and nothing about an id that a preview does not have.
func TestPreviewRefusalsSayWhy(t *testing.T) {
	n := testnode.Start(t, nil)
	url := n.URL + "/v1/templates"
	body := invoiceVersion(true)
	body["name"], body["slug"] = "Invoice", "invoice"
	if r := testnode.Do(t, "POST", url, n.Key, body); r.Status != 201 {
		t.Fatalf("create: %s", r)
	}
	items := make([]any, 1000)
	for i := range items {
		items[i] = map[string]any{"description": "x", "price": 1}
	}
	loops := invoiceDraft(invoiceHTML + `{{#each items}}{{#each @root.items}}{{#each @root.items}}<i>{{description}}</i>{{/each}}{{/each}}{{/each}}`)
	deep := invoiceDraft(invoiceHTML + strings.Repeat("<div>", 5000) + strings.Repeat("</div>", 5000))
	page := invoiceDraft(invoiceHTML + `<style>@page { size: 1mm }</style>`)
	for _, c := range []struct {
		name   string
		body   map[string]any
		status int
		code   string
		want   []string
	}{
		{"triple loop", map[string]any{"draft": loops, "data": map[string]any{"number": "S-1", "items": items}}, 422, "RENDER_FAILED",
			[]string{"too costly", "{{#each @root.items}} at line 4", "loops inside loops multiply"}},
		{"@page size", map[string]any{"draft": page}, 400, "INVALID_REQUEST",
			[]string{"@page { size: 1mm }", "between 20mm and 2000mm"}},
		{"phantom fails", map[string]any{"draft": deep, "engine": "phantom"}, 422, "RENDER_FAILED",
			[]string{"phantom engine could not print this document", `"engine": "chromium"`}},
	} {
		r := testnode.Do(t, "POST", url+"/invoice/preview", n.Key, c.body)
		p := r.Problem()
		if r.Status != c.status || p.Code != c.code {
			t.Errorf("%s: HTTP %d %s, want %d %s", c.name, r.Status, r, c.status, c.code)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(p.Message, w) {
				t.Errorf("%s: %q does not say %q", c.name, p.Message, w)
			}
		}
		if strings.Contains(p.Message, "contact support") || strings.Contains(p.Message, "its id") {
			t.Errorf("%s: %q speaks of an id the preview does not have", c.name, p.Message)
		}
	}
}
