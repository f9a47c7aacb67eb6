package node

import (
	"context"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/platen/platen/actors"
	"github.com/platen/platen/app"
	"github.com/platen/platen/auth"
	"github.com/platen/platen/cluster"
	"github.com/platen/platen/internal/clock"
	"github.com/platen/platen/internal/ids"
	"github.com/platen/platen/internal/seal"
	"github.com/platen/platen/links"
	"github.com/platen/platen/pdftemplate"
	"github.com/platen/platen/render"
	"github.com/platen/platen/render/chromium"
	"github.com/platen/platen/render/phantom"
	"github.com/platen/platen/render/phantom/fonts"
	"github.com/platen/platen/storage"
	"github.com/platen/platen/transport"
	"github.com/platen/platen/webhooks"
)

// Node is a running Platen node.
type Node struct {
	cfg       Config
	id        string
	log       *slog.Logger
	store     *storage.Store
	raft      *cluster.Replicator
	placement *cluster.Rendezvous
	actors    *actors.System
	http      *transport.Server
	engine    *chromium.Engine
	// pdfTemplates reads uploaded PDFs and fills templates made from them.
	pdfTemplates *pdftemplate.Engine
	links        links.Links
	blobs        *storage.Blobs
	// peer is set on a node started with a cluster key.
	peer     *peerParts
	listener net.Listener
	// app is the use cases, which the janitor calls too.
	app *app.App
	// base is the node's public URL: --base-url, or http:// and the address
	// it listens on.
	base     string
	served   chan error
	draining atomic.Bool
	// janitorStop asks the janitor to stop; janitorDone is closed when it has.
	janitorStop, janitorDone chan struct{}
}

// Start opens the data folder and starts every part of the node. Secrets made
// on first start (the first API key, a generated operator token) are written
// once to out, never to the log.
//
// A failure that a setting can mend (a busy port, a data folder in use or
// damaged, a bad value) is a *StartError naming the flag. A node that fails
// half-way closes what it opened before Start returns.
func Start(cfg Config, log *slog.Logger, out io.Writer) (*Node, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	n := &Node{cfg: cfg, log: log, served: make(chan error, 1)}
	if err := n.start(out); err != nil {
		n.close()
		return nil, err
	}
	return n, nil
}

// start opens and starts the node's parts in order, each set on n as soon as
// it is open, so that close finds exactly what was opened.
func (n *Node) start(out io.Writer) error {
	cfg, log := n.cfg, n.log
	// The ports first: a busy one is the commonest reason a node does not
	// start (a second node on this machine), and says so before the data
	// folder is opened. They are only checked here, not held: the HTTP port
	// refuses connections until the node serves, as it always has.
	if err := checkListen(cfg.HTTPAddr, "--http"); err != nil {
		return err
	}
	if err := checkListen(cfg.RaftAddr, "--raft"); err != nil {
		return err
	}
	if cfg.Clustered() {
		if err := checkGossip(cfg.GossipAddr); err != nil {
			return err
		}
	}
	// Then the settings nothing opened yet needs.
	if _, err := os.Stat(cfg.ChromiumBin); err != nil {
		return &StartError{Flag: "--chromium", Err: err,
			msg: fmt.Sprintf("the Chromium executable %s is not there (scripts/install-deps.sh installs it); name another with --chromium", cfg.ChromiumBin)}
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return unwritable(cfg.DataDir, err)
	}
	var err error
	if n.id, err = nodeID(cfg.DataDir); err != nil {
		return unwritable(cfg.DataDir, err)
	}

	stateDir := filepath.Join(cfg.DataDir, "state")
	if n.store, err = storage.OpenStore(stateDir); err != nil {
		return dataError(cfg.DataDir, "the state in "+stateDir, err)
	}
	blobDir := filepath.Join(cfg.DataDir, "blobs")
	if n.blobs, err = storage.OpenBlobs(blobDir); err != nil {
		return dataError(cfg.DataDir, "the blob store in "+blobDir, err)
	}
	// Every node applies an expiry: each deletes its own copy of the file.
	n.store.OnBlobsReleased(func(hashes []string) { go n.deleteReleased(hashes) })
	rc := cluster.DefaultRaftConfig()
	rc.NodeID, rc.Bind, rc.Dir = n.id, cfg.RaftAddr, filepath.Join(cfg.DataDir, "raft")
	rc.Blobs = n.blobs
	rc.Alone = !cfg.Clustered()
	rc.LogOutput = logWriter{log.With("component", "raft")}
	readyWait := 30 * time.Second
	if cfg.Clustered() {
		if rc.Timings, err = cluster.TimingsFor(cfg.ClusterTimings); err != nil {
			return flagError("--cluster-timings", "--cluster-timings: %v", err)
		}
		if err = n.openPeerPort(); err != nil {
			return err
		}
		rc.Stream, rc.Bind, rc.Join = n.peer.port.Raft(), n.peer.port.Addr().String(), len(cfg.Join) > 0
		if rc.Join {
			readyWait = 2 * time.Minute // until a leader has added this node
		}
	}
	if n.raft, err = cluster.StartRaft(rc, n.store); err != nil {
		if listening(err) {
			return listenError(cfg.RaftAddr, "--raft", err)
		}
		return dataError(cfg.DataDir, "the raft log in "+rc.Dir, err)
	}
	self := cluster.Member{ID: n.id}
	if n.peer != nil {
		self.Addr = n.peer.port.Addr().String()
	}
	n.placement = cluster.NewRendezvous(self)
	if n.peer != nil {
		if err = n.startPeers(); err != nil {
			return &StartError{Flag: "--gossip", Err: err,
				msg: fmt.Sprintf("cannot start gossip on %s (%v); choose another address with --gossip", cfg.GossipAddr, err)}
		}
	}
	if err = n.raft.WaitReady(readyWait); err != nil {
		if len(cfg.Join) > 0 {
			return &StartError{Flag: "--join", Err: err,
				msg: fmt.Sprintf("no leader added this node to the cluster (%v); check that --join names running nodes and that --cluster-key is theirs", err)}
		}
		return fmt.Errorf("no raft leader: %w", err)
	}

	ccfg := chromium.DefaultConfig()
	ccfg.Bin, ccfg.Pages, ccfg.Logger = cfg.ChromiumBin, cfg.RenderPages, log
	ccfg.MaxPages, ccfg.OrgPages = cfg.Render.MaxPages, cfg.RenderPagesPerOrg
	if lib, err := fonts.Default(); err == nil {
		ccfg.Fonts = lib // names fonts in chromium documents' reports
	}
	if n.engine, err = chromium.New(ccfg); err != nil {
		return err
	}
	if cfg.WarmEngine {
		go func() {
			// ErrClosed: the node failed to start and closed the engine.
			if err := n.engine.Start(); err != nil && !errors.Is(err, chromium.ErrClosed) {
				log.Error("chromium did not start; renders will try again", "err", err)
			}
		}()
	}
	engines := []render.Engine{n.engine}
	// Without fonts phantom cannot print; the node then runs chromium alone
	// and every document says so in its engineReason.
	if fast, err := phantom.New(phantom.Config{Workers: max(runtime.NumCPU(), 1), MaxPages: cfg.Render.MaxPages}); err != nil {
		log.Error("phantom cannot start; chromium prints every document", "err", err)
	} else {
		engines = append(engines, fast)
	}
	renderer := render.NewRenderer(cfg.Render, engines...)
	// PDFium compiles at the first upload or fill, once: its compiled
	// module is kept in the data folder for the next start.
	pdfCfg := cfg.PDFTemplates
	pdfCfg.CacheDir = filepath.Join(cfg.DataDir, "cache", "pdfium")
	n.pdfTemplates = pdftemplate.New(pdfCfg)
	renderer.SetPDFTemplates(n.pdfTemplates)
	versions := actors.NewVersions(n.store)
	var fetchBlob func(string, []string) error
	if n.peer != nil {
		fetchBlob = n.fetchBlob
	}

	// Made just before the system that stops it: nothing fails in between.
	engine, err := actors.NewEngine()
	if err != nil {
		return err
	}
	clk := clock.System{}
	n.actors = actors.NewSystem(engine, n.placement, actors.OrgDeps{
		Store: n.store, Proposer: n.raft, Clock: clk, Plans: n.store.Plans, ProposeTimeout: cfg.RequestTimeout,
	}, actors.DocDeps{
		Store: n.store, Blobs: n.blobs, Renderer: renderer, Versions: versions, Retention: cfg.Retention,
		QueueCapacity: cfg.DocumentQueue, Logger: log, FetchBlob: fetchBlob, TSA: cfg.tsa(),
	}, cfg.RequestTimeout)
	n.actors.RoundTripLocal(cfg.WireCheck)
	if n.peer != nil {
		n.actors.SetRemote(n.remote())
	}

	sealer, err := n.sealer()
	if err != nil {
		if cfg.SealKeyFile != "" {
			return &StartError{Flag: "--seal-key-file", Err: err,
				msg: fmt.Sprintf("the seal key file %s cannot be used (%v); fix it, or name another with --seal-key-file", cfg.SealKeyFile, err)}
		}
		return dataError(cfg.DataDir, "the seal key in "+filepath.Join(cfg.DataDir, "seal.key"), err)
	}
	n.actors.SetSealer(sealer)
	// Listening before the first start's output, so the links it prints
	// name the port the node got; nothing is served until the end of Start.
	if n.listener, err = net.Listen("tcp", cfg.HTTPAddr); err != nil {
		// Taken since it was checked.
		return listenError(cfg.HTTPAddr, "--http", err)
	}
	base := cfg.BaseURL
	if base == "" {
		base = "http://" + n.listener.Addr().String()
	}
	n.base = base
	tokenHash, err := n.firstStart(out, clk)
	if err != nil {
		return err
	}
	linkKey, err := n.linkKey(clk)
	if err != nil {
		return err
	}
	n.links = links.Links{Key: linkKey, Base: base}
	guard := webhooks.Guard{Resolver: net.DefaultResolver, AllowPrivate: cfg.WebhookAllowPrivate}
	extraCAs, err := loadCAs(cfg.WebhookCAFile)
	if err != nil {
		return &StartError{Flag: "--webhook-ca-file", Err: err, msg: fmt.Sprintf("%v; check --webhook-ca-file", err)}
	}
	n.actors.SetHooks(actors.HookDeps{Store: n.store, Proposer: n.raft, Clock: clk, Sender: webhooks.NewSender(guard, extraCAs),
		Sealer: sealer, Links: n.links, Schedule: cfg.WebhookSchedule, Logger: log})
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "platen_raft_applied_index", Help: "Raft index of the last command applied to the store."},
			func() float64 { return float64(n.store.AppliedIndex()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "platen_actor_panics_total", Help: "Panics caught in actors."},
			func() float64 { return float64(actors.Panics.Load()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "platen_documents_in_flight", Help: "Documents queued or rendering on this node."},
			func() float64 { return float64(n.actors.InFlight()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "platen_documents_completed_total", Help: "Documents this node rendered."},
			func() float64 { return float64(actors.DocumentsCompleted.Load()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "platen_documents_failed_total", Help: "Documents whose render failed on this node."},
			func() float64 { return float64(actors.DocumentsFailed.Load()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "platen_webhook_attempts_delivered_total", Help: "Webhook attempts the receiver took."},
			func() float64 { return float64(actors.WebhooksDelivered.Load()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "platen_webhook_attempts_retried_total", Help: "Webhook attempts to be retried."},
			func() float64 { return float64(actors.WebhooksRetried.Load()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "platen_webhook_attempts_failed_total", Help: "Webhook deliveries that failed for good."},
			func() float64 { return float64(actors.WebhooksFailed.Load()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "platen_realtime_connections", Help: "Open realtime connections."},
			func() float64 {
				if n.http == nil {
					return 0
				}
				return float64(n.http.RealtimeConnections())
			}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "platen_ready", Help: "1 when the node is ready to serve."},
			func() float64 {
				if n.ready() == nil {
					return 1
				}
				return 0
			}),
	)
	var removeNode func(string) error
	var catchUp func() error
	if n.peer != nil {
		removeNode = n.removeNode
		catchUp = func() error { return n.raft.CatchUp(2 * time.Second) }
		n.peer.httpAddr.Store(n.listener.Addr().String())
	}
	uses := app.New(app.Deps{Store: n.store, Actors: n.actors, Versions: versions, Renderer: renderer, PDFTemplates: n.pdfTemplates,
		Blobs: n.blobs, Links: n.links, Sealer: sealer, Guard: guard, Clock: clk, WaitTimeout: cfg.WaitTimeout, CatchUp: catchUp,
		Propose: n.propose, OpenSignUp: cfg.OpenSignUp, WalletCurrency: cfg.WalletCurrency})
	n.app = uses
	httpCfg := cfg.HTTP
	httpCfg.BaseURL = base
	n.http, err = transport.New(httpCfg, transport.Deps{
		App: uses, RemoveNode: removeNode, CatchUp: catchUp,
		Store: n.store, Actors: n.actors, Clock: clk, Logger: log,
		Ready: n.ready, Cluster: n.clusterInfo, OperatorTokenHash: tokenHash, Metrics: reg,
		SetPlanTerms: n.setPlanTerms, Links: n.links,
	})
	if err != nil {
		return err
	}
	if n.peer != nil {
		// The peer API may now ask actors here; gossip tells the others
		// that placement may use this node, before its clients can.
		n.peer.system.Store(n.actors)
		if err := n.peer.members.UpdateMeta(); err != nil {
			log.Warn("cannot gossip readiness yet; the next round will", "err", err)
		}
	}
	go func() { n.served <- n.http.Serve(n.listener) }()
	if err := n.actors.WakePendingEndpoints(); err != nil {
		log.Error("cannot resume webhook deliveries", "err", err)
	}
	if resumed, err := n.actors.ResumePending(); err != nil {
		log.Error("cannot resume pending documents", "err", err)
	} else if resumed > 0 {
		log.Info("resumed documents left pending by the last stop", "documents", resumed)
	}
	n.janitorStop, n.janitorDone = make(chan struct{}), make(chan struct{})
	go n.janitor(cfg.JanitorInterval, n.janitorStop, n.janitorDone)
	log.Info("node started", "node", n.id, "config", cfg.String(), "http", n.listener.Addr().String(), "raft", n.raft.Addr())
	return nil
}

// StartError is a failure to start that a setting mends: a busy port, a data
// folder that cannot be written, is in use or is damaged, a bad value. Its
// message says what is wrong and which flag of `platen serve` mends it, in
// one line an operator reads; cmd/platen prints it as it is.
type StartError struct {
	// Flag mends the failure, as "--http"; empty when no flag does.
	Flag string
	// Err is the cause.
	Err error
	// msg is the message; empty means Err's.
	msg string
}

func (e *StartError) Error() string {
	if e.msg != "" {
		return e.msg
	}
	return e.Err.Error()
}

func (e *StartError) Unwrap() error { return e.Err }

// flagError is a bad setting; the message names its flag.
func flagError(flag, format string, args ...any) *StartError {
	return &StartError{Flag: flag, Err: fmt.Errorf(format, args...)}
}

// addrNames are what the addresses' flags are called in messages.
var addrNames = map[string]string{"--http": "HTTP", "--raft": "raft", "--gossip": "gossip"}

// checkListen fails with a StartError when addr, given by flag, cannot be
// listened on now. It does not keep the port.
func checkListen(addr, flag string) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return listenError(addr, flag, err)
	}
	return l.Close()
}

// checkGossip checks the gossip address, which memberlist binds for TCP and
// UDP, and whose own errors do not say which.
func checkGossip(addr string) error {
	if err := checkListen(addr, "--gossip"); err != nil {
		return err
	}
	pc, err := net.ListenPacket("udp", addr)
	if err != nil {
		return listenError(addr, "--gossip", err)
	}
	return pc.Close()
}

// listenError explains why the address given by flag cannot be listened on.
func listenError(addr, flag string, err error) error {
	name := addrNames[flag]
	var msg string
	switch {
	case errors.Is(err, syscall.EADDRINUSE) && flag == "--http":
		msg = fmt.Sprintf("the HTTP address %s is in use by another program; choose another with --http", addr)
	case errors.Is(err, syscall.EADDRINUSE):
		msg = fmt.Sprintf("the %s address %s is in use (another platen node on this machine?); choose another with %s", name, addr, flag)
	case errors.Is(err, syscall.EADDRNOTAVAIL):
		msg = fmt.Sprintf("the %s address %s is not an address of this machine; choose another with %s", name, addr, flag)
	case errors.Is(err, syscall.EACCES):
		msg = fmt.Sprintf("the %s address %s needs privileges this process lacks (ports below 1024 do); choose another with %s", name, addr, flag)
	default:
		msg = fmt.Sprintf("cannot listen on the %s address %s (%v); choose another with %s", name, addr, err, flag)
	}
	return &StartError{Flag: flag, Err: err, msg: msg}
}

// listening reports whether err is a failure to listen on an address.
func listening(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "listen"
}

// unwritable is a data folder that cannot be made or written.
func unwritable(dir string, err error) error {
	return &StartError{Flag: "--data-dir", Err: err,
		msg: fmt.Sprintf("the data folder %s cannot be written (%v); choose another with --data-dir", dir, err)}
}

// dataError explains why what (a part of the data folder dir, as "the state
// in data/state") cannot be opened: another process holds it, it cannot be
// written, or it is damaged.
func dataError(dir, what string, err error) error {
	switch {
	case errors.Is(err, syscall.EAGAIN):
		// Pebble's LOCK file, held by another process.
		return &StartError{Flag: "--data-dir", Err: err,
			msg: fmt.Sprintf("the data folder %s is in use by another platen process; stop it, or choose another folder with --data-dir", dir)}
	case strings.Contains(err.Error(), "lock held by current process"):
		// Pebble's word for a second node in this process (tests).
		return &StartError{Flag: "--data-dir", Err: err,
			msg: fmt.Sprintf("the data folder %s is in use by another node in this process; choose another with --data-dir", dir)}
	case errors.Is(err, fs.ErrPermission), errors.Is(err, syscall.EROFS), errors.Is(err, syscall.ENOSPC):
		return unwritable(dir, err)
	}
	return &StartError{Flag: "--data-dir", Err: err,
		msg: fmt.Sprintf("%s is damaged (%v); restore the data folder from a backup (docs/operator.md \"Backups\"), or start on an empty --data-dir", what, err)}
}

// ID is the node's stable id.
func (n *Node) ID() string { return n.id }

// HTTPAddr is the address the HTTP surface listens on.
func (n *Node) HTTPAddr() string { return n.listener.Addr().String() }

// EngineMemory is the memory (PSS, bytes) of the browser the node renders
// with, 0 before it starts.
func (n *Node) EngineMemory() int64 {
	if pid := n.engine.PID(); pid > 0 {
		return chromium.TreePSS(pid)
	}
	return 0
}

// EngineCPU is the processor time the Chromium engine's processes have used
// so far, for load programs; zero while the browser is not running.
func (n *Node) EngineCPU() time.Duration {
	if pid := n.engine.PID(); pid > 0 {
		return chromium.TreeCPU(pid)
	}
	return 0
}

// Links returns the node's download-link signer, for tests and tools in this process.
func (n *Node) Links() links.Links { return n.links }

// Store is the node's state store, for tests and tools in this process.
func (n *Node) Store() *storage.Store { return n.store }

// Done is closed when the HTTP server stops serving by itself.
func (n *Node) Done() <-chan error { return n.served }

// Shutdown drains: readiness turns false, open requests finish (until ctx
// ends), then actors, raft and the store stop.
func (n *Node) Shutdown(ctx context.Context) error {
	n.draining.Store(true)
	var err error
	if n.http != nil {
		err = n.http.Shutdown(ctx)
	}
	n.close()
	n.log.Info("node stopped", "node", n.id)
	return err
}

func (n *Node) close() {
	if n.listener != nil && n.http == nil {
		n.listener.Close() // started listening, failed before serving
	}
	if n.janitorStop != nil {
		// The janitor uses actors and the store: it stops before they do.
		close(n.janitorStop)
		<-n.janitorDone
		n.janitorStop = nil
	}
	if n.peer != nil {
		n.stopPeers()
	}
	if n.actors != nil {
		n.actors.Stop()
	}
	if n.engine != nil {
		if err := n.engine.Close(); err != nil {
			n.log.Error("chromium close", "err", err)
		}
	}
	if n.pdfTemplates != nil {
		n.pdfTemplates.Close()
	}
	if n.raft != nil {
		if err := n.raft.Shutdown(); err != nil {
			n.log.Error("raft shutdown", "err", err)
		}
	}
	if n.blobs != nil {
		// After raft: no command writes a blob any more.
		if err := n.blobs.Close(); err != nil {
			n.log.Error("blobs close", "err", err)
		}
	}
	if n.peer != nil {
		n.peer.port.Close()
	}
	if n.store != nil {
		if err := n.store.Close(); err != nil {
			n.log.Error("store close", "err", err)
		}
	}
}

func (n *Node) ready() error {
	if n.draining.Load() {
		return errors.New("shutting down")
	}
	if !n.raft.Ready() {
		return errors.New("no raft leader yet, or the log is still being applied")
	}
	return nil
}

func (n *Node) clusterInfo() any {
	servers, _ := n.raft.Servers()
	type server struct {
		ID       string `json:"id"`
		Address  string `json:"address"`
		Suffrage string `json:"suffrage"`
	}
	out := []server{}
	for _, s := range servers {
		out = append(out, server{ID: string(s.ID), Address: string(s.Address), Suffrage: s.Suffrage.String()})
	}
	stats := n.raft.Stats()
	return map[string]any{
		"node":    map[string]any{"id": n.id, "http": n.HTTPAddr(), "raft": n.raft.Addr(), "ready": n.ready() == nil},
		"raft":    map[string]any{"state": n.raft.State(), "term": stats["term"], "lastLogIndex": stats["last_log_index"], "commitIndex": stats["commit_index"], "appliedIndex": n.store.AppliedIndex()},
		"servers": out,
		"members": n.members(),
		// The members actors are placed on: live and ready.
		"placement": n.placement.Members(),
	}
}

// deleteReleased deletes this node's copies of blobs no document refers to.
func (n *Node) deleteReleased(hashes []string) {
	for _, h := range hashes {
		if inUse, err := n.store.BlobInUse(h); err == nil && !inUse {
			if err := n.blobs.Delete(h); err != nil {
				n.log.Warn("cannot delete an expired file", "blob", h, "err", err)
			}
		}
	}
}

// members lists the live members with what gossip says of them.
func (n *Node) members() any {
	type member struct {
		ID   string `json:"id"`
		HTTP string `json:"http,omitempty"`
		Peer string `json:"peer,omitempty"`
		Load int64  `json:"load"`
		// Ready is false while the node starts: nothing is placed on it yet.
		Ready bool `json:"ready"`
	}
	out := []member{}
	if n.peer == nil || n.peer.members == nil {
		return append(out, member{ID: n.id, HTTP: n.HTTPAddr(), Load: n.actors.InFlight(), Ready: true})
	}
	for id, m := range n.peer.members.Members() {
		out = append(out, member{ID: id, HTTP: m.HTTP, Peer: m.Raft, Load: m.Load, Ready: m.Ready})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// janitor resumes documents whose actor gave up on a transient error and
// deletes files past their retention.
func (n *Node) janitor(every time.Duration, stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		if n.ready() != nil {
			continue
		}
		if err := n.Sweep(time.Now().UTC()); err != nil {
			n.log.Error("janitor", "err", err)
		}
	}
}

// Sweep resumes stranded documents and deletes the files of documents whose
// retention ended before now. The janitor runs it; tests call it with a clock
// of their own.
func (n *Node) Sweep(now time.Time) error {
	if _, err := n.actors.ResumePending(); err != nil {
		return fmt.Errorf("resume pending documents: %w", err)
	}
	if err := n.actors.WakePendingEndpoints(); err != nil {
		return fmt.Errorf("resume webhook deliveries: %w", err)
	}
	if n.app != nil {
		if ended, err := n.app.EndExpiredSessions(now, 500); err != nil {
			return fmt.Errorf("end expired sessions: %w", err)
		} else if ended > 0 {
			n.log.Info("expired console sessions deleted", "sessions", ended)
		}
	}
	for {
		expired, err := n.actors.ExpireFiles(now, 500)
		if err != nil {
			return fmt.Errorf("expire files: %w", err)
		}
		if expired > 0 {
			n.log.Info("files past retention deleted", "documents", expired)
		}
		if expired < 500 {
			return nil
		}
	}
}

// setPlanTerms stores the operator's terms for a plan. The catalogue is global
// state with one writer, the operator; raft orders concurrent changes.
func (n *Node) setPlanTerms(p storage.Plan) error {
	return n.raft.Apply(&storage.Command{Kind: storage.KindSetPlanTerms, At: time.Now().UTC(), SetPlanTerms: &p}, n.cfg.RequestTimeout)
}

// sealer returns the sealer of webhook secrets, making its key file on first
// start. The key is not in the replicated state: a copy of the state alone
// does not reveal the secrets.
func (n *Node) sealer() (*seal.Sealer, error) {
	path := n.cfg.SealKeyFile
	if path == "" {
		path = filepath.Join(n.cfg.DataDir, "seal.key")
	}
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) && n.cfg.SealKeyFile == "" {
		key := make([]byte, 32)
		if n.peer != nil {
			// Every node of a cluster must open the secrets any node sealed:
			// nodes that start in a cluster derive the same key.
			key = n.peer.key.SealKey()
		} else if _, err := rand.Read(key); err != nil {
			return nil, err
		}
		raw = []byte(base64.StdEncoding.EncodeToString(key) + "\n")
		if err := writeFileSync(path, raw); err != nil {
			return nil, err
		}
	} else if err != nil {
		return nil, fmt.Errorf("seal key: %w", err)
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(raw)))
	if err != nil {
		return nil, fmt.Errorf("seal key %s: not base64: %w", path, err)
	}
	return seal.New(key)
}

// loadCAs reads extra CA certificates for deliveries (tests only).
func loadCAs(path string) ([]*x509.Certificate, error) {
	if path == "" {
		return nil, nil
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("webhook CA file: %w", err)
	}
	var out []*x509.Certificate
	for {
		var block *pem.Block
		block, raw = pem.Decode(raw)
		if block == nil {
			break
		}
		c, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("webhook CA file: %w", err)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("webhook CA file %s holds no certificate", path)
	}
	return out, nil
}

// linkKey returns the key that signs download links, making it on first start.
func (n *Node) linkKey(clk clock.Clock) ([]byte, error) {
	key, err := n.store.LinkKey()
	if err == nil {
		return key, nil
	}
	if !errors.Is(err, storage.ErrNotFound) {
		return nil, err
	}
	fresh := make([]byte, 32)
	if _, err := rand.Read(fresh); err != nil {
		return nil, err
	}
	err = n.raft.Apply(&storage.Command{Kind: storage.KindSetLinkKey, At: clk.Now(), SetLinkKey: &storage.SetLinkKey{Key: fresh}}, n.cfg.RequestTimeout)
	if err != nil && !errors.Is(err, storage.ErrConflict) {
		return nil, err
	}
	return n.store.LinkKey()
}

// nodeID reads the node's id from the data folder, making it on first start.
func nodeID(dir string) (string, error) {
	p := filepath.Join(dir, "node-id")
	b, err := os.ReadFile(p)
	if err == nil {
		if id := strings.TrimSpace(string(b)); id != "" {
			return id, nil
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	id := ids.New("node", time.Now())
	if err := writeFileSync(p, []byte(id+"\n")); err != nil {
		return "", err
	}
	return id, nil
}

func writeFileSync(p string, b []byte) error {
	f, err := os.OpenFile(p+".tmp", os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(p+".tmp", p)
}

// firstStart makes what an empty data folder lacks: the operator token (unless
// one is configured) and a sandbox organisation with one key holding every
// scope. It returns the hash of the operator token in force.
func (n *Node) firstStart(out io.Writer, clk clock.Clock) (string, error) {
	var tokenHash string
	stored, err := n.store.OperatorTokenHash()
	switch {
	case n.cfg.OperatorToken != "":
		tokenHash = auth.Hash(n.cfg.OperatorToken)
	case err == nil:
		tokenHash = stored
	case errors.Is(err, storage.ErrNotFound):
		// Printed before it is stored: a crash in between makes the next start
		// print a new one, where the other order would lose the token.
		token := auth.NewSecret("plt_op_")
		tokenHash = auth.Hash(token)
		fmt.Fprintf(out, "\nOperator token (shown once; pass it to `platen admin` as --token or PLATEN_OPERATOR_TOKEN):\n  %s\n", token)
		if err := n.raft.Apply(&storage.Command{Kind: storage.KindSetOperatorToken, At: clk.Now(),
			SetOperatorToken: &storage.SetOperatorToken{Hash: tokenHash}}, n.cfg.RequestTimeout); err != nil {
			return "", fmt.Errorf("store operator token: %w", err)
		}
	default:
		return "", err
	}

	orgs, err := n.store.Orgs()
	if err != nil {
		return "", err
	}
	var orgID string
	switch len(orgs) {
	case 0:
		orgID = ids.New(ids.Org, clk.Now())
		if _, err := actors.Ask(n.actors, orgID, actors.CreateOrg{Name: "Sandbox organisation", Plan: storage.PlanSandbox}); err != nil {
			return "", fmt.Errorf("create first organisation: %w", err)
		}
	case 1:
		// A first start cut off between the organisation and its key: finish it.
		keys, err := n.store.OrgKeys(orgs[0].ID)
		if err != nil {
			return "", err
		}
		if len(keys) > 0 {
			return tokenHash, nil
		}
		orgID = orgs[0].ID
	default:
		return tokenHash, nil
	}
	nk, err := actors.Ask(n.actors, orgID, actors.CreateKey{Name: "first key", Scopes: auth.AllScopes(), AnyScope: true})
	if err != nil {
		return "", fmt.Errorf("create first key: %w", err)
	}
	fmt.Fprintf(out, "\nFirst organisation %s (sandbox plan) and an API key with every scope (shown once):\n  %s\n\nTry: curl -H 'Authorization: Bearer %s' %s/v1\n",
		orgID, nk.Secret, nk.Secret, n.base)
	owner, err := app.FirstOwnerLink(n.propose, orgID, clk.Now())
	if err != nil {
		return "", fmt.Errorf("make the first owner's link: %w", err)
	}
	fmt.Fprintf(out, "\nThe dashboard: open this one-time link to become the first owner and set your password (expires in 24 hours):\n  %s\n\n",
		transport.LinkURL(n.base, owner.Token))
	return tokenHash, nil
}

// logWriter turns the lines a library writes into warnings in the node's log.
type logWriter struct{ log *slog.Logger }

// hclogTag is the level tag hclog starts a line with.
var hclogTag = regexp.MustCompile(`^\[[A-Z]+\]\s*`)

// firstElection reports whether a raft line is the election a node starts
// when it has never had a leader: how every node, a single one too, finds
// its first leader, which raft logs as a warning. An election after a
// leader was lost names that leader and stays a warning.
func firstElection(line string) bool {
	return strings.Contains(line, "heartbeat timeout reached, starting election") && strings.HasSuffix(strings.TrimSpace(line), "last-leader-id=")
}

func (w logWriter) Write(p []byte) (int, error) {
	for _, line := range strings.Split(strings.TrimSpace(string(p)), "\n") {
		// The record has its level: hclog's own tag ("[WARN]  ") goes.
		msg := hclogTag.ReplaceAllString(line, "")
		switch {
		case line == "":
		case strings.Contains(line, "[DEBUG]"):
			w.log.Debug(msg)
		case strings.Contains(line, "[INFO]"), firstElection(line):
			w.log.Info(msg)
		default:
			w.log.Warn(msg)
		}
	}
	return len(p), nil
}

// propose applies a command that no actor owns (people, sessions, links)
// through the raft log, and waits for its outcome.
func (n *Node) propose(c *storage.Command) error { return n.raft.Apply(c, n.cfg.RequestTimeout) }
