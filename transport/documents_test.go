package transport_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/platen/platen/internal/poll"
	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/internal/tier"
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

// getDocument reads a document's record.
func getDocument(t *testing.T, n *testnode.Node, id string) testnode.Document {
	t.Helper()
	return testnode.DataAs[testnode.Document](t, testnode.Do(t, "GET", n.URL+"/v1/documents/"+id, n.Key, nil))
}

// listDocuments reads a page of the documents listing; query starts with "?".
func listDocuments(t *testing.T, n *testnode.Node, key, query string) testnode.List[testnode.Document] {
	t.Helper()
	return testnode.DataAs[testnode.List[testnode.Document]](t, testnode.Do(t, "GET", n.URL+"/v1/documents"+query, key, nil))
}

// sameTime says whether two optional times are both absent or both the same.
func sameTime(a, b *time.Time) bool {
	return a == nil && b == nil || a != nil && b != nil && a.Equal(*b)
}

func TestGenerateWaitsAndDownloads(t *testing.T) {
	n := withInvoice(t, nil)
	r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{
		"templateId": "invoice", "data": invoiceData(5), "correlationId": "order-42",
		"metadata": map[string]any{"customer": "c_9", "tags": []any{"a", 1.5}}, "filename": "march invoice",
	})
	if r.Status != 201 {
		t.Fatalf("generate: %s", r)
	}
	d := testnode.DataAs[testnode.Document](t, r)
	if d.Status != "completed" || d.PageCount != 2 || d.TemplateVersion != 1 {
		t.Fatalf("generate: %s", r)
	}
	if d.CorrelationID != "order-42" || d.Filename != "march invoice.pdf" || d.Engine != "phantom" || d.ByteSize < 1000 {
		t.Fatalf("record fields: %+v", d)
	}
	if m := testnode.Decode[struct {
		Customer string `json:"customer"`
		Tags     []any  `json:"tags"`
	}](t, d.Metadata); m.Customer != "c_9" || len(m.Tags) != 2 {
		t.Fatalf("metadata not returned untouched: %s", d.Metadata)
	}
	if !d.Watermarked || !strings.Contains(r.Message(), "2 pages") {
		t.Fatalf("sandbox document not watermarked, or no page count in the message: %s", r)
	}
	res, pdf := download(t, d.DownloadURL)
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
	id := d.ID
	time.Sleep(1100 * time.Millisecond)
	again := getDocument(t, n, id)
	if again.DownloadURL == d.DownloadURL || sameTime(again.DownloadURLExpiresAt, d.DownloadURLExpiresAt) {
		t.Fatal("the fetched record's link is not fresh")
	}

	// The download endpoint mints a link of the asked lifetime and counts it.
	dl := testnode.Do(t, "GET", n.URL+"/v1/documents/"+id+"/download?ttlSeconds=60", n.Key, nil)
	if dl.Status != 200 {
		t.Fatalf("download link: %s", dl)
	}
	minted := testnode.DataAs[testnode.Link](t, dl)
	exp := minted.ExpiresAt
	if left := time.Until(exp); left > 61*time.Second || left < 55*time.Second {
		t.Fatalf("download link: %s", dl)
	}
	if got := getDocument(t, n, id).Downloads; got != 1 {
		t.Fatalf("downloads %v, want 1", got)
	}
	for _, q := range []string{"30", "604801", "abc"} {
		if r := testnode.Do(t, "GET", n.URL+"/v1/documents/"+id+"/download?ttlSeconds="+q, n.Key, nil); r.Status != 400 || r.Field() != "ttlSeconds" {
			t.Fatalf("ttlSeconds=%s: %s", q, r)
		}
	}

	// Tampered and expired links are refused; the link needs no key.
	link, _ := url.Parse(minted.URL)
	q := link.Query()
	q.Set("expires", fmt.Sprint(exp.Unix()+3600))
	link.RawQuery = q.Encode()
	if res, _ := download(t, link.String()); res.StatusCode != 403 {
		t.Fatalf("a link with a changed expiry: %d", res.StatusCode)
	}
	other := strings.Replace(minted.URL, id, "doc_01m7zmwnmpk2psb5y8n9tq3dsb", 1)
	if res, _ := download(t, other); res.StatusCode != 403 {
		t.Fatalf("a link moved to another document: %d", res.StatusCode)
	}
}

// TestLinksExpire checks a link the node signed for a time now past.
func TestLinksExpire(t *testing.T) {
	n := withInvoice(t, nil)
	d := testnode.DataAs[testnode.Document](t, testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(1)}))
	past := n.Links().Mint(d.ID, "x.pdf", time.Now().Add(-time.Second))
	res, body := download(t, past)
	if res.StatusCode != 410 || !strings.Contains(string(body), "LINK_EXPIRED") {
		t.Fatalf("expired link: %d %s", res.StatusCode, body)
	}
	fresh := n.Links().Mint(d.ID, "x.pdf", time.Now().Add(time.Minute))
	if res, _ := download(t, fresh); res.StatusCode != 200 {
		t.Fatalf("a fresh link signed the same way: %d", res.StatusCode)
	}
}

func TestWaitFalseTimeoutAndFailure(t *testing.T) {
	n := withInvoice(t, func(c *node.Config) { c.WaitTimeout = time.Millisecond })
	r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(2), "wait": false})
	if r.Status != 202 {
		t.Fatalf("wait false: %s", r)
	}
	if d := testnode.DataAs[testnode.Document](t, r); d.Status != "queued" || d.DownloadURL != "" {
		t.Fatalf("wait false: %s", r)
	}
	r = testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(2)})
	if r.Status != 202 {
		t.Fatalf("a wait that runs out: %s", r)
	}
	d := testnode.DataAs[testnode.Document](t, r)
	if d.Status != "rendering" && d.Status != "queued" {
		t.Fatalf("a wait that runs out: %s", r)
	}
	id := d.ID
	poll.Until(t, 30*time.Second, func() error {
		if d := getDocument(t, n, id); d.Status != "completed" {
			return fmt.Errorf("document never completed: %+v", d)
		}
		return nil
	})

	// A template whose fill fails makes a failed document: 201, a code and a
	// message fit for a user.
	bad := invoiceVersion(true)
	bad["html"] = `{{#each items}}{{asset "missing.png"}}{{/each}}`
	bad["sampleData"] = map[string]any{"number": "S", "items": []any{}}
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates/invoice/versions", n.Key, bad); r.Status != 201 {
		t.Fatal(r)
	}
	r = testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(1), "wait": false})
	id = testnode.DataAs[testnode.Document](t, r).ID
	poll.Until(t, 30*time.Second, func() error {
		if d = getDocument(t, n, id); d.Status != "failed" {
			return fmt.Errorf("document never failed: %+v", d)
		}
		return nil
	})
	if d.ErrorCode != "TEMPLATE_ERROR" || !strings.Contains(d.Message, "missing.png") || d.DownloadURL != "" {
		t.Fatalf("failed document: %+v", d)
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
		{map[string]any{"templateId": "nope"}, 404, "templateId"},
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
	if list := listDocuments(t, n, n.Key, "").Items; len(list) != 0 {
		t.Fatalf("refused requests made %d documents", len(list))
	}
	// A slug one typo away is suggested; one far from any is not.
	r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoce"})
	if r.Status != 404 || r.Field() != "templateId" || !strings.Contains(r.Problem().Message, `did you mean "invoice"?`) {
		t.Errorf("a typo in templateId: %s", r)
	}
	if r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "nope"}); strings.Contains(r.Problem().Message, "did you mean") {
		t.Errorf("a suggestion for a slug far from any: %s", r)
	}
}

func TestRegenerateUsesTheOriginalVersionAndListingPages(t *testing.T) {
	n := withInvoice(t, nil)
	first := testnode.DataAs[testnode.Document](t, testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(1), "correlationId": "c-1"}))
	// Version 2 changes the title and becomes active.
	v2 := invoiceVersion(true)
	v2["html"] = strings.Replace(invoiceHTML, "Invoice {{@root.number}}", "Bill {{@root.number}}", 1)
	testnode.Do(t, "POST", n.URL+"/v1/templates/invoice/versions", n.Key, v2)
	regen := testnode.Do(t, "POST", n.URL+"/v1/documents/"+first.ID+"/regenerate", n.Key, nil)
	if regen.Status != 201 {
		t.Fatalf("regenerate: %s", regen)
	}
	rd := testnode.DataAs[testnode.Document](t, regen)
	if rd.TemplateVersion != 1 || rd.RegeneratedFrom != first.ID || rd.CorrelationID != "c-1" || rd.ID == first.ID {
		t.Fatalf("regenerate: %s", regen)
	}
	_, pdf := download(t, rd.DownloadURL)
	if text := pdfText(t, pdf); !strings.Contains(text, "Invoice INV-9") || strings.Contains(text, "Bill") {
		t.Fatalf("regenerated with the wrong version:\n%s", text)
	}
	if orig := getDocument(t, n, first.ID); orig.Status != "completed" || orig.RegeneratedFrom != "" {
		t.Fatalf("original changed: %+v", orig)
	}
	latest := testnode.DataAs[testnode.Document](t, testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(1), "wait": true}))
	if latest.TemplateVersion != 2 {
		t.Fatalf("new document not on the active version: %+v", latest)
	}

	var ids []string
	cursor := ""
	for i := 0; i < 5; i++ {
		page := listDocuments(t, n, n.Key, "?limit=2"+cursor)
		for _, it := range page.Items {
			ids = append(ids, it.ID)
		}
		if page.NextCursor == nil || *page.NextCursor == "" {
			break
		}
		cursor = "&cursor=" + *page.NextCursor
	}
	want := []string{latest.ID, rd.ID, first.ID}
	if strings.Join(ids, ",") != strings.Join(want, ",") {
		t.Fatalf("listing %v, want newest first %v", ids, want)
	}
	if r := testnode.Do(t, "GET", n.URL+"/v1/documents?correlationId=c-1", n.Key, nil); len(testnode.DataAs[testnode.List[testnode.Document]](t, r).Items) != 2 {
		t.Fatalf("by correlationId: %s", r)
	}
	if r := testnode.Do(t, "GET", n.URL+"/v1/documents?status=failed", n.Key, nil); len(testnode.DataAs[testnode.List[testnode.Document]](t, r).Items) != 0 {
		t.Fatalf("by status: %s", r)
	}
	if r := testnode.Do(t, "GET", n.URL+"/v1/documents?status=done", n.Key, nil); r.Status != 400 || r.Field() != "status" {
		t.Fatalf("bad status: %s", r)
	}
	other := createOrg(t, n, "Other", "starter")
	_, otherKey := createKey(t, n, other, "documents.read", "documents.generate")
	for _, path := range []string{"/v1/documents/" + first.ID, "/v1/documents/" + first.ID + "/download"} {
		if r := testnode.Do(t, "GET", n.URL+path, otherKey, nil); r.Status != 404 {
			t.Fatalf("another organisation read %s: %s", path, r)
		}
	}
	if r := testnode.Do(t, "POST", n.URL+"/v1/documents/"+first.ID+"/regenerate", otherKey, nil); r.Status != 404 {
		t.Fatalf("another organisation regenerated: %s", r)
	}
}

func TestPageCapAndTimeBudgetFailTheDocument(t *testing.T) {
	tier.Full(t, "renders a document past the page cap and one past its time budget")
	cases := []struct {
		change func(*node.Config)
		code   string
	}{
		{func(c *node.Config) { c.Render.MaxPages = 1 }, "TOO_MANY_PAGES"},
		{func(c *node.Config) { c.Render.Timeout, c.Render.PreviewTimeout = time.Millisecond, time.Millisecond }, "RENDER_TIMEOUT"},
	}
	for _, c := range cases {
		n := withInvoice(t, c.change)
		r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(5)})
		if r.Status != 201 {
			t.Errorf("%s: %s", c.code, r)
		} else if d := testnode.DataAs[testnode.Document](t, r); d.Status != "failed" || d.ErrorCode != c.code || d.Message == "" {
			t.Errorf("%s: %s", c.code, r)
		}
		// The pool is not stuck: a preview still renders.
		if p := testnode.Do(t, "POST", n.URL+"/v1/templates/invoice/preview", n.Key, map[string]any{"data": invoiceData(1)}); c.code == "TOO_MANY_PAGES" && p.Status != 200 {
			t.Errorf("render after a failed document: HTTP %d", p.Status)
		}
	}
}

// blobsHolding counts the files in a node's blob folder that hold a PDF's
// bytes: its own file, or a pack.
func blobsHolding(t *testing.T, dataDir string, pdf []byte) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(filepath.Join(dataDir, "blobs"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		content, err := os.ReadFile(p)
		if bytes.Contains(content, pdf) {
			n++
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestFileExpiresAfterRetentionAndTheRecordStays(t *testing.T) {
	var dataDir string
	n := withInvoice(t, func(c *node.Config) { dataDir = c.DataDir })
	d := testnode.DataAs[testnode.Document](t, testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "invoice", "data": invoiceData(1)}))
	id, link := d.ID, d.DownloadURL
	res, pdf := download(t, link)
	if res.StatusCode != 200 {
		t.Fatal("fresh link does not work")
	}
	if n := blobsHolding(t, dataDir, pdf); n != 1 {
		t.Fatalf("%d files hold the PDF", n)
	}
	if err := n.Sweep(time.Now().Add(29 * 24 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	if getDocument(t, n, id).FileExpired {
		t.Fatal("expired before the retention period")
	}
	if err := n.Sweep(time.Now().Add(31 * 24 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	if rec := getDocument(t, n, id); rec.Status != "completed" || !rec.FileExpired || rec.DownloadURL != "" || !strings.Contains(rec.Message, "retention") {
		t.Fatalf("record after retention: %+v", rec)
	}
	if res, body := download(t, link); res.StatusCode != 410 || !strings.Contains(string(body), "FILE_EXPIRED") {
		t.Fatalf("old link after retention: %d %s", res.StatusCode, body)
	}
	if r := testnode.Do(t, "GET", n.URL+"/v1/documents/"+id+"/download", n.Key, nil); r.Status != 410 || r.Code() != "FILE_EXPIRED" {
		t.Fatalf("download after retention: %s", r)
	}
	if n := blobsHolding(t, dataDir, pdf); n != 0 {
		t.Fatalf("the PDF's bytes are still in %d files after retention", n)
	}
	// Regenerating makes it again.
	if r := testnode.Do(t, "POST", n.URL+"/v1/documents/"+id+"/regenerate", n.Key, nil); r.Status != 201 || testnode.DataAs[testnode.Document](t, r).DownloadURL == "" {
		t.Fatalf("regenerate after expiry: %s", r)
	}
}

func TestFullQueueAnswersOverloaded(t *testing.T) {
	tier.Full(t, "fills the render queue")
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
	list := listDocuments(t, n, n.Key, "").Items
	if len(list) != 1 {
		t.Fatalf("the refused request made a document: %d documents", len(list))
	}
}
