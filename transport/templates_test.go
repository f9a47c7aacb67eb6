package transport_test

import (
	"bytes"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"testing"

	"github.com/platen/platen/internal/testnode"
)

const invoiceHTML = `<html><head><style>.sheet{padding:15mm;font-family:sans-serif}</style></head><body>
{{#each pages}}<div class="sheet"><h1>Invoice {{@root.number}}</h1>
{{#each items}}<p>{{description}} {{formatCurrency price}}</p>{{/each}}
<p>Page {{pageNumber}} of {{pageCount}}</p></div>{{/each}}</body></html>`

func invoiceVersion(activate bool) map[string]any {
	return map[string]any{
		"html": invoiceHTML,
		"manifest": map[string]any{"currency": "EUR", "locale": "en-GB",
			"pagination": map[string]any{"collection": "items", "itemsPerPage": 3},
			"dataSchema": map[string]any{
				"number": map[string]any{"type": "string", "required": true},
				"items": map[string]any{"type": "array", "required": true, "items": map[string]any{
					"description": map[string]any{"type": "string", "required": true},
					"price":       map[string]any{"type": "number", "required": true, "min": 0}}}}},
		"sampleData": map[string]any{"number": "S-1", "items": []any{map[string]any{"description": "Sample widget", "price": 5}}},
		"activate":   activate,
	}
}

func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	cmd := exec.Command("pdftotext", "-layout", "-", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}

func TestTemplateVersionsActivationAndPinning(t *testing.T) {
	n := testnode.Start(t, nil)
	url := n.URL + "/v1/templates"
	body := invoiceVersion(true)
	body["name"], body["slug"] = "Invoice", "invoice"
	r := testnode.Do(t, "POST", url, n.Key, body)
	if r.Status != 201 || testnode.DataAs[testnode.Template](t, r).ActiveVersion != 1 {
		t.Fatalf("create: %s", r)
	}
	id := testnode.DataAs[testnode.Template](t, r).ID
	// A slug in use is named, so a form shows the refusal at its input.
	if r := testnode.Do(t, "POST", url, n.Key, map[string]any{"name": "Again", "slug": "invoice"}); r.Status != 409 || r.Code() != "CONFLICT" || r.Field() != "slug" {
		t.Fatalf("slug taken: %s", r)
	}
	for _, ref := range []string{id, "invoice"} {
		if r := testnode.Do(t, "GET", url+"/"+ref, n.Key, nil); r.Status != 200 || testnode.DataAs[testnode.Template](t, r).ID != id {
			t.Fatalf("read by %s: %s", ref, r)
		}
	}

	v2 := invoiceVersion(false)
	v2["html"] = strings.Replace(invoiceHTML, "Invoice {{@root.number}}", "Bill {{@root.number}}", 1)
	r = testnode.Do(t, "POST", url+"/invoice/versions", n.Key, v2)
	if r.Status != 201 {
		t.Fatalf("save v2: %s", r)
	}
	if v := testnode.DataAs[testnode.Version](t, r); v.Version != 2 || v.Active || v.Engine == nil ||
		v.Engine.Engine != "phantom" || !strings.Contains(v.Engine.Reason, "platform default") {
		t.Fatalf("save v2 (with the engine its sample gets): %s", r)
	}
	if v := testnode.DataAs[testnode.Version](t, testnode.Do(t, "GET", url+"/invoice/versions/2", n.Key, nil)); v.Engine == nil || v.Engine.Engine != "phantom" {
		t.Fatalf("read v2: no engine choice: %+v", v.Engine)
	}
	if tpl := testnode.DataAs[testnode.Template](t, testnode.Do(t, "GET", url+"/invoice", n.Key, nil)); tpl.ActiveVersion != 1 || tpl.LatestVersion != 2 {
		t.Fatalf("saving without activate changed the active version: %+v", tpl)
	}
	if r := testnode.Do(t, "POST", url+"/invoice/versions/2/activate", n.Key, nil); r.Status != 200 || testnode.DataAs[testnode.Template](t, r).ActiveVersion != 2 {
		t.Fatalf("activate 2: %s", r)
	}
	if r := testnode.Do(t, "POST", url+"/invoice/versions/9/activate", n.Key, nil); r.Status != 404 {
		t.Fatalf("activate 9: %s", r)
	}
	// Version 1 is immutable and still readable.
	r = testnode.Do(t, "GET", url+"/invoice/versions/1", n.Key, nil)
	if r.Status != 200 {
		t.Fatalf("version 1: %s", r)
	}
	if v := testnode.DataAs[testnode.Version](t, r); !strings.Contains(v.HTML, "Invoice {{@root.number}}") || v.Active {
		t.Fatalf("version 1: %s", r)
	}
	list := testnode.DataAs[testnode.List[testnode.VersionSummary]](t, testnode.Do(t, "GET", url+"/invoice/versions", n.Key, nil)).Items
	if len(list) != 2 || list[0].Version != 2 || !list[0].Active {
		t.Fatalf("versions %+v", list)
	}

	bad := invoiceVersion(false)
	bad["sampleData"] = map[string]any{"number": "S-1", "items": []any{map[string]any{"description": "x", "price": -1}}}
	if r := testnode.Do(t, "POST", url+"/invoice/versions", n.Key, bad); r.Status != 400 || r.Field() != "sampleData.items[0].price" {
		t.Fatalf("sample data breaking the schema: %s", r)
	}
	bad = invoiceVersion(false)
	bad["html"] = "{{formatCurency 5}}"
	if r := testnode.Do(t, "POST", url+"/invoice/versions", n.Key, bad); r.Status != 400 || r.Field() != "html" || !strings.Contains(r.Message(), "formatCurency") {
		t.Fatalf("unknown helper: %s", r)
	}

	// Preview renders the pinned version with given data, watermarked.
	data := map[string]any{"number": "INV-77", "items": []any{}}
	var items []any
	for i := 0; i < 7; i++ {
		items = append(items, map[string]any{"description": fmt.Sprintf("Line %d", i), "price": 10.5})
	}
	data["items"] = items
	r = testnode.Do(t, "POST", url+"/invoice/preview", n.Key, map[string]any{"data": data, "version": 1})
	if r.Status != 200 || r.Header.Get("Content-Type") != "application/pdf" || r.Header.Get("X-Platen-Pages") != "3" || r.Header.Get("X-Platen-Engine") != "phantom" ||
		!strings.Contains(r.Header.Get("X-Platen-Engine-Reason"), "platform default") {
		t.Fatalf("preview: HTTP %d %v", r.Status, r.Header)
	}
	text := pdfText(t, r.Body)
	for _, want := range []string{"Invoice INV-77", "Line 6 €10.50", "Page 3 of 3", "Preview of invoice version 1"} {
		if !strings.Contains(text, want) {
			t.Errorf("preview text lacks %q:\n%s", want, text)
		}
	}
	if r := testnode.Do(t, "POST", url+"/invoice/preview", n.Key, map[string]any{"data": map[string]any{"number": "X", "items": []any{map[string]any{"description": "x", "price": "free"}}}}); r.Status != 422 || r.Code() != "PAYLOAD_VALIDATION_FAILED" || r.Field() != "items[0].price" {
		t.Fatalf("preview with bad data: %s", r)
	}
	// Every violation at once, the first in field.
	r = testnode.Do(t, "POST", url+"/invoice/preview", n.Key, map[string]any{"data": map[string]any{"items": []any{
		map[string]any{"description": "x", "price": "free"}, map[string]any{"price": -2}}}})
	var got []string
	for _, v := range r.Problem().Violations {
		got = append(got, v.Field+": "+v.Message)
	}
	want := []string{"items[0].price: must be a number, not a string", "items[1].description: is required", "items[1].price: must be at least 0", "number: is required"}
	if r.Status != 422 || r.Field() != "items[0].price" || strings.Join(got, "; ") != strings.Join(want, "; ") || !strings.Contains(r.Message(), "(and 3 more)") {
		t.Fatalf("several violations: %s\ngot  %q\nwant %q", r, got, want)
	}

	feed, _ := n.Store().Feed(n.OrgID, 0, 0)
	var activations int
	for _, e := range feed {
		if e.Kind == "template.activated" {
			activations++
		}
	}
	if activations != 2 {
		t.Fatalf("%d template.activated events, want 2 (create, activate 2)", activations)
	}
}

func TestTemplateListingArchiveAndIsolation(t *testing.T) {
	n := testnode.Start(t, nil)
	url := n.URL + "/v1/templates"
	for i := 0; i < 5; i++ {
		if r := testnode.Do(t, "POST", url, n.Key, map[string]any{"name": fmt.Sprint("T", i), "slug": fmt.Sprint("t", i)}); r.Status != 201 {
			t.Fatal(r)
		}
	}
	if r := testnode.Do(t, "DELETE", url+"/t2", n.Key, nil); r.Status != 200 || testnode.DataAs[testnode.Template](t, r).ArchivedAt == nil {
		t.Fatalf("archive: %s", r)
	}
	var slugs []string
	cursor := ""
	for page := 0; page < 5; page++ {
		r := testnode.Do(t, "GET", url+"?limit=2"+cursor, n.Key, nil)
		if r.Status != 200 {
			t.Fatal(r)
		}
		page := testnode.DataAs[testnode.List[testnode.Template]](t, r)
		for _, it := range page.Items {
			slugs = append(slugs, it.Slug)
		}
		if page.NextCursor == nil || *page.NextCursor == "" {
			break
		}
		cursor = "&cursor=" + *page.NextCursor
	}
	if strings.Join(slugs, ",") != "t4,t3,t1,t0" {
		t.Fatalf("listing %v, want newest first without the archived one", slugs)
	}
	if r := testnode.Do(t, "GET", url+"?archived=true", n.Key, nil); len(testnode.DataAs[testnode.List[testnode.Template]](t, r).Items) != 1 {
		t.Fatalf("archived listing: %s", r)
	}
	r := testnode.Do(t, "PATCH", url+"/t2", n.Key, map[string]any{"archived": false, "name": "Back", "slug": "back"})
	if r.Status != 200 {
		t.Fatalf("restore: %s", r)
	}
	if tpl := testnode.DataAs[testnode.Template](t, r); tpl.Slug != "back" || tpl.ArchivedAt != nil {
		t.Fatalf("restore: %s", r)
	}
	if r := testnode.Do(t, "GET", url+"?limit=500", n.Key, nil); r.Status != 400 || r.Field() != "limit" {
		t.Fatalf("limit 500: %s", r)
	}

	other := createOrg(t, n, "Other", "starter")
	_, otherKey := createKey(t, n, other, "templates.read", "templates.write")
	t0 := testnode.DataAs[testnode.Template](t, testnode.Do(t, "GET", url+"/t0", n.Key, nil)).ID
	for _, ref := range []string{"t0", t0} {
		if r := testnode.Do(t, "GET", url+"/"+ref, otherKey, nil); r.Status != 404 {
			t.Fatalf("another organisation read %s: %s", ref, r)
		}
		if r := testnode.Do(t, "POST", url+"/"+ref+"/versions", otherKey, invoiceVersion(true)); r.Status != 404 {
			t.Fatalf("another organisation saved a version of %s: %s", ref, r)
		}
	}
	_, readOnly := createKey(t, n, n.OrgID, "templates.read")
	if r := testnode.Do(t, "POST", url, readOnly, map[string]any{"name": "x", "slug": "x"}); r.Status != 403 {
		t.Fatalf("templates.read created a template: %s", r)
	}
}

func TestStarterLibraryCopiesGenerateAtOnce(t *testing.T) {
	n := testnode.Start(t, nil)
	r := testnode.Do(t, "GET", n.URL+"/v1/templates/library", n.Key, nil)
	var items []testnode.Starter
	if r.Status == 200 {
		items = testnode.DataAs[testnode.List[testnode.Starter]](t, r).Items
	}
	if r.Status != 200 || len(items) < 8 {
		t.Fatalf("library has %d starters: %s", len(items), r.Body[:min(len(r.Body), 300)])
	}
	slug := items[0].Slug
	first := testnode.Do(t, "POST", n.URL+"/v1/templates/library/"+slug+"/copy", n.Key, nil)
	second := testnode.Do(t, "POST", n.URL+"/v1/templates/library/"+slug+"/copy", n.Key, nil)
	if first.Status != 201 || second.Status != 201 {
		t.Fatalf("copies: %s / %s", first, second)
	}
	if a, b := testnode.DataAs[testnode.Template](t, first), testnode.DataAs[testnode.Template](t, second); a.Slug != slug || b.Slug != slug+"-2" || a.ActiveVersion != 1 {
		t.Fatalf("copies: %s / %s", first, second)
	}
	p := testnode.Do(t, "POST", n.URL+"/v1/templates/"+slug+"-2/preview", n.Key, nil)
	if p.Status != http.StatusOK || !bytes.HasPrefix(p.Body, []byte("%PDF")) {
		t.Fatalf("preview of a copied starter: HTTP %d %s", p.Status, p.Body[:min(len(p.Body), 200)])
	}
	// A slug asked for is taken as asked, and refused at its field when in use.
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates/library/"+slug+"/copy", n.Key, map[string]any{"slug": slug, "name": "Mine"}); r.Status != 409 || r.Code() != "CONFLICT" || r.Field() != "slug" {
		t.Fatalf("copy to a slug in use: %s", r)
	}
	if r := testnode.Do(t, "PATCH", n.URL+"/v1/templates/"+slug+"-2", n.Key, map[string]any{"slug": slug}); r.Status != 409 || r.Field() != "slug" {
		t.Fatalf("re-slug to a slug in use: %s", r)
	}
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates/library/no-such-starter/copy", n.Key, nil); r.Status != 404 {
		t.Fatal(r)
	}
}
