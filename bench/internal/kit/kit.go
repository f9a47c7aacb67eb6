// Package kit holds what the load programs under bench share: starting a
// node, calling its API and failing loudly.
package kit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/platen/platen/node"
)

// client keeps enough warm connections for a few hundred callers.
var client = &http.Client{Timeout: 2 * time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: 128}}

// Call sends a JSON request with a bearer token and returns the answer's
// data; a refusal ends the program.
func Call(base, token, method, path string, body any) map[string]any {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		Check(err)
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, base+path, rd)
	Check(err)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := client.Do(req)
	Check(err)
	defer res.Body.Close()
	var env struct {
		Success bool           `json:"success"`
		Data    map[string]any `json:"data"`
		Message string         `json:"message"`
	}
	Check(json.NewDecoder(res.Body).Decode(&env))
	if !env.Success {
		Check(fmt.Errorf("%s %s: HTTP %d %s", method, path, res.StatusCode, env.Message))
	}
	return env.Data
}

// Check ends the program on an error.
func Check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, os.Args[0]+":", err)
		os.Exit(1)
	}
}

// FreeAddr returns a loopback address free to listen on.
func FreeAddr() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	Check(err)
	defer l.Close()
	return l.Addr().String()
}

// Node is a node started in this process, on loopback with a temporary
// data folder, and what it answers on.
type Node struct {
	*node.Node
	Base, OperatorToken string
	dir                 string
}

// StartNode starts a node for a load program; change, when set, adjusts
// its config, given the temporary folder it may keep files in. Stop ends
// the node and removes the folder.
func StartNode(name string, change func(cfg *node.Config, dir string)) *Node {
	dir, err := os.MkdirTemp("", "platen-"+name+"-")
	Check(err)
	cfg := node.DefaultConfig()
	cfg.DataDir, cfg.HTTPAddr, cfg.RaftAddr = filepath.Join(dir, "node"), "127.0.0.1:0", "127.0.0.1:0"
	cfg.OperatorToken = name + "-operator-token-1234567890"
	if change != nil {
		change(&cfg, dir)
	}
	n, err := node.Start(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), io.Discard)
	if err != nil {
		os.RemoveAll(dir)
		Check(err)
	}
	return &Node{Node: n, Base: "http://" + n.HTTPAddr(), OperatorToken: cfg.OperatorToken, dir: dir}
}

// BenchKey makes an organisation "Bench" on plan and returns an API key of
// it that generates documents, reads and writes templates, and uploads
// signing certificates.
func (n *Node) BenchKey(plan string) string {
	org := Call(n.Base, n.OperatorToken, "POST", "/admin/v1/orgs", map[string]any{"name": "Bench", "plan": plan})["id"].(string)
	return Call(n.Base, n.OperatorToken, "POST", "/admin/v1/orgs/"+org+"/keys",
		map[string]any{"name": "bench", "scopes": []string{"documents.generate", "templates.write", "templates.read", "signing.write"}})["key"].(string)
}

// Stop shuts the node down and removes its folder.
func (n *Node) Stop() {
	n.Shutdown(context.Background())
	os.RemoveAll(n.dir)
}

// Run calls one count times from clients goroutines at once and returns
// each call's latency and the wall time of the whole.
func Run(clients, count int, one func()) ([]time.Duration, time.Duration) {
	var mu sync.Mutex // guards lat
	var lat []time.Duration
	next := make(chan struct{}, count)
	for i := 0; i < count; i++ {
		next <- struct{}{}
	}
	close(next)
	start := time.Now()
	var wg sync.WaitGroup
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range next {
				t := time.Now()
				one()
				d := time.Since(t)
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return lat, time.Since(start)
}

// Pct returns the p-th quantile (0 to 1) of lat, which it sorts.
func Pct(lat []time.Duration, p float64) time.Duration {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	return lat[int(p*float64(len(lat)-1))].Round(100 * time.Microsecond)
}
