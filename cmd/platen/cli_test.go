package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/platen/platen/client"
	"github.com/platen/platen/internal/poll"
	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/node"
	"github.com/platen/platen/pdf"
)

// cliEnv is a profile file of the test's own, and no PLATEN_ variable of
// the environment the tests run in.
func cliEnv(t *testing.T) string {
	t.Helper()
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "PLATEN_") {
			t.Setenv(k, "")
			os.Unsetenv(k)
		}
	}
	config := filepath.Join(t.TempDir(), "platen", "config.json")
	t.Setenv("PLATEN_CONFIG", config)
	return config
}

// cli runs `platen args…` (a command for people) in this process.
func cli(t *testing.T, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out bytes.Buffer
	run := people[args[0]]
	if run == nil {
		t.Fatalf("no command %s", args[0])
	}
	err := run(ctx, args[1:], &out)
	return out.String(), err
}

// mustCLI is cli that must succeed.
func mustCLI(t *testing.T, args ...string) string {
	t.Helper()
	out, err := cli(t, args...)
	if err != nil {
		t.Fatalf("platen %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// cliNode starts a node and logs the CLI into it as the default profile.
func cliNode(t *testing.T, change func(*node.Config)) *testnode.Node {
	t.Helper()
	n := testnode.Start(t, change)
	mustCLI(t, "login", "--url", n.URL, "--key", n.Key)
	return n
}

func TestConfigPrecedence(t *testing.T) {
	config := cliEnv(t)
	n := testnode.Start(t, nil)
	// login checks the key and saves it; a refused key saves nothing.
	if _, err := cli(t, "login", "--url", n.URL, "--key", "plt_"+strings.Repeat("x", 43)); err == nil || !strings.Contains(err.Error(), "UNAUTHENTICATED") {
		t.Fatalf("login with a bad key: %v", err)
	}
	if _, err := os.Stat(config); err == nil {
		t.Fatal("a refused login wrote the profile file")
	}
	out := mustCLI(t, "login", "--url", n.URL, "--key", n.Key)
	if !strings.Contains(out, `"default"`) || !strings.Contains(out, "Sandbox organisation") {
		t.Fatalf("login: %s", out)
	}
	if _, err := cli(t, "login", "--url", "http://127.0.0.1:1", "--key", n.Key, "--profile", "x"); err == nil || !strings.Contains(err.Error(), "cannot reach") {
		t.Fatalf("login to nowhere: %v", err)
	}
	if _, err := saveProfile("other", Profile{URL: "http://127.0.0.1:1", Key: "plt_other"}, false); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(config)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("profile file: %v %v", st, err)
	}
	out = mustCLI(t, "profiles")
	if strings.Contains(out, n.Key) || !strings.Contains(out, "*default") || !strings.Contains(out, maskKey(n.Key)) || !strings.Contains(out, "other") {
		t.Fatalf("profiles (keys masked, default marked):\n%s", out)
	}

	resolve := func(g globals) target {
		t.Helper()
		tg, err := g.resolve()
		if err != nil {
			t.Fatal(err)
		}
		return tg
	}
	// The default profile.
	if tg := resolve(globals{}); tg.URL != n.URL || tg.Key != n.Key || tg.Profile != "default" {
		t.Fatalf("default profile: %+v", tg)
	}
	// PLATEN_PROFILE names another; --profile beats it.
	t.Setenv("PLATEN_PROFILE", "other")
	if tg := resolve(globals{}); tg.URL != "http://127.0.0.1:1" {
		t.Fatalf("PLATEN_PROFILE: %+v", tg)
	}
	if tg := resolve(globals{profile: "default"}); tg.URL != n.URL {
		t.Fatalf("--profile over PLATEN_PROFILE: %+v", tg)
	}
	t.Setenv("PLATEN_PROFILE", "")
	// The environment beats the profile; the flag beats the environment.
	t.Setenv("PLATEN_URL", "http://env.example")
	t.Setenv("PLATEN_API_KEY", "plt_env")
	if tg := resolve(globals{}); tg.URL != "http://env.example" || tg.Key != "plt_env" || tg.URLFrom != "PLATEN_URL" {
		t.Fatalf("environment over profile: %+v", tg)
	}
	if tg := resolve(globals{url: "http://flag.example/", key: "plt_flag"}); tg.URL != "http://flag.example" || tg.Key != "plt_flag" || tg.KeyFrom != "flag" {
		t.Fatalf("flag over environment: %+v", tg)
	}
	// A profile that does not exist is an error naming it.
	if _, err := (&globals{profile: "nope"}).resolve(); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Fatalf("unknown profile: %v", err)
	}
	// Nothing at all: the default address, and no key, which a command refuses.
	t.Setenv("PLATEN_URL", "")
	t.Setenv("PLATEN_API_KEY", "")
	t.Setenv("PLATEN_CONFIG", filepath.Join(t.TempDir(), "none.json"))
	if tg := resolve(globals{}); tg.URL != defaultURL || tg.Key != "" {
		t.Fatalf("nothing configured: %+v", tg)
	}
	if _, err := cli(t, "templates", "list"); err == nil || !strings.Contains(err.Error(), "platen login") {
		t.Fatalf("no key: %v", err)
	}
	// The flags work anywhere on the line, and the environment alone is enough.
	t.Setenv("PLATEN_URL", n.URL)
	t.Setenv("PLATEN_API_KEY", n.Key)
	if out := mustCLI(t, "templates", "list", "--json"); !json.Valid([]byte(out)) {
		t.Fatalf("--json: %s", out)
	}
}

// TestTemplatesPullPushRoundTrip: pull then push with no edits saves
// nothing; an edited file pushes as the next version with its diff shown;
// a refusal names the file; a new folder makes a new template.
func TestTemplatesPullPushRoundTrip(t *testing.T) {
	cliEnv(t)
	n := cliNode(t, nil)
	c := client.New(n.URL, n.Key)
	ctx := context.Background()
	mustCLI(t, "templates", "copy", "invoice", "--slug", "bill")
	dir := filepath.Join(t.TempDir(), "bill")
	out := mustCLI(t, "templates", "pull", "bill", dir)
	if !strings.Contains(out, "bill version 1") {
		t.Fatalf("pull: %s", out)
	}
	for _, f := range []string{metaFile, markupFile, manifestFile, schemaFile, sampleFile, contentFile, "assets/logo.svg"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatalf("pull wrote no %s: %v", f, err)
		}
	}
	// No edits: nothing saved.
	out = mustCLI(t, "templates", "push", dir)
	if !strings.Contains(out, "No changes") {
		t.Fatalf("push without edits: %s", out)
	}
	if tpl, err := c.Templates.Get(ctx, "bill"); err != nil || tpl.LatestVersion != 1 {
		t.Fatalf("a push without edits saved a version: %+v %v", tpl, err)
	}
	// One edit: version 2, the diff shown, the folder now version 2.
	html := filepath.Join(dir, markupFile)
	b, _ := os.ReadFile(html)
	edited := strings.Replace(string(b), "<h1>Invoice</h1>", "<h1>Bill</h1>", 1)
	if edited == string(b) {
		t.Fatal("the starter's markup has no <h1>Invoice</h1> to edit")
	}
	os.WriteFile(html, []byte(edited), 0o644)
	out = mustCLI(t, "templates", "push", dir, "--activate")
	for _, want := range []string{"--- a/template.html", "+++ b/template.html", "-        <h1>Invoice</h1>", "+        <h1>Bill</h1>", "Saved bill version 2 (active)"} {
		if !strings.Contains(out, want) {
			t.Fatalf("push after an edit does not show %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "manifest.json") || strings.Contains(out, "sample.json") {
		t.Fatalf("files not edited are shown as changed:\n%s", out)
	}
	v, err := c.Templates.GetVersion(ctx, "bill", 2)
	if err != nil || !strings.Contains(v.HTML, "<h1>Bill</h1>") || !v.Active {
		t.Fatalf("version 2: %v", err)
	}
	var meta folderMeta
	raw, _ := os.ReadFile(filepath.Join(dir, metaFile))
	json.Unmarshal(raw, &meta)
	if meta.Version != 2 || meta.Slug != "bill" {
		t.Fatalf("platen.json after the push: %s", raw)
	}
	if out := mustCLI(t, "templates", "push", dir); !strings.Contains(out, "No changes") {
		t.Fatalf("a second push: %s", out)
	}
	// A checkout whose platen.json still says version 1 (not committed
	// after the push, as in CI) is no change either: it is version 2.
	meta.Version = 1
	writeMeta(dir, meta)
	if out := mustCLI(t, "templates", "push", dir); !strings.Contains(out, "No changes: "+dir+" is bill version 2") {
		t.Fatalf("a push of version 2's files with platen.json at version 1: %s", out)
	}
	// --json says what changed, and parses.
	os.WriteFile(filepath.Join(dir, "assets", "logo.svg"), []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>`), 0o644)
	out = mustCLI(t, "templates", "push", dir, "--json")
	var res pushResult
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Version != 3 || res.Active || len(res.Changes) != 1 || res.Changes[0].Path != "assets/logo.svg" {
		t.Fatalf("push --json: %v\n%s", err, out)
	}
	out = mustCLI(t, "templates", "push", dir, "--activate")
	if !strings.Contains(out, "No changes") || !strings.Contains(out, "Activated bill version 3") {
		t.Fatalf("push --activate of an unchanged folder whose version is not active: %s", out)
	}
	if tpl, err := c.Templates.Get(ctx, "bill"); err != nil || tpl.ActiveVersion != 3 || tpl.LatestVersion != 3 {
		t.Fatalf("after push --activate without changes: %+v %v", tpl, err)
	}
	// A refusal names the file and the line.
	os.WriteFile(html, []byte(edited+"\n{{#if}}\n"), 0o644)
	if _, err := cli(t, "templates", "push", dir); err == nil || !strings.HasPrefix(err.Error(), "template.html: does not compile") || !strings.Contains(err.Error(), "INVALID_REQUEST") {
		t.Fatalf("a push of markup that does not compile: %v", err)
	}
	os.WriteFile(html, []byte(edited), 0o644)
	os.WriteFile(filepath.Join(dir, schemaFile), []byte(`{"customer": {"type": "nonsense"}}`), 0o644)
	if _, err := cli(t, "templates", "push", dir); err == nil || !strings.HasPrefix(err.Error(), "schema.json (customer.type)") {
		t.Fatalf("a push of a bad schema: %v", err)
	}
	// A folder whose slug is new makes the template, version 1 active.
	fresh := filepath.Join(t.TempDir(), "note")
	os.MkdirAll(fresh, 0o755)
	os.WriteFile(filepath.Join(fresh, markupFile), []byte("<!DOCTYPE html><p>Hello {{name}}</p>"), 0o644)
	os.WriteFile(filepath.Join(fresh, sampleFile), []byte(`{"name": "Ada"}`), 0o644)
	out = mustCLI(t, "templates", "push", fresh)
	if !strings.Contains(out, "Created the template note with version 1") {
		t.Fatalf("push of a new folder: %s", out)
	}
	if tpl, err := c.Templates.Get(ctx, "note"); err != nil || tpl.ActiveVersion != 1 {
		t.Fatalf("the new template: %+v %v", tpl, err)
	}
	if out := mustCLI(t, "templates", "list"); !strings.Contains(out, "note") || !strings.Contains(out, "bill") {
		t.Fatalf("templates list: %s", out)
	}
}

// TestGenerateAndDocuments: generate -o writes a PDF of the pages the
// document has; documents list, get and download find it; a failure exits
// with its code.
func TestGenerateAndDocuments(t *testing.T) {
	cliEnv(t)
	cliNode(t, nil)
	mustCLI(t, "templates", "copy", "statement")
	dir := t.TempDir()
	pdfPath := filepath.Join(dir, "out.pdf")
	out := mustCLI(t, "generate", "statement", "--sample", "-o", pdfPath)
	m := regexpFind(`Document:\s+(doc_\S+)`, out)
	pages := regexpFind(`Pages:\s+(\d+)`, out)
	if m == "" || pages == "" || !strings.Contains(out, "Status:        completed") || !strings.Contains(out, "from the allowance") || !strings.Contains(out, "Engine:") {
		t.Fatalf("generate:\n%s", out)
	}
	b, err := os.ReadFile(pdfPath)
	if err != nil {
		t.Fatal(err)
	}
	count, err := pdf.PageCount(b)
	if err != nil || strconv.Itoa(count) != pages || count < 2 {
		t.Fatalf("the PDF has %d pages (%v); generate said %s", count, err, pages)
	}
	if _, err := exec.LookPath("pdfinfo"); err == nil {
		info, _ := exec.Command("pdfinfo", pdfPath).Output()
		if regexpFind(`Pages:\s+(\d+)`, string(info)) != pages {
			t.Fatalf("pdfinfo:\n%s", info)
		}
	}
	// From standard input... and a data file.
	dataFile := filepath.Join(dir, "data.json")
	os.WriteFile(dataFile, []byte(`{"nothing": true}`), 0o644)
	if _, err := cli(t, "generate", "statement", "--data", dataFile); err == nil || !strings.Contains(err.Error(), "PAYLOAD_VALIDATION_FAILED") {
		t.Fatalf("generate with data the schema refuses: %v", err)
	}
	os.WriteFile(dataFile, []byte(`{"nothing": `), 0o644)
	if _, err := cli(t, "generate", "statement", "--data", dataFile); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Fatalf("generate with data that is not JSON: %v", err)
	}

	out = mustCLI(t, "documents", "list", "--json")
	var docs []client.Document
	if err := json.Unmarshal([]byte(out), &docs); err != nil || len(docs) != 1 || docs[0].ID != m {
		t.Fatalf("documents list --json: %v\n%s", err, out)
	}
	if out := mustCLI(t, "documents", "list", "--status", "completed", "--template", "statement"); !strings.Contains(out, m) {
		t.Fatalf("documents list: %s", out)
	}
	if out := mustCLI(t, "documents", "list", "--status", "failed"); strings.Contains(out, m) {
		t.Fatalf("documents list --status failed lists a completed one: %s", out)
	}
	out = mustCLI(t, "documents", "get", m)
	if !strings.Contains(out, m) || !strings.Contains(out, "completed") {
		t.Fatalf("documents get: %s", out)
	}
	out = mustCLI(t, "documents", "get", m, "--json")
	var d client.Document
	if err := json.Unmarshal([]byte(out), &d); err != nil || d.ID != m {
		t.Fatalf("documents get --json: %v\n%s", err, out)
	}
	// The render report: its SHA-256 is the PDF's.
	sum := sha256.Sum256(b)
	if d.Report == nil || d.Report.SHA256 != hex.EncodeToString(sum[:]) {
		t.Fatalf("the document's report: %+v", d.Report)
	}
	// --json prints the API's data: the report's lists are there when
	// empty, as the API (and openapi.yaml's required) has them.
	var raw struct {
		Report map[string]json.RawMessage `json:"report"`
	}
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"engine", "engineReason", "fonts", "failedAssets", "ms", "bytes", "sha256"} {
		if _, ok := raw.Report[k]; !ok {
			t.Fatalf("documents get --json: the report lacks %q:\n%s", k, out)
		}
	}
	out = mustCLI(t, "documents", "get", m)
	for _, want := range []string{"Render report:", "SHA-256:", hex.EncodeToString(sum[:]), "Time (ms):", "rendering"} {
		if !strings.Contains(out, want) {
			t.Fatalf("documents get does not print %q of the report:\n%s", want, out)
		}
	}
	again := filepath.Join(dir, "again.pdf")
	mustCLI(t, "documents", "download", m, "-o", again)
	if b2, _ := os.ReadFile(again); !bytes.Equal(b, b2) {
		t.Fatal("documents download wrote other bytes than generate -o")
	}
	if _, err := cli(t, "documents", "get", "doc_nope"); err == nil || !strings.Contains(err.Error(), "NOT_FOUND (HTTP 404)") {
		t.Fatalf("documents get of no document: %v", err)
	}

	// A document that fails exits non-zero with its code; get shows it.
	boom := filepath.Join(t.TempDir(), "boom")
	os.MkdirAll(boom, 0o755)
	os.WriteFile(filepath.Join(boom, markupFile), []byte(`<!DOCTYPE html><p>{{#if boom}}{{asset "nope.png"}}{{/if}}fine</p>`), 0o644)
	mustCLI(t, "templates", "push", boom)
	os.WriteFile(dataFile, []byte(`{"boom": true}`), 0o644)
	out, err = cli(t, "generate", "boom", "--data", dataFile)
	failed := regexpFind(`Document:\s+(doc_\S+)`, out)
	if err == nil || !strings.Contains(err.Error(), "failed: TEMPLATE_ERROR") || failed == "" || regexpFind(`Status:\s+(\w+)`, out) != "failed" {
		t.Fatalf("generate of a document that fails: %v\n%s", err, out)
	}
	out = mustCLI(t, "documents", "get", failed)
	if !strings.Contains(out, "TEMPLATE_ERROR") || regexpFind(`Failed at:\s+(\w+)`, out) != "filling" {
		t.Fatalf("documents get of a failed document:\n%s", out)
	}
	if out, err := cli(t, "documents", "download", failed); err == nil || !strings.Contains(err.Error(), "failed") {
		t.Fatalf("download of a failed document: %v %s", err, out)
	}
}

func regexpFind(re, s string) string {
	m := regexp.MustCompile(re).FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	return m[1]
}

// TestWebhooksListenReceivesAVerifiedDelivery: `webhooks listen` against a
// node set up as `serve --dev` sets it up registers its endpoint, prints a
// real delivery as verified, and deletes the endpoint when stopped.
func TestWebhooksListenReceivesAVerifiedDelivery(t *testing.T) {
	cliEnv(t)
	t.Chdir(t.TempDir()) // generate writes the PDF here
	n := cliNode(t, func(cfg *node.Config) {
		if err := devMode(cfg, &bytes.Buffer{}); err != nil {
			t.Fatal(err)
		}
	})
	mustCLI(t, "templates", "copy", "receipt")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &testnode.SyncBuffer{}
	done := make(chan error, 1)
	go func() { done <- webhooksListen(ctx, []string{"--event", "document.completed,document.failed"}, out) }()
	poll.Until(t, 30*time.Second, func() error {
		if !strings.Contains(out.String(), "Listening on https://127.0.0.1:") {
			return errors.New("not listening yet: " + out.String())
		}
		return nil
	})
	c := client.New(n.URL, n.Key)
	hooks, err := c.Webhooks.List(context.Background())
	if err != nil || len(hooks) != 1 || !strings.HasPrefix(hooks[0].URL, "https://127.0.0.1:") {
		t.Fatalf("the endpoint: %+v %v", hooks, err)
	}
	gen := mustCLI(t, "generate", "receipt", "--sample")
	id := regexpFind(`Document:\s+(doc_\S+)`, gen)
	poll.Until(t, 60*time.Second, func() error {
		if !strings.Contains(out.String(), "dlv_") {
			return errors.New("no delivery yet")
		}
		return nil
	})
	line := ""
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.Contains(l, "dlv_") {
			line = l
		}
	}
	if !strings.Contains(line, id+" completed") || !strings.HasSuffix(line, "  verified") || !strings.Contains(line, "dlv_") {
		t.Fatalf("the delivery's line: %q", line)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("listen: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "Deleted the endpoint "+hooks[0].ID) {
		t.Fatalf("listen did not say it deleted the endpoint:\n%s", out.String())
	}
	if hooks, err := c.Webhooks.List(context.Background()); err != nil || len(hooks) != 0 {
		t.Fatalf("after listen stopped: %+v %v", hooks, err)
	}
}

// TestCommandsExitNonZeroWithTheAPIsCode runs the binary: a refusal exits 1
// with the code on stderr's last line; --help exits 0.
func TestCommandsExitNonZeroWithTheAPIsCode(t *testing.T) {
	n := testnode.Start(t, nil)
	cmd := command(context.Background(), "documents", "get", "doc_nope")
	cmd.Env = append(cmd.Env, "PLATEN_URL="+n.URL, "PLATEN_API_KEY="+n.Key, "PLATEN_CONFIG="+filepath.Join(t.TempDir(), "c.json"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.HasPrefix(stderr.String(), "platen: NOT_FOUND (HTTP 404)") {
		t.Fatalf("exit %v, stderr %q", err, stderr.String())
	}
	for _, args := range [][]string{{"help"}, {"templates", "push", "-h"}, {"help", "webhooks"}, {"generate", "--help"}} {
		out, err := command(context.Background(), args...).Output()
		if err != nil || len(out) == 0 {
			t.Fatalf("platen %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	out, _ := command(context.Background(), "help").Output()
	for _, w := range []string{"templates", "generate", "documents", "keys", "webhooks", "serve", "admin", "render", "watch"} {
		if !strings.Contains(string(out), w) {
			t.Fatalf("platen help does not list %s", w)
		}
	}
}

// TestKeysCreateListRevoke: a key made with a scope is shown once and
// works; the list shows it; revoked, it is refused.
func TestKeysCreateListRevoke(t *testing.T) {
	cliEnv(t)
	n := cliNode(t, nil)
	out := mustCLI(t, "keys", "create", "reports", "--scope", "documents.read", "--scope", "templates.read")
	secret := regexpFind(`(?m)^(plt_[A-Za-z0-9]{43})$`, out)
	id := regexpFind(`Key:\s+(\S+)`, out)
	if secret == "" || id == "" || !strings.Contains(out, "shown once") {
		t.Fatalf("keys create:\n%s", out)
	}
	if r := testnode.Do(t, "GET", n.URL+"/v1/documents", secret, nil); r.Status != 200 {
		t.Fatalf("the new key: %s", r)
	}
	out = mustCLI(t, "keys", "list")
	if !strings.Contains(out, id) || !strings.Contains(out, "documents.read,templates.read") || strings.Contains(out, secret) {
		t.Fatalf("keys list:\n%s", out)
	}
	var list []client.Key
	if err := json.Unmarshal([]byte(mustCLI(t, "keys", "list", "--json")), &list); err != nil || len(list) != 2 || list[0].ID != id {
		t.Fatalf("keys list --json: %v %+v", err, list)
	}
	// The new key may not manage keys: the refusal names the scope.
	if _, err := cli(t, "keys", "create", "more", "--scope", "documents.read", "--key", secret); err == nil || !strings.Contains(err.Error(), "FORBIDDEN (HTTP 403)") {
		t.Fatalf("keys create with a key without keys.write: %v", err)
	}
	all := mustCLI(t, "keys", "create", "everything", "--scope", "all", "--json")
	var k client.Key
	if err := json.Unmarshal([]byte(all), &k); err != nil || len(k.Scopes) < 9 || !strings.HasPrefix(k.Key, "plt_") {
		t.Fatalf("keys create --scope all: %v\n%s", err, all)
	}
	if _, err := cli(t, "keys", "create", "noscope"); err == nil || !strings.Contains(err.Error(), "usage") {
		t.Fatalf("keys create without --scope: %v", err)
	}
	if out := mustCLI(t, "keys", "revoke", id); !strings.Contains(out, "Revoked "+id) {
		t.Fatalf("keys revoke: %s", out)
	}
	if r := testnode.Do(t, "GET", n.URL+"/v1/documents", secret, nil); r.Status != 401 {
		t.Fatalf("the revoked key: %s", r)
	}
	if out := mustCLI(t, "keys", "list"); !strings.Contains(out, "revoked") {
		t.Fatalf("keys list after revoking: %s", out)
	}
}

// TestGenerateDryRunQuotesWhatTheDocumentCosts: on a plan with a wallet and
// an allowance smaller than the document, the quote's pages, allowance
// pages and wallet amount are what generating it then charges; the dry run
// makes no document; a quote is refused as the request would be.
func TestGenerateDryRunQuotesWhatTheDocumentCosts(t *testing.T) {
	cliEnv(t)
	t.Chdir(t.TempDir()) // generate writes the PDF here
	n := cliNode(t, nil)
	op := func(args ...string) {
		t.Helper()
		var out bytes.Buffer
		if err := admin(append([]string{"--url", n.URL, "--token", n.OperatorToken}, args...), &out); err != nil {
			t.Fatalf("admin %v: %v", args, err)
		}
	}
	op("set-plan", n.OrgID, "starter")
	op("set-terms", "starter", "1", "5000")
	op("credit", n.OrgID, "1000000", "test-credit")
	mustCLI(t, "templates", "copy", "statement")

	out := mustCLI(t, "generate", "statement", "--sample", "--dry-run", "--json")
	var q client.Quote
	if err := json.Unmarshal([]byte(out), &q); err != nil {
		t.Fatalf("--dry-run --json: %v\n%s", err, out)
	}
	if q.PageCount < 2 || q.AllowancePages != 1 || q.WalletMicros != int64(q.PageCount-1)*5000 || !q.Payable {
		t.Fatalf("the quote: %+v", q)
	}
	out = mustCLI(t, "generate", "statement", "--sample", "--dry-run")
	for _, want := range []string{"Pages:", strconv.Itoa(q.PageCount), "1 page", micros(q.WalletMicros), "Payable now:         yes", "nothing was stored or billed"} {
		if !strings.Contains(out, want) {
			t.Fatalf("--dry-run does not print %q:\n%s", want, out)
		}
	}
	if out := mustCLI(t, "documents", "list", "--json"); strings.TrimSpace(out) != "[]" {
		t.Fatalf("a dry run made a document: %s", out)
	}
	empty := filepath.Join(t.TempDir(), "empty.json")
	os.WriteFile(empty, []byte("{}"), 0o644)
	if _, err := cli(t, "generate", "statement", "--data", empty, "--dry-run"); err == nil || !strings.Contains(err.Error(), "PAYLOAD_VALIDATION_FAILED (HTTP 422)") {
		t.Fatalf("a dry run with data the schema refuses: %v", err)
	}
	os.WriteFile(empty, []byte(" \n"), 0o644)
	if _, err := cli(t, "generate", "statement", "--data", empty, "--dry-run"); err == nil || !strings.Contains(err.Error(), "is empty") {
		t.Fatalf("an empty data file: %v", err)
	}

	out = mustCLI(t, "generate", "statement", "--sample")
	// Without -o the PDF is written under the file name the record gives.
	file := regexpFind(`File:\s+(\S+\.pdf)`, out)
	if pdf, err := os.ReadFile(file); err != nil || !bytes.HasPrefix(pdf, []byte("%PDF-")) || !strings.Contains(out, "Wrote "+file) {
		t.Fatalf("generate without -o did not write %q (%v):\n%s", file, err, out)
	}
	want := fmt.Sprintf("Charge:        1 page from the allowance, %s from the wallet (%s)", plural(int64(q.PageCount-1), "page"), micros(q.WalletMicros))
	if !strings.Contains(out, want) || !strings.Contains(out, "Pages:         "+strconv.Itoa(q.PageCount)) {
		t.Fatalf("the document's charge is not the quote's (%q):\n%s", want, out)
	}
}

// TestDownloadNameStaysInThisFolder: documents download without -o writes
// the server's file name only when it is a plain PDF file name here;
// anything else (a path, a hidden file, another kind of file) becomes
// ID.pdf.
func TestDownloadNameStaysInThisFolder(t *testing.T) {
	for _, c := range []struct{ filename, id, want string }{
		{"invoice-7.pdf", "doc_1", "invoice-7.pdf"},
		{"Invoice 7.PDF", "doc_1", "Invoice 7.PDF"},
		{"../../.bashrc", "doc_1", "doc_1.pdf"},
		{"../invoice.pdf", "doc_1", "doc_1.pdf"},
		{"/etc/cron.d/x.pdf", "doc_1", "doc_1.pdf"},
		{`..\evil.pdf`, "doc_1", "doc_1.pdf"},
		{".profile", "doc_1", "doc_1.pdf"},
		{".x.pdf", "doc_1", "doc_1.pdf"},
		{"run.sh", "doc_1", "doc_1.pdf"},
		{"..", "doc_1", "doc_1.pdf"},
		{"", "doc_1", "doc_1.pdf"},
		{"", "../x", "x.pdf"},
		{"", "..", "document.pdf"},
	} {
		if got := downloadName(c.filename, c.id); got != c.want {
			t.Errorf("downloadName(%q, %q) = %q, want %q", c.filename, c.id, got, c.want)
		}
	}
}

// TestDocumentsDownloadIgnoresAServerPath: a server whose document is named
// "../.bashrc" gets its PDF written as ID.pdf in this folder, and nothing
// beside it.
func TestDocumentsDownloadIgnoresAServerPath(t *testing.T) {
	cliEnv(t)
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v1/documents/doc_1":
			fmt.Fprint(w, `{"success":true,"data":{"id":"doc_1","status":"completed","filename":"../.bashrc"}}`)
		case "/v1/documents/doc_1/download":
			fmt.Fprintf(w, `{"success":true,"data":{"url":%q,"expiresAt":"2030-01-01T00:00:00Z"}}`, srv.URL+"/files/doc_1")
		case "/files/doc_1":
			w.Header().Set("Content-Type", "application/pdf")
			fmt.Fprint(w, "%PDF-1.7 not really")
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	base := t.TempDir()
	here := filepath.Join(base, "here")
	if err := os.Mkdir(here, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(here)
	mustCLI(t, "documents", "download", "doc_1", "--url", srv.URL, "--key", "plt_test")
	for _, p := range []string{filepath.Join(base, ".bashrc"), filepath.Join(here, ".bashrc")} {
		if _, err := os.Stat(p); err == nil {
			t.Fatalf("the download was written as %s, the server's choice", p)
		}
	}
	if b, err := os.ReadFile(filepath.Join(here, "doc_1.pdf")); err != nil || !strings.HasPrefix(string(b), "%PDF") {
		t.Fatalf("doc_1.pdf: %q, %v", b, err)
	}
}

// TestProfileFileWritesNoFileItDidNotMake: saving the profile file writes
// the keys into a file of its own, never into one left beside it (a
// readable file or a symlink named as the old temporary file was).
func TestProfileFileWritesNoFileItDidNotMake(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "config.json")
	t.Setenv("PLATEN_CONFIG", config)
	planted := config + ".tmp"
	if err := os.WriteFile(planted, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	os.Chmod(planted, 0o666)
	plantedInfo, err := os.Stat(planted)
	if err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, config+".tmp2"); err != nil {
		t.Fatal(err)
	}
	if _, err := saveProfile("p", Profile{URL: "http://127.0.0.1:1", Key: "plt_secret"}, false); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(config); err == nil && os.SameFile(st, plantedInfo) {
		t.Fatal("the keys were written into a file someone else left beside the profile file (its owner keeps reading it)")
	}
	if b, _ := os.ReadFile(victim); string(b) != "mine" {
		t.Fatalf("a file was overwritten: %q", b)
	}
	st, err := os.Stat(config)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the profile file: %v, %v", st, err)
	}
	if b, _ := os.ReadFile(config); !strings.Contains(string(b), "plt_secret") {
		t.Fatalf("the profile file: %q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 4 { // config.json, the planted two, victim
		t.Fatalf("left behind: %v", entries)
	}
}
