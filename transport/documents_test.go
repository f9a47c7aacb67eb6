package transport_test

import (
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/node"
)

// withInvoice starts a node with the invoice template of templates_test.go.
func withInvoice(t *testing.T, change func(*node.Config)) *testnode.Node {
	t.Helper()
	n := testnode.Start(t, change)
	body := invoiceVersion(true)
	body["name"], body["slug"] = "Invoice", "invoice"
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates", n.Key, body); r.Status != 201 {
		t.Fatal(r)
	}
	return n
}

func invoiceData(lines int) map[string]any {
	var items []any
	for i := 0; i < lines; i++ {
		items = append(items, map[string]any{"description": fmt.Sprintf("Line %d", i), "price": 12.5})
	}
	return map[string]any{"number": "INV-9", "items": items}
}

func download(t *testing.T, link string) (*http.Response, []byte) {
	t.Helper()
	res, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b strings.Builder
	buf := make([]byte, 32<<10)
	for {
		n, err := res.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return res, []byte(b.String())
}

func TestGenerateWaitsAndDownloads(t *testing.T) {
	n := withInvoice(t, nil)
	r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{
		"templateId": "invoice", "data": invoiceData(5), "correlationId": "order-42",
		"metadata": map[string]any{"customer": "c_9", "tags": []any{"a", 1.5}}, "filename": "march invoice",
	})
	d := r.Data()
	if r.Status != 201 || d["status"] != "completed" || d["pageCount"].(float64) != 2 || d["templateVersion"].(float64) != 1 {
		t.Fatalf("generate: %s", r)
	}
	if d["correlationId"] != "order-42" || d["filename"] != "march invoice.pdf" || d["engine"] != "chromium" || d["byteSize"].(float64) < 1000 {
		t.Fatalf("record fields: %v", d)
	}
	if m := d["metadata"].(map[string]any); m["customer"] != "c_9" || len(m["tags"].([]any)) != 2 {
		t.Fatalf("metadata not returned untouched: %v", d["metadata"])
	}
	if d["watermarked"] != true || !strings.Contains(r.JSON["message"].(string), "2 pages") {
		t.Fatalf("sandbox document not watermarked, or no page count in the message: %s", r)
	}
	res, pdf := download(t, d["downloadUrl"].(string))
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/pdf" || !strings.Contains(res.Header.Get("Content-Disposition"), `filename="march invoice.pdf"`) {
		t.Fatalf("download: %d %v", res.StatusCode, res.Header)
	}
	text := pdfText(t, pdf)
	for _, want := range []string{"Invoice INV-9", "Line 4", "Page 2 of 2", "Sandbox document: not for production use"} {
		if !strings.Contains(text, want) {
			t.Errorf("PDF lacks %q", want)
		}
	}

	// A fetched record carries a fresh link every time.
	id := d["id"].(string)
	time.Sleep(1100 * time.Millisecond)
	again := testnode.Do(t, "GET", n.URL+"/v1/documents/"+id, n.Key, nil).Data()
	if again["downloadUrl"] == d["downloadUrl"] || again["downloadUrlExpiresAt"] == d["downloadUrlExpiresAt"] {
		t.Fatal("the fetched record's link is not fresh")
	}

	// The download endpoint mints a link of the asked lifetime and counts it.
	dl := testnode.Do(t, "GET", n.URL+"/v1/documents/"+id+"/download?ttlSeconds=60", n.Key, nil)
	exp, _ := time.Parse(time.RFC3339, dl.Data()["expiresAt"].(string))
	if dl.Status != 200 || exp.Sub(time.Now()) > 61*time.Second || exp.Sub(time.Now()) < 55*time.Second {
		t.Fatalf("download link: %s", dl)
	}
	if got := testnode.Do(t, "GET", n.URL+"/v1/documents/"+id, n.Key, nil).Data()["downloads"].(float64); got != 1 {
		t.Fatalf("downloads %v, want 1", got)
	}
	for _, q := range []string{"30", "604801", "abc"} {
		if r := testnode.Do(t, "GET", n.URL+"/v1/documents/"+id+"/download?ttlSeconds="+q, n.Key, nil); r.Status != 400 || r.Field() != "ttlSeconds" {
			t.Fatalf("ttlSeconds=%s: %s", q, r)
		}
	}

	// Tampered and expired links are refused; the link needs no key.
	link, _ := url.Parse(dl.Data()["url"].(string))
	q := link.Query()
	q.Set("expires", fmt.Sprint(exp.Unix()+3600))
	link.RawQuery = q.Encode()
	if res, _ := download(t, link.String()); res.StatusCode != 403 {
		t.Fatalf("a link with a changed expiry: %d", res.StatusCode)
	}
	other := strings.Replace(dl.Data()["url"].(string), id, "doc_01m7zmwnmpk2psb5y8n9tq3dsb", 1)
	if res, _ := download(t, other); res.StatusCode != 403 {
		t.Fatalf("a link moved to another document: %d", res.StatusCode)
	}
}

// TestLinksExpire checks a link the node signed for a time now past.
func TestLinksExpire(t *testing.T) {
	n := withInvoice(t, nil)
	d := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(1)}).Data()
	past := n.Links().Mint(d["id"].(string), "x.pdf", time.Now().Add(-time.Second))
	res, body := download(t, past)
	if res.StatusCode != 410 || !strings.Contains(string(body), "LINK_EXPIRED") {
		t.Fatalf("expired link: %d %s", res.StatusCode, body)
	}
	fresh := n.Links().Mint(d["id"].(string), "x.pdf", time.Now().Add(time.Minute))
	if res, _ := download(t, fresh); res.StatusCode != 200 {
		t.Fatalf("a fresh link signed the same way: %d", res.StatusCode)
	}
}

func TestWaitFalseTimeoutAndFailure(t *testing.T) {
	n := withInvoice(t, func(c *node.Config) { c.WaitTimeout = time.Millisecond })
	r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(2), "wait": false})
	if r.Status != 202 || r.Data()["status"] != "queued" || r.Data()["downloadUrl"] != nil {
		t.Fatalf("wait false: %s", r)
	}
	r = testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(2)})
	if r.Status != 202 || (r.Data()["status"] != "rendering" && r.Data()["status"] != "queued") {
		t.Fatalf("a wait that runs out: %s", r)
	}
	id := r.Data()["id"].(string)
	deadline := time.Now().Add(30 * time.Second)
	for {
		d := testnode.Do(t, "GET", n.URL+"/v1/documents/"+id, n.Key, nil).Data()
		if d["status"] == "completed" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("document never completed: %v", d)
		}
		time.Sleep(50 * time.Millisecond)
	}

	// A template whose fill fails makes a failed document: 201, a code and a
	// message fit for a user.
	bad := invoiceVersion(true)
	bad["html"] = `{{#each items}}{{asset "missing.png"}}{{/each}}`
	bad["sampleData"] = map[string]any{"number": "S", "items": []any{}}
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates/invoice/versions", n.Key, bad); r.Status != 201 {
		t.Fatal(r)
	}
	r = testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(1), "wait": false})
	id = r.Data()["id"].(string)
	for {
		d := testnode.Do(t, "GET", n.URL+"/v1/documents/"+id, n.Key, nil).Data()
		if d["status"] == "failed" {
			if d["errorCode"] != "TEMPLATE_ERROR" || !strings.Contains(d["message"].(string), "missing.png") || d["downloadUrl"] != nil {
				t.Fatalf("failed document: %v", d)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("document never failed: %v", d)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if r := testnode.Do(t, "GET", n.URL+"/v1/documents/"+id+"/download", n.Key, nil); r.Status != 409 {
		t.Fatalf("download of a failed document: %s", r)
	}
}

func TestRefusalsBeforeRendering(t *testing.T) {
	n := withInvoice(t, nil)
	cases := []struct {
		body   map[string]any
		status int
		field  string
	}{
		{map[string]any{}, 400, "templateId"},
		{map[string]any{"templateId": "nope"}, 404, ""},
		{map[string]any{"templateId": "invoice", "data": map[string]any{"number": "X"}}, 422, "items"},
		{map[string]any{"templateId": "invoice", "data": map[string]any{"number": "X", "items": []any{map[string]any{"description": "d", "price": "1"}}}}, 422, "items[0].price"},
		{map[string]any{"templateId": "invoice", "data": invoiceData(1), "engine": "webkit"}, 400, "engine"},
		{map[string]any{"templateId": "invoice", "data": invoiceData(1), "templateVersion": 7}, 400, "templateVersion"},
		{map[string]any{"templateId": "invoice", "data": invoiceData(1), "filename": "../x.pdf"}, 400, "filename"},
		{map[string]any{"templateId": "invoice", "data": invoiceData(1), "metadata": []any{1}}, 400, "metadata"},
		{map[string]any{"templateId": "invoice", "data": []any{1}}, 400, "data"},
	}
	for _, c := range cases {
		r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, c.body)
		if r.Status != c.status || r.Field() != c.field {
			t.Errorf("%v: got %d field %q, want %d %q: %s", c.body, r.Status, r.Field(), c.status, c.field, r.Body)
		}
	}
	if list := testnode.Do(t, "GET", n.URL+"/v1/documents", n.Key, nil).Data()["items"].([]any); len(list) != 0 {
		t.Fatalf("refused requests made %d documents", len(list))
	}
}

func TestRegenerateUsesTheOriginalVersionAndListingPages(t *testing.T) {
	n := withInvoice(t, nil)
	first := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(1), "correlationId": "c-1"}).Data()
	// Version 2 changes the title and becomes active.
	v2 := invoiceVersion(true)
	v2["html"] = strings.Replace(invoiceHTML, "Invoice {{@root.number}}", "Bill {{@root.number}}", 1)
	testnode.Do(t, "POST", n.URL+"/v1/templates/invoice/versions", n.Key, v2)
	regen := testnode.Do(t, "POST", n.URL+"/v1/documents/"+first["id"].(string)+"/regenerate", n.Key, nil)
	rd := regen.Data()
	if regen.Status != 201 || rd["templateVersion"].(float64) != 1 || rd["regeneratedFrom"] != first["id"] || rd["correlationId"] != "c-1" || rd["id"] == first["id"] {
		t.Fatalf("regenerate: %s", regen)
	}
	_, pdf := download(t, rd["downloadUrl"].(string))
	if text := pdfText(t, pdf); !strings.Contains(text, "Invoice INV-9") || strings.Contains(text, "Bill") {
		t.Fatalf("regenerated with the wrong version:\n%s", text)
	}
	if orig := testnode.Do(t, "GET", n.URL+"/v1/documents/"+first["id"].(string), n.Key, nil).Data(); orig["status"] != "completed" || orig["regeneratedFrom"] != nil {
		t.Fatalf("original changed: %v", orig)
	}
	latest := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(1), "wait": true}).Data()
	if latest["templateVersion"].(float64) != 2 {
		t.Fatalf("new document not on the active version: %v", latest)
	}

	var ids []string
	cursor := ""
	for i := 0; i < 5; i++ {
		r := testnode.Do(t, "GET", n.URL+"/v1/documents?limit=2"+cursor, n.Key, nil)
		for _, it := range r.Data()["items"].([]any) {
			ids = append(ids, it.(map[string]any)["id"].(string))
		}
		next, _ := r.Data()["nextCursor"].(string)
		if next == "" {
			break
		}
		cursor = "&cursor=" + next
	}
	want := []string{latest["id"].(string), rd["id"].(string), first["id"].(string)}
	if strings.Join(ids, ",") != strings.Join(want, ",") {
		t.Fatalf("listing %v, want newest first %v", ids, want)
	}
	if r := testnode.Do(t, "GET", n.URL+"/v1/documents?correlationId=c-1", n.Key, nil); len(r.Data()["items"].([]any)) != 2 {
		t.Fatalf("by correlationId: %s", r)
	}
	if r := testnode.Do(t, "GET", n.URL+"/v1/documents?status=failed", n.Key, nil); len(r.Data()["items"].([]any)) != 0 {
		t.Fatalf("by status: %s", r)
	}
	if r := testnode.Do(t, "GET", n.URL+"/v1/documents?status=done", n.Key, nil); r.Status != 400 || r.Field() != "status" {
		t.Fatalf("bad status: %s", r)
	}
	other := createOrg(t, n, "Other", "starter")
	_, otherKey := createKey(t, n, other, "documents.read", "documents.generate")
	for _, path := range []string{"/v1/documents/" + first["id"].(string), "/v1/documents/" + first["id"].(string) + "/download"} {
		if r := testnode.Do(t, "GET", n.URL+path, otherKey, nil); r.Status != 404 {
			t.Fatalf("another organisation read %s: %s", path, r)
		}
	}
	if r := testnode.Do(t, "POST", n.URL+"/v1/documents/"+first["id"].(string)+"/regenerate", otherKey, nil); r.Status != 404 {
		t.Fatalf("another organisation regenerated: %s", r)
	}
}

func TestPageCapAndTimeBudgetFailTheDocument(t *testing.T) {
	cases := []struct {
		change func(*node.Config)
		code   string
	}{
		{func(c *node.Config) { c.Render.MaxPages = 1 }, "TOO_MANY_PAGES"},
		{func(c *node.Config) { c.Render.Timeout = time.Millisecond }, "RENDER_TIMEOUT"},
	}
	for _, c := range cases {
		n := withInvoice(t, c.change)
		r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(5)})
		if r.Status != 201 || r.Data()["status"] != "failed" || r.Data()["errorCode"] != c.code || r.Data()["message"] == "" {
			t.Errorf("%s: %s", c.code, r)
		}
		// The pool is not stuck: a preview still renders.
		if p := testnode.Do(t, "POST", n.URL+"/v1/templates/invoice/preview", n.Key, map[string]any{"data": invoiceData(1)}); c.code == "TOO_MANY_PAGES" && p.Status != 200 {
			t.Errorf("render after a failed document: HTTP %d", p.Status)
		}
	}
}

func TestFileExpiresAfterRetentionAndTheRecordStays(t *testing.T) {
	var dataDir string
	n := withInvoice(t, func(c *node.Config) { dataDir = c.DataDir })
	d := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(1)}).Data()
	id, link := d["id"].(string), d["downloadUrl"].(string)
	if res, _ := download(t, link); res.StatusCode != 200 {
		t.Fatal("fresh link does not work")
	}
	blobs, _ := filepath.Glob(filepath.Join(dataDir, "blobs", "*", "*"))
	if len(blobs) != 1 {
		t.Fatalf("%d blobs stored", len(blobs))
	}
	if err := n.Sweep(time.Now().Add(29 * 24 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	if r := testnode.Do(t, "GET", n.URL+"/v1/documents/"+id, n.Key, nil); r.Data()["fileExpired"] == true {
		t.Fatal("expired before the retention period")
	}
	if err := n.Sweep(time.Now().Add(31 * 24 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	r := testnode.Do(t, "GET", n.URL+"/v1/documents/"+id, n.Key, nil).Data()
	if r["status"] != "completed" || r["fileExpired"] != true || r["downloadUrl"] != nil || !strings.Contains(r["message"].(string), "retention") {
		t.Fatalf("record after retention: %v", r)
	}
	if res, body := download(t, link); res.StatusCode != 410 || !strings.Contains(string(body), "FILE_EXPIRED") {
		t.Fatalf("old link after retention: %d %s", res.StatusCode, body)
	}
	if r := testnode.Do(t, "GET", n.URL+"/v1/documents/"+id+"/download", n.Key, nil); r.Status != 410 || r.Code() != "FILE_EXPIRED" {
		t.Fatalf("download after retention: %s", r)
	}
	if left, _ := filepath.Glob(filepath.Join(dataDir, "blobs", "*", "*")); len(left) != 0 {
		t.Fatalf("file not deleted: %v", left)
	}
	// Regenerating makes it again.
	if r := testnode.Do(t, "POST", n.URL+"/v1/documents/"+id+"/regenerate", n.Key, nil); r.Status != 201 || r.Data()["downloadUrl"] == nil {
		t.Fatalf("regenerate after expiry: %s", r)
	}
}

func TestFullQueueAnswersOverloaded(t *testing.T) {
	n := withInvoice(t, func(c *node.Config) { c.DocumentQueue = 1; c.RenderPages = 1 })
	// The slow document has 200 pages: more than the sandbox's allowance.
	testnode.Do(t, "PUT", n.URL+"/admin/v1/plans/sandbox", n.OperatorToken, map[string]any{"monthlyPages": 100000})
	slow := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(600), "wait": false})
	if slow.Status != 202 {
		t.Fatal(slow)
	}
	r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(1), "wait": false})
	if r.Status != 503 || r.Code() != "OVERLOADED" || r.Header.Get("Retry-After") == "" {
		t.Fatalf("second document with a queue of one: %s", r)
	}
	list := testnode.Do(t, "GET", n.URL+"/v1/documents", n.Key, nil).Data()["items"].([]any)
	if len(list) != 1 {
		t.Fatalf("the refused request made a document: %d documents", len(list))
	}
}
