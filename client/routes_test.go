package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestOperationsMatchTheOpenAPIDocument walks the client's operation table
// against /v1/openapi.json of a running node: an operation of the API the
// client lacks, or one the client calls that the API lacks, fails.
func TestOperationsMatchTheOpenAPIDocument(t *testing.T) {
	_, c := startNode(t, nil)
	raw, err := c.OpenAPI(ctxFor(t, 10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	api := map[string]bool{}
	for path, methods := range doc.Paths {
		if path != "/v1" && !strings.HasPrefix(path, "/v1/") {
			continue
		}
		for m := range methods {
			switch m {
			case "get", "post", "put", "patch", "delete":
				api[strings.ToUpper(m)+" "+path] = true
			}
		}
	}
	ours := map[string]bool{}
	for _, op := range operations {
		ours[op.Method+" "+op.Path] = true
	}
	for k := range api {
		if !ours[k] {
			t.Errorf("the API has %s; the client has no call for it", k)
		}
	}
	for k := range ours {
		if !api[k] {
			t.Errorf("the client calls %s; the API's OpenAPI document has no such operation", k)
		}
	}
	if len(api) < 30 {
		t.Fatalf("only %d operations under /v1 in the OpenAPI document: did its shape change?", len(api))
	}
}

// sent records the operations the client sends.
type sent struct {
	mu  sync.Mutex
	ops map[operation]int
}

func recordOperations(t *testing.T) *sent {
	s := &sent{ops: map[operation]int{}}
	onSend = func(op operation) {
		s.mu.Lock()
		s.ops[op]++
		s.mu.Unlock()
	}
	t.Cleanup(func() { onSend = nil })
	return s
}

// TestEveryRouteThroughTheClient calls every operation of the client
// against a real node and checks what comes back, its types decoded
// strictly (a field they lack fails). It then checks that every operation
// of the table was sent.
func TestEveryRouteThroughTheClient(t *testing.T) {
	rec := recordOperations(t)
	hooks := make(chan *WebhookEvent, 16)
	var secret struct {
		sync.Mutex
		s string
	}
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request) {
		secret.Lock()
		s := secret.s
		secret.Unlock()
		ev, err := ParseWebhook(r, s)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		hooks <- ev
		fmt.Fprint(w, "ok")
	})
	n, c := startNode(t, rc.trusting)
	ctx := ctxFor(t, 3*time.Minute)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}

	// The index and the OpenAPI document.
	ix, err := c.Index(ctx)
	must(err)
	if ix.OrganisationID != n.OrgID || len(ix.Operations) == 0 || len(ix.Scopes) == 0 {
		t.Fatalf("index: %+v", ix)
	}

	spec, err := c.OpenAPI(ctx)
	must(err)
	if !json.Valid(spec) || !bytes.Contains(spec, []byte(`"openapi"`)) {
		t.Fatalf("openapi: %.100s", spec)
	}

	// Templates.
	lib, err := c.Templates.Library(ctx)
	must(err)
	if len(lib) == 0 || !slices.ContainsFunc(lib, func(s Starter) bool { return s.Slug == "invoice" }) {
		t.Fatalf("library: %+v", lib)
	}
	png, err := c.Templates.StarterThumbnail(ctx, "invoice")
	must(err)
	if !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Fatalf("thumbnail is not a PNG: %q", png[:min(len(png), 16)])
	}
	inv, err := c.Templates.CopyStarter(ctx, "invoice", CopyStarterRequest{Slug: "my-invoice", Name: "My invoice"})
	must(err)
	if inv.Slug != "my-invoice" || inv.ActiveVersion != 1 || inv.CopiedFrom != "invoice" {
		t.Fatalf("copy: %+v", inv)
	}
	tpl := helloTemplate(t, c, "hello")
	if tpl.ActiveVersion != 1 || tpl.Kind != "written" {
		t.Fatalf("create: %+v", tpl)
	}
	got, err := c.Templates.Get(ctx, "hello")
	must(err)
	if got.ID != tpl.ID {
		t.Fatalf("get by slug: %+v", got)
	}
	page, err := c.Templates.List(ctx, ListTemplatesParams{Limit: 1})
	must(err)
	if len(page.Items) != 1 || page.NextCursor == "" {
		t.Fatalf("list of one: %+v", page)
	}
	page2, err := c.Templates.List(ctx, ListTemplatesParams{Limit: 1, Cursor: page.NextCursor})
	must(err)
	if len(page2.Items) != 1 || page2.Items[0].ID == page.Items[0].ID {
		t.Fatalf("second page: %+v", page2)
	}
	upd, err := c.Templates.Update(ctx, "hello", UpdateTemplateRequest{Description: String("says hello")})
	must(err)
	if upd.Description != "says hello" {
		t.Fatalf("update: %+v", upd)
	}
	v2, err := c.Templates.CreateVersion(ctx, tpl.ID, VersionRequest{VersionSource: VersionSource{
		HTML: "<h1>Hi {{name}}</h1><p>Order {{order}}</p>", SampleData: []byte(`{"name": "Sample", "order": "S-2"}`),
	}})
	must(err)
	if v2.Version != 2 || v2.Active || v2.Engine == nil || v2.Engine.Engine == "" {
		t.Fatalf("version 2: %+v", v2)
	}
	vs, err := c.Templates.ListVersions(ctx, tpl.ID)
	must(err)
	if len(vs) != 2 || vs[0].Version != 2 {
		t.Fatalf("versions: %+v", vs)
	}
	v1, err := c.Templates.GetVersion(ctx, tpl.ID, 1)
	must(err)
	if !strings.Contains(v1.HTML, "Hello") || !v1.Active {
		t.Fatalf("version 1: %+v", v1)
	}
	act, err := c.Templates.ActivateVersion(ctx, tpl.ID, 2)
	must(err)
	if act.ActiveVersion != 2 {
		t.Fatalf("activate: %+v", act)
	}
	pv, err := c.Templates.Preview(ctx, "hello", PreviewRequest{Data: map[string]any{"name": "Preview", "order": "P-1"}})
	must(err)
	if !bytes.HasPrefix(pv.Content, []byte("%PDF")) || pv.Pages != 1 || pv.Engine == "" || !strings.HasPrefix(pv.ContentType, "application/pdf") {
		t.Fatalf("preview: %d bytes, %+v", len(pv.Content), pv)
	}
	pp, err := c.Templates.Preview(ctx, "hello", PreviewRequest{Draft: &VersionSource{HTML: "<p>draft {{x}}</p>", SampleData: []byte(`{"x": 1}`)}, Format: "png", Width: 200})
	must(err)
	if !bytes.HasPrefix(pp.Content, []byte("\x89PNG")) || pp.Page != 1 {
		t.Fatalf("png preview: %+v", pp.Page)
	}
	_, err = c.Templates.Preview(ctx, "hello", PreviewRequest{Draft: &VersionSource{HTML: "{{#each}}"}})
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.Status != 400 || apiErr.Field == "" {
		t.Fatalf("a broken draft: %v", err)
	}

	// A template from a PDF.
	pdf, err := os.ReadFile("../pdftemplate/testdata/chromium-invoice.pdf")
	must(err)
	pt, err := c.Templates.UploadPDF(ctx, UploadPDFRequest{File: bytes.NewReader(pdf), Filename: "invoice.pdf", Name: "Uploaded", Slug: "uploaded"})
	must(err)
	if pt.Kind != "pdf" || len(pt.Pieces) == 0 || pt.Source == nil || pt.Source.PieceCount != len(pt.Pieces) {
		t.Fatalf("upload: kind %q, %d pieces, source %+v", pt.Kind, len(pt.Pieces), pt.Source)
	}
	pcs, err := c.Templates.Pieces(ctx, "uploaded", 1)
	must(err)
	if len(pcs.Items) == 0 || len(pcs.Pages) == 0 {
		t.Fatalf("pieces: %+v", pcs)
	}
	img, err := c.Templates.PageImage(ctx, "uploaded", 1, 0)
	must(err)
	if !bytes.HasPrefix(img, []byte("\x89PNG")) {
		t.Fatal("page 1 is not a PNG")
	}

	// Webhooks: registered here so the document below is delivered.
	wh, err := c.Webhooks.Create(ctx, CreateWebhookRequest{Name: "test", URL: rc.URL + "/hook", Events: []string{"document.completed"}})
	must(err)
	if !strings.HasPrefix(wh.SigningSecret, "whsec_") || !wh.Enabled {
		t.Fatalf("webhook: %+v", wh)
	}
	secret.Lock()
	secret.s = wh.SigningSecret
	secret.Unlock()
	whs, err := c.Webhooks.List(ctx)
	must(err)
	if len(whs) != 1 || whs[0].SigningSecret != "" {
		t.Fatalf("webhooks: %+v", whs)
	}
	ping, err := c.Webhooks.Ping(ctx, wh.ID)
	must(err)
	if ping.Status != 200 || ping.Body != "ok" {
		t.Fatalf("ping: %+v", ping)
	}
	if ev := <-hooks; ev.Event != "ping" {
		t.Fatalf("the ping came as %+v", ev)
	}

	// Documents.
	doc, err := c.Documents.Create(ctx, DocumentRequest{
		TemplateID: "hello", Data: map[string]any{"name": "Ada", "order": "A-1"},
		CorrelationID: "order-1", Metadata: map[string]any{"customer": "c_1"},
	})
	must(err)
	if doc.Status != StatusCompleted || doc.PageCount != 1 || doc.DownloadURL == "" || doc.Metadata["customer"] != "c_1" || doc.TemplateVersion != 2 {
		t.Fatalf("document: %+v", doc)
	}
	ev := <-hooks
	de, err := ev.Document()
	must(err)
	if ev.Event != "document.completed" || de.ID != doc.ID || de.URL == "" {
		t.Fatalf("webhook for the document: %+v %+v", ev, de)
	}
	d2, err := c.Documents.Get(ctx, doc.ID)
	must(err)
	if d2.ID != doc.ID || d2.DownloadURL == "" {
		t.Fatalf("get: %+v", d2)
	}
	l, err := c.Documents.DownloadLink(ctx, doc.ID, LinkTTL(2*time.Minute))
	must(err)
	if until := time.Until(l.ExpiresAt); until > 2*time.Minute || until < time.Minute {
		t.Fatalf("link expires in %s, want about 2 minutes", until)
	}
	var buf bytes.Buffer
	nb, err := c.Documents.Download(ctx, doc.ID, &buf)
	must(err)
	if nb != doc.ByteSize || !bytes.HasPrefix(buf.Bytes(), []byte("%PDF")) {
		t.Fatalf("downloaded %d bytes, the record says %d", nb, doc.ByteSize)
	}
	thumb, err := c.Documents.Thumbnail(ctx, doc.ID)
	must(err)
	if !bytes.HasPrefix(thumb, []byte("\x89PNG")) {
		t.Fatalf("thumbnail: %.20q", thumb)
	}
	data, err := c.Documents.Data(ctx, doc.ID)
	must(err)
	if !bytes.Contains(data, []byte(`"name"`)) {
		t.Fatalf("the document's data: %s", data)
	}
	if doc.Charge == nil || doc.Charge.AllowancePages+doc.Charge.WalletPages != int64(doc.PageCount) {
		t.Fatalf("the document's charge: %+v (%d pages)", doc.Charge, doc.PageCount)
	}
	re, err := c.Documents.Regenerate(ctx, doc.ID, RegenerateRequest{})
	must(err)
	if re.ID == doc.ID || re.RegeneratedFrom != doc.ID || re.Status != StatusCompleted {
		t.Fatalf("regenerate: %+v", re)
	}
	<-hooks
	// An e-invoice: its conformance report, and the XML its PDF embeds.
	if _, err := c.Templates.CopyStarter(ctx, "e-invoice", CopyStarterRequest{Slug: "einv"}); err != nil {
		t.Fatal(err)
	}
	einv, err := c.Documents.Create(ctx, DocumentRequest{TemplateID: "einv", Data: einvoiceSample(t, c)})
	must(err)
	if cf := einv.Report.Conformance; cf == nil || cf.Failed != 0 || cf.EInvoice == nil || cf.EInvoice.File != "factur-x.xml" {
		t.Fatalf("e-invoice conformance: %+v", einv.Report.Conformance)
	}
	x, err := c.Documents.EInvoiceXML(ctx, einv.ID)
	must(err)
	if !bytes.Contains(x, []byte("<rsm:CrossIndustryInvoice")) {
		t.Fatalf("e-invoice XML: %.200s", x)
	}
	<-hooks
	queued, err := c.Documents.Create(ctx, DocumentRequest{TemplateID: "hello", Data: map[string]any{"name": "Bo", "order": "B-2"}, Wait: Bool(false)})
	must(err)
	if queued.Status != StatusQueued {
		t.Fatalf("wait false: %+v", queued)
	}
	if r := doc.Report; r == nil || r.Engine != doc.Engine || r.Bytes != doc.ByteSize || len(r.SHA256) != 64 || r.Fonts == nil || r.Ms == nil || r.FailedAt != "" {
		t.Fatalf("the document's report: %+v", doc.Report)
	}
	q, err := c.Documents.Quote(ctx, DocumentRequest{TemplateID: "hello", Data: map[string]any{"name": "Quo", "order": "Q-1"}})
	must(err)
	// A sandbox has no wallet: every page counts against the allowance.
	if q.PageCount != 1 || q.AllowancePages != 1 || q.WalletMicros != 0 || !q.Payable || q.Report == nil || q.Report.Engine == "" || len(q.Report.SHA256) != 64 || q.Report.Ms == nil || q.Report.Ms.Queued != 0 || q.Report.Ms.Storing != 0 {
		t.Fatalf("quote: %+v, report %+v", q, q.Report)
	}
	_, err = c.Documents.Quote(ctx, DocumentRequest{TemplateID: "my-invoice", Data: map[string]any{}})
	if !errors.As(err, &apiErr) || apiErr.Code != CodePayloadValidationFailed || apiErr.Field != "customer" {
		t.Fatalf("a dry run against the schema: %v", err)
	}
	dl, err := c.Documents.List(ctx, ListDocumentsParams{CorrelationID: "order-1"})
	must(err)
	if len(dl.Items) != 2 || dl.Items[0].ID != re.ID || dl.Items[1].ID != doc.ID || dl.NextCursor != "" {
		t.Fatalf("list by correlation (a regenerated document keeps it): %+v", dl)
	}
	var all []string
	for d, err := range c.Documents.All(ctx, ListDocumentsParams{Limit: 1}) {
		must(err)
		all = append(all, d.ID)
	}
	if len(all) != 4 || all[0] != queued.ID { // hello, its regeneration, the e-invoice, the queued one
		t.Fatalf("all documents, newest first (a dry run makes none): %v", all)
	}
	st, err := c.Documents.Stats(ctx, 7)
	must(err)
	if len(st.Days) != 7 || st.Total.Completed+st.Total.Pending+st.Total.Failed != 4 {
		t.Fatalf("stats: %+v", st)
	}
	_, err = c.Documents.Create(ctx, DocumentRequest{TemplateID: "nope"})
	if !errors.As(err, &apiErr) || apiErr.Status != 404 || apiErr.Code != CodeNotFound {
		t.Fatalf("an unknown template: %v", err)
	}

	// Deliveries and the rest of the endpoint's routes.
	ds, err := c.Webhooks.Deliveries(ctx, wh.ID, ListParams{Limit: 1})
	must(err)
	if len(ds.Items) != 1 || ds.NextCursor == "" || ds.Items[0].Event != "document.completed" {
		t.Fatalf("deliveries: %+v", ds)
	}
	off, err := c.Webhooks.Update(ctx, wh.ID, UpdateWebhookRequest{Name: String("renamed"), Events: &[]string{"document.failed"}})
	must(err)
	if off.Name != "renamed" || !slices.Equal(off.Events, []string{"document.failed"}) {
		t.Fatalf("update: %+v", off)
	}
	g, err := c.Webhooks.Get(ctx, wh.ID)
	must(err)
	if g.Name != "renamed" {
		t.Fatalf("get: %+v", g)
	}
	must(c.Webhooks.Delete(ctx, wh.ID))
	if _, err := c.Webhooks.Get(ctx, wh.ID); !errors.As(err, &apiErr) || apiErr.Code != CodeNotFound {
		t.Fatalf("a deleted endpoint: %v", err)
	}

	// Archive and restore.
	arch, err := c.Templates.Archive(ctx, "my-invoice")
	must(err)
	if arch.ArchivedAt == nil {
		t.Fatalf("archive: %+v", arch)
	}
	archived, err := c.Templates.List(ctx, ListTemplatesParams{Archived: true})
	must(err)
	if len(archived.Items) != 1 || archived.Items[0].ID != inv.ID {
		t.Fatalf("archived: %+v", archived)
	}
	if _, err := c.Templates.Update(ctx, "my-invoice", UpdateTemplateRequest{Archived: Bool(false)}); err != nil {
		t.Fatal(err)
	}

	// The wallet, once documents have been charged.
	w, err := c.Wallet.Get(ctx)
	must(err)
	if w.Plan.Name == "" || w.Allowance.UsedPages < 2 {
		t.Fatalf("wallet: %+v", w)
	}
	lp, err := c.Wallet.Ledger(ctx, LedgerParams{Limit: 5})
	must(err)
	if len(lp.Items) > 5 {
		t.Fatalf("ledger: %+v", lp)
	}
	us, err := c.Wallet.Usage(ctx, 2)
	must(err)
	if len(us) != 2 || us[0].Documents < 2 {
		t.Fatalf("usage: %+v", us)
	}

	// Keys: a key gives only scopes it holds.
	k, err := c.Keys.Create(ctx, CreateKeyRequest{Name: "reader", Scopes: []string{"documents.read"}})
	must(err)
	if !strings.HasPrefix(k.Key, "plt_") || !slices.Equal(k.Scopes, []string{"documents.read"}) {
		t.Fatalf("key: %+v", k)
	}
	reader := New(n.URL, k.Key)
	if _, err := reader.Documents.Get(ctx, doc.ID); err != nil {
		t.Fatal(err)
	}
	_, err = reader.Keys.Create(ctx, CreateKeyRequest{Name: "more", Scopes: []string{"documents.generate"}})
	if !errors.As(err, &apiErr) || apiErr.Status != 403 {
		t.Fatalf("a key asking for more than it holds: %v", err)
	}
	keys, err := c.Keys.List(ctx)
	must(err)
	if len(keys) != 2 || keys[0].ID != k.ID || keys[0].Key != "" {
		t.Fatalf("keys, newest first: %+v", keys)
	}
	rk, err := c.Keys.Revoke(ctx, k.ID)
	must(err)
	if rk.RevokedAt == nil {
		t.Fatalf("revoked: %+v", rk)
	}
	if _, err := reader.Documents.Get(ctx, doc.ID); !errors.As(err, &apiErr) || apiErr.Code != CodeUnauthenticated {
		t.Fatalf("a revoked key: %v", err)
	}

	checkEveryOperationSent(t, rec)
}

// untested are operations other tests exercise; the walk above leaves them.
var untested = map[operation]string{
	opRealtime:          "realtime_test.go",
	opCreateCertificate: "signing_test.go",
	opListCertificates:  "signing_test.go",
	opGetCertificate:    "signing_test.go",
	opDeleteCertificate: "signing_test.go",
}

func checkEveryOperationSent(t *testing.T, rec *sent) {
	t.Helper()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var missing []string
	for _, op := range operations {
		if rec.ops[op] == 0 && untested[op] == "" {
			missing = append(missing, op.Method+" "+op.Path)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("operations never called through the client: %s", strings.Join(missing, ", "))
	}
}

// einvoiceSample is the e-invoice starter's sample data, from the library.
func einvoiceSample(t *testing.T, c *Client) json.RawMessage {
	t.Helper()
	lib, err := c.Templates.Library(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range lib {
		if s.Slug == "e-invoice" {
			return s.SampleData
		}
	}
	t.Fatal("the library has no e-invoice starter")
	return nil
}
