package client

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"
)

func sign(secret string, t int64, body string) string {
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "%d.%s", t, body)
	return hex.EncodeToString(mac.Sum(nil))
}

func TestVerifyWebhook(t *testing.T) {
	at := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	now = func() time.Time { return at }
	defer func() { now = time.Now }()
	ts := at.Unix()
	body := `{"v":1,"event":"ping"}`
	good := sign("whsec_a", ts, body)
	cases := []struct {
		name, secret, header, body string
		tolerance                  []time.Duration
		want                       error
	}{
		{"valid", "whsec_a", fmt.Sprintf("t=%d,v1=%s", ts, good), body, nil, nil},
		{"spaces and a second signature", "whsec_a", fmt.Sprintf("t=%d, v1=%s, v1=%s", ts, sign("old", ts, body), good), body, nil, nil},
		{"another secret", "whsec_b", fmt.Sprintf("t=%d,v1=%s", ts, good), body, nil, ErrSignatureMismatch},
		{"a changed body", "whsec_a", fmt.Sprintf("t=%d,v1=%s", ts, good), body + " ", nil, ErrSignatureMismatch},
		{"a changed time", "whsec_a", fmt.Sprintf("t=%d,v1=%s", ts+1, good), body, nil, ErrSignatureMismatch},
		{"six minutes old", "whsec_a", fmt.Sprintf("t=%d,v1=%s", ts-360, sign("whsec_a", ts-360, body)), body, nil, ErrSignatureExpired},
		{"six minutes old, ten allowed", "whsec_a", fmt.Sprintf("t=%d,v1=%s", ts-360, sign("whsec_a", ts-360, body)), body, []time.Duration{10 * time.Minute}, nil},
		{"from the future", "whsec_a", fmt.Sprintf("t=%d,v1=%s", ts+400, sign("whsec_a", ts+400, body)), body, nil, ErrSignatureExpired},
		{"no signature", "whsec_a", fmt.Sprintf("t=%d", ts), body, nil, ErrMalformedSignature},
		{"no time", "whsec_a", "v1=" + good, body, nil, ErrMalformedSignature},
		{"empty", "whsec_a", "", body, nil, ErrMalformedSignature},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := VerifyWebhook(tc.secret, tc.header, []byte(tc.body), tc.tolerance...)
			if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
}

// TestAVerifiedWebhookFromARealDelivery has a node deliver a document's
// webhook to an HTTPS receiver on loopback, which parses it with
// ParseWebhook; the same delivery with a byte changed, or checked with
// another secret, is refused.
func TestAVerifiedWebhookFromARealDelivery(t *testing.T) {
	type got struct {
		header http.Header
		body   []byte
	}
	arrived := make(chan got, 4)
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		arrived <- got{r.Header.Clone(), body}
	})
	_, c := startNode(t, rc.trusting)
	ctx := ctxFor(t, time.Minute)
	helloTemplate(t, c, "hello")
	wh, err := c.Webhooks.Create(ctx, CreateWebhookRequest{Name: "orders", URL: rc.URL, Events: []string{"document.completed"}})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := c.Documents.Create(ctx, DocumentRequest{TemplateID: "hello", Data: map[string]any{"name": "Ada", "order": "7"}, CorrelationID: "o-7"})
	if err != nil {
		t.Fatal(err)
	}
	var g got
	select {
	case g = <-arrived:
	case <-ctx.Done():
		t.Fatal("no delivery")
	}
	req := func(body []byte) *http.Request {
		r, _ := http.NewRequest("POST", rc.URL, bytes.NewReader(body))
		r.Header = g.header.Clone()
		return r
	}
	ev, err := ParseWebhook(req(g.body), wh.SigningSecret)
	if err != nil {
		t.Fatal(err)
	}
	de, err := ev.Document()
	if err != nil {
		t.Fatal(err)
	}
	if ev.Event != "document.completed" || ev.V != 1 || ev.ID != g.header.Get(DeliveryHeader) || de.ID != doc.ID || de.CorrelationID != "o-7" || de.URL == "" || de.PageCount != 1 {
		t.Fatalf("event %+v, data %+v", ev, de)
	}
	tampered := bytes.Replace(g.body, []byte(`"o-7"`), []byte(`"o-8"`), 1)
	if _, err := ParseWebhook(req(tampered), wh.SigningSecret); !errors.Is(err, ErrSignatureMismatch) {
		t.Fatalf("a changed body: %v", err)
	}
	if _, err := ParseWebhook(req(g.body), "whsec_not_it"); !errors.Is(err, ErrSignatureMismatch) {
		t.Fatalf("another secret: %v", err)
	}
}
