package node_test

import (
	"bytes"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/platen/platen/internal/poll"
	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/internal/tier"
)

// binary is the platen binary the process tests run, built once by
// TestMain; the fast tier (go test -short), which runs none of them, does
// not build it.
var binary string

func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		os.Exit(m.Run())
	}
	// With crash points (internal/crash), which do nothing unless a test
	// names one in PLATEN_CRASH_AT.
	bin, cleanup, err := testnode.BuildBinary("../cmd/platen", "-tags", "crashpoints")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = bin
	code := m.Run()
	cleanup()
	plainCleanup()
	os.Exit(code)
}

// plainBinary is the platen command built without the race detector, for
// the tests that measure a node's CPU, memory or timing: the detector slows
// every step several times and keeps its shadow memory. Built once, on
// first use.
var plainBinary = sync.OnceValues(func() (string, error) {
	bin, cleanup, err := testnode.BuildPlainBinary("../cmd/platen")
	if err == nil {
		plainCleanup = cleanup
	}
	return bin, err
})

// plainCleanup removes plainBinary's build, once TestMain's tests are done.
var plainCleanup = func() {}

// plain returns plainBinary, or fails t.
func plain(t *testing.T) string {
	t.Helper()
	bin, err := plainBinary()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// proc is a `platen serve` process.
type proc struct {
	cmd    *exec.Cmd
	url    string
	stdout *testnode.SyncBuffer
	stderr *testnode.SyncBuffer
	// exited is closed when the process has ended; err is then its exit error.
	exited chan struct{}
	err    error
}

// wait waits up to d for the process to end and returns its exit error.
func (p *proc) wait(t *testing.T, d time.Duration) error {
	t.Helper()
	select {
	case <-p.exited:
		return p.err
	case <-time.After(d):
		t.Fatalf("process still running after %s", d)
		return nil
	}
}

const opToken = "process-test-operator-token-1234"

func startProc(t *testing.T, dataDir, httpAddr, raftAddr string) *proc {
	t.Helper()
	return launch(t, httpAddr, 30*time.Second, "serve", "--data-dir", dataDir, "--http", httpAddr, "--raft", raftAddr)
}

// launch runs the platen binary with args and waits until the node on
// httpAddr is ready; the test ends it with SIGKILL if it still runs.
func launch(t *testing.T, httpAddr string, readyWait time.Duration, args ...string) *proc {
	t.Helper()
	return launchBinary(t, binary, httpAddr, readyWait, args...)
}

// launchBinary is launch with another build of platen.
func launchBinary(t *testing.T, bin, httpAddr string, readyWait time.Duration, args ...string) *proc {
	t.Helper()
	return launchWith(t, bin, nil, httpAddr, readyWait, args...)
}

// launchWith is launchBinary with more environment variables.
func launchWith(t *testing.T, bin string, env []string, httpAddr string, readyWait time.Duration, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(append(os.Environ(), "PLATEN_OPERATOR_TOKEN="+opToken), env...)
	p := &proc{cmd: cmd, url: "http://" + httpAddr, stdout: &testnode.SyncBuffer{}, stderr: &testnode.SyncBuffer{}, exited: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.stdout, p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-p.exited
	})
	if err := poll.Wait(readyWait, poll.Interval, func() error {
		res, err := http.Get(p.url + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return nil
			}
			err = fmt.Errorf("GET /readyz: HTTP %d", res.StatusCode)
		}
		select {
		case <-p.exited:
			t.Fatalf("node on %s exited: %v\n%s", httpAddr, p.err, p.stderr)
		default:
		}
		return err
	}); err != nil {
		t.Fatalf("node on %s not ready in %s (%v):\n%s\n%s", httpAddr, readyWait, err, p.stdout, p.stderr)
	}
	return p
}

// TestKill9DuringWriteBurstLosesNoAcknowledgedWrite kills the node with
// SIGKILL while credits and key creations are in flight, restarts it on the
// same data folder, and checks that every acknowledged write is there, and
// that the balance is exactly the sum of the credits that exist.
func TestKill9DuringWriteBurstLosesNoAcknowledgedWrite(t *testing.T) {
	tier.Full(t, "kills a node process mid-burst")
	dir := t.TempDir()
	httpAddr, raftAddr := testnode.FreeAddr(t), testnode.FreeAddr(t)
	p := startProc(t, dir, httpAddr, raftAddr)
	org := testnode.DataAs[testnode.Org](t, testnode.Do(t, "POST", p.url+"/admin/v1/orgs", opToken, map[string]any{"name": "Acme", "plan": "starter"})).ID

	type credit struct {
		ref    string
		amount int64
	}
	var (
		mu        sync.Mutex
		attempted []credit
		acked     []credit
		ackedKeys []string
		wg        sync.WaitGroup
	)
	stop := make(chan struct{})
	client := &http.Client{Timeout: 5 * time.Second}
	for g := 0; g < 12; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				if i%4 == 3 {
					r, err := post(client, p.url+"/admin/v1/orgs/"+org+"/keys", `{"name":"k","scopes":["wallet.read"]}`)
					if err == nil && r.Status == 201 {
						k, err := testnode.ParseData[testnode.Key](r)
						if err != nil {
							t.Errorf("a created key: %v: %s", err, r)
							continue
						}
						mu.Lock()
						ackedKeys = append(ackedKeys, k.Key)
						mu.Unlock()
					}
					continue
				}
				c := credit{fmt.Sprintf("g%d-%d", g, i), int64(1000 + g*100 + i)}
				mu.Lock()
				attempted = append(attempted, c)
				mu.Unlock()
				r, err := post(client, p.url+"/admin/v1/orgs/"+org+"/wallet/credit", fmt.Sprintf(`{"amountMicros":%d,"reference":%q}`, c.amount, c.ref))
				if err == nil && r.Status == 201 {
					mu.Lock()
					acked = append(acked, c)
					mu.Unlock()
				}
			}
		}(g)
	}
	// Kill once a good number of writes are acknowledged, while more are in
	// flight; after a minute, kill anyway (the counts are checked below).
	// Asked every 5 ms, so the kill lands soon after the 150th.
	_ = poll.Wait(60*time.Second, 5*time.Millisecond, func() error {
		mu.Lock()
		n := len(acked)
		mu.Unlock()
		if n < 150 {
			return fmt.Errorf("%d credits acknowledged", n)
		}
		return nil
	})
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	p.wait(t, 10*time.Second)
	close(stop)
	wg.Wait()
	if len(acked) < 50 || len(ackedKeys) < 10 {
		t.Fatalf("only %d credits and %d keys acknowledged before the kill", len(acked), len(ackedKeys))
	}
	t.Logf("killed with %d credits attempted, %d acknowledged, %d keys acknowledged", len(attempted), len(acked), len(ackedKeys))

	p = startProc(t, dir, httpAddr, raftAddr)
	if strings.Contains(p.stdout.String(), "First organisation") {
		t.Fatal("restart made a first organisation again")
	}
	for _, c := range acked {
		r := testnode.Do(t, "POST", p.url+"/admin/v1/orgs/"+org+"/wallet/credit", opToken, map[string]any{"amountMicros": c.amount, "reference": c.ref})
		if r.Status != 200 || !testnode.DataAs[testnode.Credit](t, r).Replayed {
			t.Fatalf("acknowledged credit %s lost: %s", c.ref, r)
		}
	}
	for _, k := range ackedKeys {
		if r := testnode.Do(t, "GET", p.url+"/v1", k, nil); r.Status != 200 {
			t.Fatalf("acknowledged key lost: %s", r)
		}
	}
	// Complete every attempted credit; the balance must then be their exact sum.
	var want int64
	for _, c := range attempted {
		want += c.amount
		r := testnode.Do(t, "POST", p.url+"/admin/v1/orgs/"+org+"/wallet/credit", opToken, map[string]any{"amountMicros": c.amount, "reference": c.ref})
		if r.Status != 200 && r.Status != 201 {
			t.Fatalf("credit %s after restart: %s", c.ref, r)
		}
	}
	got := testnode.DataAs[testnode.Org](t, testnode.Do(t, "GET", p.url+"/admin/v1/orgs/"+org, opToken, nil)).BalanceMicros
	if got != want {
		t.Fatalf("balance %d, want %d: a credit was applied twice or lost", got, want)
	}
}

func post(c *http.Client, url, body string) (testnode.Response, error) {
	return postAs(c, opToken, url, body)
}

func postAs(c *http.Client, token, url, body string) (testnode.Response, error) {
	req, _ := http.NewRequest("POST", url, bytes.NewBufferString(body))
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := c.Do(req)
	if err != nil {
		return testnode.Response{}, err
	}
	defer res.Body.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(res.Body); err != nil {
		return testnode.Response{}, err
	}
	r := testnode.Response{Status: res.StatusCode, Body: buf.Bytes()}
	return r, jsonInto(&r)
}

// TestSIGTERMDrainsAndRestartKeepsTheFirstKey starts a node on an empty
// folder, takes the key it prints, stops it with SIGTERM and starts it again.
func TestSIGTERMDrainsAndRestartKeepsTheFirstKey(t *testing.T) {
	tier.Full(t, "runs and restarts a node process")
	dir := t.TempDir()
	httpAddr, raftAddr := testnode.FreeAddr(t), testnode.FreeAddr(t)
	p := startProc(t, dir, httpAddr, raftAddr)
	key := regexp.MustCompile(`(?m)^\s+(plt_[A-Za-z0-9]{43})$`).FindStringSubmatch(p.stdout.String())
	if key == nil {
		t.Fatalf("first start printed no key:\n%s", p.stdout)
	}
	if r := testnode.Do(t, "GET", p.url+"/v1", key[1], nil); r.Status != 200 {
		t.Fatal(r)
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := p.wait(t, 30*time.Second); err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, p.stderr)
	}
	if !strings.Contains(p.stderr.String(), `"msg":"node stopped"`) {
		t.Fatalf("no orderly stop in the log:\n%s", p.stderr)
	}
	if strings.Contains(p.stderr.String(), key[1]) || strings.Contains(p.stderr.String(), opToken) {
		t.Fatal("a secret is in the log")
	}

	p = startProc(t, dir, httpAddr, raftAddr)
	if strings.Contains(p.stdout.String(), "plt_") {
		t.Fatalf("restart printed a secret again:\n%s", p.stdout)
	}
	if r := testnode.Do(t, "GET", p.url+"/v1", key[1], nil); r.Status != 200 {
		t.Fatalf("first key after restart: %s", r)
	}
	if r := testnode.Do(t, "GET", p.url+"/metrics", "", nil); !bytes.Contains(r.Body, []byte("platen_ready 1")) {
		t.Fatal("restarted node not ready in metrics")
	}
}

// TestDocumentsPendingAtKillFinishAfterRestart queues documents, kills the
// node while they render, and restarts it: every document must complete.
func TestDocumentsPendingAtKillFinishAfterRestart(t *testing.T) {
	tier.Full(t, "kills and restarts a node process")
	dir := t.TempDir()
	httpAddr, raftAddr := testnode.FreeAddr(t), testnode.FreeAddr(t)
	p := startProc(t, dir, httpAddr, raftAddr)
	key := regexp.MustCompile(`(?m)^\s+(plt_[A-Za-z0-9]{43})$`).FindStringSubmatch(p.stdout.String())[1]
	tpl := map[string]any{"name": "Note", "slug": "note",
		"html":     `<html><body>{{#each pages}}<div class="sheet" style="padding:20mm"><h1>Note {{@root.n}}</h1>{{#each items}}<p>{{this}}</p>{{/each}}</div>{{/each}}</body></html>`,
		"manifest": map[string]any{"pagination": map[string]any{"collection": "lines", "itemsPerPage": 20}}}
	if r := testnode.Do(t, "POST", p.url+"/v1/templates", key, tpl); r.Status != 201 {
		t.Fatal(r)
	}
	var ids []string
	for i := 0; i < 12; i++ {
		lines := make([]any, 100)
		for j := range lines {
			lines[j] = fmt.Sprintf("line %d", j)
		}
		r := testnode.Do(t, "POST", p.url+"/v1/documents", key, map[string]any{"templateId": "note", "data": map[string]any{"n": i, "lines": lines}, "wait": false})
		if r.Status != 202 {
			t.Fatalf("document %d: %s", i, r)
		}
		ids = append(ids, testnode.DataAs[testnode.Document](t, r).ID)
	}
	p.cmd.Process.Signal(syscall.SIGKILL)
	p.wait(t, 10*time.Second)

	p = startProc(t, dir, httpAddr, raftAddr)
	// Each document is read until it is done, in order, within 90 s for all.
	pendingAtRestart := 0
	read := map[string]bool{} // documents read at least once
	done := 0                 // ids[:done] are completed
	poll.Until(t, 90*time.Second, func() error {
		for ; done < len(ids); done++ {
			id := ids[done]
			d := testnode.DataAs[testnode.Document](t, testnode.Do(t, "GET", p.url+"/v1/documents/"+id, key, nil))
			if !read[id] && d.Status != "completed" {
				pendingAtRestart++
			}
			read[id] = true
			if d.Status == "failed" {
				t.Fatalf("document %s after restart: %+v", id, d)
			}
			if d.Status != "completed" || d.PageCount != 5 {
				return fmt.Errorf("document %s after restart: %+v", id, d)
			}
		}
		return nil
	})
	if pendingAtRestart == 0 {
		t.Fatal("every document finished before the kill; the test proves nothing")
	}
	t.Logf("%d of %d documents were pending at the kill and completed after restart", pendingAtRestart, len(ids))
}

// TestKill9DuringDocumentBurstKeepsTheLedgerConsistent kills the node while
// paid documents are being made and checks, after restart and once every
// document is finished, that the ledger adds up, holds are released, and each
// page beyond the allowance was charged exactly once.
func TestKill9DuringDocumentBurstKeepsTheLedgerConsistent(t *testing.T) {
	tier.Full(t, "kills a node process mid-burst")
	dir := t.TempDir()
	httpAddr, raftAddr := testnode.FreeAddr(t), testnode.FreeAddr(t)
	p := startProc(t, dir, httpAddr, raftAddr)
	testnode.Do(t, "PUT", p.url+"/admin/v1/plans/starter", opToken, map[string]any{"monthlyPages": 2, "pageRateMicros": 1000})
	org := testnode.DataAs[testnode.Org](t, testnode.Do(t, "POST", p.url+"/admin/v1/orgs", opToken, map[string]any{"name": "Paid", "plan": "starter"})).ID
	testnode.Do(t, "POST", p.url+"/admin/v1/orgs/"+org+"/wallet/credit", opToken, map[string]any{"amountMicros": 1000000, "reference": "topup"})
	key := testnode.DataAs[testnode.Key](t, testnode.Do(t, "POST", p.url+"/admin/v1/orgs/"+org+"/keys", opToken, map[string]any{"name": "k", "scopes": []string{"documents.generate", "templates.write"}})).Key
	testnode.Do(t, "POST", p.url+"/v1/templates", key, map[string]any{"name": "Note", "slug": "note",
		"html": `<html><body><div class="sheet" style="padding:20mm"><h1>Note {{n}}</h1></div></body></html>`})

	var mu sync.Mutex
	acked := 0
	stop := make(chan struct{})
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 5 * time.Second}
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				req, _ := http.NewRequest("POST", p.url+"/v1/documents", strings.NewReader(fmt.Sprintf(`{"templateId":"note","data":{"n":%d},"wait":%v}`, i, i%2 == 0)))
				req.Header.Set("Authorization", "Bearer "+key)
				res, err := client.Do(req)
				if err != nil {
					continue
				}
				res.Body.Close()
				if res.StatusCode == 201 || res.StatusCode == 202 {
					mu.Lock()
					acked++
					mu.Unlock()
				}
			}
		}(g)
	}
	// Kill once 25 are acknowledged, or after a minute regardless.
	_ = poll.Wait(60*time.Second, 5*time.Millisecond, func() error {
		mu.Lock()
		n := acked
		mu.Unlock()
		if n < 25 {
			return fmt.Errorf("%d documents acknowledged", n)
		}
		return nil
	})
	p.cmd.Process.Signal(syscall.SIGKILL)
	p.wait(t, 10*time.Second)
	close(stop)
	wg.Wait()

	p = startProc(t, dir, httpAddr, raftAddr)
	var docs []testnode.Document
	poll.Until(t, 90*time.Second, func() error {
		docs = testnode.DataAs[testnode.List[testnode.Document]](t, testnode.Do(t, "GET", p.url+"/v1/documents?limit=100", key, nil)).Items
		pending := 0
		for _, d := range docs {
			if d.Status == "queued" || d.Status == "rendering" {
				pending++
			}
		}
		if pending > 0 {
			return fmt.Errorf("%d documents still pending after restart", pending)
		}
		return nil
	})
	completed := 0
	for _, d := range docs {
		if d.Status == "completed" {
			completed++
		}
	}
	l := testnode.DataAs[testnode.Ledger](t, testnode.Do(t, "GET", p.url+"/admin/v1/orgs/"+org+"/ledger", opToken, nil))
	var sum int64
	charged := map[string]bool{}
	for _, e := range l.Items {
		sum += e.AmountMicros
		if e.Kind == "debit" {
			if charged[e.Reference] {
				t.Fatalf("document %s charged twice", e.Reference)
			}
			charged[e.Reference] = true
		}
	}
	wantBalance := 1000000 - 1000*int64(completed-2)
	if sum != l.BalanceMicros || l.BalanceMicros != wantBalance || len(charged) != completed-2 ||
		l.HeldMicros != 0 || l.HeldPages != 0 || l.PagesUsed != 2 {
		t.Fatalf("%d completed documents; ledger sum %d, balance %d (want %d), %d charged, held %d micros %d pages, %d pages used",
			completed, sum, l.BalanceMicros, wantBalance, len(charged), l.HeldMicros, l.HeldPages, l.PagesUsed)
	}
	t.Logf("%d requests acknowledged before the kill, %d documents completed, ledger consistent", acked, completed)
}
