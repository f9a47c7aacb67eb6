package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/platen/platen/node"
)

func serve(args []string) error {
	cfg := node.DefaultConfig()
	cfg.HTTP.Version = version
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	// The flag package would print an error and then the whole usage; main
	// prints the error in one line, and -h prints the usage below.
	fs.SetOutput(io.Discard)
	fs.StringVar(&cfg.DataDir, "data-dir", cfg.DataDir, "folder for the node's state, raft log and snapshots")
	fs.StringVar(&cfg.HTTPAddr, "http", cfg.HTTPAddr, "address for REST, realtime, downloads and the operator API")
	fs.StringVar(&cfg.BaseURL, "base-url", cfg.BaseURL, "public URL of this node, used in links (default http://<http>)")
	fs.BoolVar(&cfg.OpenSignUp, "open-signup", cfg.OpenSignUp, "let anyone sign up in the dashboard, each into a sandbox organisation of their own")
	fs.StringVar(&cfg.WalletCurrency, "wallet-currency", cfg.WalletCurrency, "ISO 4217 currency of wallets, page prices and charges (kept in micro-units of it); the same on every node")
	fs.StringVar(&cfg.TSAURL, "tsa-url", cfg.TSAURL, "RFC 3161 time-stamp authority that time-stamps every signature, making it PAdES B-T (default none: B-B)")
	fs.DurationVar(&cfg.TSATimeout, "tsa-timeout", cfg.TSATimeout, "how long one request to the time-stamp authority may take (SIGNING_FAILED beyond)")
	fs.StringVar(&cfg.OperatorToken, "operator-token", cfg.OperatorToken, "operator API token (default: stored, or generated and printed once)")
	fs.StringVar(&cfg.RaftAddr, "raft", cfg.RaftAddr, "address raft listens on for peers; in a cluster, the TLS cluster port for raft and the peer API")
	fs.StringVar(&cfg.ClusterKey, "cluster-key", "", "cluster key (base64, from 'platen cluster-key'): makes this node a cluster peer; prefer --cluster-key-file")
	fs.StringVar(&cfg.RaftAdvertise, "raft-advertise", cfg.RaftAdvertise, "the cluster port's address as peers dial it, if not --raft (NAT, proxies)")
	fs.DurationVar(&cfg.JanitorInterval, "janitor-interval", cfg.JanitorInterval, "how often stranded documents and deliveries are resumed and expired files deleted")
	keyFile := fs.String("cluster-key-file", "", "file holding the cluster key")
	fs.StringVar(&cfg.GossipAddr, "gossip", cfg.GossipAddr, "address gossip membership listens on (TCP and UDP), in a cluster")
	fs.StringVar(&cfg.ClusterTimings, "cluster-timings", cfg.ClusterTimings, "raft election and gossip failure-detection timings: lan (one host or LAN: a dead leader replaced within a second) or wan (data centres apart)")
	join := fs.String("join", "", "comma-separated gossip addresses of nodes already in the cluster (needs a cluster key)")
	fs.DurationVar(&cfg.ShutdownTimeout, "shutdown-timeout", cfg.ShutdownTimeout, "how long SIGTERM waits for open requests")
	fs.DurationVar(&cfg.Retention, "retention", cfg.Retention, "how long finished PDFs are kept (the records stay)")
	fs.DurationVar(&cfg.WaitTimeout, "wait-timeout", cfg.WaitTimeout, "how long POST /v1/documents waits before answering 202")
	fs.IntVar(&cfg.DocumentQueue, "document-queue", cfg.DocumentQueue, "documents queued or rendering on this node before 503 OVERLOADED")
	fs.IntVar(&cfg.RenderPages, "render-pages", cfg.RenderPages, "documents printed at once (Chromium pages)")
	fs.Float64Var(&cfg.HTTP.RateLimit, "rate-limit", cfg.HTTP.RateLimit, "requests a second each API key may make, unless its plan or organisation says (docs/operator.md \"Rate limits\")")
	fs.IntVar(&cfg.HTTP.RateBurst, "rate-burst", cfg.HTTP.RateBurst, "requests each API key may make at once beyond its rate, unless its plan or organisation says")
	fs.IntVar(&cfg.RenderPagesPerOrg, "render-pages-per-org", cfg.RenderPagesPerOrg, "Chromium pages one organisation may hold at once, unless its plan says (0: half of --render-pages, rounded up)")
	fs.DurationVar(&cfg.Render.Timeout, "render-timeout", cfg.Render.Timeout, "time budget of a document's render, on either engine (RENDER_TIMEOUT beyond)")
	fs.DurationVar(&cfg.Render.PreviewTimeout, "preview-timeout", cfg.Render.PreviewTimeout, "time budget of a preview or dry run, which someone waits for (at most --render-timeout)")
	fs.IntVar(&cfg.Render.MaxPages, "max-pages", cfg.Render.MaxPages, "most pages a document may print, on either engine (TOO_MANY_PAGES beyond)")
	fs.StringVar(&cfg.Render.DefaultEngine, "default-engine", cfg.Render.DefaultEngine, "engine for documents that name none: auto (phantom when it supports the document, else chromium), phantom or chromium")
	fs.DurationVar(&cfg.Render.Fill.Time, "fill-time", cfg.Render.Fill.Time, "longest a template's fill may take before it is stopped and refused")
	fs.Int64Var(&cfg.Render.Fill.Steps, "fill-steps", cfg.Render.Fill.Steps, "most steps of work (pieces of text and expressions evaluated, loop iterations, helper calls) one fill may take")
	fs.Int64Var(&cfg.Render.Fill.Bytes, "fill-bytes", cfg.Render.Fill.Bytes, "largest filled markup, in bytes, one fill may write")
	fs.StringVar(&cfg.ChromiumBin, "chromium", cfg.ChromiumBin, "the Chromium executable")
	fs.StringVar(&cfg.SealKeyFile, "seal-key-file", cfg.SealKeyFile, "file with the base64 key that seals webhook secrets (default <data-dir>/seal.key, made on first start)")
	fs.BoolVar(&cfg.WebhookAllowPrivate, "webhook-allow-private", cfg.WebhookAllowPrivate, "TESTS ONLY: let webhooks reach private and loopback addresses")
	fs.StringVar(&cfg.WebhookCAFile, "webhook-ca-file", cfg.WebhookCAFile, "TESTS ONLY: PEM file of extra CAs webhook deliveries trust")
	pdf := &cfg.PDFTemplates
	fs.IntVar(&pdf.Instances, "pdf-instances", pdf.Instances, "PDFium instances reading uploaded PDFs at once")
	fs.IntVar(&pdf.MaxDepth, "pdf-max-depth", pdf.MaxDepth, "deepest nesting of arrays and dictionaries an uploaded PDF may have")
	fs.IntVar(&pdf.MaxObjects, "pdf-max-objects", pdf.MaxObjects, "most objects an uploaded PDF may have")
	pdfInflated := fs.Int64("pdf-max-inflated-mb", pdf.MaxInflatedBytes>>20, "most MiB an uploaded PDF's compressed streams may expand to")
	pdfContent := fs.Int64("pdf-max-content-mb", pdf.MaxContentBytes>>20, "most MiB of page content (inflated) an uploaded PDF may have")
	pdfMemory := fs.Int64("pdf-memory-mb", pdf.MemoryLimitBytes>>20, "most MiB of memory one PDFium instance may take")
	fs.DurationVar(&pdf.Timeout, "pdf-timeout", pdf.Timeout, "longest an uploaded PDF's analysis, a fill or a page image may take")
	logLevel := fs.String("log-level", "info", "debug, info, warn or error")
	dev := fs.Bool("dev", false, "DEVELOPMENT: let webhooks reach loopback and trust the CLI's development CA (for 'platen webhooks listen'), and save the first key as the CLI profile \"local\" (--save-profile)")
	saveKey := fs.Bool("save-profile", false, "save the first key of an empty data folder as the CLI profile \"local\" of this user (make run does)")
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(os.Stderr)
		fmt.Fprint(os.Stderr, "Usage: platen serve [flags]\n\nEvery flag has a PLATEN_ environment twin: --data-dir is PLATEN_DATA_DIR.\n\n")
		fs.PrintDefaults()
		return nil
	} else if err != nil {
		return parseError(fs, err)
	}
	if err := applyEnv(fs); err != nil {
		return err
	}
	pdf.MaxInflatedBytes, pdf.MaxContentBytes, pdf.MemoryLimitBytes = *pdfInflated<<20, *pdfContent<<20, *pdfMemory<<20
	if *keyFile != "" {
		raw, err := os.ReadFile(*keyFile)
		if err != nil {
			return &node.StartError{Flag: "--cluster-key-file", Err: fmt.Errorf("the cluster key file cannot be read (%w); check --cluster-key-file", err)}
		}
		cfg.ClusterKey = strings.TrimSpace(string(raw))
	}
	for _, p := range strings.Split(*join, ",") {
		if p = strings.TrimSpace(p); p != "" {
			cfg.Join = append(cfg.Join, p)
		}
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		return badValue("--log-level", *logLevel, "want debug, info, warn or error")
	}
	log := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	slog.SetDefault(log)

	var printed bytes.Buffer
	out := io.MultiWriter(os.Stdout, &printed)
	if *dev {
		if err := devMode(&cfg, os.Stderr); err != nil {
			return err
		}
	}
	n, err := node.Start(cfg, log, out)
	if err != nil {
		return err
	}
	url := cfg.BaseURL
	if url == "" {
		url = "http://" + n.HTTPAddr()
	}
	// A node on this machine leaves the command line ready: its first key
	// saved as the profile "local" when asked, or a line saying how to log
	// in when no profile names this node.
	if *dev || *saveKey || loopbackAddr(n.HTTPAddr()) {
		if err := cliReady(printed.String(), url, *dev || *saveKey, os.Stdout); err != nil {
			fmt.Fprintf(os.Stderr, "platen serve: the first key was not saved as a CLI profile: %v\n", err)
		}
	}
	// Last: whoever waits for this line finds the profile saved.
	fmt.Fprintf(os.Stdout, "Platen %s listening on http://%s (node %s)\n", version, n.HTTPAddr(), n.ID())

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	select {
	case s := <-sig:
		log.Info("signal received, draining", "signal", s.String())
	case err := <-n.Done():
		log.Error("http server stopped", "err", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	return n.Shutdown(ctx)
}

// applyEnv sets every flag not given on the command line from its
// environment twin: --data-dir from PLATEN_DATA_DIR, and so on.
func applyEnv(fs *flag.FlagSet) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if given[f.Name] || err != nil {
			return
		}
		name := "PLATEN_" + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if v, ok := os.LookupEnv(name); ok {
			if e := f.Value.Set(v); e != nil {
				err = &node.StartError{Flag: "--" + f.Name, Err: fmt.Errorf("invalid value %q in %s (for --%s): %s; 'platen serve -h' lists the flags",
					v, name, f.Name, valueProblem(f, e))}
			}
		}
	})
	return err
}

// The flag package's errors, which parseError rewrites. Its messages are
// plain strings: these patterns are the only way to read them.
var (
	invalidValue = regexp.MustCompile(`^invalid (?:boolean )?value (".*") for (?:flag )?-([^:]+): (.*)$`)
	flagPrefixes = []struct{ prefix, format string }{
		{"flag provided but not defined: -", "unknown flag --%s"},
		{"flag needs an argument: -", "--%s needs a value"},
	}
)

// parseError turns an error of fs.Parse into one line that names the flag
// with the two dashes the documentation uses, in a *node.StartError.
func parseError(fs *flag.FlagSet, err error) error {
	const hint = "; 'platen serve -h' lists the flags"
	msg := err.Error()
	if m := invalidValue.FindStringSubmatch(msg); m != nil {
		value, _ := strconv.Unquote(m[1])
		problem := m[3]
		if f := fs.Lookup(m[2]); f != nil {
			problem = valueProblem(f, errors.New(problem))
		}
		return badValue("--"+m[2], value, problem)
	}
	for _, p := range flagPrefixes {
		if name, ok := strings.CutPrefix(msg, p.prefix); ok {
			name = strings.TrimLeft(name, "-")
			return &node.StartError{Flag: "--" + name, Err: fmt.Errorf(p.format+hint, name)}
		}
	}
	return &node.StartError{Err: errors.New(msg + hint)}
}

// badValue is a flag's value that cannot be read.
func badValue(flag, value, problem string) error {
	return &node.StartError{Flag: flag, Err: fmt.Errorf("invalid value %q for %s: %s; 'platen serve -h' lists the flags", value, flag, problem)}
}

// valueProblem says what a flag of f's kind wants, where the flag package's
// error only says "parse error".
func valueProblem(f *flag.Flag, err error) string {
	if g, ok := f.Value.(flag.Getter); ok {
		switch g.Get().(type) {
		case time.Duration:
			return "want a duration, such as 90s, 15m or 720h"
		case int, int64, uint, uint64:
			return "want a whole number"
		case bool:
			return "want true or false"
		}
	}
	return err.Error()
}
