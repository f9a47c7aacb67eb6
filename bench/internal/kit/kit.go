// Package kit holds what the load programs under bench share: calling a
// node's API and failing loudly.
package kit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"
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
