package webhooks

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"time"
)

// Sender posts deliveries: no proxy (one would bypass the address check), no
// redirects, the guard on every dial, and a 15 s limit per request
// (docs/design.md "Limits").
type Sender struct {
	client *http.Client
}

// Timeout bounds one delivery request.
const Timeout = 15 * time.Second

// NewSender returns a sender. extraCAs are trusted besides the system's
// (the test-only --webhook-ca-file).
func NewSender(g Guard, extraCAs []*x509.Certificate) *Sender {
	roots, err := x509.SystemCertPool()
	if err != nil || roots == nil {
		roots = x509.NewCertPool()
	}
	for _, c := range extraCAs {
		roots.AddCert(c)
	}
	dialer := &net.Dialer{Timeout: 10 * time.Second, Control: g.Control}
	tr := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		TLSClientConfig:       &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: Timeout,
		// Many endpoints can share a host (a customer's gateway): keep enough
		// warm connections that a burst does not pay a TLS handshake each.
		MaxIdleConns:        1024,
		MaxIdleConnsPerHost: 64,
		IdleConnTimeout:     90 * time.Second,
		ForceAttemptHTTP2:   true,
	}
	return &Sender{client: &http.Client{
		Transport:     tr,
		Timeout:       Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// Attempt is what one request got.
type Attempt struct {
	// RequestHeader is the headers the request was sent with.
	RequestHeader http.Header
	Status        int
	Header        http.Header
	Body          []byte // the first KB of the answer
	Duration      time.Duration
	Err           error
}

// Send posts body, signed at now, to url.
func (s *Sender) Send(ctx context.Context, url string, secret []byte, deliveryID, event string, body []byte, now time.Time) Attempt {
	start := time.Now()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return Attempt{Err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Platen-Webhooks/1")
	req.Header.Set(HeaderEvent, event)
	req.Header.Set(HeaderDelivery, deliveryID)
	req.Header.Set(HeaderSignature, Sign(secret, now, body))
	sent := req.Header.Clone()
	res, err := s.client.Do(req)
	if err != nil {
		return Attempt{RequestHeader: sent, Err: err, Duration: time.Since(start)}
	}
	defer res.Body.Close()
	head, _ := io.ReadAll(io.LimitReader(res.Body, 1024))
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 1<<20))
	return Attempt{RequestHeader: sent, Status: res.StatusCode, Header: res.Header, Body: head, Duration: time.Since(start)}
}
