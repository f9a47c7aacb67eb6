// Package docs holds the test that keeps docs/quickstart.md true.
package docs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/platen/platen/internal/poll"
	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/internal/tier"
	"github.com/platen/platen/pdf"
)

// block is a shell block of the quickstart: its fence's second word is its
// kind (```sh server), and its line is where it starts.
type block struct {
	kind, text string
	line       int
}

// Kinds of block. A block with no kind runs in the foreground and must
// succeed.
const (
	// kindInstall is the install step: the test builds the binary itself.
	kindInstall = "install"
	// kindServer starts the node, in a terminal of its own.
	kindServer = "server"
	// kindListen starts the webhook receiver, in a terminal of its own.
	kindListen = "listen"
)

func shellBlocks(t *testing.T, doc []byte) []block {
	t.Helper()
	var out []block
	var cur *block
	sc := bufio.NewScanner(bytes.NewReader(doc))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && strings.HasPrefix(line, "```sh"):
			cur = &block{kind: strings.TrimSpace(strings.TrimPrefix(line, "```sh")), line: n}
		case cur != nil && line == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.text += line + "\n"
		}
	}
	if cur != nil {
		t.Fatalf("quickstart.md:%d: the block is not closed", cur.line)
	}
	return out
}

// TestQuickstart runs every command of docs/quickstart.md word for word,
// in order, as a person would in three terminals: the install step aside
// (the test builds the binary and puts it first on PATH), against a fresh
// node on a fresh data folder, with a home of its own for the profile file.
// The node listens where PLATEN_HTTP says, so that it does not take 8080.
func TestQuickstart(t *testing.T) {
	tier.Full(t, "builds platen and runs a node and the webhook receiver as processes")
	quickstart(t, false)
}

// TestMakeRunThenQuickstart is the README's path and then the quickstart's,
// as a newcomer takes them: `make run` (the README's command, run from the
// repository as typed) starts a node on an empty data folder in a fresh
// home; it must print no warning or error, save its first key as the CLI
// profile "local" and answer with it. Stopped with Ctrl-C, the quickstart
// then runs word for word on the same folder, whose first start is over:
// `platen serve --dev` prints no key there, and every command after it
// must work with the profile make run saved.
func TestMakeRunThenQuickstart(t *testing.T) {
	tier.Full(t, "runs make run (a build and a node) and then the quickstart's processes")
	quickstart(t, true)
}

func quickstart(t *testing.T, makeRunFirst bool) {
	doc, err := os.ReadFile("quickstart.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := shellBlocks(t, doc)
	if len(blocks) < 8 {
		t.Fatalf("quickstart.md has %d shell blocks; the test expects its install, server, listen and command blocks", len(blocks))
	}
	bin, cleanup, err := testnode.BuildBinary("../cmd/platen")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cleanup)

	work := t.TempDir()
	home := filepath.Join(work, "home")
	addr := testnode.FreeAddr(t)
	env := []string{
		"PATH=" + filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"PLATEN_HTTP=" + addr, "PLATEN_RAFT=127.0.0.1:0", "PLATEN_LOG_LEVEL=warn",
		// A fresh home: git has no identity, as on a new machine.
		"GIT_CONFIG_NOSYSTEM=1",
	}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "PATH", name == "HOME", name == "XDG_CONFIG_HOME", strings.HasPrefix(name, "PLATEN_"), strings.HasPrefix(name, "GIT_"):
		default:
			env = append(env, kv)
		}
	}

	if makeRunFirst {
		makeRun(t, bin, work, addr, env)
	}

	var server, listen *terminal
	var dryRun string
	for _, b := range blocks {
		switch b.kind {
		case kindInstall:
			t.Logf("quickstart.md:%d: install step not run; the test built %s", b.line, bin)
		case kindServer:
			server = start(t, b, work, env)
			waitFor(t, server, "the node to be ready and its profile saved", func() error {
				res, err := http.Get("http://" + addr + "/readyz")
				if err != nil {
					return err
				}
				res.Body.Close()
				if res.StatusCode != http.StatusOK {
					return fmt.Errorf("readyz: HTTP %d", res.StatusCode)
				}
				if !makeRunFirst && !strings.Contains(server.out.String(), `profile "local"`) {
					return fmt.Errorf("the profile is not saved yet")
				}
				return nil
			})
		case kindListen:
			listen = start(t, b, work, env)
			waitFor(t, listen, "the receiver to listen", func() error {
				if !strings.Contains(listen.out.String(), "Listening on") {
					return fmt.Errorf("not listening yet")
				}
				return nil
			})
		case "":
			out := run(t, b, work, env)
			if strings.Contains(b.text, "--dry-run") {
				dryRun = out
			}
		default:
			t.Fatalf("quickstart.md:%d: unknown block kind %q", b.line, b.kind)
		}
	}
	if server == nil || listen == nil {
		t.Fatal("the quickstart starts no node or no webhook receiver")
	}

	// What each step promised.
	for _, name := range []string{"invoice.pdf", "bill.pdf"} {
		b, err := os.ReadFile(filepath.Join(work, name))
		if err != nil {
			t.Fatal(err)
		}
		if n, err := pdf.PageCount(b); err != nil || n < 1 {
			t.Errorf("%s: %d pages, %v", name, n, err)
		}
	}
	if got := pdfText(t, filepath.Join(work, "bill.pdf")); !strings.Contains(strings.ToLower(got), "bill") {
		t.Errorf("bill.pdf does not carry the pushed title:\n%s", got)
	}
	// The sandbox has no wallet: its quote takes nothing from one.
	if !strings.Contains(dryRun, "From the wallet:     nothing") || !strings.Contains(dryRun, "Payable now:") || !strings.Contains(dryRun, "nothing was stored or billed") {
		t.Errorf("the dry run printed no quote:\n%s", dryRun)
	}
	// Three documents: the first PDF, the one the webhook reported, and the
	// bill. The dry run made none.
	var docs []map[string]any
	cli(t, bin, work, env, &docs, "documents", "list")
	if len(docs) != 3 {
		t.Errorf("%d documents, want 3 (the dry run must make none): %v", len(docs), docs)
	}
	waitFor(t, listen, "a verified document.completed delivery", func() error {
		out := listen.out.String()
		if strings.Contains(out, "NOT VERIFIED") {
			t.Fatalf("a delivery did not verify:\n%s", out)
		}
		for _, line := range strings.Split(out, "\n") {
			if strings.Contains(line, "document.completed") && strings.HasSuffix(strings.TrimSpace(line), "verified") {
				return nil
			}
		}
		return fmt.Errorf("no verified document.completed yet")
	})
	if log, err := exec.Command("git", "-C", filepath.Join(work, "invoice"), "log", "--oneline").Output(); err != nil || !strings.Contains(string(log), "version 2") {
		t.Errorf("the template folder's commit: %q, %v", log, err)
	}

	// Ctrl-C ends the receiver and deletes its endpoint.
	if err := listen.stop(syscall.SIGINT); err != nil {
		t.Errorf("webhooks listen after Ctrl-C: %v\n%s", err, listen.out.String())
	}
	var hooks []map[string]any
	cli(t, bin, work, env, &hooks, "webhooks", "list")
	if len(hooks) != 0 {
		t.Errorf("the receiver's endpoint outlived Ctrl-C: %v", hooks)
	}
	if err := server.stop(syscall.SIGTERM); err != nil {
		t.Errorf("the node after SIGTERM: %v\n%s", err, server.out.String())
	}
}

// makeRun runs `make run` from the repository's root with the data folder
// work/data (PLATEN_DATA_DIR, the twin of --data-dir), waits for the node,
// checks what its first start printed and that the saved profile's key is
// accepted, and stops it with Ctrl-C.
func makeRun(t *testing.T, bin, work, addr string, env []string) {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	env = append(append([]string{}, env...), "PLATEN_DATA_DIR="+filepath.Join(work, "data"))
	// The fresh home is the CLI's and git's; Go's build and module caches
	// stay this machine's, as a newcomer's would be after the install step
	// (a home without them would download and compile every module again).
	for _, name := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		if v, err := exec.Command("go", "env", name).Output(); err == nil {
			env = append(env, name+"="+strings.TrimSpace(string(v)))
		}
	}
	// make run's own log level, not the quickstart's: a healthy first start
	// must print no warning at info level either.
	for i, kv := range env {
		if strings.HasPrefix(kv, "PLATEN_LOG_LEVEL=") {
			env[i] = "PLATEN_LOG_LEVEL=info"
		}
	}
	term := start(t, block{text: "make -C " + root + " --no-print-directory run", line: 0}, work, env)
	// make run builds bin/platen first when it is not up to date, which
	// on two cores takes minutes.
	waitForWithin(t, term, 10*time.Minute, "make run's node and its saved profile", func() error {
		if !strings.Contains(term.out.String(), "listening on http://"+addr) {
			return fmt.Errorf("not listening yet")
		}
		return nil
	})
	out := term.out.String()
	for _, want := range []string{`Saved this node and its first key as the CLI profile "local"`, "/link#pll_", "Operator token"} {
		if !strings.Contains(out, want) {
			t.Errorf("make run's first start did not print %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{`"level":"WARN"`, `"level":"ERROR"`, "panic"} {
		if strings.Contains(out, bad) {
			t.Errorf("make run's healthy first start printed %s:\n%s", bad, out)
		}
	}
	var tpls []map[string]any
	cli(t, bin, work, env, &tpls, "templates", "list") // fails unless the saved key is accepted
	// Ctrl-C: the node drains and stops; make itself then ends by the
	// signal, as it does in a terminal.
	err = term.stop(syscall.SIGINT)
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.Sys().(syscall.WaitStatus).Signal() == syscall.SIGINT) {
		t.Errorf("make run after Ctrl-C: %v\n%s", err, term.out.String())
	}
	if !strings.Contains(term.out.String(), `"msg":"node stopped"`) {
		t.Errorf("make run's node did not stop cleanly on Ctrl-C:\n%s", term.out.String())
	}
}

// terminal is a block running in a terminal of its own.
type terminal struct {
	cmd    *exec.Cmd
	out    *testnode.SyncBuffer
	exited chan error
	done   bool
}

func start(t *testing.T, b block, dir string, env []string) *terminal {
	t.Helper()
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", b.text)
	cmd.Dir, cmd.Env = dir, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // Ctrl-C reaches the whole group
	term := &terminal{cmd: cmd, out: &testnode.SyncBuffer{}, exited: make(chan error, 1)}
	cmd.Stdout, cmd.Stderr = term.out, term.out
	if err := cmd.Start(); err != nil {
		t.Fatalf("quickstart.md:%d: %v", b.line, err)
	}
	go func() { term.exited <- cmd.Wait() }()
	t.Cleanup(func() {
		if !term.done {
			term.stop(syscall.SIGKILL)
		}
		t.Logf("quickstart.md:%d %s", b.line, indent(term.out.String()))
	})
	return term
}

// stop sends sig to the terminal's process group and waits for it to end.
func (term *terminal) stop(sig syscall.Signal) error {
	term.done = true
	syscall.Kill(-term.cmd.Process.Pid, sig)
	select {
	case err := <-term.exited:
		return err
	case <-time.After(60 * time.Second):
		syscall.Kill(-term.cmd.Process.Pid, syscall.SIGKILL)
		return fmt.Errorf("still running a minute after %v", sig)
	}
}

func waitFor(t *testing.T, term *terminal, what string, ready func() error) {
	t.Helper()
	waitForWithin(t, term, 90*time.Second, what, ready)
}

func waitForWithin(t *testing.T, term *terminal, within time.Duration, what string, ready func() error) {
	t.Helper()
	err := poll.Wait(within, poll.Interval, func() error {
		select {
		case err := <-term.exited:
			term.done = true
			t.Fatalf("ended while waiting for %s: %v\n%s", what, err, term.out.String())
		default:
		}
		return ready()
	})
	if err != nil {
		t.Fatalf("waiting for %s: %v\n%s", what, err, term.out.String())
	}
}

// run runs a block in the foreground, as typed, and returns what it printed.
func run(t *testing.T, b block, dir string, env []string) string {
	t.Helper()
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", b.text)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	t.Logf("quickstart.md:%d\n%s%s", b.line, indent("$ "+b.text), indent(string(out)))
	if err != nil {
		t.Fatalf("quickstart.md:%d: %v", b.line, err)
	}
	return string(out)
}

// cli runs platen with --json and decodes what it prints into v.
func cli(t *testing.T, bin, dir string, env []string, v any, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, append(args, "--json")...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("platen %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	if err := json.Unmarshal(out, v); err != nil {
		t.Fatalf("platen %s --json: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func pdfText(t *testing.T, path string) string {
	t.Helper()
	out, err := exec.Command("pdftotext", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext %s: %v", path, err)
	}
	return string(out)
}

func indent(s string) string {
	if s == "" {
		return ""
	}
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ") + "\n"
}
