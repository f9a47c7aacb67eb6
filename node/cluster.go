package node

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/platen/platen/actors"
	"github.com/platen/platen/cluster"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/internal/ids"
)

// A node started with a cluster key runs as a peer: gossip membership on
// --gossip, raft and the peer API on the TLS cluster port (--raft), actors
// placed by rendezvous over the live members, and the leader adding new
// members to raft, the first three as voters and the rest as non-voters.

// RemovePath is where the leader takes an operator's removal of a node.
const RemovePath = "/peer/v1/raft/remove"

// maxVoters is how many voters the leader keeps when it has the members.
const maxVoters = 3

// peerParts are the parts a clustered node has and a single node lacks.
type peerParts struct {
	key      cluster.Key
	port     *cluster.PeerPort
	peers    *cluster.Peers
	members  *cluster.Membership
	server   *http.Server
	system   atomic.Pointer[actors.System]
	httpAddr atomic.Value // string
	// rebalance asks the rebalancer to follow a change of members.
	rebalance chan struct{}
	stop      chan struct{}
	done      chan struct{}
	// joinedAt is when gossip joined the peers (unix ns), 0 before.
	joinedAt atomic.Int64
	// rejoining is set while a re-join runs.
	rejoining atomic.Bool
	// run is this process's Meta.Run.
	run string
	// removed maps the nodes the operator removed to the run that was
	// removed: that run is not added back; a new one is.
	removedMu sync.Mutex
	removed   map[string]string
}

// openPeerPort opens the cluster port; raft runs on it.
func (n *Node) openPeerPort() error {
	key, err := cluster.ParseKey(n.cfg.ClusterKey)
	if err != nil {
		return err
	}
	server, client, err := key.PeerTLS(n.id)
	if err != nil {
		return err
	}
	port, err := cluster.ListenPeers(n.cfg.RaftAddr, n.cfg.RaftAdvertise, server, client)
	if err != nil {
		if listening(err) {
			return listenError(n.cfg.RaftAddr, "--raft", err)
		}
		return fmt.Errorf("cluster port %s: %w", n.cfg.RaftAddr, err)
	}
	peers := cluster.NewPeers(client, cluster.PeersConfig{Logger: n.log.With("component", "peers"), Refused: n.peerRefused})
	n.peer = &peerParts{key: key, port: port, peers: peers, run: ids.New("run", time.Now()),
		rebalance: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{}), removed: map[string]string{}}
	return nil
}

// startPeers serves the peer API, joins gossip and starts the loops that
// keep raft's configuration and the actors' placement up with the members.
func (n *Node) startPeers() error {
	p := n.peer
	n.raft.ForwardTo(p.peers)
	mux := http.NewServeMux()
	mux.HandleFunc(cluster.ApplyPath, n.raft.ServeApply)
	mux.HandleFunc(cluster.IndexPath, n.raft.ServeIndex)
	mux.HandleFunc(RemovePath, n.serveRemove)
	// The actors' handlers, once the actors are up.
	withActors := func(serve func(*actors.System, http.ResponseWriter, *http.Request)) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			sys := p.system.Load()
			if sys == nil {
				// Not taken: the asker asks again, or another node.
				cluster.WriteJSON(w, nil, fmt.Errorf("%w: %w: the node is still starting", fault.ErrUnavailable, actors.ErrNotOwner))
				return
			}
			serve(sys, w, r)
		}
	}
	mux.HandleFunc(actors.AskPath, withActors((*actors.System).ServeAsk))
	mux.HandleFunc(actors.StartPath, withActors((*actors.System).ServeStart))
	mux.HandleFunc(actors.BlobPath, n.serveBlob)
	p.server = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ErrorLog: nil}
	go p.server.Serve(p.port.HTTP())

	addr := p.port.Addr().String()
	timings, err := cluster.TimingsFor(n.cfg.ClusterTimings)
	if err != nil {
		return err
	}
	members, err := cluster.StartMembership(cluster.MembershipConfig{
		NodeID: n.id, Bind: n.cfg.GossipAddr, Key: p.key.GossipKey(), Timings: timings,
		LogOutput: logWriter{n.log.With("component", "gossip")},
		Meta: func() cluster.Meta {
			m := cluster.Meta{Actors: addr, Raft: addr, Run: p.run}
			m.HTTP, _ = p.httpAddr.Load().(string)
			if sys := p.system.Load(); sys != nil {
				m.Load, m.Ready = sys.InFlight(), true
			}
			return m
		},
		OnChange: func() {
			select {
			case p.rebalance <- struct{}{}:
			default:
			}
		},
	}, n.placement)
	if err != nil {
		return err
	}
	p.members = members
	if len(n.cfg.Join) > 0 {
		// Joined before the node goes on: a node that thought itself alone
		// would own every organisation and take over every pending document.
		if _, err := members.Join(n.cfg.Join); err == nil {
			p.joinedAt.Store(time.Now().UnixNano())
			n.log.Info("joined the cluster", "peers", strings.Join(n.cfg.Join, ","))
		} else {
			n.log.Warn("cannot reach the peers to join yet; trying again", "peers", strings.Join(n.cfg.Join, ","), "err", err)
		}
	} else {
		p.joinedAt.Store(time.Now().UnixNano())
	}
	go n.peerLoop()
	return nil
}

// peerRefused follows a refused connection to a peer's cluster port: no
// process listens there, so placement leaves the node out now, without
// waiting for gossip's verdict, and its actors start on their next owners.
func (n *Node) peerRefused(addr string) {
	if n.placement == nil {
		return
	}
	if id, changed := n.placement.MarkDown(addr); changed {
		n.log.Warn("a peer refused a connection; its actors move now", "node", id, "peer", addr)
		select {
		case n.peer.rebalance <- struct{}{}:
		default:
		}
	}
}

// settled reports whether gossip has had time to show every live member:
// until then a member missing from it is not taken for dead.
func (p *peerParts) settled() bool {
	at := p.joinedAt.Load()
	return at != 0 && time.Since(time.Unix(0, at)) > settleTime
}

// settleTime is how long after joining a node trusts gossip's list of the
// living: a few probe rounds.
const settleTime = 5 * time.Second

// peerLoop joins the peers given, keeps raft's configuration up with the
// live members while this node leads, tells the actors when members change,
// and gossips the node's load when it moves.
func (n *Node) peerLoop() {
	p := n.peer
	defer close(p.done)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	var lastLoad int64 = -1
	var lastJoin time.Time
	wasSettled := false
	for {
		// Not joined yet, or joined and missing a server raft knows (after
		// a partition both sides may think the other dead): join through
		// the peers given, away from this loop, which must not wait on
		// dead addresses.
		joined := p.joinedAt.Load() != 0
		if len(n.cfg.Join) > 0 && time.Since(lastJoin) > 5*time.Second && (!joined || n.missingMembers()) && p.rejoining.CompareAndSwap(false, true) {
			lastJoin = time.Now()
			go func() {
				defer p.rejoining.Store(false)
				if _, err := p.members.Join(n.cfg.Join); err != nil {
					if !joined {
						n.log.Warn("cannot reach the peers to join yet; trying again", "peers", strings.Join(n.cfg.Join, ","), "err", err)
					}
					return
				}
				if p.joinedAt.CompareAndSwap(0, time.Now().UnixNano()) {
					n.log.Info("joined the cluster", "peers", strings.Join(n.cfg.Join, ","))
				}
			}()
		}
		if n.raft.IsLeader() {
			n.reconcileRaft()
		}
		if settled := p.settled(); settled && !wasSettled {
			// Members missing from gossip may now be taken for gone.
			wasSettled = true
			if sys := p.system.Load(); sys != nil {
				sys.Rebalance()
			}
		}
		if sys := p.system.Load(); sys != nil {
			if load := sys.InFlight(); load != lastLoad {
				lastLoad = load
				if err := p.members.UpdateMeta(); err != nil {
					n.log.Debug("gossip meta", "err", err)
				}
			}
		}
		select {
		case <-p.stop:
			return
		case <-p.rebalance:
			if sys := p.system.Load(); sys != nil {
				sys.Rebalance()
			}
		case <-tick.C:
		}
	}
}

// missingMembers reports whether raft knows a server that gossip does not
// see alive.
func (n *Node) missingMembers() bool {
	servers, err := n.raft.Servers()
	if err != nil {
		return false
	}
	live := n.peer.members.Members()
	for _, s := range servers {
		if _, ok := live[string(s.ID)]; !ok {
			return true
		}
	}
	return false
}

// reconcileRaft adds live members raft does not know: voters up to three,
// then non-voters; and promotes a live non-voter while voters are short. A
// member that stops answering is not removed: only the operator does that.
func (n *Node) reconcileRaft() {
	servers, err := n.raft.Servers()
	if err != nil {
		return
	}
	known, addrs := map[string]string{}, map[string]string{}
	voters := 0
	for _, s := range servers {
		known[string(s.ID)], addrs[string(s.ID)] = s.Suffrage.String(), string(s.Address)
		if s.Suffrage.String() == "Voter" {
			voters++
		}
	}
	members := n.peer.members.Members()
	n.peer.removedMu.Lock()
	removed := map[string]string{}
	for id, run := range n.peer.removed {
		removed[id] = run
	}
	n.peer.removedMu.Unlock()
	for id, meta := range members {
		if meta.Raft == "" || (removed[id] != "" && removed[id] == meta.Run) {
			continue // the run the operator removed, still in gossip
		}
		suffrage, ok := known[id]
		switch {
		case ok && addrs[id] != meta.Raft:
			// Back at another address (a new pod IP): adding it again with
			// its suffrage updates the address.
			add := n.raft.AddNonvoter
			if suffrage == "Voter" {
				add = n.raft.AddVoter
			}
			if err := add(id, meta.Raft, 5*time.Second); err != nil {
				n.log.Warn("cannot update a node's raft address", "node", id, "err", err)
			}
		case ok && suffrage == "Voter":
			continue
		case voters < maxVoters:
			if err := n.raft.AddVoter(id, meta.Raft, 5*time.Second); err != nil {
				n.log.Warn("cannot add a voter", "node", id, "err", err)
				continue
			}
			voters++
			n.log.Info("node added to raft as a voter", "node", id)
		case !ok:
			if err := n.raft.AddNonvoter(id, meta.Raft, 5*time.Second); err != nil {
				n.log.Warn("cannot add a non-voter", "node", id, "err", err)
				continue
			}
			n.log.Info("node added to raft as a non-voter", "node", id)
		}
	}
}

// removeNode takes a node out of raft's configuration, on the leader.
func (n *Node) removeNode(id string) error {
	if n.raft.IsLeader() {
		return n.removeHere(id)
	}
	_, leader := n.raft.Leader()
	if leader == "" {
		return fmt.Errorf("%w: no raft leader", fault.ErrUnavailable)
	}
	ctx, cancel := context.WithTimeout(context.Background(), n.cfg.RequestTimeout)
	defer cancel()
	return n.peer.peers.Call(ctx, leader, RemovePath, map[string]string{"id": id}, nil)
}

func (n *Node) removeHere(id string) error {
	servers, err := n.raft.Servers()
	if err != nil {
		return err
	}
	found := false
	for _, s := range servers {
		found = found || string(s.ID) == id
	}
	switch {
	case !found:
		return fmt.Errorf("%w: node %s is not in the raft configuration", fault.ErrNotFound, id)
	case id == n.id:
		return fmt.Errorf("%w: node %s leads; stop it and remove it from another node", fault.ErrInvalid, id)
	}
	// Recorded first: the reconciler must not add back the run being
	// removed, which gossip may still list for a few seconds.
	run := n.peer.members.Members()[id].Run
	n.peer.removedMu.Lock()
	n.peer.removed[id] = run
	if run == "" {
		n.peer.removed[id] = "(not in gossip)"
	}
	n.peer.removedMu.Unlock()
	if err := n.raft.RemoveServer(id, n.cfg.RequestTimeout); err != nil {
		return fmt.Errorf("%w: %w", fault.ErrUnavailable, err)
	}
	n.log.Info("node removed from raft by the operator", "node", id)
	n.reconcileRaft() // promote a non-voter if voters are short
	return nil
}

func (n *Node) serveRemove(w http.ResponseWriter, r *http.Request) {
	var in struct {
		ID string `json:"id"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 4096)).Decode(&in); err != nil {
		cluster.WriteJSON(w, nil, fmt.Errorf("%w: %v", fault.ErrInvalid, err))
		return
	}
	if !n.raft.IsLeader() {
		cluster.WriteJSON(w, nil, fmt.Errorf("%w: not the leader", cluster.ErrNotLeader))
		return
	}
	cluster.WriteJSON(w, struct{}{}, n.removeHere(in.ID))
}

// serveBlob takes (PUT) or gives (GET) a copy of a blob by its sha256.
func (n *Node) serveBlob(w http.ResponseWriter, r *http.Request) {
	hash := strings.TrimPrefix(r.URL.Path, actors.BlobPath)
	if len(hash) != 64 || strings.Trim(hash, "0123456789abcdef") != "" {
		cluster.WriteJSON(w, nil, fmt.Errorf("%w: not a sha256: %q", fault.ErrInvalid, hash))
		return
	}
	switch r.Method {
	case http.MethodPut:
		data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 256<<20))
		if err == nil {
			if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != hash {
				err = fmt.Errorf("%w: the body's sha256 is not %s", fault.ErrInvalid, hash)
			}
		}
		if err == nil {
			_, err = n.blobs.Put(data)
		}
		cluster.WriteJSON(w, struct{}{}, err)
	case http.MethodGet:
		data, err := n.blobs.Read(hash)
		if err != nil {
			cluster.WriteJSON(w, nil, err)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(data)
	default:
		cluster.WriteJSON(w, nil, fmt.Errorf("%w: %s", fault.ErrInvalid, r.Method))
	}
}

// fetchBlob copies a blob this node lacks from a live node that holds it:
// the holders recorded at completion first, then any other member.
func (n *Node) fetchBlob(hash string, holders []string) error {
	addrs := map[string]string{}
	for _, m := range n.placement.Members() {
		addrs[m.ID] = m.Addr
	}
	var order []string
	seen := map[string]bool{n.id: true}
	for _, m := range n.placement.Ranked(hash) {
		if slices.Contains(holders, m.ID) && !seen[m.ID] {
			order, seen[m.ID] = append(order, m.ID), true
		}
	}
	for _, m := range n.placement.Ranked(hash) {
		if !seen[m.ID] {
			order, seen[m.ID] = append(order, m.ID), true
		}
	}
	var errs []error
	for _, id := range order {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		data, err := n.peer.peers.Do(ctx, http.MethodGet, addrs[id], actors.BlobPath+hash, nil)
		cancel()
		if err == nil {
			var got string
			if got, err = n.blobs.Put(data); err == nil && got != hash {
				err = fmt.Errorf("node %s sent a blob whose sha256 is %s", id, got)
			}
		}
		if err == nil {
			return nil
		}
		errs = append(errs, fmt.Errorf("node %s: %w", id, err))
	}
	return fmt.Errorf("%w: no live node holds the file now: %w", fault.ErrUnavailable, errors.Join(errs...))
}

// stopPeers leaves gossip, so the others take this node's actors over at
// once, and stops the peer loop and the peer API.
func (n *Node) stopPeers() {
	p := n.peer
	if p.members != nil {
		close(p.stop)
		<-p.done
		if err := p.members.Leave(2 * time.Second); err != nil {
			n.log.Warn("gossip leave", "err", err)
		}
	}
	if p.server != nil {
		p.server.Close()
	}
}

// remote is what the actors need to reach their peers.
func (n *Node) remote() actors.Remote {
	return actors.Remote{Peers: n.peer.peers, WaitApplied: n.store.WaitApplied, AppliedIndex: n.store.AppliedIndex,
		RenderPages: n.cfg.RenderPages, Settled: n.peer.settled, CatchUp: n.raft.CatchUp,
		Loads: func() map[string]int64 {
			out := map[string]int64{}
			for id, m := range n.peer.members.Members() {
				out[id] = m.Load
			}
			return out
		}}
}
