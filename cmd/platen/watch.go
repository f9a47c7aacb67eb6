package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/fasthttp/websocket"
)

// watch prints an organisation's change feed, one JSON line an event, and
// reconnects from its cursor when the connection ends (a 1013 for a slow
// reader, a node restart), so nothing is missed or printed twice.
//
//	platen watch --url http://127.0.0.1:8080 --key plt_… [--events document.completed,…] [--since N]
func watch(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("watch", flag.ContinueOnError)
	url := fs.String("url", "", "node address (PLATEN_URL; default: the profile's, else http://127.0.0.1:8080)")
	key := fs.String("key", "", "API key (PLATEN_KEY, PLATEN_API_KEY or the profile's)")
	events := fs.String("events", "", "comma-separated event kinds (default: every kind the key may read)")
	since := fs.String("since", "", "replay the events after this cursor first")
	once := fs.Bool("once", false, "stop when the connection ends instead of reconnecting")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return errHelp // the flags are printed
		}
		return err
	}
	if err := applyEnv(fs); err != nil {
		return err
	}
	if *key == "" || *url == "" {
		// The CLI's configuration (PLATEN_API_KEY, PLATEN_URL, a profile),
		// as the other commands for people take it, for what the flags and
		// PLATEN_KEY did not give.
		t, err := (&globals{key: *key, url: *url}).resolve()
		if err != nil {
			return err
		}
		*key, *url = t.Key, t.URL
	}
	if *key == "" {
		return fmt.Errorf("an API key is required: --key, PLATEN_KEY, PLATEN_API_KEY or a profile ('platen login')")
	}
	ws := strings.Replace(strings.Replace(strings.TrimSuffix(*url, "/"), "https://", "wss://", 1), "http://", "ws://", 1) + "/v1/realtime"
	var kinds []string
	if *events != "" {
		kinds = strings.Split(*events, ",")
	}
	cursor := *since
	for backoff := time.Second; ; backoff = min(backoff*2, 30*time.Second) {
		err := watchOnce(ws, *key, kinds, &cursor, out)
		if *once {
			return err
		}
		if ce, ok := err.(*websocket.CloseError); ok && ce.Code == 4401 {
			return fmt.Errorf("the key was refused")
		}
		fmt.Fprintf(os.Stderr, "platen watch: %v; reconnecting from cursor %q in %s\n", err, cursor, backoff)
		time.Sleep(backoff)
	}
}

func watchOnce(url, key string, kinds []string, cursor *string, out io.Writer) error {
	h := http.Header{}
	h.Set("Authorization", "Bearer "+key)
	conn, res, err := websocket.DefaultDialer.Dial(url, h)
	if err != nil {
		if res != nil {
			return fmt.Errorf("connect: HTTP %d", res.StatusCode)
		}
		return fmt.Errorf("connect: %w", err)
	}
	defer conn.Close()
	sub := map[string]any{"type": "subscribe", "events": kinds}
	if *cursor != "" {
		sub["since"] = *cursor
	}
	if err := conn.WriteJSON(sub); err != nil {
		return err
	}
	for {
		_, raw, err := conn.ReadMessage()
		if err != nil {
			return err
		}
		var f struct {
			Type   string `json:"type"`
			Cursor string `json:"cursor"`
			Error  *struct {
				Code, Message string
			} `json:"error"`
		}
		if json.Unmarshal(raw, &f) != nil {
			continue
		}
		switch f.Type {
		case "event":
			fmt.Fprintln(out, string(raw))
			*cursor = f.Cursor
		case "subscribed":
			if *cursor == "" {
				*cursor = f.Cursor
			}
		case "error":
			return fmt.Errorf("%s: %s", f.Error.Code, f.Error.Message)
		}
	}
}
