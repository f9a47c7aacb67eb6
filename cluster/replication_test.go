package cluster

import (
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/platen/platen/internal/poll"
	"github.com/platen/platen/internal/tier"
	"github.com/platen/platen/storage"
)

func startNamed(t *testing.T, id string, join bool) replica {
	t.Helper()
	dir := t.TempDir()
	store, err := storage.OpenStore(filepath.Join(dir, "state"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultRaftConfig()
	cfg.NodeID, cfg.Bind, cfg.Dir, cfg.LogOutput, cfg.Join = id, "127.0.0.1:0", filepath.Join(dir, "raft"), io.Discard, join
	rep, err := StartRaft(cfg, store)
	if err != nil {
		t.Fatal(err)
	}
	return replica{store, rep}
}

// TestThreeReplicasReplicateAndSurviveTheLeader: one bootstraps, two join as
// voters; writes reach every store; when the leader stops, the others elect
// a new one and writes go on. The failover time is logged for the note.
func TestThreeReplicasReplicateAndSurviveTheLeader(t *testing.T) {
	tier.Full(t, "runs three raft replicas through a leader loss")
	r1 := startNamed(t, "n1", false)
	if err := r1.rep.WaitReady(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	r2, r3 := startNamed(t, "n2", true), startNamed(t, "n3", true)
	all := []replica{r1, r2, r3}
	defer func() {
		for _, r := range all {
			r.rep.Shutdown()
			r.store.Close()
		}
	}()
	for id, r := range map[string]replica{"n2": r2, "n3": r3} {
		if err := r1.rep.AddVoter(id, r.rep.Addr(), 5*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if err := r2.rep.AddVoter("n9", "127.0.0.1:1", time.Second); !errors.Is(err, ErrNotLeader) {
		t.Fatalf("a follower added a voter: %v", err)
	}
	create := &storage.Command{Kind: storage.KindCreateOrg, OrgID: "org_a", At: at, CreateOrg: &storage.CreateOrg{Name: "A", Plan: storage.PlanStarter}}
	if err := r1.rep.Apply(create, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	for v := uint64(1); v <= 20; v++ {
		if err := r1.rep.Apply(creditCmd(v), 5*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	waitBalance := func(r replica, want int64) {
		t.Helper()
		poll.Until(t, 10*time.Second, func() error {
			if o, err := r.store.Org("org_a"); err != nil || o.BalanceMicros != want {
				return fmt.Errorf("replica at %s has balance %d, want %d (%v)", r.rep.Addr(), o.BalanceMicros, want, err)
			}
			return nil
		})
	}
	for _, r := range all {
		waitBalance(r, 200)
	}
	if err := r2.rep.Apply(creditCmd(21), time.Second); !errors.Is(err, ErrNotLeader) {
		t.Fatalf("a follower applied a command: %v", err)
	}

	// The leader stops; the two left elect a new one and take writes.
	stopped := time.Now()
	r1.rep.Shutdown()
	r1.store.Close()
	all = all[1:]
	var leader replica
	poll.Until(t, 20*time.Second, func() error {
		for _, r := range all {
			if r.rep.IsLeader() {
				leader = r
			}
		}
		if leader.rep == nil {
			return errors.New("no new leader")
		}
		return nil
	})
	if err := leader.rep.Apply(creditCmd(21), 5*time.Second); err != nil {
		t.Fatal(err)
	}
	t.Logf("failover: a write committed %s after the leader stopped", time.Since(stopped).Round(time.Millisecond))
	for _, r := range all {
		waitBalance(r, 210)
	}
}

// TestAFollowerBehindTheLeadersSnapshotCatchesUp: a follower that was down
// while the leader compacted its log past the follower's last entry gets
// the leader's snapshot and takes entries again from after it, before and
// after a restart.
func TestAFollowerBehindTheLeadersSnapshotCatchesUp(t *testing.T) {
	tier.Full(t, "runs three raft replicas through a snapshot install")
	dirs := map[string]string{"n1": t.TempDir(), "n2": t.TempDir(), "n3": t.TempDir()}
	binds := map[string]string{}
	for id := range dirs { // a port of its own that a restart keeps, as the leader knows it by it
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		binds[id] = l.Addr().String()
		l.Close()
	}
	start := func(id string, join bool) replica {
		t.Helper()
		store, err := storage.OpenStore(filepath.Join(dirs[id], "state"))
		if err != nil {
			t.Fatal(err)
		}
		cfg := DefaultRaftConfig()
		cfg.NodeID, cfg.Bind, cfg.Dir, cfg.LogOutput, cfg.Join = id, binds[id], filepath.Join(dirs[id], "raft"), io.Discard, join
		cfg.TrailingLogs = 5
		rep, err := StartRaft(cfg, store)
		if err != nil {
			store.Close()
			t.Fatal(err)
		}
		return replica{store, rep}
	}
	live := map[string]replica{} // stopped at the end, whatever failed
	defer func() {
		for _, r := range live {
			r.stop(t)
		}
	}()
	run := func(id string, join bool) replica {
		r := start(id, join)
		live[id] = r
		return r
	}
	halt := func(id string) {
		live[id].stop(t)
		delete(live, id)
	}
	r1 := run("n1", false)
	if err := r1.rep.WaitReady(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	r2, r3 := run("n2", true), run("n3", true)
	for id, r := range map[string]replica{"n2": r2, "n3": r3} {
		if err := r1.rep.AddVoter(id, r.rep.Addr(), 5*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	create := &storage.Command{Kind: storage.KindCreateOrg, OrgID: "org_a", At: at, CreateOrg: &storage.CreateOrg{Name: "A", Plan: storage.PlanStarter}}
	if err := r1.rep.Apply(create, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	balance := func(r replica, want int64) {
		t.Helper()
		poll.Until(t, 20*time.Second, func() error {
			if o, err := r.store.Org("org_a"); err != nil || o.BalanceMicros != want {
				return fmt.Errorf("balance %d, want %d (%v)", o.BalanceMicros, want, err)
			}
			return nil
		})
	}
	balance(r3, 0)
	halt("n3")
	for v := uint64(1); v <= 40; v++ {
		if err := r1.rep.Apply(creditCmd(v), 5*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if err := r1.rep.Snapshot(); err != nil {
		t.Fatal(err)
	}
	first, _ := r1.rep.logs.FirstIndex()
	if behind := r3.store.AppliedIndex(); first <= behind+1 {
		t.Fatalf("the leader's log starts at %d, not past the follower's %d: no snapshot install to test", first, behind)
	}

	r3 = run("n3", false)
	balance(r3, 400)
	for v := uint64(41); v <= 45; v++ {
		if err := r1.rep.Apply(creditCmd(v), 5*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	balance(r3, 450)

	halt("n3")
	r3 = run("n3", false)
	if err := r1.rep.Apply(creditCmd(46), 5*time.Second); err != nil {
		t.Fatal(err)
	}
	balance(r3, 460)
}
