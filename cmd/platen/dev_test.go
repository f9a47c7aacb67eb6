package main

import (
	"bytes"
	"context"
	"encoding/json"
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
)

// devServe is a `platen serve --dev` process on a fresh data folder with
// its own profile file.
type devServe struct {
	url, config string
	stdout      *testnode.SyncBuffer
	stderr      *testnode.SyncBuffer
	stop        func() error
}

// startDevServe runs `platen serve --dev` on dataDir with the profile file
// config, and waits until it is ready.
func startDevServe(t *testing.T, dataDir, config string) *devServe {
	t.Helper()
	return startServe(t, dataDir, config, "--dev")
}

// startServe runs `platen serve` with flags on dataDir with the profile
// file config, and waits until it is ready.
func startServe(t *testing.T, dataDir, config string, flags ...string) *devServe {
	t.Helper()
	addr := testnode.FreeAddr(t)
	args := append([]string{"serve"}, flags...)
	args = append(args, "--data-dir", dataDir, "--http", addr, "--raft", "127.0.0.1:0",
		"--operator-token", "dev-test-operator-token-0123", "--log-level", "info")
	cmd := command(context.Background(), args...)
	cmd.Env = append(cmd.Env, "PLATEN_CONFIG="+config)
	d := &devServe{url: "http://" + addr, config: config, stdout: &testnode.SyncBuffer{}, stderr: &testnode.SyncBuffer{}}
	cmd.Stdout, cmd.Stderr = d.stdout, d.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stopped := false
	d.stop = func() error {
		if stopped {
			return nil
		}
		stopped = true
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-exited:
			return err
		case <-time.After(60 * time.Second):
			cmd.Process.Kill()
			return fmt.Errorf("no exit a minute after SIGTERM")
		}
	}
	t.Cleanup(func() { d.stop() })
	if err := poll.Wait(60*time.Second, poll.Interval, func() error {
		select {
		case err := <-exited:
			stopped = true
			t.Fatalf("platen serve --dev exited: %v\n%s", err, d.stderr.String())
		default:
		}
		res, err := http.Get(d.url + "/readyz")
		if err != nil {
			return err
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			return fmt.Errorf("HTTP %d", res.StatusCode)
		}
		if !strings.Contains(d.stdout.String(), "listening on") {
			return fmt.Errorf("not printed yet")
		}
		return nil
	}); err != nil {
		t.Fatalf("platen serve --dev is not ready: %v\n%s", err, d.stderr.String())
	}
	return d
}

// TestServeDevSavesTheFirstKeyAsAProfile: the first start of an empty data
// folder with --dev saves the node and its first key as the default
// profile "local", which works; it warns that it is development mode and
// makes the development CA, its key readable by its owner only. A second
// start keeps the profile.
func TestServeDevSavesTheFirstKeyAsAProfile(t *testing.T) {
	cfgDir := filepath.Join(t.TempDir(), "platen")
	config := filepath.Join(cfgDir, "config.json")
	data := filepath.Join(t.TempDir(), "data")
	d := startDevServe(t, data, config)
	if !strings.Contains(d.stderr.String(), "DEVELOPMENT MODE") {
		t.Fatalf("no development-mode warning on stderr:\n%s", d.stderr.String())
	}
	if !strings.Contains(d.stdout.String(), `profile "local"`) {
		t.Fatalf("stdout does not say the profile was saved:\n%s", d.stdout.String())
	}
	raw, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	var pf ProfileFile
	if err := json.Unmarshal(raw, &pf); err != nil {
		t.Fatal(err)
	}
	local := pf.Profiles["local"]
	if pf.Default != "local" || local == nil || local.URL != d.url || !strings.HasPrefix(local.Key, "plt_") {
		t.Fatalf("profile file: %s", raw)
	}
	if r := testnode.Do(t, "GET", local.URL+"/v1", local.Key, nil); r.Status != 200 {
		t.Fatalf("the saved key: %s", r)
	}
	for name, want := range map[string]os.FileMode{"config.json": 0o600, devCAKeyFile: 0o600, devCAFile: 0o644, ".": 0o700 | os.ModeDir} {
		st, err := os.Stat(filepath.Join(cfgDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode() != want {
			t.Errorf("%s has mode %v, want %v", name, st.Mode(), want)
		}
	}
	if err := d.stop(); err != nil {
		t.Fatalf("stop: %v\n%s", err, d.stderr.String())
	}
	// Not a first start: nothing is saved, the profile stays.
	d = startDevServe(t, data, config)
	again, _ := os.ReadFile(config)
	if !bytes.Equal(again, raw) || strings.Contains(d.stdout.String(), `profile "local"`) {
		t.Fatalf("a second start changed the profile file:\n%s\n%s", again, d.stdout.String())
	}
}

// TestServeDevAndWebhooksListenAsProcesses runs what a person types, as
// processes: `platen serve --dev`, then with no flags at all (the profile
// "local") `platen templates copy`, `platen webhooks listen`, and `platen
// generate`; listen prints the delivery verified, and Ctrl-C (SIGINT) makes
// it delete its endpoint and exit 0.
func TestServeDevAndWebhooksListenAsProcesses(t *testing.T) {
	config := filepath.Join(t.TempDir(), "platen", "config.json")
	startDevServe(t, filepath.Join(t.TempDir(), "data"), config)
	work := t.TempDir() // generate writes its PDF here
	platen := func(args ...string) *exec.Cmd {
		cmd := command(context.Background(), args...)
		cmd.Dir = work
		cmd.Env = append(cmd.Env, "PLATEN_CONFIG="+config)
		return cmd
	}
	if out, err := platen("templates", "copy", "receipt").CombinedOutput(); err != nil {
		t.Fatalf("templates copy: %v\n%s", err, out)
	}
	listen := platen("webhooks", "listen", "--event", "document.completed")
	out, errOut := &testnode.SyncBuffer{}, &testnode.SyncBuffer{}
	listen.Stdout, listen.Stderr = out, errOut
	if err := listen.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- listen.Wait() }()
	t.Cleanup(func() {
		listen.Process.Kill()
	})
	poll.Until(t, 30*time.Second, func() error {
		if !strings.Contains(out.String(), "Listening on") {
			return fmt.Errorf("not listening: %s %s", out.String(), errOut.String())
		}
		return nil
	})
	gen, err := platen("generate", "receipt", "--sample").CombinedOutput()
	if err != nil {
		t.Fatalf("generate: %v\n%s", err, gen)
	}
	id := regexpFind(`Document:\s+(doc_\S+)`, string(gen))
	poll.Until(t, 60*time.Second, func() error {
		if !strings.Contains(out.String(), id+" completed  verified") {
			return fmt.Errorf("no verified delivery yet:\n%s\n%s", out.String(), errOut.String())
		}
		return nil
	})
	if err := listen.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("listen after Ctrl-C: %v\n%s", err, errOut.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("listen did not stop 30 s after Ctrl-C")
	}
	list, err := platen("webhooks", "list", "--json").Output()
	if err != nil || strings.TrimSpace(string(list)) != "[]" {
		t.Fatalf("endpoints after listen stopped: %v %s", err, list)
	}

	// platen watch, with the profile's node and key, prints the feed and
	// stops at Ctrl-C.
	watch := platen("watch", "--since", "0")
	wout, werr := &testnode.SyncBuffer{}, &testnode.SyncBuffer{}
	watch.Stdout, watch.Stderr = wout, werr
	if err := watch.Start(); err != nil {
		t.Fatal(err)
	}
	wexited := make(chan error, 1)
	go func() { wexited <- watch.Wait() }()
	t.Cleanup(func() { watch.Process.Kill() })
	poll.Until(t, 30*time.Second, func() error {
		if !strings.Contains(wout.String(), id) {
			return fmt.Errorf("watch has not printed %s: %s %s", id, wout.String(), werr.String())
		}
		return nil
	})
	if err := watch.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case <-wexited:
	case <-time.After(10 * time.Second):
		t.Fatal("watch did not stop 10 s after Ctrl-C")
	}
}

// TestServeSaveProfileAndLoginHint: make run's `serve --save-profile` on an
// empty folder saves its first key as the default profile "local", and
// logs no warning on a healthy single node; a later start for a user with
// no profile for this node says how to log in; a node that is not asked to
// save says how to on its first start.
func TestServeSaveProfileAndLoginHint(t *testing.T) {
	config := filepath.Join(t.TempDir(), "platen", "config.json")
	data := filepath.Join(t.TempDir(), "data")
	d := startServe(t, data, config, "--save-profile")
	if !strings.Contains(d.stdout.String(), `profile "local" (the default profile)`) {
		t.Fatalf("--save-profile did not save the key:\n%s", d.stdout.String())
	}
	if strings.Contains(d.stderr.String(), `"level":"WARN"`) || strings.Contains(d.stderr.String(), "[WARN]") {
		t.Errorf("a healthy single node logged a warning:\n%s", d.stderr.String())
	}
	raw, err := os.ReadFile(config)
	if err != nil || !strings.Contains(string(raw), d.url) {
		t.Fatalf("profile file: %v %s", err, raw)
	}
	if err := d.stop(); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "platen", "config.json")
	d = startServe(t, data, other)
	if out := d.stdout.String(); !strings.Contains(out, "The command line has no profile for this node") || !strings.Contains(out, "platen login --url "+d.url) {
		t.Errorf("a later start for a user with no profile:\n%s", out)
	}
	if err := d.stop(); err != nil {
		t.Fatal(err)
	}
	fresh := startServe(t, filepath.Join(t.TempDir(), "data"), other)
	if out := fresh.stdout.String(); !strings.Contains(out, "save the key above") || strings.Contains(out, `profile "local"`) {
		t.Errorf("a first start not asked to save:\n%s", out)
	}
	if _, err := os.Stat(other); err == nil {
		t.Error("a node not asked to save wrote the profile file")
	}
}
