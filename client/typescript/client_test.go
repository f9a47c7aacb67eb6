// Package typescript_test runs the TypeScript client's tests under Node,
// against a real node, with the package built and installed as a user
// would: npm run build, npm pack, npm install of the tarball into a fresh
// project, then node --test over test/*.test.mjs there, importing
// "@platen/client" by its name.
package typescript_test

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/node"
	"github.com/platen/platen/sign/signtest"
)

// The per-key rate the node is started with: the 429 test drains a key of
// its own; the other test files each use a key of their own, and stay under
// the burst.
const (
	rateLimit = 1
	rateBurst = 120
)

func TestClientUnderNode(t *testing.T) {
	start := time.Now()
	for _, bin := range []string{"node", "npm"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Fatalf("%s is not installed (scripts/install-deps.sh --test installs it): the TypeScript client cannot be tested", bin)
		}
	}
	pkg, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()

	// The node starts while npm works.
	certs := writeCerts(t, tmp)
	p12 := writePKCS12(t, tmp)
	var n *testnode.Node
	started := make(chan struct{})
	go func() {
		defer close(started)
		n = testnode.Start(t, func(c *node.Config) {
			c.WebhookAllowPrivate = true
			c.WebhookCAFile = certs.ca
			c.HTTP.RateLimit, c.HTTP.RateBurst = rateLimit, rateBurst
			c.WebhookSchedule = []time.Duration{time.Second, time.Second}
		})
	}()

	// 1. The package as its author builds it.
	if testnode.Stale(filepath.Join(pkg, "node_modules", ".package-lock.json"), filepath.Join(pkg, "package-lock.json"), filepath.Join(pkg, "package.json")) {
		run(t, pkg, nil, "npm", "ci", "--no-audit", "--no-fund")
	}
	run(t, pkg, nil, "npm", "run", "build")
	packed := run(t, pkg, nil, "npm", "pack", "--json", "--pack-destination", tmp)
	var pk []struct {
		Filename string `json:"filename"`
		Files    []struct {
			Path string `json:"path"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(packed[strings.Index(packed, "["):]), &pk); err != nil || len(pk) != 1 {
		t.Fatalf("npm pack --json: %v\n%s", err, packed)
	}
	// The package holds its build and nothing else, and needs nothing at run time.
	files := map[string]bool{}
	for _, f := range pk[0].Files {
		files[f.Path] = true
		if f.Path != "package.json" && f.Path != "README.md" && !strings.HasPrefix(f.Path, "dist/") {
			t.Errorf("the package holds %s", f.Path)
		}
	}
	for _, want := range []string{"dist/index.js", "dist/index.d.ts", "README.md"} {
		if !files[want] {
			t.Errorf("the package lacks %s", want)
		}
	}
	var manifest map[string]json.RawMessage
	raw, err := os.ReadFile(filepath.Join(pkg, "package.json"))
	must(t, err)
	must(t, json.Unmarshal(raw, &manifest))
	if deps, ok := manifest["dependencies"]; ok && string(deps) != "{}" {
		t.Errorf("package.json has dependencies at run time: %s", deps)
	}
	tarball := filepath.Join(tmp, filepath.Base(pk[0].Filename))

	// 2. A user's project: the tarball and ws, installed by name.
	proj := filepath.Join(tmp, "project")
	must(t, os.MkdirAll(filepath.Join(proj, "test"), 0o755))
	must(t, os.WriteFile(filepath.Join(proj, "package.json"), []byte(`{"name":"platen-client-user","private":true,"type":"module"}`), 0o644))
	var meta struct {
		DevDependencies map[string]string `json:"devDependencies"`
	}
	must(t, json.Unmarshal(raw, &meta))
	run(t, proj, nil, "npm", "install", "--prefer-offline", "--no-audit", "--no-fund", tarball,
		"ws@"+meta.DevDependencies["ws"], "@types/node@"+meta.DevDependencies["@types/node"])

	// The declarations as a TypeScript user sees them: in a project for
	// browsers (lib DOM) and in one for Node (@types/node, no DOM).
	// They are checked while the tests below run.
	copyFile(t, filepath.Join(pkg, "test", "consumer.ts"), filepath.Join(proj, "consumer.ts"))
	var checks sync.WaitGroup
	for name, libs := range map[string]string{"dom": `"lib":["ES2022","DOM"],"types":[]`, "node": `"lib":["ES2022"],"types":["node"]`} {
		config := "tsconfig." + name + ".json"
		must(t, os.WriteFile(filepath.Join(proj, config), []byte(`{"compilerOptions":{"target":"ES2022","module":"NodeNext","moduleResolution":"NodeNext",`+libs+`,"strict":true,"noEmit":true},"files":["consumer.ts"]}`), 0o644))
		checks.Add(1)
		go func() {
			defer checks.Done()
			if err := runErr(t, proj, nil, filepath.Join(pkg, "node_modules", ".bin", "tsc"), "-p", config); err != nil {
				t.Errorf("test/consumer.ts does not type-check against the installed package (%s): %v", config, err)
			}
		}()
	}
	defer checks.Wait()

	// 3. The node's tests, by name.
	tests, err := filepath.Glob(filepath.Join(pkg, "test", "*.test.mjs"))
	must(t, err)
	if len(tests) == 0 {
		t.Fatal("no test/*.test.mjs")
	}
	modules, err := filepath.Glob(filepath.Join(pkg, "test", "*.mjs"))
	must(t, err)
	for _, f := range modules {
		copyFile(t, f, filepath.Join(proj, "test", filepath.Base(f)))
	}
	<-started
	if n == nil {
		t.FailNow()
	}
	env := []string{
		"PLATEN_URL=" + n.URL,
		"PLATEN_API_KEY=" + n.Key,
		"PLATEN_OPERATOR_TOKEN=" + n.OperatorToken,
		"PLATEN_ORG_ID=" + n.OrgID,
		"PLATEN_TLS_CERT=" + certs.cert,
		"PLATEN_TLS_KEY=" + certs.key,
		"PLATEN_SIGNING_P12=" + p12.file,
		"PLATEN_SIGNING_PASSWORD=" + p12.password,
		"PLATEN_SIGNING_SHA256=" + p12.sha256,
		"PLATEN_RATE_LIMIT=" + itoa(rateLimit),
		"PLATEN_RATE_BURST=" + itoa(rateBurst),
	}
	args := []string{"--test", "--test-reporter=spec", "--test-concurrency=8"}
	for _, f := range tests {
		args = append(args, filepath.Join("test", filepath.Base(f)))
	}
	run(t, proj, env, "node", args...)
	t.Logf("the TypeScript client's test took %s", time.Since(start).Round(time.Millisecond))
}

// run runs a command in dir, streaming its output into the test's log, and
// fails the test when it fails. It answers what the command wrote to stdout.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	var out strings.Builder
	if err := runTo(t, &out, dir, env, name, args...); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// runErr is run for another goroutine than the test's: it answers the
// failure rather than stopping the test.
func runErr(t *testing.T, dir string, env []string, name string, args ...string) error {
	var out strings.Builder
	return runTo(t, &out, dir, env, name, args...)
}

// runTo runs a command, logging its output and keeping its stdout in out.
func runTo(t *testing.T, out *strings.Builder, dir string, env []string, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Env = append(cmd.Env, "NO_COLOR=1", "npm_config_update_notifier=false")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	began := time.Now()
	if err := cmd.Start(); err != nil {
		return err
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, r := range []struct {
		rd   io.Reader
		keep bool
	}{{stdout, true}, {stderr, false}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := bufio.NewScanner(r.rd)
			sc.Buffer(make([]byte, 1<<20), 1<<20)
			for sc.Scan() {
				line := sc.Text()
				if strings.Contains(line, `Unknown user config "nodedir"`) {
					continue
				}
				t.Log(line)
				if r.keep {
					mu.Lock()
					out.WriteString(line + "\n")
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("%s %s (in %s): %w", name, strings.Join(args, " "), dir, err)
	}
	t.Logf("%s %s: %s", filepath.Base(name), strings.Join(args, " "), time.Since(began).Round(time.Millisecond))
	return nil
}

type certFiles struct{ ca, cert, key string }

// writeCerts makes a CA the node's deliveries trust and a certificate for
// 127.0.0.1 the Node receiver serves.
func writeCerts(t *testing.T, dir string) certFiles {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	must(t, err)
	ca := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "platen ts client test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	must(t, err)
	caCert, err := x509.ParseCertificate(caDER)
	must(t, err)
	leafKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	must(t, err)
	leaf := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, leaf, caCert, &leafKey.PublicKey, caKey)
	must(t, err)
	keyDER, err := x509.MarshalPKCS8PrivateKey(leafKey)
	must(t, err)
	f := certFiles{ca: filepath.Join(dir, "ca.pem"), cert: filepath.Join(dir, "cert.pem"), key: filepath.Join(dir, "key.pem")}
	must(t, os.WriteFile(f.ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), 0o644))
	must(t, os.WriteFile(f.cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: leafDER}), 0o644))
	must(t, os.WriteFile(f.key, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600))
	return f
}

// signingFile is a PKCS#12 file for test/signing.test.mjs to upload: its
// path, its password and its certificate's SHA-256.
type signingFile struct{ file, password, sha256 string }

// writePKCS12 makes a signing key and certificate for "Ada Lovelace",
// issued by a test authority, as the PKCS#12 file a user would upload.
func writePKCS12(t *testing.T, dir string) signingFile {
	t.Helper()
	ca, err := signtest.NewAuthority("platen ts client test root")
	must(t, err)
	id, err := ca.Issue("Ada Lovelace", signtest.Options{})
	must(t, err)
	f := signingFile{file: filepath.Join(dir, "ada.p12"), password: "correct horse battery staple", sha256: id.Fingerprint()}
	der, err := signtest.PKCS12(id, f.password)
	must(t, err)
	must(t, os.WriteFile(f.file, der, 0o600))
	return f
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	must(t, err)
	must(t, os.WriteFile(to, b, 0o644))
}

func itoa(n int) string { return strconv.Itoa(n) }

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
