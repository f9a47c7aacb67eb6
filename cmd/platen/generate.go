package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/platen/platen/client"
)

const generateUsage = `Usage: platen generate TEMPLATE [--data FILE|-] [--sample] [--engine E] [--version N]
                       [--wait=false] [-o out.pdf] [--dry-run] [--json]

Generates a document from the template TEMPLATE (slug or id) with the JSON
object in FILE (- for standard input), or with --sample the version's own
sample data (default: no data, the template's schema permitting), prints it
(id, status, pages, charge, engine) and writes its PDF: to the file -o names
(- for standard output), else to its file name in this folder. It waits until
the document is completed or failed unless --wait=false (which writes no
file). A failed document exits 1 with its error code.

--dry-run renders the document without storing or billing it and prints the
quote: its pages, how many the allowance would take, the wallet amount, and
whether it can be paid now.
`

func generate(ctx context.Context, args []string, out io.Writer) error {
	fs, g := newFlags("generate")
	dataFile := fs.String("data", "", "JSON file of the data, - for standard input")
	engine := fs.String("engine", "", "phantom, chromium or auto (default: the template's, else the platform's)")
	version := fs.Int("version", 0, "render this saved version instead of the active one")
	wait := fs.Bool("wait", true, "wait until the document is completed or failed")
	output := fs.String("o", "", "write the PDF to this file")
	dry := fs.Bool("dry-run", false, "print the quote: render without storing or billing")
	correlation := fs.String("correlation-id", "", "your reference, echoed on the document and its events")
	filename := fs.String("filename", "", "the PDF's file name for downloads")
	sample := fs.Bool("sample", false, "use the version's own sample data (instead of --data)")
	pos, err := parseFlags(fs, generateUsage, args, out)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError(generateUsage)
	}
	req := client.DocumentRequest{TemplateID: pos[0], Engine: *engine, TemplateVersion: *version,
		CorrelationID: *correlation, Filename: *filename}
	if *sample && *dataFile != "" {
		return errors.New("--sample and --data: give one")
	}
	if *dataFile != "" {
		var raw []byte
		if *dataFile == "-" {
			raw, err = io.ReadAll(os.Stdin)
		} else {
			raw, err = os.ReadFile(*dataFile)
		}
		if err != nil {
			return fmt.Errorf("--data: %w", err)
		}
		name := *dataFile
		if name == "-" {
			name = "standard input"
		}
		if len(bytes.TrimSpace(raw)) == 0 {
			return fmt.Errorf("%s: is empty; the data must be a JSON object", name)
		}
		if err := checkJSON(name, raw); err != nil {
			return err
		}
		if _, err := objectMembers(raw); err != nil {
			return fmt.Errorf("%s: the data must be a JSON object", name)
		}
		req.Data = json.RawMessage(raw)
	}
	c, _, err := connect(g)
	if err != nil {
		return err
	}
	if *sample {
		t, err := c.Templates.Get(ctx, req.TemplateID)
		if err != nil {
			return apiError(err)
		}
		n := req.TemplateVersion
		if n == 0 {
			n = t.ActiveVersion
		}
		v, err := c.Templates.GetVersion(ctx, t.ID, n)
		if err != nil {
			return apiError(err)
		}
		if !emptyJSON(v.SampleData) {
			req.Data = v.SampleData
		}
	}
	if *dry {
		q, err := c.Documents.Quote(ctx, req)
		if err != nil {
			return apiError(err)
		}
		if g.json {
			return printJSON(out, q)
		}
		payable := "yes"
		if !q.Payable {
			payable = "no: it would overrun the allowance or take the wallet below zero"
		}
		var engine, why string
		if q.Report != nil {
			engine, why = q.Report.Engine, q.Report.EngineReason
		}
		fields(out, "Pages", strconv.Itoa(q.PageCount),
			"From the allowance", plural(q.AllowancePages, "page"),
			"From the wallet", walletShare(q.WalletMicros),
			"Payable now", payable, "Engine", engine, "Why", why)
		fmt.Fprintln(out, "Dry run: nothing was stored or billed.")
		return nil
	}
	wantWait := *wait || *output != ""
	req.Wait = client.Bool(wantWait)
	doc, err := c.Documents.Create(ctx, req)
	if err != nil {
		return apiError(err)
	}
	for wantWait && !doc.Done() {
		select {
		case <-ctx.Done():
			return fmt.Errorf("stopped waiting for %s (%s): %w", doc.ID, doc.Status, ctx.Err())
		case <-time.After(500 * time.Millisecond):
		}
		if doc, err = c.Documents.Get(ctx, doc.ID); err != nil {
			return apiError(err)
		}
	}
	charge := documentCharge(ctx, c, doc)
	if g.json {
		if err := printJSON(out, doc); err != nil {
			return err
		}
	} else {
		printDocument(out, doc, charge)
	}
	if doc.Status == client.StatusFailed {
		return fmt.Errorf("the document %s failed: %s: %s", doc.ID, doc.ErrorCode, doc.Message)
	}
	if *output == "" && doc.Status == client.StatusCompleted && !g.json {
		// The record's file name, printed above as File, is written here:
		// a person who sees a file named expects to find it.
		*output = freeName(downloadName(doc.Filename, doc.ID))
	}
	if *output != "" {
		return downloadTo(ctx, c, doc.ID, *output, out, g.json)
	}
	return nil
}

// documentCharge says what a completed document cost: the pages from the
// allowance and the amount of its debit row in the ledger, when the key may
// read the wallet (else "").
func documentCharge(ctx context.Context, c *client.Client, doc *client.Document) string {
	if doc.Status != client.StatusCompleted {
		return ""
	}
	w, err := c.Wallet.Get(ctx)
	if err != nil {
		return ""
	}
	for _, row := range w.Ledger {
		if row.Kind == "debit" && row.Reference == doc.ID {
			paid := max(row.AmountMicros, -row.AmountMicros) // a debit's sign aside
			walletPages := int64(0)
			if w.Plan.PageRateMicros > 0 {
				walletPages = paid / w.Plan.PageRateMicros
			}
			return fmt.Sprintf("%s from the allowance, %s from the wallet (%s)", plural(int64(doc.PageCount)-walletPages, "page"), plural(walletPages, "page"), micros(paid))
		}
	}
	return plural(int64(doc.PageCount), "page") + " from the allowance"
}

// printDocument prints a document's record for people.
func printDocument(out io.Writer, d *client.Document, charge string) {
	pages, file := "", ""
	if d.Status == client.StatusCompleted {
		pages, file = strconv.Itoa(d.PageCount), d.Filename
	}
	engine := d.Engine
	if d.EngineReason != "" {
		engine += " (" + d.EngineReason + ")"
	}
	failure := ""
	if d.ErrorCode != "" {
		failure = d.ErrorCode + ": " + d.Message
	}
	fields(out, "Document", d.ID, "Status", d.Status, "Error", failure,
		"Template", fmt.Sprintf("%s version %d", d.TemplateSlug, d.TemplateVersion),
		"Pages", pages, "Charge", charge, "Engine", engine,
		"Bytes", nonZero(d.ByteSize), "File", file, "Correlation", d.CorrelationID,
		"Watermarked", map[bool]string{true: "yes", false: ""}[d.Watermarked],
		"Created", when(d.CreatedAt), "Completed", whenPtr(d.CompletedAt), "File expires", whenPtr(d.FileExpiresAt))
}

func nonZero(n int64) string {
	if n == 0 {
		return ""
	}
	return strconv.FormatInt(n, 10)
}

// downloadTo writes a document's PDF to path ("-": standard output).
func downloadTo(ctx context.Context, c *client.Client, id, path string, out io.Writer, quiet bool) error {
	var w io.Writer = out
	var f *os.File
	if path != "-" {
		var err error
		if f, err = os.Create(path); err != nil {
			return err
		}
		w = f
	}
	n, err := c.Documents.Download(ctx, id, w)
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(path)
		}
	}
	if err != nil {
		return apiError(err)
	}
	if path != "-" && !quiet {
		fmt.Fprintf(out, "Wrote %s (%d bytes).\n", path, n)
	}
	return nil
}

// reportLines prints a render report for people.
func printReport(out io.Writer, r *client.Report) {
	if r == nil {
		return
	}
	fmt.Fprintln(out, "\nRender report:")
	kv := []string{"  Engine", r.Engine, "  Why", r.EngineReason, "  Failed at", r.FailedAt}
	if r.Fonts != nil {
		kv = append(kv, "  Fonts", strings.Join(r.Fonts.Used, ", "))
		var subs []string
		for _, s := range r.Fonts.Substituted {
			subs = append(subs, s.Requested+" → "+s.Used)
		}
		kv = append(kv, "  Substituted", strings.Join(subs, ", "))
	}
	for i, a := range r.FailedAssets {
		kv = append(kv, fmt.Sprintf("  Failed asset %d", i+1), a.URL+": "+a.Reason)
	}
	if r.Ms != nil {
		kv = append(kv, "  Time (ms)", fmt.Sprintf("queued %d, filling %d, rendering %d, counting %d, storing %d",
			r.Ms.Queued, r.Ms.Filling, r.Ms.Rendering, r.Ms.Counting, r.Ms.Storing))
	}
	kv = append(kv, "  Bytes", nonZero(r.Bytes), "  SHA-256", r.SHA256)
	fields(out, kv...)
	for _, f := range r.Fields {
		line := fmt.Sprintf("  field %s: from %s, %s %.1fpt, %d lines", f.Key, f.From, f.Font, f.Size, f.Lines)
		if f.Substituted {
			line += " (substituted: " + f.Reason + ")"
		}
		fmt.Fprintln(out, line)
	}
}

// walletShare is a quote's amount from the wallet, or "nothing" when the
// allowance covers every page (always, on a plan without a wallet).
func walletShare(m int64) string {
	if m == 0 {
		return "nothing"
	}
	return micros(m)
}

// freeName is name, or name with -1, -2, … before its extension when a
// file of that name is here already: a file the command was not told to
// write over is kept.
func freeName(name string) string {
	if _, err := os.Lstat(name); errors.Is(err, os.ErrNotExist) {
		return name
	}
	ext := filepath.Ext(name)
	base := strings.TrimSuffix(name, ext)
	for i := 1; i < 1000; i++ {
		n := fmt.Sprintf("%s-%d%s", base, i, ext)
		if _, err := os.Lstat(n); errors.Is(err, os.ErrNotExist) {
			return n
		}
	}
	return fmt.Sprintf("%s-%d%s", base, time.Now().UnixNano(), ext)
}
