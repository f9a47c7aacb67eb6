package cluster

import (
	"context"
	"errors"
	"io"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/platen/platen/storage"
)

// secureReplica is a replica on a TLS cluster port that serves the peer API.
type secureReplica struct {
	replica
	port  *PeerPort
	peers *Peers
	srv   *http.Server
}

func startSecure(t *testing.T, id string, key Key, join bool) *secureReplica {
	t.Helper()
	dir := t.TempDir()
	store, err := storage.OpenStore(filepath.Join(dir, "state"))
	if err != nil {
		t.Fatal(err)
	}
	server, client, err := key.PeerTLS(id)
	if err != nil {
		t.Fatal(err)
	}
	port, err := ListenPeers("127.0.0.1:0", "", server, client)
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultRaftConfig()
	cfg.NodeID, cfg.Bind, cfg.Dir, cfg.LogOutput, cfg.Join, cfg.Stream = id, port.Addr().String(), filepath.Join(dir, "raft"), io.Discard, join, port.Raft()
	rep, err := StartRaft(cfg, store)
	if err != nil {
		t.Fatal(err)
	}
	s := &secureReplica{replica: replica{store, rep}, port: port, peers: NewPeers(client)}
	rep.ForwardTo(s.peers)
	mux := http.NewServeMux()
	mux.HandleFunc(ApplyPath, rep.ServeApply)
	s.srv = &http.Server{Handler: mux}
	go s.srv.Serve(port.HTTP())
	t.Cleanup(func() {
		s.srv.Close()
		rep.Shutdown()
		port.Close()
		store.Close()
	})
	return s
}

// TestClusterPortAuthenticatesAndForwards: raft runs over TLS on the cluster
// port; a follower's proposal is forwarded to the leader and is applied on
// the follower when Wait returns; a process with another key can neither
// replicate nor send to the peer API.
func TestClusterPortAuthenticatesAndForwards(t *testing.T) {
	key, _ := ParseKey(NewKey())
	n1 := startSecure(t, "n1", key, false)
	if err := n1.rep.WaitReady(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	n2 := startSecure(t, "n2", key, true)
	if err := n1.rep.AddVoter("n2", n2.rep.Addr(), 5*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := n2.rep.WaitReady(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	create := &storage.Command{Kind: storage.KindCreateOrg, OrgID: "org_a", At: at, CreateOrg: &storage.CreateOrg{Name: "A", Plan: storage.PlanStarter}}
	if err := n2.rep.Apply(create, 5*time.Second); err != nil {
		t.Fatalf("forwarded create: %v", err)
	}
	// Pipelined proposals with consecutive versions keep their order.
	var pending []Pending
	for v := uint64(1); v <= 50; v++ {
		p, err := n2.rep.Propose(creditCmd(v), time.Second)
		if err != nil {
			t.Fatal(err)
		}
		pending = append(pending, p)
	}
	for i, p := range pending {
		if err := p.Wait(); err != nil {
			t.Fatalf("credit %d: %v", i+1, err)
		}
	}
	if o, err := n2.store.Org("org_a"); err != nil || o.BalanceMicros != 500 {
		t.Fatalf("follower reads %+v, %v after its own writes; want balance 500", o, err)
	}
	// A refusal decided by the leader's state machine keeps its kind.
	if err := n2.rep.Apply(creditCmd(1), 5*time.Second); !errors.Is(err, storage.ErrStale) {
		t.Fatalf("stale version through the leader: %v", err)
	}

	other, _ := ParseKey(NewKey())
	stranger := startSecure(t, "n3", other, true)
	_, err := stranger.peers.Do(context.Background(), http.MethodPost, n1.port.Addr().String(), ApplyPath, []byte(`{"commands":[]}`))
	if err == nil {
		t.Fatal("a process with another key reached the peer API")
	}
	if err := n1.rep.AddNonvoter("n3", stranger.rep.Addr(), 5*time.Second); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second)
	if stranger.store.AppliedIndex() != 0 || stranger.rep.Ready() {
		t.Fatalf("a replica with another key got the log up to %d", stranger.store.AppliedIndex())
	}
}
