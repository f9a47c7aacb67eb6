package node

import (
	"errors"
	"fmt"
	"github.com/platen/platen/sign"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"time"

	"github.com/platen/platen/actors"
	"github.com/platen/platen/cluster"
	"github.com/platen/platen/einvoice"
	"github.com/platen/platen/pdftemplate"
	"github.com/platen/platen/render"
	"github.com/platen/platen/render/chromium"
	"github.com/platen/platen/transport"
)

// Config is a node's settings. Every field has a flag and a PLATEN_
// environment twin in cmd/platen.
type Config struct {
	// DataDir holds the node's id, state database, raft log and snapshots.
	DataDir string
	// HTTPAddr is where REST, realtime, downloads and the operator API listen.
	HTTPAddr string
	// BaseURL is the public address of this node, used in links; empty means
	// http://HTTPAddr.
	BaseURL string
	// OpenSignUp lets anyone sign up in the console, each into a sandbox
	// organisation of their own. Off by default: people join by invitation.
	OpenSignUp bool
	// WalletCurrency is the ISO 4217 currency of wallets, prices and
	// charges, which are kept in micro-units of it. Every node of a
	// cluster must name the same one.
	WalletCurrency string
	// TSAURL, when set, is the RFC 3161 time-stamp authority every
	// signature is time-stamped by (PAdES B-T); without one, signatures
	// are B-B (docs/signatures.md). TSATimeout bounds each request to it.
	TSAURL     string
	TSATimeout time.Duration
	// OperatorToken, when set, is the operator API's token. When empty the
	// node uses the token stored in its state, or makes and prints one on
	// first start. It is a secret: never printed by String.
	OperatorToken string
	// RaftAddr is where raft listens for peers. With a cluster key it is the
	// cluster port: raft and the peer API, over TLS.
	RaftAddr string
	// RaftAdvertise is the cluster port's address as peers dial it, when
	// that is not RaftAddr (behind NAT or a proxy); empty means RaftAddr.
	RaftAdvertise string
	// ClusterKey, when set, makes the node a cluster peer (see
	// cluster.Key). It is a secret: never printed by String.
	ClusterKey string
	// GossipAddr is where gossip membership listens (TCP and UDP), with a
	// cluster key.
	GossipAddr string
	// Join lists gossip addresses of nodes already in the cluster. Empty, a
	// node with no state starts a cluster of its own.
	Join []string
	// ClusterTimings is the profile of raft's election and memberlist's
	// failure-detection timings: cluster.ProfileLAN (one host or one LAN)
	// or cluster.ProfileWAN (data centres apart); see cluster.Timings.
	ClusterTimings string
	// ShutdownTimeout bounds the drain of open requests on SIGTERM.
	ShutdownTimeout time.Duration
	// RequestTimeout bounds a request's wait for an actor.
	RequestTimeout time.Duration
	// HTTP holds the limits of the HTTP surface.
	HTTP transport.Config
	// ChromiumBin is the browser the chromium engine drives.
	ChromiumBin string
	// RenderPages is how many documents print at once.
	RenderPages int
	// RenderPagesPerOrg is how many of them one organisation may hold at
	// once, unless its plan says otherwise (storage.Plan.ChromiumPages); 0
	// means half of RenderPages, rounded up (chromium.DefaultOrgPages).
	RenderPagesPerOrg int
	// WarmEngine starts the browser with the node rather than at the first
	// render, which would otherwise wait for it.
	WarmEngine bool
	// Render holds the render queue and limits.
	Render render.RendererConfig
	// PDFTemplates holds the limits on reading uploaded PDFs (CacheDir is
	// set from DataDir).
	PDFTemplates pdftemplate.Config
	// Retention is how long a finished PDF is kept; the record stays after.
	Retention time.Duration
	// WaitTimeout is how long POST /v1/documents waits before answering 202.
	WaitTimeout time.Duration
	// DocumentQueue bounds the documents queued or rendering on this node;
	// beyond it POST /v1/documents answers 503 OVERLOADED.
	DocumentQueue int
	// JanitorInterval is how often the node resumes stranded documents and
	// deliveries and deletes expired files.
	JanitorInterval time.Duration
	// SealKeyFile holds the key that seals webhook signing secrets; empty
	// means <data-dir>/seal.key, made on first start. Every node of a cluster
	// needs the same key.
	SealKeyFile string
	// WebhookAllowPrivate lets webhook endpoints on private and loopback
	// addresses through. For tests only.
	WebhookAllowPrivate bool
	// WebhookCAFile is a PEM file of extra CAs deliveries trust. For tests only.
	WebhookCAFile string
	// WireCheck sends every ask to a local actor through the encoding that
	// asks between nodes take, both ways. For tests only: it checks that
	// every message and reply survives the trip.
	WireCheck bool
	// WebhookSchedule is the wait before each retry; empty means the
	// schedule of docs/design.md "Webhooks". Tests shorten it.
	WebhookSchedule []time.Duration
}

// DefaultConfig returns the embedded default: one node on ./data, listening
// on loopback only.
func DefaultConfig() Config {
	return Config{
		DataDir:        "./data",
		WalletCurrency: "EUR",
		// A time-stamp authority answers in well under a second; ten
		// seconds rides out a slow one without holding a render for long.
		TSATimeout: 10 * time.Second,
		HTTPAddr:   "127.0.0.1:8080",
		// Next to the HTTP port, loopback only until a cluster is configured.
		RaftAddr: "127.0.0.1:8300",
		// Used only with a cluster key; memberlist's usual port.
		GossipAddr: "127.0.0.1:7946",
		// Peers on one LAN are the common case; a dead leader is replaced
		// within a second (cluster.LANTimings).
		ClusterTimings: cluster.ProfileLAN,
		// Long enough for a render in flight to finish (60 s budget is the
		// render's own; most finish in well under a second).
		ShutdownTimeout: 30 * time.Second,
		// Actors answer in milliseconds; ten seconds means something is stuck.
		RequestTimeout: 10 * time.Second,
		HTTP:           transport.DefaultConfig(),
		ChromiumBin:    chromium.DefaultConfig().Bin,
		// One printing page per core.
		RenderPages: max(runtime.NumCPU(), 1),
		WarmEngine:  true,
		Render:      render.DefaultRendererConfig(),
		// pdftemplate.DefaultConfig gives each limit's reason.
		PDFTemplates: pdftemplate.DefaultConfig(),
		// Files are kept 30 days by default (docs/design.md "Blobs").
		Retention: 30 * 24 * time.Hour,
		// docs/design.md "Waiting".
		WaitTimeout: 30 * time.Second,
		// About a minute of work at this machine's rate: long enough for a
		// burst, short enough that a queued document still comes back soon.
		DocumentQueue:   1000,
		JanitorInterval: 30 * time.Second,
	}
}

// Validate reports settings that cannot work, as a *StartError naming the
// flag of `platen serve` that sets each (Config's fields have one each).
func (c Config) Validate() error {
	if c.DataDir == "" {
		return flagError("--data-dir", "--data-dir is required")
	}
	for _, a := range []struct{ flag, addr string }{{"--http", c.HTTPAddr}, {"--raft", c.RaftAddr}} {
		if _, _, err := net.SplitHostPort(a.addr); err != nil {
			return flagError(a.flag, "%s %q is not an address (want host:port): %w", a.flag, a.addr, err)
		}
	}
	if c.RaftAdvertise != "" {
		if _, _, err := net.SplitHostPort(c.RaftAdvertise); err != nil {
			return flagError("--raft-advertise", "--raft-advertise %q is not an address (want host:port): %w", c.RaftAdvertise, err)
		}
	}
	if c.OperatorToken != "" && len(c.OperatorToken) < 16 {
		return flagError("--operator-token", "--operator-token must be at least 16 characters")
	}
	if c.RenderPages < 1 {
		return flagError("--render-pages", "--render-pages must be at least 1")
	}
	if c.HTTP.RateLimit <= 0 || c.HTTP.RateLimit > actors.MaxRateLimit {
		return flagError("--rate-limit", "--rate-limit must be above 0 and at most %d requests a second", actors.MaxRateLimit)
	}
	if c.HTTP.RateBurst < 1 || c.HTTP.RateBurst > actors.MaxRateBurst {
		return flagError("--rate-burst", "--rate-burst must be from 1 to %d requests", actors.MaxRateBurst)
	}
	if c.RenderPagesPerOrg < 0 || c.RenderPagesPerOrg > c.RenderPages {
		return flagError("--render-pages-per-org", "--render-pages-per-org must be from 0 (half of --render-pages) to --render-pages (%d)", c.RenderPages)
	}
	if c.Render.Timeout <= 0 {
		return flagError("--render-timeout", "--render-timeout must be positive (it is %s)", c.Render.Timeout)
	}
	if c.Render.MaxPages < 1 {
		return flagError("--max-pages", "--max-pages must be at least 1")
	}
	if c.Render.PreviewTimeout <= 0 || c.Render.PreviewTimeout > c.Render.Timeout {
		return flagError("--preview-timeout", "--preview-timeout must be positive and at most the render timeout (%s), not %s", c.Render.Timeout, c.Render.PreviewTimeout)
	}
	if c.Render.Capacity < c.RenderPages {
		return flagError("--render-pages", "--render-pages %d is more than the render queue holds (%d)", c.RenderPages, c.Render.Capacity)
	}
	for _, f := range []struct {
		flag     string
		positive bool
	}{{"--fill-time", c.Render.Fill.Time > 0}, {"--fill-steps", c.Render.Fill.Steps > 0}, {"--fill-bytes", c.Render.Fill.Bytes > 0}} {
		if !f.positive {
			return flagError(f.flag, "%s must be positive", f.flag)
		}
	}
	if err := c.Render.Validate(); err != nil {
		return flagError("--default-engine", "--default-engine: %v", err)
	}
	if err := c.PDFTemplates.Validate(); err != nil {
		var ce *pdftemplate.ConfigError
		errors.As(err, &ce)
		return flagError(pdfFlags[ce.Field], "%s: %v", pdfFlags[ce.Field], err)
	}
	if c.Retention < time.Minute {
		return flagError("--retention", "--retention must be at least a minute (it is %s)", c.Retention)
	}
	for _, d := range []struct {
		flag string
		d    time.Duration
	}{{"--wait-timeout", c.WaitTimeout}, {"--janitor-interval", c.JanitorInterval}, {"--shutdown-timeout", c.ShutdownTimeout}} {
		if d.d <= 0 {
			return flagError(d.flag, "%s must be positive (it is %s)", d.flag, d.d)
		}
	}
	if c.TSAURL != "" {
		if u, err := url.Parse(c.TSAURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return flagError("--tsa-url", "--tsa-url %q is not an http or https URL of a time-stamp authority", c.TSAURL)
		}
		if c.TSATimeout <= 0 {
			return flagError("--tsa-timeout", "--tsa-timeout must be positive (it is %s)", c.TSATimeout)
		}
	}
	if !einvoice.IsCurrency(c.WalletCurrency) {
		return flagError("--wallet-currency", "--wallet-currency %q is not an ISO 4217 currency code (such as EUR, USD, GBP)", c.WalletCurrency)
	}
	if c.DocumentQueue < 1 {
		return flagError("--document-queue", "--document-queue must be at least 1")
	}
	if c.RequestTimeout <= 0 {
		return errors.New("the request timeout must be positive")
	}
	if c.Clustered() {
		if _, err := cluster.ParseKey(c.ClusterKey); err != nil {
			return flagError("--cluster-key", "bad --cluster-key (or --cluster-key-file): %w", err)
		}
		if _, _, err := net.SplitHostPort(c.GossipAddr); err != nil {
			return flagError("--gossip", "--gossip %q is not an address (want host:port): %w", c.GossipAddr, err)
		}
		if _, err := cluster.TimingsFor(c.ClusterTimings); err != nil {
			return flagError("--cluster-timings", "--cluster-timings: %v", err)
		}
	} else if len(c.Join) > 0 {
		return flagError("--join", "--join needs a cluster key (--cluster-key or --cluster-key-file)")
	}
	return c.HTTP.Validate()
}

// Clustered reports whether the node runs as a cluster peer.
func (c Config) Clustered() bool { return c.ClusterKey != "" }

// String shows the configuration with its secrets hidden.
func (c Config) String() string {
	tok := "(stored or generated)"
	if c.OperatorToken != "" {
		tok = "(set, hidden)"
	}
	peers := "single node"
	if c.Clustered() {
		peers = fmt.Sprintf("cluster (key set, hidden) gossip=%s join=%s", c.GossipAddr, strings.Join(c.Join, ","))
	}
	tsa := "none (signatures are PAdES B-B)"
	if u, err := url.Parse(c.TSAURL); c.TSAURL != "" && err == nil {
		tsa = u.Redacted() // a paid authority's credentials stay out of the log
	}
	return fmt.Sprintf("data-dir=%s http=%s base-url=%s raft=%s operator-token=%s retention=%s render-pages=%d wallet-currency=%s tsa=%s %s",
		c.DataDir, c.HTTPAddr, c.baseURL(), c.RaftAddr, tok, c.Retention, c.RenderPages, c.WalletCurrency, tsa, peers)
}

func (c Config) baseURL() string {
	if c.BaseURL != "" {
		return c.BaseURL
	}
	return "http://" + c.HTTPAddr
}

// pdfFlags are the flags of `platen serve` that set pdftemplate.Config.
var pdfFlags = map[string]string{
	"Instances": "--pdf-instances", "MaxDepth": "--pdf-max-depth", "MaxObjects": "--pdf-max-objects",
	"MaxInflatedBytes": "--pdf-max-inflated-mb", "MaxContentBytes": "--pdf-max-content-mb",
	"MemoryLimitBytes": "--pdf-memory-mb", "Timeout": "--pdf-timeout",
}

// tsa is the time-stamp authority signatures are stamped by, or nil.
func (c Config) tsa() *sign.TSA {
	if c.TSAURL == "" {
		return nil
	}
	return &sign.TSA{URL: c.TSAURL, Client: &http.Client{Timeout: c.TSATimeout}}
}
