package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
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

// binary is the platen binary these tests run, built once by TestMain.
var binary string

func TestMain(m *testing.M) {
	bin, cleanup, err := testnode.BuildBinary(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = bin
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// command is `platen args…` with no PLATEN_ variables from the test's
// environment, which would set flags.
func command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, binary, args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PLATEN_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	return cmd
}

// serveFails runs `platen serve args…`, which must fail to start, and checks
// how: a non-zero exit, no panic or goroutine dump, and a last line on
// stderr that starts with "platen: " and names flag and each of words.
func serveFails(t *testing.T, flag string, words []string, args ...string) {
	t.Helper()
	// A node that does start is killed at the deadline: the test fails.
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := command(ctx, append([]string{"serve"}, args...)...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("platen serve %s did not stop by itself: it started\n%s", strings.Join(args, " "), stderr.String())
	}
	if err == nil {
		t.Fatalf("platen serve %s exited 0\n%s", strings.Join(args, " "), stderr.String())
	}
	if _, ok := err.(*exec.ExitError); !ok {
		t.Fatal(err)
	}
	out := stderr.String()
	if strings.Contains(out, "panic") || strings.Contains(out, "goroutine ") {
		t.Fatalf("platen serve %s panicked:\n%s", strings.Join(args, " "), out)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "platen: ") || !strings.Contains(last, flag) {
		t.Fatalf("the last line on stderr does not start with \"platen: \" and name %s:\n%s", flag, out)
	}
	for _, w := range words {
		if !strings.Contains(last, w) {
			t.Fatalf("the last line on stderr does not say %q:\n%s", w, last)
		}
	}
	t.Logf("exit %v: %s", err, last)
}

// busyPort is a loopback TCP address this test listens on until it ends.
func busyPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l.Addr().String()
}

func TestStartFailsOnBusyPorts(t *testing.T) {
	t.Run("http", func(t *testing.T) {
		addr := busyPort(t)
		serveFails(t, "--http", []string{addr, "in use"}, "--data-dir", t.TempDir(), "--http", addr, "--raft", "127.0.0.1:0")
	})
	t.Run("raft", func(t *testing.T) {
		addr := busyPort(t)
		serveFails(t, "--raft", []string{addr, "in use"}, "--data-dir", t.TempDir(), "--http", "127.0.0.1:0", "--raft", addr)
	})
	t.Run("cluster port", func(t *testing.T) {
		addr := busyPort(t)
		serveFails(t, "--raft", []string{addr, "in use"}, "--data-dir", t.TempDir(), "--http", "127.0.0.1:0", "--raft", addr,
			"--gossip", "127.0.0.1:0", "--cluster-key", newClusterKey(t))
	})
	t.Run("gossip", func(t *testing.T) {
		addr := busyPort(t)
		serveFails(t, "--gossip", []string{addr, "in use"}, "--data-dir", t.TempDir(), "--http", "127.0.0.1:0", "--raft", "127.0.0.1:0",
			"--gossip", addr, "--cluster-key", newClusterKey(t))
	})
}

func newClusterKey(t *testing.T) string {
	t.Helper()
	out, err := command(context.Background(), "cluster-key").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

func TestStartFailsOnAnUnwritableDataFolder(t *testing.T) {
	// The tests run as root, whom permissions do not stop: a folder whose
	// parent is a regular file cannot be made by anyone.
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Join(file, "data"), file, "/proc/platen-test/data"} {
		t.Run(dir, func(t *testing.T) {
			serveFails(t, "--data-dir", []string{dir, "cannot be written"}, "--data-dir", dir, "--http", "127.0.0.1:0", "--raft", "127.0.0.1:0")
		})
	}
}

// TestStartFailsOnADataFolderInUseOrDamaged starts a node, starts a second
// on its data folder, then stops the first and damages the folder's state.
func TestStartFailsOnADataFolderInUseOrDamaged(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	httpAddr := testnode.FreeAddr(t)
	cmd := command(context.Background(), "serve", "--data-dir", dir, "--http", httpAddr, "--raft", "127.0.0.1:0",
		"--operator-token", "serve-test-operator-token")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			cmd.Process.Kill()
			<-exited
		}
	})
	if err := poll.Wait(60*time.Second, poll.Interval, func() error {
		res, err := http.Get("http://" + httpAddr + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return nil
			}
			err = fmt.Errorf("GET /readyz: HTTP %d", res.StatusCode)
		}
		select {
		case err := <-exited:
			stopped = true
			t.Fatalf("the first node exited: %v\n%s", err, stderr.String())
		default:
		}
		return err
	}); err != nil {
		t.Fatalf("the first node is not ready after a minute (%v):\n%s", err, stderr.String())
	}

	t.Run("in use", func(t *testing.T) {
		serveFails(t, "--data-dir", []string{dir, "in use by another platen process"},
			"--data-dir", dir, "--http", "127.0.0.1:0", "--raft", "127.0.0.1:0")
	})

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		stopped = true
		if err != nil {
			t.Fatalf("the first node did not stop cleanly: %v\n%s", err, stderr.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("the first node did not stop in a minute after SIGTERM")
	}

	// copyData is a copy of the stopped node's data folder to damage.
	copyData := func(t *testing.T) string {
		t.Helper()
		dst := filepath.Join(t.TempDir(), "data")
		if err := os.CopyFS(dst, os.DirFS(dir)); err != nil {
			t.Fatal(err)
		}
		return dst
	}
	// garble writes random bytes over the files of a Pebble folder matching glob.
	garble := func(t *testing.T, pebbleDir, glob string) {
		t.Helper()
		files, err := filepath.Glob(filepath.Join(pebbleDir, glob))
		if err != nil || len(files) == 0 {
			t.Fatalf("no %s in %s (%v)", glob, pebbleDir, err)
		}
		junk := bytes.Repeat([]byte("not a manifest "), 300)
		for _, f := range files {
			if err := os.WriteFile(f, junk, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Run("state manifest", func(t *testing.T) {
		d := copyData(t)
		garble(t, filepath.Join(d, "state"), "MANIFEST-*")
		serveFails(t, "--data-dir", []string{filepath.Join(d, "state"), "damaged", "Backups"},
			"--data-dir", d, "--http", "127.0.0.1:0", "--raft", "127.0.0.1:0")
	})
	t.Run("state is a file", func(t *testing.T) {
		d := copyData(t)
		state := filepath.Join(d, "state")
		if err := os.RemoveAll(state); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(state, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		serveFails(t, "--data-dir", []string{state, "damaged"}, "--data-dir", d, "--http", "127.0.0.1:0", "--raft", "127.0.0.1:0")
	})
	t.Run("raft log manifest", func(t *testing.T) {
		// Opened after the state: the node closes the state before it exits.
		d := copyData(t)
		garble(t, filepath.Join(d, "raft", "log"), "MANIFEST-*")
		serveFails(t, "--data-dir", []string{filepath.Join(d, "raft"), "damaged"},
			"--data-dir", d, "--http", "127.0.0.1:0", "--raft", "127.0.0.1:0")
	})
}

func TestStartFailsOnBadFlagValues(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name  string
		flag  string
		words []string
		args  []string
	}{
		{"unparseable duration", "--retention", []string{`invalid value "soon"`, "duration", "platen serve -h"}, []string{"--retention", "soon"}},
		{"unknown flag", "--colour", []string{"unknown flag", "platen serve -h"}, []string{"--colour", "blue"}},
		{"missing value", "--retention", []string{"needs a value"}, []string{"--retention"}},
		{"not a number", "--render-pages", []string{`invalid value "many"`, "whole number"}, []string{"--render-pages", "many"}},
		{"http without a port", "--http", []string{`"localhost"`, "host:port"}, []string{"--http", "localhost"}},
		{"http port out of range", "--http", []string{"127.0.0.1:99999"}, []string{"--http", "127.0.0.1:99999"}},
		{"retention of a second", "--retention", []string{"at least a minute"}, []string{"--retention", "1s"}},
		{"log level", "--log-level", []string{`invalid value "loud"`, "debug, info, warn or error"}, []string{"--log-level", "loud"}},
		{"an organisation's share over the pages", "--render-pages-per-org", []string{"--render-pages-per-org must be from 0", "(1)"}, []string{"--render-pages", "1", "--render-pages-per-org", "2"}},
		{"preview budget over the render budget", "--preview-timeout", []string{"at most the render timeout"}, []string{"--preview-timeout", "2m"}},
		{"short operator token", "--operator-token", []string{"16 characters"}, []string{"--operator-token", "short"}},
		{"join without a key", "--join", []string{"cluster key"}, []string{"--join", "127.0.0.1:7946"}},
		{"bad cluster key", "--cluster-key", []string{"base64"}, []string{"--cluster-key", "not-a-key"}},
		{"missing cluster key file", "--cluster-key-file", []string{"cannot be read"}, []string{"--cluster-key-file", filepath.Join(dir, "none")}},
		{"missing chromium", "--chromium", []string{"/nonexistent/chromium"}, []string{"--chromium", "/nonexistent/chromium"}},
		// Read last, when the store, raft and the first organisation are made.
		{"missing webhook CA file", "--webhook-ca-file", []string{"none.pem"}, []string{"--webhook-ca-file", filepath.Join(dir, "none.pem")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"--data-dir", filepath.Join(dir, c.name), "--http", "127.0.0.1:0", "--raft", "127.0.0.1:0"}, c.args...)
			serveFails(t, c.flag, c.words, args...)
		})
	}
}

// TestBadEnvironmentValue: a PLATEN_ twin that cannot be read names both
// the variable and its flag.
func TestStartFailsOnABadEnvironmentValue(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := command(ctx, "serve", "--data-dir", t.TempDir(), "--http", "127.0.0.1:0", "--raft", "127.0.0.1:0")
	cmd.Env = append(cmd.Env, "PLATEN_WAIT_TIMEOUT=later")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil {
		t.Fatal("platen serve started with PLATEN_WAIT_TIMEOUT=later")
	}
	last := strings.TrimSpace(stderr.String())
	if strings.Contains(last, "\n") || !strings.HasPrefix(last, "platen: ") || !strings.Contains(last, "PLATEN_WAIT_TIMEOUT") || !strings.Contains(last, "--wait-timeout") {
		t.Fatalf("stderr: %s", last)
	}
}

// TestServeHelp: -h prints the flags and exits 0; an error prints one line,
// not the flags.
func TestServeHelp(t *testing.T) {
	var stderr bytes.Buffer
	cmd := command(context.Background(), "serve", "-h")
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("platen serve -h: %v\n%s", err, stderr.String())
	}
	for _, flag := range []string{"-data-dir", "-http", "-raft", "-retention"} {
		if !strings.Contains(stderr.String(), flag) {
			t.Fatalf("platen serve -h does not list %s:\n%s", flag, stderr.String())
		}
	}
}
