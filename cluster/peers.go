package cluster

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"syscall"
	"time"

	"github.com/platen/platen/internal/fault"
)

// Peers calls other nodes' peer API on their cluster port, over TLS with the
// cluster CA on both sides.
//
// What goes wrong on the way (a peer's address, the route, Go's network
// error) is logged here; the errors returned carry fixed words only, since
// they may reach a client (docs/api.md "Errors").
type Peers struct {
	client *http.Client
	dialer *net.Dialer
	log    *slog.Logger
	// refused, when set, hears of each peer address that refused a connection.
	refused func(addr string)
}

// PeersConfig is what a Peers needs besides its TLS settings.
type PeersConfig struct {
	// Logger receives the detail of failed calls; nil means slog's default.
	Logger *slog.Logger
	// Refused, when set, is called with a peer's address each time a
	// connection to it is refused: no process listens there (placement
	// marks it down). It must not block.
	Refused func(addr string)
}

// NewPeers returns a client of the peer API with the node's TLS settings.
func NewPeers(tlsConf *tls.Config, cfg ...PeersConfig) *Peers {
	dialer := &net.Dialer{Timeout: 2 * time.Second, KeepAlive: 30 * time.Second}
	p := &Peers{dialer: dialer, log: slog.Default(), client: &http.Client{Transport: &http.Transport{
		TLSClientConfig:     tlsConf,
		DialContext:         dialer.DialContext,
		MaxIdleConnsPerHost: 64,
		IdleConnTimeout:     90 * time.Second,
		TLSHandshakeTimeout: 5 * time.Second,
	}}}
	if len(cfg) > 0 {
		if cfg[0].Logger != nil {
			p.log = cfg[0].Logger
		}
		p.refused = cfg[0].Refused
	}
	return p
}

// ErrPeerUnreachable is a peer that could not be reached: the request was
// not delivered, so it may be sent elsewhere.
var ErrPeerUnreachable = errors.New("a node of the cluster could not be reached")

func init() { fault.Register("cluster.peer_unreachable", ErrPeerUnreachable) }

// Probe dials addr and reports whether the connection was refused, telling
// Refused if so. A peer that was told of a node's death by another checks
// it this way before it acts on it.
func (p *Peers) Probe(ctx context.Context, addr string) bool {
	ctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	conn, err := p.dialer.DialContext(ctx, "tcp", addr)
	if err == nil {
		conn.Close()
		return false
	}
	return p.noteRefused(addr, err)
}

// noteRefused tells Refused of addr when err is a refused connection.
func (p *Peers) noteRefused(addr string, err error) bool {
	if !isRefused(err) {
		return false
	}
	if p.refused != nil {
		p.refused(addr)
	}
	return true
}

// isRefused reports whether a dial's error is a refused connection: no
// process listens at the address.
func isRefused(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) }

// maxPeerAnswer bounds what a peer may send back (a PDF at most).
const maxPeerAnswer = 256 << 20

// Do sends body to path on the node at addr and returns the answer's body. A
// status other than 200 is an error; a dial failure is ErrPeerUnreachable
// (nothing was sent); any other failure leaves the outcome unknown.
func (p *Peers) Do(ctx context.Context, method, addr, path string, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, "https://"+addr+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	resp, err := p.client.Do(req)
	if err != nil {
		var op *net.OpError
		if errors.As(err, &op) && op.Op == "dial" {
			refused := p.noteRefused(addr, err)
			p.log.Warn("peer not reached", "peer", addr, "path", path, "refused", refused, "err", err)
			return nil, fmt.Errorf("%w: %w", fault.ErrUnavailable, ErrPeerUnreachable)
		}
		if ctx.Err() != nil {
			// The caller's deadline, not the peer: the caller says so.
			return nil, fmt.Errorf("%w: %w", ErrOutcomeUnknown, ctx.Err())
		}
		p.log.Warn("peer call broken after it was sent", "peer", addr, "path", path, "err", err)
		return nil, ErrOutcomeUnknown
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, maxPeerAnswer))
	if err != nil {
		p.log.Warn("peer answer broken", "peer", addr, "path", path, "err", err)
		return nil, ErrOutcomeUnknown
	}
	if resp.StatusCode != http.StatusOK {
		var w fault.Wire
		if json.Unmarshal(out, &w) == nil && w.Message != "" {
			return nil, w.Err()
		}
		p.log.Warn("peer answered out of protocol", "peer", addr, "path", path, "status", resp.Status, "body", fmt.Sprintf("%.200s", out))
		return nil, ErrOutcomeUnknown
	}
	return out, nil
}

// Call posts in as JSON to path on the node at addr and decodes the answer into out.
func (p *Peers) Call(ctx context.Context, addr, path string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	raw, err := p.Do(ctx, http.MethodPost, addr, path, body)
	if err != nil {
		return err
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(raw, out)
}

// WriteJSON answers a peer with v, or with err (status 500 and the error in
// its wire form) when err is set.
func WriteJSON(w http.ResponseWriter, v any, err error) {
	w.Header().Set("Content-Type", "application/json")
	if err != nil {
		w.WriteHeader(http.StatusInternalServerError)
		json.NewEncoder(w).Encode(fault.ToWire(err))
		return
	}
	json.NewEncoder(w).Encode(v)
}
