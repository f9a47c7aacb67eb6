package client

import (
	"bytes"
	"context"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/node"
)

func TestMain(m *testing.M) {
	// A field the API answers that these types lack fails the tests.
	strictDecoding = true
	os.Exit(m.Run())
}

// fastBackoff keeps retries in tests short; Retry-After still rules.
var fastBackoff = withBackoff(backoff{base: 20 * time.Millisecond, max: 200 * time.Millisecond})

// ctxFor is a context that ends with the test, or after d.
func ctxFor(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// exchange is one request a recorder saw and what came back.
type exchange struct {
	method, path string
	header       http.Header
	body         []byte
	status       int
	err          error
}

// recorder is an http.RoundTripper that records every attempt.
type recorder struct {
	mu  sync.Mutex // guards got
	got []exchange
}

func (rec *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	x := exchange{method: req.Method, path: req.URL.Path, header: req.Header.Clone()}
	if req.Body != nil {
		x.body, _ = io.ReadAll(req.Body)
		req.Body.Close()
		req.Body = io.NopCloser(bytes.NewReader(x.body))
	}
	res, err := http.DefaultTransport.RoundTrip(req)
	if err == nil {
		x.status = res.StatusCode
	}
	x.err = err
	rec.mu.Lock()
	rec.got = append(rec.got, x)
	rec.mu.Unlock()
	return res, err
}

func (rec *recorder) exchanges() []exchange {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]exchange(nil), rec.got...)
}

// receiver is an HTTPS webhook receiver on loopback whose certificate the
// node is told to trust; it hands each request to handle.
type receiver struct {
	*httptest.Server
	caFile string
}

func newReceiver(t *testing.T, handle http.HandlerFunc) *receiver {
	t.Helper()
	rc := &receiver{Server: httptest.NewTLSServer(handle)}
	t.Cleanup(rc.Close)
	rc.caFile = filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(rc.caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: rc.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	return rc
}

// trusting lets a node deliver to rc.
func (rc *receiver) trusting(c *node.Config) {
	c.WebhookAllowPrivate, c.WebhookCAFile = true, rc.caFile
	c.WebhookSchedule = []time.Duration{50 * time.Millisecond, 50 * time.Millisecond, 50 * time.Millisecond}
}

// helloTemplate makes a small written template that renders with phantom.
func helloTemplate(t *testing.T, c *Client, slug string) *Template {
	t.Helper()
	tpl, err := c.Templates.Create(ctxFor(t, 30*time.Second), CreateTemplateRequest{
		Name: "Hello " + slug, Slug: slug,
		VersionSource: VersionSource{
			HTML:       "<h1>Hello {{name}}</h1><p>Order {{order}}</p>",
			SampleData: []byte(`{"name": "Sample", "order": "S-1"}`),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return tpl
}

// startNode starts a node and a client of it with every scope.
func startNode(t *testing.T, change func(*node.Config), opts ...Option) (*testnode.Node, *Client) {
	t.Helper()
	n := testnode.Start(t, change)
	return n, New(n.URL, n.Key, append([]Option{fastBackoff}, opts...)...)
}
