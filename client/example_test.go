package client_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/platen/platen/client"
)

func Example() {
	baseURL, apiKey, stop := startExampleNode()
	defer stop()
	ctx := context.Background()

	c := client.New(baseURL, apiKey)
	doc, err := c.Documents.Create(ctx, client.DocumentRequest{
		TemplateID:    "receipt",
		Data:          map[string]any{"number": "R-7", "amount": 42},
		CorrelationID: "order-7",
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(doc.Status, doc.PageCount, "page")

	var pdf bytes.Buffer
	if _, err := c.Documents.Download(ctx, doc.ID, &pdf); err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(pdf.Bytes()[:5]))
	// Output:
	// completed 1 page
	// %PDF-
}

// A refusal is an *Error with the API's code and the field at fault.
func ExampleError() {
	baseURL, apiKey, stop := startExampleNode()
	defer stop()

	c := client.New(baseURL, apiKey)
	_, err := c.Documents.Create(context.Background(), client.DocumentRequest{
		TemplateID: "receipt",
		Data:       map[string]any{"amount": 42},
	})
	var e *client.Error
	if errors.As(err, &e) {
		fmt.Println(e.Status, e.Code, e.Field)
	}
	// Output:
	// 422 PAYLOAD_VALIDATION_FAILED number
}

// A generate with your own Idempotency-Key may be sent again, by you or by
// the client's retries, and makes one document.
func ExampleIdempotencyKey() {
	baseURL, apiKey, stop := startExampleNode()
	defer stop()
	ctx := context.Background()

	c := client.New(baseURL, apiKey)
	req := client.DocumentRequest{TemplateID: "receipt", Data: map[string]any{"number": "R-8"}}
	first, err := c.Documents.Create(ctx, req, client.IdempotencyKey("order-8"))
	if err != nil {
		log.Fatal(err)
	}
	var res client.Response
	again, err := c.Documents.Create(ctx, req, client.IdempotencyKey("order-8"), client.ResponseInto(&res))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(again.ID == first.ID, res.Replayed)
	// Output:
	// true true
}

// Templates are saved as versions; a new version generates once active.
func ExampleTemplatesService_CreateVersion() {
	baseURL, apiKey, stop := startExampleNode()
	defer stop()
	ctx := context.Background()

	c := client.New(baseURL, apiKey)
	v, err := c.Templates.CreateVersion(ctx, "receipt", client.VersionRequest{
		VersionSource: client.VersionSource{
			HTML:       "<h1>Receipt {{number}}</h1><p>Thank you</p>",
			SampleData: []byte(`{"number": "R-1"}`),
		},
		Activate: true,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("version", v.Version, "active:", v.Active)
	// Output:
	// version 2 active: true
}

// Every listing pages with a cursor; All walks the pages for you.
func ExampleDocumentsService_All() {
	baseURL, apiKey, stop := startExampleNode()
	defer stop()
	ctx := context.Background()

	c := client.New(baseURL, apiKey)
	for _, n := range []string{"R-1", "R-2", "R-3"} {
		if _, err := c.Documents.Create(ctx, client.DocumentRequest{TemplateID: "receipt", Data: map[string]any{"number": n}, CorrelationID: n}); err != nil {
			log.Fatal(err)
		}
	}
	for doc, err := range c.Documents.All(ctx, client.ListDocumentsParams{Limit: 2}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(doc.CorrelationID, doc.Status)
	}
	// Output:
	// R-3 completed
	// R-2 completed
	// R-1 completed
}

// VerifyWebhook checks a delivery's signature against its raw body.
func ExampleVerifyWebhook() {
	secret := "whsec_example"
	body := []byte(`{"v":1,"id":"dlv_1","event":"ping","data":{}}`)
	// What Platen sends in X-Service-Signature:
	t := time.Now().Unix()
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "%d.%s", t, body)
	header := fmt.Sprintf("t=%d,v1=%x", t, mac.Sum(nil))

	fmt.Println(client.VerifyWebhook(secret, header, body))
	fmt.Println(client.VerifyWebhook("whsec_other", header, body))
	// Output:
	// <nil>
	// platen: webhook signature does not match
}

// A webhook receiver: ParseWebhook verifies and decodes the delivery. Here
// one signed delivery, and one signed with another secret, go through the
// handler.
func ExampleParseWebhook() {
	secret := "whsec_…" // shown once, when the endpoint was created
	receiver := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ev, err := client.ParseWebhook(r, secret)
		if err != nil {
			http.Error(w, "bad signature", http.StatusBadRequest)
			return
		}
		if ev.Event == "document.completed" {
			doc, err := ev.Document()
			if err == nil {
				fmt.Printf("document %s is ready: %s\n", doc.ID, doc.URL)
			}
		}
		w.WriteHeader(http.StatusNoContent)
	})
	http.Handle("/platen", receiver) // in your server

	body := []byte(`{"v":1,"id":"dlv_1","event":"document.completed","data":{"id":"doc_1","status":"completed","url":"https://platen.example/files/doc_1/invoice.pdf"}}`)
	for _, signer := range []string{secret, "whsec_other"} {
		t := time.Now().Unix()
		mac := hmac.New(sha256.New, []byte(signer))
		fmt.Fprintf(mac, "%d.%s", t, body)
		r := httptest.NewRequest("POST", "/platen", bytes.NewReader(body))
		r.Header.Set(client.SignatureHeader, fmt.Sprintf("t=%d,v1=%x", t, mac.Sum(nil)))
		w := httptest.NewRecorder()
		receiver.ServeHTTP(w, r)
		fmt.Println(w.Code)
	}
	// Output:
	// document doc_1 is ready: https://platen.example/files/doc_1/invoice.pdf
	// 204
	// 400
}

// Realtime generates without polling: Generate answers when the document
// has completed or failed.
func ExampleRealtime_Generate() {
	baseURL, apiKey, stop := startExampleNode()
	defer stop()
	ctx := context.Background()

	rt, err := client.New(baseURL, apiKey).Realtime(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer rt.Close()
	doc, err := rt.Generate(ctx, client.DocumentRequest{TemplateID: "receipt", Data: map[string]any{"number": "R-9"}},
		client.IdempotencyKey("order-9"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(doc.Status, doc.PageCount)
	// Output:
	// completed 1
}

// Subscribe streams the change feed; keep the last cursor to resume from
// it after a restart (since). Reconnections resume by themselves.
func ExampleRealtime_Subscribe() {
	baseURL, apiKey, stop := startExampleNode()
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	c := client.New(baseURL, apiKey)
	rt, err := c.Realtime(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer rt.Close()
	events, err := rt.Subscribe(ctx, []string{"document.rendering", "document.completed"}, "")
	if err != nil {
		log.Fatal(err)
	}
	if _, err := c.Documents.Create(ctx, client.DocumentRequest{TemplateID: "receipt", Data: map[string]any{"number": "R-10"}}); err != nil {
		log.Fatal(err)
	}
	for ev := range events {
		doc, _ := ev.Document()
		fmt.Println(ev.Event, doc.Status)
		if ev.Event == "document.completed" {
			break
		}
	}
	// Output:
	// document.rendering rendering
	// document.completed completed
}

// A dry run renders the document and says what it would cost now, storing
// and billing nothing.
func ExampleDocumentsService_Quote() {
	baseURL, apiKey, stop := startExampleNode()
	defer stop()

	c := client.New(baseURL, apiKey)
	q, err := c.Documents.Quote(context.Background(), client.DocumentRequest{
		TemplateID: "receipt",
		Data:       map[string]any{"number": "R-11", "amount": 99},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d page: %d from the allowance, %d micros from the wallet, payable: %v\n",
		q.PageCount, q.AllowancePages, q.WalletMicros, q.Payable)
	fmt.Println("engine:", q.Report.Engine)
	// Output:
	// 1 page: 1 from the allowance, 0 micros from the wallet, payable: true
	// engine: phantom
}
