package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/platen/platen/client"
)

const webhooksHelp = `Usage: platen webhooks VERB [ARGS] [flags]

  list                               the webhook endpoints
  create URL [--event E…] [--name N] register an endpoint (every event unless
                                     --event); its signing secret is shown once
  delete ID                          delete an endpoint
  deliveries ID [--limit N]          an endpoint's delivery log, newest first
  ping ID                            send a signed ping now
  listen [--port P] [--event E…] [--keep]
                                     receive deliveries here: an HTTPS receiver on
                                     127.0.0.1, registered as an endpoint until Ctrl-C,
                                     printing each delivery and whether it verified

Every verb takes --url, --key, --profile and --json; -h shows a verb's flags.
`

func webhooks(ctx context.Context, args []string, out io.Writer) error {
	return subcommands(ctx, "webhooks", webhooksHelp, map[string]verb{
		"list": webhooksList, "create": webhooksCreate, "delete": webhooksDelete,
		"deliveries": webhooksDeliveries, "ping": webhooksPing, "listen": webhooksListen,
	}, args, out)
}

const webhooksListUsage = `Usage: platen webhooks list [--json]

Lists the webhook endpoints.
`

func webhooksList(ctx context.Context, args []string, out io.Writer) error {
	fs, g := newFlags("webhooks list")
	pos, err := parseFlags(fs, webhooksListUsage, args, out)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError(webhooksListUsage)
	}
	c, _, err := connect(g)
	if err != nil {
		return err
	}
	list, err := c.Webhooks.List(ctx)
	if err != nil {
		return apiError(err)
	}
	if g.json {
		if list == nil {
			list = []client.Webhook{}
		}
		return printJSON(out, list)
	}
	if len(list) == 0 {
		fmt.Fprintln(out, "No webhook endpoints.")
		return nil
	}
	var rows [][]string
	for _, w := range list {
		state := "enabled"
		if !w.Enabled {
			state = "off: " + w.DisabledReason
		}
		rows = append(rows, []string{w.ID, w.Name, w.URL, eventsCell(w.Events), state, when(w.CreatedAt)})
	}
	table(out, []string{"ID", "NAME", "URL", "EVENTS", "STATE", "CREATED"}, rows)
	return nil
}

func eventsCell(events []string) string {
	if len(events) == 0 {
		return "all"
	}
	return strings.Join(events, ",")
}

const webhooksCreateUsage = `Usage: platen webhooks create URL [--event E]… [--name N] [--json]

Registers an https endpoint for the events named by --event (repeat it, or
separate with commas; default: every kind). The signing secret is printed
this once.
`

func webhooksCreate(ctx context.Context, args []string, out io.Writer) error {
	fs, g := newFlags("webhooks create")
	var events stringList
	fs.Var(&events, "event", "an event kind to deliver (repeatable; default: every kind)")
	name := fs.String("name", "", "the endpoint's name (default: its host)")
	pos, err := parseFlags(fs, webhooksCreateUsage, args, out)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError(webhooksCreateUsage)
	}
	c, _, err := connect(g)
	if err != nil {
		return err
	}
	n := *name
	if n == "" {
		n = strings.TrimPrefix(pos[0], "https://")
		n, _, _ = strings.Cut(n, "/")
	}
	w, err := c.Webhooks.Create(ctx, client.CreateWebhookRequest{Name: n, URL: pos[0], Events: events})
	if err != nil {
		return apiError(err)
	}
	if g.json {
		return printJSON(out, w)
	}
	fields(out, "Endpoint", w.ID, "Name", w.Name, "URL", w.URL, "Events", eventsCell(w.Events),
		"Signing secret", w.SigningSecret+"  (shown once: keep it to verify deliveries)")
	return nil
}

const webhooksDeleteUsage = `Usage: platen webhooks delete ID

Deletes an endpoint; its undelivered deliveries are dropped.
`

func webhooksDelete(ctx context.Context, args []string, out io.Writer) error {
	fs, g := newFlags("webhooks delete")
	pos, err := parseFlags(fs, webhooksDeleteUsage, args, out)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError(webhooksDeleteUsage)
	}
	c, _, err := connect(g)
	if err != nil {
		return err
	}
	if err := c.Webhooks.Delete(ctx, pos[0]); err != nil {
		return apiError(err)
	}
	if g.json {
		return printJSON(out, map[string]any{"id": pos[0], "deleted": true})
	}
	fmt.Fprintf(out, "Deleted %s.\n", pos[0])
	return nil
}

const webhooksDeliveriesUsage = `Usage: platen webhooks deliveries ID [--limit N] [--json]

An endpoint's delivery log, newest first.
`

func webhooksDeliveries(ctx context.Context, args []string, out io.Writer) error {
	fs, g := newFlags("webhooks deliveries")
	limit := fs.Int("limit", 20, "how many deliveries (1-100)")
	pos, err := parseFlags(fs, webhooksDeliveriesUsage, args, out)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError(webhooksDeliveriesUsage)
	}
	c, _, err := connect(g)
	if err != nil {
		return err
	}
	page, err := c.Webhooks.Deliveries(ctx, pos[0], client.ListParams{Limit: *limit})
	if err != nil {
		return apiError(err)
	}
	if g.json {
		if page.Items == nil {
			page.Items = []client.Delivery{}
		}
		return printJSON(out, page.Items)
	}
	if len(page.Items) == 0 {
		fmt.Fprintln(out, "No deliveries.")
		return nil
	}
	var rows [][]string
	for _, d := range page.Items {
		last := ""
		if d.LastStatus != 0 {
			last = "HTTP " + strconv.Itoa(d.LastStatus)
		}
		if d.LastError != "" {
			last = strings.TrimSpace(last + " " + d.LastError)
		}
		rows = append(rows, []string{d.ID, d.Event, d.Status, strconv.Itoa(d.Attempts), orDash(last), when(d.CreatedAt)})
	}
	table(out, []string{"ID", "EVENT", "STATUS", "ATTEMPTS", "LAST", "CREATED"}, rows)
	return nil
}

const webhooksPingUsage = `Usage: platen webhooks ping ID [--json]

Sends a signed ping to the endpoint now and prints what it answered.
`

func webhooksPing(ctx context.Context, args []string, out io.Writer) error {
	fs, g := newFlags("webhooks ping")
	pos, err := parseFlags(fs, webhooksPingUsage, args, out)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError(webhooksPingUsage)
	}
	c, _, err := connect(g)
	if err != nil {
		return err
	}
	p, err := c.Webhooks.Ping(ctx, pos[0])
	if err != nil {
		return apiError(err)
	}
	if g.json {
		return printJSON(out, p)
	}
	status := "no answer"
	if p.Status != 0 {
		status = "HTTP " + strconv.Itoa(p.Status)
	}
	fields(out, "Answer", status, "Error", p.Error, "Time", fmt.Sprintf("%d ms", p.DurationMs), "Body", p.Body)
	return nil
}

const webhooksListenUsage = `Usage: platen webhooks listen [--port P] [--event E]… [--keep] [--json]

Receives webhook deliveries on this machine: an HTTPS receiver on 127.0.0.1
(port P, default any free one) with a certificate from the development CA
(dev-ca.pem beside the profile file, made on first use), registered as an
endpoint for the events named by --event (default: every kind). Each delivery
is printed (time, event, delivery id, document id and status) with whether its
signature verified, and answered 200. Ctrl-C deletes the endpoint unless
--keep.

The node must be able to reach 127.0.0.1 and trust the development CA: start
it with 'platen serve --dev' (which does both) on this machine.
`

func webhooksListen(ctx context.Context, args []string, out io.Writer) error {
	fs, g := newFlags("webhooks listen")
	port := fs.Int("port", 0, "the port to listen on (default: any free one)")
	var events stringList
	fs.Var(&events, "event", "an event kind to receive (repeatable; default: every kind)")
	keep := fs.Bool("keep", false, "leave the endpoint registered when stopped")
	pos, err := parseFlags(fs, webhooksListenUsage, args, out)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError(webhooksListenUsage)
	}
	c, _, err := connect(g)
	if err != nil {
		return err
	}
	dir, err := configDir()
	if err != nil {
		return err
	}
	ca, made, err := ensureDevCA(dir)
	if err != nil {
		return fmt.Errorf("the development CA: %w", err)
	}
	if made {
		fmt.Fprintf(os.Stderr, "Made the development CA %s: a node trusts it once started with 'platen serve --dev' (restart it if it runs).\n", ca.CertPath)
	}
	cert, err := ca.serverCert()
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(*port)))
	if err != nil {
		return fmt.Errorf("--port: %w", err)
	}
	url := "https://" + ln.Addr().String() + "/platen-webhooks"
	rcv := &receiver{out: out, json: g.json}
	srv := &http.Server{
		Handler:           rcv,
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          log.New(&tlsHint{w: os.Stderr}, "platen webhooks listen: ", 0),
	}
	served := make(chan error, 1)
	go func() { served <- srv.ServeTLS(ln, "", "") }()
	defer srv.Close()

	wh, err := c.Webhooks.Create(ctx, client.CreateWebhookRequest{Name: "platen webhooks listen", URL: url, Events: events})
	if err != nil {
		err = apiError(err)
		if strings.Contains(err.Error(), "url") {
			err = fmt.Errorf("%w; a node takes a loopback receiver only in development: start it with 'platen serve --dev'", err)
		}
		return err
	}
	rcv.setSecret(wh.SigningSecret)
	if g.json {
		rcv.print(map[string]any{"listening": url, "endpoint": wh.ID, "events": eventsCell(wh.Events)})
	} else {
		rcv.print(fmt.Sprintf("Listening on %s as the endpoint %s (events: %s). Ctrl-C stops%s.",
			url, wh.ID, eventsCell(wh.Events), map[bool]string{true: " and keeps the endpoint", false: " and deletes the endpoint"}[*keep]))
	}
	select {
	case <-ctx.Done():
	case err = <-served:
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	srv.Shutdown(sctx)
	if !*keep {
		if derr := c.Webhooks.Delete(sctx, wh.ID); derr != nil {
			return fmt.Errorf("the endpoint %s was not deleted: %w", wh.ID, apiError(derr))
		}
		if !g.json {
			rcv.print(fmt.Sprintf("Deleted the endpoint %s.", wh.ID))
		}
	}
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// receiver prints each delivery it receives and whether it verified.
type receiver struct {
	json bool
	mu   sync.Mutex // guards out, which handlers print to, and secret
	out  io.Writer
	// secret is the endpoint's signing secret, kept in memory only.
	secret string
}

func (r *receiver) setSecret(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.secret = s
}

// print writes one line: a string as it is, anything else as JSON.
func (r *receiver) print(v any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := v.(string); ok {
		fmt.Fprintln(r.out, s)
		return
	}
	raw, _ := json.Marshal(v)
	fmt.Fprintln(r.out, string(raw))
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(io.LimitReader(req.Body, 1<<20))
	if err != nil {
		http.Error(w, "cannot read the body", http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	secret := r.secret
	r.mu.Unlock()
	verr := client.VerifyWebhook(secret, req.Header.Get(client.SignatureHeader), body)
	var ev client.WebhookEvent
	json.Unmarshal(body, &ev)
	if ev.Event == "" {
		ev.Event = req.Header.Get(client.EventHeader)
	}
	if ev.ID == "" {
		ev.ID = req.Header.Get(client.DeliveryHeader)
	}
	verified := "verified"
	if verr != nil {
		verified = "NOT VERIFIED: " + verr.Error()
	}
	if r.json {
		line := map[string]any{"at": ev.At, "event": ev.Event, "delivery": ev.ID, "verified": verr == nil, "data": ev.Data}
		if verr != nil {
			line["error"] = verr.Error()
		}
		r.print(line)
	} else {
		at := ev.At
		if at.IsZero() {
			at = time.Now()
		}
		r.print(strings.Join([]string{when(at), ev.Event, ev.ID, eventSummary(ev), verified}, "  "))
	}
	w.Header().Set("Content-Type", "text/plain")
	io.WriteString(w, "ok\n")
}

// eventSummary is the gist of an event's data: a document's id and
// status, a template's version, an amount.
func eventSummary(ev client.WebhookEvent) string {
	switch {
	case strings.HasPrefix(ev.Event, "document."):
		if d, err := ev.Document(); err == nil {
			s := d.ID + " " + d.Status
			if d.ErrorCode != "" {
				s += " " + d.ErrorCode
			}
			return s
		}
	case ev.Event == "template.activated":
		if t, err := ev.TemplateActivated(); err == nil {
			return fmt.Sprintf("%s v%d", t.Slug, t.Version)
		}
	case ev.Event == "wallet.credited":
		if w, err := ev.WalletCredited(); err == nil {
			return "+" + micros(w.AmountMicros)
		}
	case ev.Event == "wallet.debited":
		if w, err := ev.WalletDebited(); err == nil {
			return fmt.Sprintf("%s -%s", w.DocumentID, micros(w.AmountMicros))
		}
	}
	return "-"
}

// tlsHint passes the receiver's error log on, and the first time a node
// refuses its certificate says how to mend that.
type tlsHint struct {
	w    io.Writer
	once sync.Once
}

func (h *tlsHint) Write(p []byte) (int, error) {
	n, err := h.w.Write(p)
	if bytes.Contains(p, []byte("TLS handshake error")) && (bytes.Contains(p, []byte("bad certificate")) || bytes.Contains(p, []byte("unknown certificate authority"))) {
		h.once.Do(func() {
			fmt.Fprintln(h.w, "platen webhooks listen: the node does not trust the development CA: start it with 'platen serve --dev' on this machine (restart it if it started before the CA was made).")
		})
	}
	return n, err
}
