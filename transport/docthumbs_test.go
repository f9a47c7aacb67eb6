package transport_test

import (
	"bytes"
	"encoding/json"
	"image/png"
	"io"
	"net/http"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/platen/platen/internal/testnode"
)

// TestDocumentsAsDocuments: a completed document says what it cost (pages
// from the allowance, pages from the wallet, their price), answers the data
// it was made from, and its first page as a picture that the browser may
// keep and revalidate; a key without documents.read gets none of them.
func TestDocumentsAsDocuments(t *testing.T) {
	n := testnode.Start(t, nil)
	org, key := paidOrg(t, n, 1, 5000)
	credit(t, n, org, 20000, "topup-thumb")
	_, reader := createKey(t, n, org, "documents.read")
	_, walletOnly := createKey(t, n, org, "wallet.read")

	var docs []testnode.Document
	for i := range 2 {
		data := invoiceData(1 + i*3) // one page, then two
		r := testnode.Do(t, "POST", n.URL+"/v1/documents", key, map[string]any{"templateId": "invoice", "data": data})
		d := testnode.DataAs[testnode.Document](t, r)
		if r.Status != 201 || d.Status != "completed" {
			t.Fatalf("generate: %s", r)
		}
		docs = append(docs, d)

		got := testnode.Do(t, "GET", n.URL+"/v1/documents/"+d.ID+"/data", reader, nil)
		var back struct{ Data map[string]any }
		want, _ := json.Marshal(data)
		var sent map[string]any
		_ = json.Unmarshal(want, &sent)
		if err := json.Unmarshal(got.Body, &back); got.Status != 200 || err != nil || !reflect.DeepEqual(back.Data, sent) {
			t.Fatalf("the data of %s: %s", d.ID, got)
		}
	}
	// The allowance is one page: the first document takes it, the second
	// pays both of its pages from the wallet.
	first := testnode.DataAs[testnode.Document](t, testnode.Do(t, "GET", n.URL+"/v1/documents/"+docs[0].ID, reader, nil))
	second := testnode.DataAs[testnode.Document](t, testnode.Do(t, "GET", n.URL+"/v1/documents/"+docs[1].ID, reader, nil))
	if c := first.Charge; c == nil || c.AllowancePages != 1 || c.WalletPages != 0 || c.Micros != 0 {
		t.Errorf("the first document's charge: %+v", c)
	}
	if c := second.Charge; second.PageCount != 2 || c == nil || c.AllowancePages != 0 || c.WalletPages != 2 || c.Micros != 10000 {
		t.Errorf("the second document (%d pages) charge: %+v", second.PageCount, c)
	}

	// Asked for at once, one drawing answers them all, with the same picture.
	// The first drawing on a node starts PDFium (WebAssembly, slow under
	// the race detector): an answer of 503 with Retry-After is retried, as
	// a client does, for up to two minutes.
	var wg sync.WaitGroup
	got := make([][]byte, 6)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); {
				req, _ := http.NewRequest("GET", n.URL+"/v1/documents/"+docs[1].ID+"/thumbnail", nil)
				req.Header.Set("Authorization", "Bearer "+reader)
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					return
				}
				got[i], _ = io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
					return
				}
				time.Sleep(time.Second)
			}
		}()
	}
	wg.Wait()
	for i := range got {
		if len(got[i]) < 1000 || !bytes.Equal(got[i], got[0]) {
			t.Fatalf("concurrent thumbnail %d: %d bytes, not the others' picture", i, len(got[i]))
		}
	}

	r := testnode.Do(t, "GET", n.URL+"/v1/documents/"+docs[0].ID+"/thumbnail", reader, nil)
	if r.Status != 200 || r.Header.Get("Content-Type") != "image/png" || r.Header.Get("ETag") == "" {
		t.Fatalf("thumbnail: HTTP %d %s", r.Status, r.Header)
	}
	img, err := png.Decode(bytes.NewReader(r.Body))
	if err != nil {
		t.Fatal(err)
	}
	// 320 pixels wide, as tall as an A4 page at that width, and not blank:
	// the invoice's text is ink on white.
	b := img.Bounds()
	if b.Dx() != 320 || b.Dy() < 440 || b.Dy() > 460 {
		t.Errorf("thumbnail is %dx%d", b.Dx(), b.Dy())
	}
	inked := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if r, g, bl, _ := img.At(x, y).RGBA(); r+g+bl < 3*0xe000 {
				inked++
			}
		}
	}
	if inked < 500 {
		t.Errorf("the thumbnail has %d inked pixels: it looks blank", inked)
	}
	again := testnode.DoWith(t, "GET", n.URL+"/v1/documents/"+docs[0].ID+"/thumbnail", reader, nil, map[string]string{"If-None-Match": r.Header.Get("ETag")})
	if again.Status != 304 || len(again.Body) != 0 {
		t.Errorf("revalidated thumbnail: %s", again)
	}
	other := testnode.Do(t, "GET", n.URL+"/v1/documents/"+docs[1].ID+"/thumbnail", reader, nil)
	if other.Status != 200 || other.Header.Get("ETag") == r.Header.Get("ETag") {
		t.Errorf("the second document's thumbnail: HTTP %d, ETag %q", other.Status, other.Header.Get("ETag"))
	}

	// A failed document has no file: no picture of it.
	broken := map[string]any{"name": "Broken", "slug": "broken", "html": `{{#each items}}{{asset "missing.png"}}{{/each}}`, "sampleData": map[string]any{"items": []any{}}, "activate": true}
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates", key, broken); r.Status != 201 {
		t.Fatal(r)
	}
	failed := testnode.DataAs[testnode.Document](t, testnode.Do(t, "POST", n.URL+"/v1/documents", key, map[string]any{"templateId": "broken", "data": map[string]any{"items": []any{map[string]any{}}}}))
	if failed.Status != "failed" {
		t.Fatalf("the broken template's document: %+v", failed)
	}
	if r := testnode.Do(t, "GET", n.URL+"/v1/documents/"+failed.ID+"/thumbnail", reader, nil); r.Status != 409 || r.Code() != "CONFLICT" {
		t.Errorf("the thumbnail of a failed document: %s", r)
	}
	// Another organisation's key finds none of it.
	otherOrg := createOrg(t, n, "Other", "starter")
	_, otherKey := createKey(t, n, otherOrg, "documents.read")
	for _, path := range []string{"", "/thumbnail", "/data"} {
		if r := testnode.Do(t, "GET", n.URL+"/v1/documents/"+docs[0].ID+path, otherKey, nil); r.Status != 404 {
			t.Errorf("another organisation read %s: %s", path, r)
		}
	}

	for _, path := range []string{"/thumbnail", "/data"} {
		if r := testnode.Do(t, "GET", n.URL+"/v1/documents/"+docs[0].ID+path, walletOnly, nil); r.Status != 403 {
			t.Errorf("%s with a key without documents.read: %s", path, r)
		}
		if r := testnode.Do(t, "GET", n.URL+"/v1/documents/doc_01m7zmwnmpk2psb5y8n9tq3dsz"+path, reader, nil); r.Status != 404 || r.Code() != "NOT_FOUND" {
			t.Errorf("%s of a document that does not exist: %s", path, r)
		}
	}
}
