package cluster

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/platen/platen/internal/tier"
	"github.com/platen/platen/storage"
)

type replica struct {
	store *storage.Store
	rep   *Replicator
}

func startReplica(t testing.TB, dir string, threshold uint64) replica {
	t.Helper()
	store, err := storage.OpenStore(filepath.Join(dir, "state"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultRaftConfig()
	cfg.NodeID, cfg.Bind, cfg.Dir, cfg.LogOutput = "n1", "127.0.0.1:0", filepath.Join(dir, "raft"), io.Discard
	if threshold > 0 {
		cfg.SnapshotThreshold, cfg.TrailingLogs = threshold, 10
	}
	rep, err := StartRaft(cfg, store)
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.WaitReady(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	return replica{store, rep}
}

func (r replica) stop(t testing.TB) {
	if err := r.rep.Shutdown(); err != nil {
		t.Error(err)
	}
	r.store.Close()
}

var at = time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)

func creditCmd(v uint64) *storage.Command {
	return &storage.Command{Kind: storage.KindCreditWallet, OrgID: "org_a", Expect: v, At: at,
		CreditWallet: &storage.CreditWallet{EntryID: fmt.Sprintf("led_%d", v), EventID: fmt.Sprintf("evt_%d", v), AmountMicros: 10}}
}

func TestRaftAppliesSnapshotsAndRestarts(t *testing.T) {
	dir := t.TempDir()
	r := startReplica(t, dir, 50)
	if err := r.rep.Apply(&storage.Command{Kind: storage.KindCreateOrg, OrgID: "org_a", At: at,
		CreateOrg: &storage.CreateOrg{Name: "A", Plan: storage.PlanStarter}}, time.Second); err != nil {
		t.Fatal(err)
	}
	for v := uint64(1); v <= 120; v++ {
		if err := r.rep.Apply(creditCmd(v), time.Second); err != nil {
			t.Fatalf("credit %d: %v", v, err)
		}
	}
	if err := r.rep.Apply(creditCmd(3), time.Second); !errors.Is(err, storage.ErrStale) {
		t.Fatalf("stale command: %v", err)
	}
	if err := r.rep.Snapshot(); err != nil {
		t.Fatal(err)
	}
	if first, _ := r.rep.logs.FirstIndex(); first <= 1 {
		t.Fatalf("log not compacted after snapshot: first index %d", first)
	}
	r.stop(t)

	r = startReplica(t, dir, 50)
	defer r.stop(t)
	org, err := r.store.Org("org_a")
	if err != nil {
		t.Fatal(err)
	}
	if org.BalanceMicros != 1200 || org.Version != 121 {
		t.Fatalf("after restart: %+v", org)
	}
	if err := r.rep.Apply(creditCmd(121), time.Second); err != nil {
		t.Fatalf("write after restart: %v", err)
	}
}

// TestRaftRestoresSnapshotIntoEmptyStore covers a node whose state database
// was lost: raft must restore the snapshot and replay the rest of the log.
func TestRaftRestoresSnapshotIntoEmptyStore(t *testing.T) {
	tier.Full(t, "snapshots and restores a replica")
	dir := t.TempDir()
	r := startReplica(t, dir, 20)
	r.rep.Apply(&storage.Command{Kind: storage.KindCreateOrg, OrgID: "org_a", At: at,
		CreateOrg: &storage.CreateOrg{Name: "A", Plan: storage.PlanStarter}}, time.Second)
	for v := uint64(1); v <= 40; v++ {
		if err := r.rep.Apply(creditCmd(v), time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.rep.Snapshot(); err != nil {
		t.Fatal(err)
	}
	for v := uint64(41); v <= 45; v++ {
		if err := r.rep.Apply(creditCmd(v), time.Second); err != nil {
			t.Fatal(err)
		}
	}
	r.stop(t)
	if err := os.RemoveAll(filepath.Join(dir, "state")); err != nil {
		t.Fatal(err)
	}
	r = startReplica(t, dir, 20)
	defer r.stop(t)
	org, err := r.store.Org("org_a")
	if err != nil || org.BalanceMicros != 450 {
		t.Fatalf("restored org %+v, %v", org, err)
	}
}

// BenchmarkCommit measures the write path: one command proposed, replicated
// (one voter), written to the raft log and applied to Pebble, both synced.
// Sequential is one caller at a time (the latency of a commit); Parallel has
// 64 callers, which raft batches into shared disk writes.
func BenchmarkCommit(b *testing.B) {
	for _, parallel := range []bool{false, true} {
		name := "Sequential"
		if parallel {
			name = "Parallel64"
		}
		b.Run(name, func(b *testing.B) {
			r := startReplica(b, b.TempDir(), 0)
			defer r.stop(b)
			var mu sync.Mutex
			n := 0
			next := func() *storage.Command {
				mu.Lock()
				defer mu.Unlock()
				n++
				return &storage.Command{Kind: storage.KindCreateOrg, OrgID: fmt.Sprintf("org_%d", n), At: at,
					CreateOrg: &storage.CreateOrg{Name: "bench", Plan: storage.PlanStarter}}
			}
			b.ResetTimer()
			if !parallel {
				for i := 0; i < b.N; i++ {
					if err := r.rep.Apply(next(), 5*time.Second); err != nil {
						b.Fatal(err)
					}
				}
				return
			}
			b.SetParallelism(32) // 2 cores here: 64 goroutines
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := r.rep.Apply(next(), 5*time.Second); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

func TestRefusesStoreAheadOfLostRaftLog(t *testing.T) {
	dir := t.TempDir()
	r := startReplica(t, dir, 0)
	r.rep.Apply(&storage.Command{Kind: storage.KindCreateOrg, OrgID: "org_a", At: at,
		CreateOrg: &storage.CreateOrg{Name: "A", Plan: storage.PlanStarter}}, time.Second)
	r.stop(t)
	if err := os.RemoveAll(filepath.Join(dir, "raft")); err != nil {
		t.Fatal(err)
	}
	store, err := storage.OpenStore(filepath.Join(dir, "state"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	cfg := DefaultRaftConfig()
	cfg.NodeID, cfg.Bind, cfg.Dir, cfg.LogOutput = "n1", "127.0.0.1:0", filepath.Join(dir, "raft"), io.Discard
	if rep, err := StartRaft(cfg, store); err == nil {
		rep.Shutdown()
		t.Fatal("started over a store ahead of an empty raft log")
	}
}
