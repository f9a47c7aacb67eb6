// Package testnode starts a real Platen node in the test's process, on
// loopback with random ports and a temporary data folder, and talks to it
// over real HTTP.
package testnode

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/platen/platen/internal/contract"
	"github.com/platen/platen/node"
	"github.com/platen/platen/transport"
)

// Node is a running node and what its first start printed.
type Node struct {
	*node.Node
	// URL is a proxy to the node that checks every answer against the
	// OpenAPI document the node serves (package contract): a test fails
	// at its end on any answer the document does not describe.
	URL string
	// Direct is the node itself, for what a proxy would change: the
	// connection, the client's address.
	Direct        string
	OperatorToken string
	// Key is the first organisation's key, with every scope.
	Key   string
	OrgID string
	// OwnerLink is the one-time link that makes the first owner.
	OwnerLink string
	Logs      *SyncBuffer
}

// OperatorToken is the token test nodes are started with.
const OperatorToken = "test-operator-token-0123456789"

// Start starts a node; change adjusts the default test config.
func Start(t testing.TB, change func(*node.Config)) *Node {
	t.Helper()
	cfg := node.DefaultConfig()
	cfg.DataDir = t.TempDir()
	cfg.HTTPAddr, cfg.RaftAddr = "127.0.0.1:0", "127.0.0.1:0"
	// Links must point at the port the node gets; fixed after Start below.
	cfg.OperatorToken = OperatorToken
	// The browser starts at the first render: most tests render nothing.
	cfg.WarmEngine = false
	// Every ask takes the envelope's encoding, as between nodes.
	cfg.WireCheck = true
	if change != nil {
		change(&cfg)
	}
	logs := &SyncBuffer{}
	var out bytes.Buffer
	n, err := node.Start(cfg, slog.New(slog.NewJSONHandler(logs, nil)), &out)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		n.Shutdown(ctx)
	})
	tn := &Node{Node: n, URL: "http://" + n.HTTPAddr(), Direct: "http://" + n.HTTPAddr(), OperatorToken: cfg.OperatorToken, Logs: logs}
	tn.URL = checkedURL(t, tn.Direct)
	if m := regexp.MustCompile(`(?m)^\s+(plt_[A-Za-z0-9]{43})$`).FindStringSubmatch(out.String()); m != nil {
		tn.Key = m[1]
	}
	if m := regexp.MustCompile(`org_[0-9a-z]{26}`).FindString(out.String()); m != "" {
		tn.OrgID = m
	}
	if m := regexp.MustCompile(`http\S+/link#\S+`).FindString(out.String()); m != "" {
		tn.OwnerLink = m
	}
	if tn.Key == "" {
		t.Fatalf("first start printed no key:\n%s", out.String())
	}
	return tn
}

// checkedURL starts a checking proxy to the node at direct, and fails the
// test at its end with every answer the document does not describe.
func checkedURL(t testing.TB, direct string) string {
	t.Helper()
	// The document the node serves, taken in-process: a request for it
	// would count against the node's limits on connections and on
	// requests without a key, which tests measure.
	c, err := contract.Cached(transport.OpenAPI())
	if err != nil {
		t.Fatal(err)
	}
	p, err := contract.StartProxy(direct, c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.Close()
		answers, ops := p.Seen()
		t.Logf("contract: %d answers checked against the OpenAPI document, %d operations: %s", answers, len(ops), strings.Join(ops, ", "))
		for _, problem := range p.Problems() {
			t.Errorf("an answer the OpenAPI document does not describe: %s", problem)
		}
	})
	return p.URL
}

// Response is an answer, decoded.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
	JSON   map[string]any
}

// Do sends a request with a bearer token; body may be nil, []byte or a value
// to marshal.
func Do(t testing.TB, method, url, token string, body any) Response {
	t.Helper()
	return DoWith(t, method, url, token, body, nil)
}

// DoWith is Do with extra request headers.
func DoWith(t testing.TB, method, url, token string, body any, headers map[string]string) Response {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	return send(t, req)
}

// send makes a request and decodes the answer.
func send(t testing.TB, req *http.Request) Response {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	r := Response{Status: res.StatusCode, Header: res.Header, Body: raw}
	_ = json.Unmarshal(raw, &r.JSON)
	return r
}

// Upload posts a file as a form would (multipart/form-data: the file in
// the field "file", and fields), and decodes the answer.
func Upload(t testing.TB, url, token, filename string, file []byte, fields map[string]string) Response {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for k, v := range fields {
		w.WriteField(k, v)
	}
	if file != nil {
		part, err := w.CreateFormFile("file", filename)
		if err != nil {
			t.Fatal(err)
		}
		part.Write(file)
	}
	w.Close()
	req, err := http.NewRequest("POST", url, &body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", w.FormDataContentType())
	return send(t, req)
}

// Code returns error.code of a refusal.
func (r Response) Code() string { return r.Problem().Code }

// Field returns error.field of a refusal.
func (r Response) Field() string { return r.Problem().Field }

// Data returns the data object of a success envelope, untyped; DataAs
// (api.go) reads it into a typed view.
func (r Response) Data() map[string]any {
	d, _ := r.JSON["data"].(map[string]any)
	return d
}

func (r Response) String() string { return fmt.Sprintf("HTTP %d %s", r.Status, r.Body) }

// SyncBuffer is a bytes.Buffer safe for concurrent writers.
type SyncBuffer struct {
	mu sync.Mutex // guards b
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
