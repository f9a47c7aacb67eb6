package chromium

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/go-rod/rod"
	"github.com/ysmood/leakless"
)

// instance is one browser the pool started: its process, identified by pid
// and start time, and the connection to it.
type instance struct {
	pid int
	// start is the process's start time (/proc/PID/stat): a pid the
	// kernel gives to another process after the browser is gone is not ours.
	start string
	// exited is closed when the process (or leakless, its guard) has exited.
	exited chan struct{}
	b      *rod.Browser
}

// kill stops the browser and its process group (the browser leads one of
// its own) by pid, with SIGKILL, as long as the pid is still the process the
// pool started.
func (in *instance) kill() {
	if in == nil || in.pid <= 0 || in.start == "" || procStart(in.pid) != in.start {
		return
	}
	_ = syscall.Kill(-in.pid, syscall.SIGKILL)
	_ = syscall.Kill(in.pid, syscall.SIGKILL)
}

// waitExit waits, at most d, for the browser's process to be gone.
func (in *instance) waitExit(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-in.exited:
	case <-t.C:
	}
}

// procStart returns a process's start time, or "" when there is no such
// process.
func procStart(pid int) string {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return ""
	}
	// Fields after the name start at field 3 (state); starttime is field 22.
	fields := strings.Fields(s[i+1:])
	if len(fields) < 20 {
		return ""
	}
	return fields[19]
}

// spawn starts bin with args and waits, within ctx, for the DevTools address
// it prints. The browser runs under leakless, which kills it should this
// process die, as the leader of a process group of its own.
//
// rod's Launcher.Launch is not used to start it: it resolves the address
// with an HTTP request that has no timeout, reads the pid from its guard
// with no way out, and keeps the pid where it cannot be read while it runs,
// so a start it hangs in could neither be abandoned nor cleaned up. Here
// every step ends with ctx, and a process that appears after ctx ended is
// killed as soon as its pid is known.
func spawn(ctx context.Context, bin string, args []string) (*instance, string, error) {
	out := &addrParser{found: make(chan string, 1)}
	type started struct {
		pid    int
		exited chan struct{}
		err    error
	}
	ch := make(chan started, 1)
	go func() {
		defer func() {
			// leakless panics when it cannot write its guard's binary.
			if r := recover(); r != nil {
				ch <- started{err: fmt.Errorf("leakless: %v", r)}
			}
		}()
		var ll *leakless.Launcher
		var cmd *exec.Cmd
		if leakless.Support() {
			ll = leakless.New()
			cmd = ll.Command(bin, args...) // may wait for leakless's lock between processes
		} else {
			cmd = exec.Command(bin, args...)
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			ch <- started{err: err}
			return
		}
		exited := make(chan struct{})
		go func() {
			_ = cmd.Wait()
			close(exited)
		}()
		pid := cmd.Process.Pid
		if ll != nil {
			// The guard reports the browser's pid once it started it; a guard
			// that fails before that exits.
			select {
			case pid = <-ll.Pid():
			case <-exited:
				ch <- started{err: fmt.Errorf("leakless exited: %s", out.tail())}
				return
			}
			if pid == 0 || ll.Err() != "" {
				ch <- started{err: fmt.Errorf("leakless: %s", ll.Err())}
				return
			}
		}
		ch <- started{pid: pid, exited: exited}
	}()

	var st started
	select {
	case st = <-ch:
		if st.err != nil {
			return nil, "", st.err
		}
	case <-ctx.Done():
		go func() {
			if st := <-ch; st.err == nil {
				(&instance{pid: st.pid, start: procStart(st.pid)}).kill()
			}
		}()
		return nil, "", ctx.Err()
	}
	in := &instance{pid: st.pid, start: procStart(st.pid), exited: st.exited}
	select {
	case u := <-out.found:
		return in, u, nil
	case <-in.exited:
		return nil, "", fmt.Errorf("the browser exited: %s", out.tail())
	case <-ctx.Done():
		in.kill()
		return nil, "", fmt.Errorf("%w waiting for the browser's DevTools address", ctx.Err())
	}
}

// devtoolsRE matches the line in which Chromium announces its DevTools address.
var devtoolsRE = regexp.MustCompile(`DevTools listening on (ws://\S+)\r?\n`)

// addrParser reads the browser's output until it names its DevTools
// address, then drops the rest. A write never blocks, so the browser never
// waits on its output.
type addrParser struct {
	mu    sync.Mutex
	buf   []byte
	done  bool
	found chan string // holds one address
}

func (p *addrParser) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return len(b), nil
	}
	p.buf = append(p.buf, b...)
	if m := devtoolsRE.FindSubmatch(p.buf); m != nil {
		p.done = true
		p.found <- string(m[1])
		p.buf = nil
	} else if len(p.buf) > 64<<10 {
		p.buf = append([]byte(nil), p.buf[len(p.buf)-(16<<10):]...)
	}
	return len(b), nil
}

// tail is the end of what the browser printed, for error messages.
func (p *addrParser) tail() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := strings.TrimSpace(string(p.buf))
	if len(s) > 2000 {
		s = s[len(s)-2000:]
	}
	if s == "" {
		return "no output"
	}
	return s
}

// stallDialer connects to the browser's DevTools socket with writes that
// give up when the browser takes in nothing for stall. rod writes without a
// deadline: a frozen browser and a message larger than the socket's buffers
// (a document with inlined images) would block that write, and every later
// one behind it, for ever, whatever the caller's context says. A write that
// times out closes the connection, which fails every call waiting on it.
type stallDialer struct{ stall time.Duration }

func (d stallDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &stallConn{Conn: c, stall: d.stall}, nil
}

// stallChunk is how much of a message must be taken in within the stall
// time; a browser that answers takes it in well under a millisecond.
const stallChunk = 256 << 10

type stallConn struct {
	net.Conn
	stall time.Duration
	mu    sync.Mutex // one message at a time, written whole
}

func (c *stallConn) Write(b []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for n < len(b) {
		if err := c.Conn.SetWriteDeadline(time.Now().Add(c.stall)); err != nil {
			return n, err
		}
		m, err := c.Conn.Write(b[n:min(n+stallChunk, len(b))])
		n += m
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				err = fmt.Errorf("the browser took in nothing for %s: %w", c.stall, err)
			}
			return n, err
		}
	}
	return n, nil
}
