package cluster

import (
	"bufio"
	"crypto/tls"
	"errors"
	"net"
	"sync"
	"time"

	"github.com/hashicorp/raft"
)

// PeerPort is a node's cluster port: one TLS listener, with the cluster CA on
// both sides, that carries raft and the peer API. After the handshake the
// first byte tells them apart: raft opens with an RPC type (a small number),
// HTTP with a method name.
type PeerPort struct {
	tl        net.Listener
	advertise net.Addr
	client    *tls.Config
	raft      chan net.Conn
	http      chan net.Conn
	done      chan struct{}
	closeOnce sync.Once
}

// handshakeTimeout bounds a peer's TLS handshake and first byte.
const handshakeTimeout = 10 * time.Second

// ListenPeers opens the cluster port on bind. advertise, when set, is the
// address peers dial.
func ListenPeers(bind, advertise string, server, client *tls.Config) (*PeerPort, error) {
	l, err := net.Listen("tcp", bind)
	if err != nil {
		return nil, err
	}
	p := &PeerPort{tl: tls.NewListener(l, server), advertise: l.Addr(), client: client,
		raft: make(chan net.Conn), http: make(chan net.Conn), done: make(chan struct{})}
	if advertise != "" {
		// Kept as given: a DNS name (a StatefulSet pod's) stays valid when
		// the address behind it changes.
		if _, _, err := net.SplitHostPort(advertise); err != nil {
			l.Close()
			return nil, err
		}
		p.advertise = namedAddr(advertise)
	}
	go p.accept()
	return p, nil
}

// Addr is the address peers dial.
func (p *PeerPort) Addr() net.Addr { return p.advertise }

// Client is the TLS setting for dialling peers.
func (p *PeerPort) Client() *tls.Config { return p.client }

// Close stops the port and every listener on it.
func (p *PeerPort) Close() error {
	var err error
	p.closeOnce.Do(func() {
		close(p.done)
		err = p.tl.Close()
	})
	return err
}

func (p *PeerPort) accept() {
	for {
		c, err := p.tl.Accept()
		if err != nil {
			select {
			case <-p.done:
				return
			default:
			}
			if errors.Is(err, net.ErrClosed) {
				p.Close()
				return
			}
			// Out of descriptors, or another passing trouble: raft and the
			// peer API must not stop for it.
			time.Sleep(50 * time.Millisecond)
			continue
		}
		go p.route(c)
	}
}

// route finishes the handshake, reads the first byte and hands the
// connection to raft or to the peer API. A peer without a certificate from
// the cluster CA fails the handshake here and is dropped.
func (p *PeerPort) route(c net.Conn) {
	c.SetDeadline(time.Now().Add(handshakeTimeout))
	if err := c.(*tls.Conn).Handshake(); err != nil {
		c.Close()
		return
	}
	r := bufio.NewReader(c)
	first, err := r.Peek(1)
	if err != nil {
		c.Close()
		return
	}
	c.SetDeadline(time.Time{})
	to := p.http
	if first[0] < 0x20 {
		to = p.raft
	}
	select {
	case to <- &peekedConn{Conn: c, r: r}:
	case <-p.done:
		c.Close()
	}
}

// peekedConn is a connection whose first bytes were read ahead.
type peekedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *peekedConn) Read(b []byte) (int, error) { return c.r.Read(b) }

// chanListener is one of the port's listeners.
type chanListener struct {
	p    *PeerPort
	ch   chan net.Conn
	once sync.Once
	done chan struct{}
}

func (l *chanListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ch:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	case <-l.p.done:
		return nil, net.ErrClosed
	}
}

func (l *chanListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *chanListener) Addr() net.Addr { return l.p.advertise }

// HTTP is the listener of the peer API.
func (p *PeerPort) HTTP() net.Listener {
	return &chanListener{p: p, ch: p.http, done: make(chan struct{})}
}

// Raft is the stream layer raft runs on.
func (p *PeerPort) Raft() raft.StreamLayer {
	return &raftStream{chanListener{p: p, ch: p.raft, done: make(chan struct{})}}
}

type raftStream struct{ chanListener }

func (s *raftStream) Dial(addr raft.ServerAddress, timeout time.Duration) (net.Conn, error) {
	return tls.DialWithDialer(&net.Dialer{Timeout: timeout}, "tcp", string(addr), s.p.client)
}

// namedAddr is an address as configured, host name or IP.
type namedAddr string

func (a namedAddr) Network() string { return "tcp" }
func (a namedAddr) String() string  { return string(a) }
