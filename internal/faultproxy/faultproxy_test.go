package faultproxy

import (
	"bufio"
	"net"
	"testing"
	"time"
)

// echo starts a line echo server.
func echo(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						c.Close()
						return
					}
					c.Write([]byte(line))
				}
			}()
		}
	}()
	return ln.Addr().String()
}

func roundTrip(c net.Conn, wait time.Duration) (string, error) {
	c.SetDeadline(time.Now().Add(wait))
	if _, err := c.Write([]byte("ping\n")); err != nil {
		return "", err
	}
	return bufio.NewReader(c).ReadString('\n')
}

func TestProxyFaults(t *testing.T) {
	p, err := Start(echo(t))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	if got, err := roundTrip(c, 2*time.Second); err != nil || got != "ping\n" {
		t.Fatalf("plain: %q %v", got, err)
	}
	p.SetDelay(150 * time.Millisecond)
	start := time.Now()
	if got, err := roundTrip(c, 5*time.Second); err != nil || got != "ping\n" || time.Since(start) < 300*time.Millisecond {
		t.Fatalf("delayed both ways: %q %v after %s", got, err, time.Since(start))
	}
	p.SetDelay(0)
	p.SetBlackhole(true)
	if _, err := roundTrip(c, 300*time.Millisecond); err == nil {
		t.Fatal("traffic passed a black hole")
	}
	p.SetBlackhole(false)
	c.Close()

	c2, _ := net.Dial("tcp", p.Addr())
	p.CutOff()
	if _, err := roundTrip(c2, time.Second); err == nil {
		t.Fatal("a cut-off connection still carried traffic")
	}
	if c3, err := net.Dial("tcp", p.Addr()); err == nil {
		if _, err := roundTrip(c3, time.Second); err == nil {
			t.Fatal("a new connection was carried while cut off")
		}
	}
	p.Restore()
	c4, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	if got, err := roundTrip(c4, 2*time.Second); err != nil || got != "ping\n" {
		t.Fatalf("after restore: %q %v", got, err)
	}
}
