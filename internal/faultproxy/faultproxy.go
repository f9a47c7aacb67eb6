// Package faultproxy is a TCP proxy for tests that stands between two nodes
// and can delay traffic, swallow it, or cut the link off and restore it:
// the fault seam the cluster's tests put between peers.
package faultproxy

import (
	"net"
	"sync"
	"time"
)

// Proxy forwards connections from its address to a target.
type Proxy struct {
	ln     net.Listener
	target string

	mu        sync.Mutex // guards the fields below
	delay     time.Duration
	blackhole bool
	cut       bool
	conns     map[net.Conn]struct{}
	closed    bool
}

// Start listens on a loopback port and forwards to target.
func Start(target string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{ln: ln, target: target, conns: map[net.Conn]struct{}{}}
	go p.accept()
	return p, nil
}

// Addr is where to connect instead of the target.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// SetDelay holds every chunk of traffic for d before passing it on.
func (p *Proxy) SetDelay(d time.Duration) {
	p.mu.Lock()
	p.delay = d
	p.mu.Unlock()
}

// SetBlackhole swallows traffic both ways while on: connections stay open
// and nothing arrives, as on a link that stopped carrying packets.
func (p *Proxy) SetBlackhole(on bool) {
	p.mu.Lock()
	p.blackhole = on
	p.mu.Unlock()
}

// CutOff closes every connection and refuses new ones until Restore.
func (p *Proxy) CutOff() {
	p.mu.Lock()
	p.cut = true
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
}

// Restore undoes CutOff.
func (p *Proxy) Restore() {
	p.mu.Lock()
	p.cut = false
	p.mu.Unlock()
}

// Close stops the proxy and its connections.
func (p *Proxy) Close() error {
	p.mu.Lock()
	p.closed = true
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	return p.ln.Close()
}

func (p *Proxy) accept() {
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		refuse := p.cut || p.closed
		p.mu.Unlock()
		if refuse {
			in.Close()
			continue
		}
		out, err := net.DialTimeout("tcp", p.target, 5*time.Second)
		if err != nil {
			in.Close()
			continue
		}
		if !p.track(in, out) {
			// Cut off while the target was being dialled.
			in.Close()
			out.Close()
			continue
		}
		go p.pipe(in, out)
		go p.pipe(out, in)
	}
}

// track records connections so that CutOff and Close can end them, unless
// the proxy is cut off or closed by now; it reports whether it did.
func (p *Proxy) track(cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cut || p.closed {
		return false
	}
	for _, c := range cs {
		p.conns[c] = struct{}{}
	}
	return true
}

// pipe copies src to dst chunk by chunk, applying the faults in force.
func (p *Proxy) pipe(src, dst net.Conn) {
	defer func() {
		src.Close()
		dst.Close()
		p.mu.Lock()
		delete(p.conns, src)
		delete(p.conns, dst)
		p.mu.Unlock()
	}()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.mu.Lock()
			delay, drop := p.delay, p.blackhole
			p.mu.Unlock()
			if delay > 0 {
				time.Sleep(delay)
			}
			if !drop {
				if _, werr := dst.Write(buf[:n]); werr != nil {
					return
				}
			}
		}
		if err != nil {
			return // EOF or a closed connection: both sides close
		}
	}
}
