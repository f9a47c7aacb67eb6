package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/pem"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/platen/platen/internal/poll"
	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/sign/signtest"
)

// binary is the platen binary, built once by TestMain (with the race
// detector, so a race the browser's traffic provokes fails the run), or the
// one PLATEN_E2E_BINARY names, to skip the build while writing tests.
var binary string

// chromium is the browser the tests drive: Debian's, from
// scripts/install-deps.sh; nothing downloads one.
const chromium = "/usr/bin/chromium"

func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		os.Exit(m.Run())
	}
	if bin := os.Getenv("PLATEN_E2E_BINARY"); bin != "" {
		binary = bin
		os.Exit(m.Run())
	}
	bin, cleanup, err := testnode.BuildBinary("../cmd/platen")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = bin
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// TestBrowser starts one node and runs every tests/*.test.mjs against it,
// one node --test process a file, as the subtest TestBrowser/<name> (run
// one with -run TestBrowser/smoke). A missing node, node_modules or Chromium
// fails the test: under make test these are installed, and a browser test
// that skips would report the console as checked when it was not.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a node and a browser; make test runs it")
	}
	nodeJS := need(t)
	files, err := filepath.Glob(filepath.Join("tests", "*.test.mjs"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no tests/*.test.mjs (%v)", err)
	}
	rc := startReceiver(t)
	p12 := writeSigningFile(t)
	n := startNode(t, "--webhook-allow-private", "--webhook-ca-file", rc.caFile)
	shots := os.Getenv("E2E_SHOTS")
	if shots == "" {
		shots = filepath.Join(os.TempDir(), "platen-e2e", "shots")
	}
	env := append(os.Environ(),
		"BASE_URL="+n.url,
		"E2E_API_KEY="+n.key,
		"E2E_OPERATOR_TOKEN="+n.operatorToken,
		"E2E_FIRST_LINK="+n.firstLink,
		"E2E_SHOTS="+shots,
		"E2E_CHROMIUM="+chromium,
		"E2E_RECEIVER_URL="+rc.URL,
		"E2E_RECEIVER_CA="+rc.caFile,
		"E2E_BINARY="+binary,
		"E2E_SIGNING_P12="+p12,
		"E2E_SIGNING_PASSWORD="+signingPassword,
	)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".test.mjs")
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			// The spec reporter names each case and its error; the output is the
			// test's log, so -v shows the first-paint times the pages print.
			cmd := exec.CommandContext(ctx, nodeJS, "--test", "--test-reporter=spec", f)
			cmd.Env = env
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			start := time.Now()
			err := cmd.Run()
			if err != nil {
				t.Fatalf("node --test %s: %v (after %s)\n%s\nnode's log:\n%s", f, err, time.Since(start).Round(time.Millisecond), out.String(), n.stderr)
			}
			t.Logf("node --test %s: %s\n%s", f, time.Since(start).Round(time.Millisecond), out.String())
		})
	}
	t.Logf("screenshots in %s", shots)
	n.stop(t)
}

// signingPassword opens the PKCS#12 file writeSigningFile makes. Its
// trailing space is part of it: the console sends a password as typed, and
// the same words without the space must be refused.
const signingPassword = "e2e pass phrase "

// writeSigningFile writes a PKCS#12 file, as a certificate authority would
// hand one out (a P-256 key, its certificate valid for a year, and the
// authority's certificate), for the console's signing page to upload, and
// returns its path.
func writeSigningFile(t *testing.T) string {
	t.Helper()
	ca, err := signtest.NewAuthority("Platen e2e CA")
	if err != nil {
		t.Fatal(err)
	}
	id, err := ca.Issue("Ada Lovelace Accounts", signtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := signtest.PKCS12(id, signingPassword)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "accounts.p12")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// need finds node, checks it is new enough for playwright-core, and checks
// that Chromium and the npm packages (make e2e-deps) are in place.
func need(t *testing.T) string {
	t.Helper()
	nodeJS, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed: scripts/install-deps.sh --test installs it (make test does)")
	}
	out, err := exec.Command(nodeJS, "--version").Output()
	if err != nil {
		t.Fatalf("node --version: %v", err)
	}
	v := strings.TrimSpace(string(out))
	if major, _ := strconv.Atoi(strings.SplitN(strings.TrimPrefix(v, "v"), ".", 2)[0]); major < 20 {
		t.Fatalf("node %s is too old: playwright-core needs node 20 or later", v)
	}
	if _, err := os.Stat(chromium); err != nil {
		t.Fatalf("no Chromium at %s: scripts/install-deps.sh installs it (%v)", chromium, err)
	}
	for _, pkg := range []string{"playwright-core", "axe-core"} {
		if _, err := os.Stat(filepath.Join("node_modules", pkg, "package.json")); err != nil {
			t.Fatalf("e2e/node_modules lacks %s: run make e2e-deps (make test does)", pkg)
		}
	}
	return nodeJS
}

// node is a `platen serve` process on an empty data folder, and what its
// first start printed.
type node struct {
	cmd                                *exec.Cmd
	url, key, operatorToken, firstLink string
	stdout, stderr                     *testnode.SyncBuffer
	exited                             chan struct{}
	err                                error
}

var (
	keyLine   = regexp.MustCompile(`(?m)^\s+(plt_[A-Za-z0-9]{43})$`)
	tokenLine = regexp.MustCompile(`(?m)^Operator token .*:\n\s+(\S+)$`)
	linkLine  = regexp.MustCompile(`\S+/link#\S+`)
)

// startNode starts a node on loopback addresses of its own, with extra
// flags, and waits until
// it is ready and has printed its first key and operator token. The operator
// token is the one the node makes (no PLATEN_OPERATOR_TOKEN), as on a real
// first start; every PLATEN_ variable of the test's environment is dropped so
// none changes the node under test.
func startNode(t *testing.T, flags ...string) *node {
	t.Helper()
	httpAddr, raftAddr := testnode.FreeAddr(t), testnode.FreeAddr(t)
	args := append([]string{"serve", "--data-dir", t.TempDir(), "--http", httpAddr, "--raft", raftAddr}, flags...)
	cmd := exec.Command(binary, args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PLATEN_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	n := &node{cmd: cmd, url: "http://" + httpAddr, stdout: &testnode.SyncBuffer{}, stderr: &testnode.SyncBuffer{}, exited: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = n.stdout, n.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		n.err = cmd.Wait()
		close(n.exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-n.exited
	})
	if err := poll.Wait(60*time.Second, poll.Interval, func() error {
		select {
		case <-n.exited:
			t.Fatalf("node exited: %v\n%s\n%s", n.err, n.stdout, n.stderr)
		default:
		}
		// The listening line comes after everything the first start prints.
		if !strings.Contains(n.stdout.String(), "listening on") {
			return fmt.Errorf("no listening line yet")
		}
		res, err := http.Get(n.url + "/readyz")
		if err != nil {
			return err
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("GET /readyz: HTTP %d", res.StatusCode)
		}
		return nil
	}); err != nil {
		t.Fatalf("node not ready (%v):\n%s\n%s", err, n.stdout, n.stderr)
	}
	out := n.stdout.String()
	if m := keyLine.FindStringSubmatch(out); m != nil {
		n.key = m[1]
	}
	if m := tokenLine.FindStringSubmatch(out); m != nil {
		n.operatorToken = m[1]
	}
	n.firstLink = linkLine.FindString(out)
	if n.key == "" || n.operatorToken == "" {
		t.Fatalf("the first start printed no key or no operator token:\n%s", out)
	}
	return n
}

// stop ends the node with SIGTERM, as an operator would, and fails the test
// if it does not drain within 30 seconds or exits with an error (a race the
// race detector saw makes the binary exit 66).
func (n *node) stop(t *testing.T) {
	t.Helper()
	n.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-n.exited:
		if n.err != nil {
			t.Errorf("node exited with %v:\n%s", n.err, n.stderr)
		}
	case <-time.After(30 * time.Second):
		t.Errorf("node still running 30s after SIGTERM:\n%s", n.stderr)
	}
}

// receiver is a real HTTPS webhook endpoint on 127.0.0.1 the node delivers
// to (it trusts the receiver's CA through --webhook-ca-file, and
// --webhook-allow-private lets it reach loopback). A POST to any path is
// recorded and answered 200 with a short body naming the event; GET
// /received answers what it recorded, as JSON, those of one path with
// ?path=, so each test file can post to a path of its own.
type receiver struct {
	*httptest.Server
	caFile string
	mu     sync.Mutex
	got    []receivedRequest
}

// receivedRequest is one request the receiver got; Body is the raw body,
// byte for byte (deliveries are JSON, so valid UTF-8), for checking the
// signature.
type receivedRequest struct {
	Method  string            `json:"method"`
	Path    string            `json:"path"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
	At      time.Time         `json:"at"`
}

func startReceiver(t *testing.T) *receiver {
	t.Helper()
	rc := &receiver{}
	rc.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/received" {
			rc.mu.Lock()
			out := []receivedRequest{}
			for _, g := range rc.got {
				if p := r.URL.Query().Get("path"); p == "" || p == g.Path {
					out = append(out, g)
				}
			}
			rc.mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(out)
			return
		}
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		h := map[string]string{}
		for k := range r.Header {
			h[strings.ToLower(k)] = r.Header.Get(k)
		}
		rc.mu.Lock()
		rc.got = append(rc.got, receivedRequest{Method: r.Method, Path: r.URL.Path, Headers: h, Body: string(body), At: time.Now()})
		rc.mu.Unlock()
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintf(w, "received %s", r.Header.Get("x-service-event"))
	}))
	t.Cleanup(rc.Close)
	rc.caFile = filepath.Join(t.TempDir(), "receiver-ca.pem")
	if err := os.WriteFile(rc.caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: rc.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	return rc
}
