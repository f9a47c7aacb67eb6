package cluster

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/platen/platen/internal/fault"
)

// Peers calls other nodes' peer API on their cluster port, over TLS with the
// cluster CA on both sides.
type Peers struct {
	client *http.Client
}

// NewPeers returns a client of the peer API with the node's TLS settings.
func NewPeers(tlsConf *tls.Config) *Peers {
	return &Peers{client: &http.Client{Transport: &http.Transport{
		TLSClientConfig:     tlsConf,
		DialContext:         (&net.Dialer{Timeout: 2 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConnsPerHost: 64,
		IdleConnTimeout:     90 * time.Second,
		TLSHandshakeTimeout: 5 * time.Second,
	}}}
}

// ErrPeerUnreachable is a peer that could not be reached: the request was
// not delivered.
var ErrPeerUnreachable = errors.New("peer unreachable")

func init() { fault.Register("cluster.peer_unreachable", ErrPeerUnreachable) }

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
			return nil, fmt.Errorf("%w: %w: %s: %v", fault.ErrUnavailable, ErrPeerUnreachable, addr, err)
		}
		return nil, fmt.Errorf("%w: peer %s: %v", ErrOutcomeUnknown, addr, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, maxPeerAnswer))
	if err != nil {
		return nil, fmt.Errorf("%w: peer %s: %v", ErrOutcomeUnknown, addr, err)
	}
	if resp.StatusCode != http.StatusOK {
		var w fault.Wire
		if json.Unmarshal(out, &w) == nil && w.Message != "" {
			return nil, w.Err()
		}
		return nil, fmt.Errorf("peer %s answered %s: %.200s", addr, resp.Status, out)
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
