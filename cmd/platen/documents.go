package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/platen/platen/client"
)

const documentsHelp = `Usage: platen documents VERB [ARGS] [flags]

  list [--status S] [--template T] [--limit N]   documents, newest first
  get ID                                         a document and its render report
  download ID [-o FILE]                          its PDF (default: its file name here)

Every verb takes --url, --key, --profile and --json; -h shows a verb's flags.
`

func documents(ctx context.Context, args []string, out io.Writer) error {
	return subcommands(ctx, "documents", documentsHelp, map[string]verb{
		"list": documentsList, "get": documentsGet, "download": documentsDownload,
	}, args, out)
}

const documentsListUsage = `Usage: platen documents list [--status S] [--template T] [--limit N] [--json]

Lists documents, newest first: --limit of them (default 20; more pages are
fetched as needed), of one status (queued, rendering, completed, failed) or
template (its id or slug) when given.
`

func documentsList(ctx context.Context, args []string, out io.Writer) error {
	fs, g := newFlags("documents list")
	status := fs.String("status", "", "queued, rendering, completed or failed")
	tpl := fs.String("template", "", "the template's id or slug")
	limit := fs.Int("limit", 20, "how many documents")
	pos, err := parseFlags(fs, documentsListUsage, args, out)
	if err != nil {
		return err
	}
	if len(pos) != 0 || *limit < 1 {
		return usageError(documentsListUsage)
	}
	c, _, err := connect(g)
	if err != nil {
		return err
	}
	templateID := *tpl
	if templateID != "" && !strings.HasPrefix(templateID, "tpl_") {
		// The filter takes an id; a slug is looked up.
		t, err := c.Templates.Get(ctx, templateID)
		if err != nil {
			return apiError(err)
		}
		templateID = t.ID
	}
	docs := []client.Document{}
	for cursor := ""; len(docs) < *limit; {
		page, err := c.Documents.List(ctx, client.ListDocumentsParams{Status: *status, TemplateID: templateID,
			Limit: min(*limit-len(docs), 100), Cursor: cursor})
		if err != nil {
			return apiError(err)
		}
		docs = append(docs, page.Items...)
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	if g.json {
		return printJSON(out, docs)
	}
	if len(docs) == 0 {
		fmt.Fprintln(out, "No documents.")
		return nil
	}
	var rows [][]string
	for _, d := range docs {
		pages := "-"
		if d.Status == client.StatusCompleted {
			pages = strconv.Itoa(d.PageCount)
		}
		rows = append(rows, []string{d.ID, d.Status, fmt.Sprintf("%s v%d", d.TemplateSlug, d.TemplateVersion), pages,
			orDash(d.Engine), orDash(d.CorrelationID), when(d.CreatedAt)})
	}
	table(out, []string{"ID", "STATUS", "TEMPLATE", "PAGES", "ENGINE", "CORRELATION", "CREATED"}, rows)
	return nil
}

const documentsGetUsage = `Usage: platen documents get ID [--json]

Prints a document and its render report: the engine and why, the fonts used
and substituted, assets that failed, the time of each stage, its size and
SHA-256, and for a failed document where it failed.
`

func documentsGet(ctx context.Context, args []string, out io.Writer) error {
	fs, g := newFlags("documents get")
	pos, err := parseFlags(fs, documentsGetUsage, args, out)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError(documentsGetUsage)
	}
	c, _, err := connect(g)
	if err != nil {
		return err
	}
	d, err := c.Documents.Get(ctx, pos[0])
	if err != nil {
		return apiError(err)
	}
	if g.json {
		return printJSON(out, d)
	}
	printDocument(out, d, documentCharge(ctx, c, d))
	printReport(out, d.Report)
	return nil
}

const documentsDownloadUsage = `Usage: platen documents download ID [-o FILE]

Writes a completed document's PDF to FILE (- for standard output; default: the
document's file name in this folder).
`

func documentsDownload(ctx context.Context, args []string, out io.Writer) error {
	fs, g := newFlags("documents download")
	output := fs.String("o", "", "where to write the PDF")
	pos, err := parseFlags(fs, documentsDownloadUsage, args, out)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError(documentsDownloadUsage)
	}
	c, _, err := connect(g)
	if err != nil {
		return err
	}
	path := *output
	if path == "" {
		d, err := c.Documents.Get(ctx, pos[0])
		if err != nil {
			return apiError(err)
		}
		if d.Status != client.StatusCompleted {
			return fmt.Errorf("the document %s is %s: only a completed document has a PDF", d.ID, d.Status)
		}
		path = downloadName(d.Filename, pos[0])
	}
	return downloadTo(ctx, c, pos[0], path, out, g.json)
}

// downloadName is the file a download writes when -o is not given: the
// document's file name as the server gave it, when that is a plain PDF file
// name in this folder, else ID.pdf. The server checks file names (no
// separators, .pdf added); a server that sends "../../.bashrc" or
// ".profile" must still not choose which file of this machine is
// overwritten.
func downloadName(filename, id string) string {
	if filename != "" && filename == filepath.Base(filename) && filepath.IsLocal(filename) &&
		!strings.ContainsAny(filename, `/\`) && !strings.HasPrefix(filename, ".") &&
		strings.HasSuffix(strings.ToLower(filename), ".pdf") {
		return filename
	}
	if id = filepath.Base(id); id == "" || strings.HasPrefix(id, ".") || strings.ContainsAny(id, `/\`) || !filepath.IsLocal(id) {
		id = "document"
	}
	return id + ".pdf"
}
