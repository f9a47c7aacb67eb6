// Package client is Platen's Go client: typed calls for every route of the
// /v1 API (docs/api.md), its errors as *Error, retries that keep a request's
// Idempotency-Key, webhook signature verification, and a realtime
// connection that generates documents and follows the change feed,
// reconnecting and resuming from its cursor on its own.
//
// It uses the standard library, github.com/fasthttp/websocket for realtime,
// and nothing else of this module: a program that imports it does not pull
// in the server (internal/deptest guards that).
//
//	c := client.New("https://platen.example", os.Getenv("PLATEN_KEY"))
//	doc, err := c.Documents.Create(ctx, client.DocumentRequest{
//		TemplateID: "invoice",
//		Data:       map[string]any{"number": "INV-7"},
//	})
//	var apiErr *client.Error
//	if errors.As(err, &apiErr) && apiErr.Code == client.CodePaymentRequired {
//		// top up the wallet
//	}
//
// Retries. A request refused with 429 RATE_LIMITED or 503 OVERLOADED
// (refused before anything was done) is sent again after an exponential
// backoff with jitter, never sooner than the answer's Retry-After, with
// the same body and headers. A lost connection or a 503 UNAVAILABLE,
// whose outcome may not be known, is retried only where repeating is
// safe: GET, PUT, DELETE, and POST /v1/documents, which always carries an
// Idempotency-Key — the caller's (IdempotencyKey) or, when none is given,
// one the client makes — so a retried generate makes one document.
// WithMaxRetries sets how many times; the context's cancellation ends the
// wait at once.
//
// Webhooks. VerifyWebhook checks a delivery's signature header against its
// raw body; ParseWebhook does that for an *http.Request and decodes the
// payload into a WebhookEvent.
//
// Realtime. Client.Realtime opens the WebSocket of docs/realtime.md.
// Realtime.Generate sends a generate frame and waits for the document to
// complete or fail; Realtime.Subscribe streams the change feed. When the
// connection drops, it reconnects with backoff, subscribes again from the
// last cursor it delivered, and resends a generate still waiting with the
// same idempotencyKey, so nothing is lost, repeated or made twice.
package client
