package chromium

import (
	"context"
	"fmt"
	"net"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/platen/platen/render"
)

func a4() render.Geometry {
	m, _ := render.ParseManifest([]byte(`{"pageSize":"A4"}`), "m")
	return m.Geometry()
}

// TestTemplateReachesNothingOutsideItself renders markup that tries every way
// a page can fetch something from a listener the test runs; the listener must
// see no connection at all.
func TestTemplateReachesNothingOutsideItself(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var hits atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			hits.Add(1)
			c.Close()
		}
	}()
	addr := ln.Addr().String()
	u := "http://" + addr
	html := fmt.Sprintf(`<!DOCTYPE html><html><head>
<link rel="stylesheet" href="%[1]s/style.css">
<link rel="preload" href="%[1]s/preload.js" as="script">
<link rel="icon" href="%[1]s/favicon.ico">
<style>@import url("%[1]s/import.css");
@font-face { font-family: X; src: url("%[1]s/font.woff2"); }
body { background: url("%[1]s/bg.png"); font-family: X; }</style>
<meta http-equiv="refresh" content="0; url=%[1]s/refresh">
<script src="%[1]s/script.js"></script>
<script>fetch("%[1]s/fetch"); var x = new XMLHttpRequest(); x.open("GET", "%[1]s/xhr"); x.send();
new WebSocket("ws://%[2]s/ws"); navigator.sendBeacon("%[1]s/beacon"); new Image().src = "%[1]s/js-img";</script>
</head><body><div class="sheet">
<img src="%[1]s/img.png"><img srcset="%[1]s/srcset.png 2x">
<iframe src="%[1]s/iframe"></iframe><iframe src="file:///etc/passwd"></iframe>
<object data="%[1]s/object"></object><embed src="%[1]s/embed">
<video poster="%[1]s/poster.png" src="%[1]s/video.mp4"></video><audio src="%[1]s/audio.mp3"></audio>
<svg><image href="%[1]s/svg.png"/></svg>
<form action="%[1]s/form"><input type="image" src="%[1]s/input.png"></form>
<a href="%[1]s/link">a link is not followed</a>
<img src="http://localhost:%[3]s/by-name.png"><img src="http://[::1]:%[3]s/v6.png">
</div></body></html>`, u, addr, addr[strings.LastIndexByte(addr, ':')+1:])

	e, err := New(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pdf, err := e.Render(ctx, render.Job{HTML: html, Geometry: a4()})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(pdf), "%PDF") {
		t.Fatal("no PDF")
	}
	time.Sleep(500 * time.Millisecond) // anything late would have connected by now
	if n := hits.Load(); n != 0 {
		t.Fatalf("the template reached the listener %d times", n)
	}
	// The listener works: a connection from the test itself is counted.
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	deadline := time.Now().Add(2 * time.Second)
	for hits.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if hits.Load() != 1 {
		t.Fatal("the canary listener does not count connections; the check above proves nothing")
	}
}

// TestCloseLeavesNoChromium checks the process table after Close.
func TestCloseLeavesNoChromium(t *testing.T) {
	e, err := New(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Render(context.Background(), render.Job{HTML: "<p>hi</p>", Geometry: a4()}); err != nil {
		t.Fatal(err)
	}
	pid := e.PID()
	children := childPIDs(t, pid)
	if pid == 0 || len(children) == 0 {
		t.Fatalf("browser pid %d with %d child processes", pid, len(children))
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		alive := 0
		for _, p := range append(children, pid) {
			if running(p) {
				alive++
			}
		}
		if alive == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d Chromium processes still running after Close", alive)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := e.Render(context.Background(), render.Job{HTML: "x", Geometry: a4()}); err == nil {
		t.Fatal("a closed engine rendered")
	}
}

// running reports whether pid is a live process (not a zombie).
func running(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

// childPIDs lists the processes whose parent is pid, from /proc.
func childPIDs(t *testing.T, pid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, e := range entries {
		var p int
		if _, err := fmt.Sscan(e.Name(), &p); err != nil {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p))
		if err != nil {
			continue
		}
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		var ppid int
		if len(fields) > 1 {
			fmt.Sscan(fields[1], &ppid)
		}
		if ppid == pid {
			pids = append(pids, p)
		}
	}
	return pids
}

func TestNoRefreshRemovesMetaRefreshOnly(t *testing.T) {
	in := `<head><meta charset="utf-8"><META HTTP-EQUIV='Refresh' CONTENT="0; url=http://x/"><meta http-equiv=refresh content=1><meta name="viewport" content="width=1"></head>`
	want := `<head><meta charset="utf-8"><meta name="viewport" content="width=1"></head>`
	if got := noRefresh(in); got != want {
		t.Fatalf("got %s", got)
	}
}
