package client

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Headers of a webhook delivery (docs/webhooks.md "A delivery").
const (
	SignatureHeader = "X-Service-Signature"
	EventHeader     = "X-Service-Event"
	DeliveryHeader  = "X-Service-Delivery"
)

// DefaultWebhookTolerance is how far a delivery's signed time may be from
// now: five minutes, as docs/webhooks.md asks, enough for clocks that
// disagree a little, short enough that a captured delivery cannot be
// replayed for long.
const DefaultWebhookTolerance = 5 * time.Minute

// Errors of VerifyWebhook, to tell them apart with errors.Is.
var (
	// ErrMalformedSignature is returned when the header is not t=…,v1=….
	ErrMalformedSignature = errors.New("platen: malformed webhook signature header")
	// ErrSignatureExpired is returned when the signed time is further from
	// now than the tolerance.
	ErrSignatureExpired = errors.New("platen: webhook timestamp outside the tolerance")
	// ErrSignatureMismatch is returned when no v1 signature matches the body
	// under the secret.
	ErrSignatureMismatch = errors.New("platen: webhook signature does not match")
)

// now is the clock of VerifyWebhook; tests move it.
var now = time.Now

// VerifyWebhook checks a delivery's X-Service-Signature header against its
// raw body and the endpoint's signing secret: the HMAC-SHA256 of
// "<t>.<body>", compared in constant time, with t no further from now than
// tolerance (DefaultWebhookTolerance when none is given).
func VerifyWebhook(secret, header string, body []byte, tolerance ...time.Duration) error {
	tol := DefaultWebhookTolerance
	if len(tolerance) > 0 {
		tol = tolerance[0]
	}
	var ts string
	var sigs []string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	t, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || len(sigs) == 0 {
		return ErrMalformedSignature
	}
	if d := now().Sub(time.Unix(t, 0)); d > tol || d < -tol {
		return fmt.Errorf("%w: signed %s ago", ErrSignatureExpired, d.Round(time.Second))
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + "."))
	mac.Write(body)
	want := []byte(hex.EncodeToString(mac.Sum(nil)))
	for _, s := range sigs {
		if hmac.Equal(want, []byte(s)) {
			return nil
		}
	}
	return ErrSignatureMismatch
}

// maxWebhookBody bounds what ParseWebhook reads: payloads are a few KB.
const maxWebhookBody = 1 << 20

// WebhookEvent is a verified delivery's payload.
type WebhookEvent struct {
	// V is the payload's format version (1).
	V  int    `json:"v"`
	ID string `json:"id"`
	// Event is the kind: document.completed, wallet.debited, ping, …
	Event string          `json:"event"`
	OrgID string          `json:"orgId"`
	At    time.Time       `json:"at"`
	Data  json.RawMessage `json:"data"`
}

// ParseWebhook reads r's body, verifies its signature with secret (see
// VerifyWebhook) and decodes the payload. Answer 2xx quickly once it
// returns; drop duplicates by the event's ID, which every retry repeats.
func ParseWebhook(r *http.Request, secret string, tolerance ...time.Duration) (*WebhookEvent, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxWebhookBody+1))
	if err != nil {
		return nil, fmt.Errorf("platen: reading the webhook: %w", err)
	}
	if len(body) > maxWebhookBody {
		return nil, errors.New("platen: webhook body over 1 MB")
	}
	if err := VerifyWebhook(secret, r.Header.Get(SignatureHeader), body, tolerance...); err != nil {
		return nil, err
	}
	var ev WebhookEvent
	if err := json.Unmarshal(body, &ev); err != nil {
		return nil, fmt.Errorf("platen: the webhook payload: %w", err)
	}
	return &ev, nil
}

// Document decodes the data of a document event (document.queued,
// …rendering, …completed, …failed).
func (e *WebhookEvent) Document() (*DocumentEvent, error) { return decodeData[DocumentEvent](e.Data) }

// TemplateActivated decodes the data of a template.activated event.
func (e *WebhookEvent) TemplateActivated() (*TemplateActivated, error) {
	return decodeData[TemplateActivated](e.Data)
}

// WalletCredited decodes the data of a wallet.credited event.
func (e *WebhookEvent) WalletCredited() (*WalletCredited, error) {
	return decodeData[WalletCredited](e.Data)
}

// WalletDebited decodes the data of a wallet.debited event.
func (e *WebhookEvent) WalletDebited() (*WalletDebited, error) {
	return decodeData[WalletDebited](e.Data)
}

func decodeData[T any](raw json.RawMessage) (*T, error) {
	var v T
	if err := decode(raw, &v); err != nil {
		return nil, fmt.Errorf("platen: the event's data: %w", err)
	}
	return &v, nil
}

// DocumentEvent is the data of a document event, in a webhook or on the
// realtime feed: the record without the data it was rendered from. A
// completed document's URL is minted with the event and works for an hour.
type DocumentEvent struct {
	ID              string         `json:"id"`
	Status          string         `json:"status"`
	TemplateSlug    string         `json:"templateSlug"`
	TemplateVersion int            `json:"templateVersion"`
	CorrelationID   string         `json:"correlationId,omitempty"`
	PageCount       int            `json:"pageCount"`
	ByteSize        int64          `json:"byteSize"`
	Filename        string         `json:"filename"`
	Metadata        map[string]any `json:"metadata,omitempty"`
	ErrorCode       string         `json:"errorCode,omitempty"`
	Message         string         `json:"message,omitempty"`
	URL             string         `json:"url,omitempty"`
	URLExpiresAt    *time.Time     `json:"urlExpiresAt,omitempty"`
	Engine          string         `json:"engine,omitempty"`
	EngineReason    string         `json:"engineReason,omitempty"`
	Report          *Report        `json:"report,omitempty"`
	// Signature is a signed document's, once it has completed.
	Signature *Signature `json:"signature,omitempty"`
}

// TemplateActivated is the data of a template.activated event;
// PreviousVersion is 0 when none was active.
type TemplateActivated struct {
	TemplateID      string `json:"templateId"`
	Slug            string `json:"slug"`
	Version         int    `json:"version"`
	PreviousVersion int    `json:"previousVersion"`
}

// WalletCredited is the data of a wallet.credited event.
type WalletCredited struct {
	LedgerEntryID string `json:"ledgerEntryId"`
	AmountMicros  int64  `json:"amountMicros"`
	BalanceMicros int64  `json:"balanceMicros"`
	Reference     string `json:"reference,omitempty"`
}

// WalletDebited is the data of a wallet.debited event.
type WalletDebited struct {
	LedgerEntryID string `json:"ledgerEntryId"`
	DocumentID    string `json:"documentId"`
	Pages         int64  `json:"pages"`
	AmountMicros  int64  `json:"amountMicros"`
	BalanceMicros int64  `json:"balanceMicros"`
}
