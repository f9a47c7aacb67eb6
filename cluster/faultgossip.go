package cluster

import (
	"errors"
	"net"
	"sync/atomic"
	"time"

	"github.com/hashicorp/memberlist"
)

// FaultTransport wraps memberlist's network transport with a fault seam for
// tests: while the node is isolated, its gossip neither leaves nor arrives
// (packets are dropped both ways, streams refused and closed), as on a node
// whose network is cut.
type FaultTransport struct {
	inner    *memberlist.NetTransport
	isolated atomic.Bool
	packets  chan *memberlist.Packet
	streams  chan net.Conn
	done     chan struct{}
}

var _ memberlist.Transport = (*FaultTransport)(nil)

func newFaultTransport(inner *memberlist.NetTransport) *FaultTransport {
	f := &FaultTransport{inner: inner, packets: make(chan *memberlist.Packet), streams: make(chan net.Conn), done: make(chan struct{})}
	go func() {
		for {
			select {
			case p := <-inner.PacketCh():
				if f.isolated.Load() {
					continue
				}
				select {
				case f.packets <- p:
				case <-f.done:
					return
				}
			case c := <-inner.StreamCh():
				if f.isolated.Load() {
					c.Close()
					continue
				}
				select {
				case f.streams <- c:
				case <-f.done:
					c.Close()
					return
				}
			case <-f.done:
				return
			}
		}
	}()
	return f
}

// Isolate cuts the node's gossip off (true) or restores it (false).
func (f *FaultTransport) Isolate(on bool) { f.isolated.Store(on) }

func (f *FaultTransport) FinalAdvertiseAddr(ip string, port int) (net.IP, int, error) {
	return f.inner.FinalAdvertiseAddr(ip, port)
}

func (f *FaultTransport) WriteTo(b []byte, addr string) (time.Time, error) {
	if f.isolated.Load() {
		return time.Now(), nil // sent, as far as the sender can tell, and lost
	}
	return f.inner.WriteTo(b, addr)
}

func (f *FaultTransport) PacketCh() <-chan *memberlist.Packet { return f.packets }

func (f *FaultTransport) DialTimeout(addr string, timeout time.Duration) (net.Conn, error) {
	if f.isolated.Load() {
		return nil, errors.New("faulttransport: isolated")
	}
	return f.inner.DialTimeout(addr, timeout)
}

func (f *FaultTransport) StreamCh() <-chan net.Conn { return f.streams }

// Shutdown stops the forwarder and the inner transport. The inner
// transport's listeners may be blocked handing over a packet or a stream
// that the stopped forwarder will never take, and its Shutdown waits for
// them: both channels are drained until it returns (a test hung here for
// ten minutes when a packet arrived during shutdown).
func (f *FaultTransport) Shutdown() error {
	close(f.done)
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-f.inner.PacketCh():
			case c := <-f.inner.StreamCh():
				c.Close()
			case <-stop:
				return
			}
		}
	}()
	err := f.inner.Shutdown()
	close(stop)
	return err
}
