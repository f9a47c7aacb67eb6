package node_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/platen/platen/node"
)

// startConfig is a single node on loopback with a folder of its own.
func startConfig(t *testing.T) node.Config {
	cfg := node.DefaultConfig()
	cfg.DataDir = t.TempDir()
	cfg.HTTPAddr, cfg.RaftAddr = "127.0.0.1:0", "127.0.0.1:0"
	cfg.OperatorToken = "start-test-operator-token"
	cfg.WarmEngine = false
	return cfg
}

// startError starts a node that must fail with a *node.StartError naming flag.
func startError(t *testing.T, cfg node.Config, flag string) *node.StartError {
	t.Helper()
	n, err := node.Start(cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)), io.Discard)
	if err == nil {
		n.Shutdown(context.Background())
		t.Fatalf("the node started")
	}
	var se *node.StartError
	if !errors.As(err, &se) || se.Flag != flag {
		t.Fatalf("want a StartError for %s, got %T: %v", flag, err, err)
	}
	return se
}

func TestStartErrorNamesTheFlag(t *testing.T) {
	t.Run("busy http port", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		cfg := startConfig(t)
		cfg.HTTPAddr = l.Addr().String()
		if err := startError(t, cfg, "--http"); !errors.Is(err, syscall.EADDRINUSE) {
			t.Fatalf("the cause is not EADDRINUSE: %v", err.Err)
		}
	})
	t.Run("short retention", func(t *testing.T) {
		cfg := startConfig(t)
		cfg.Retention = time.Second
		startError(t, cfg, "--retention")
	})
	t.Run("no rate", func(t *testing.T) {
		cfg := startConfig(t)
		cfg.HTTP.RateLimit = 0
		startError(t, cfg, "--rate-limit")
	})
	t.Run("data folder under a file", func(t *testing.T) {
		cfg := startConfig(t)
		cfg.DataDir = filepath.Join("/proc/self/status", "data")
		startError(t, cfg, "--data-dir")
	})
}

// TestStartFailingLateClosesWhatItOpened fails a start after the store, raft,
// the actors and the HTTP listener are open, twice on the same folder and
// ports, then starts there: each failed start let go of all of them.
func TestStartFailingLateClosesWhatItOpened(t *testing.T) {
	cfg := startConfig(t)
	for _, addr := range []*string{&cfg.HTTPAddr, &cfg.RaftAddr} {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		*addr = l.Addr().String()
		l.Close()
	}
	bad := cfg
	// Read after everything else is open.
	bad.WebhookCAFile = filepath.Join(t.TempDir(), "no-such-ca.pem")
	for i := 0; i < 2; i++ {
		startError(t, bad, "--webhook-ca-file")
	}
	n, err := node.Start(cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)), io.Discard)
	if err != nil {
		t.Fatalf("start after two failed starts: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := n.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
}
