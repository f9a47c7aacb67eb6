// Command first makes a first PDF with the Go client oapi-codegen generates
// from Platen's served OpenAPI document, with its default settings and no
// hand edits: it copies the invoice starter, generates a document from the
// starter's sample data, reads the record back and downloads the PDF.
//
// Usage: first <base URL> <API key> <output.pdf>
package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"example.com/first/platenapi"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: first <base URL> <API key> <output.pdf>")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, "first:", err)
		os.Exit(1)
	}
}

func run(base, key, out string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bearer := func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+key)
		return nil
	}
	c, err := platenapi.NewClientWithResponses(base, platenapi.WithRequestEditorFn(bearer))
	if err != nil {
		return err
	}

	lib, err := c.TemplatesLibraryWithResponse(ctx)
	if err != nil {
		return err
	}
	if lib.JSON200 == nil || lib.JSON200.Data == nil {
		return fmt.Errorf("library: HTTP %d %s", lib.StatusCode(), lib.Body)
	}
	var sample map[string]any
	for _, s := range lib.JSON200.Data.Items {
		if s.Slug == "invoice" {
			sample = s.SampleData
		}
	}
	if sample == nil {
		return fmt.Errorf("the library has no invoice starter with sample data")
	}

	slug, name := platenapi.Slug("first-invoice"), "My first invoice"
	tpl, err := c.TemplatesCopyStarterWithResponse(ctx, "invoice", platenapi.TemplatesCopyStarterJSONRequestBody{Slug: &slug, Name: &name})
	if err != nil {
		return err
	}
	if tpl.JSON201 == nil {
		return fmt.Errorf("copy the starter: HTTP %d %s", tpl.StatusCode(), tpl.Body)
	}

	doc, err := c.DocumentsCreateWithResponse(ctx, nil, platenapi.DocumentsCreateJSONRequestBody{TemplateId: string(slug), Data: &sample})
	if err != nil {
		return err
	}
	if doc.JSON201 == nil || doc.JSON201.Data == nil {
		return fmt.Errorf("generate: HTTP %d %s", doc.StatusCode(), doc.Body)
	}
	id := doc.JSON201.Data.Id

	got, err := c.DocumentsGetWithResponse(ctx, id)
	if err != nil {
		return err
	}
	if got.JSON200 == nil || got.JSON200.Data == nil {
		return fmt.Errorf("read the document: HTTP %d %s", got.StatusCode(), got.Body)
	}
	d := got.JSON200.Data
	if string(d.Status) != "completed" {
		return fmt.Errorf("the document is %s", d.Status)
	}

	link, err := c.DocumentsDownloadLinkWithResponse(ctx, id, nil)
	if err != nil {
		return err
	}
	if link.JSON200 == nil || link.JSON200.Data == nil {
		return fmt.Errorf("download link: HTTP %d %s", link.StatusCode(), link.Body)
	}
	req, err := http.NewRequestWithContext(ctx, "GET", link.JSON200.Data.Url, nil)
	if err != nil {
		return err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	pdf, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("download: HTTP %d", res.StatusCode)
	}
	if err := os.WriteFile(out, pdf, 0o644); err != nil {
		return err
	}
	fmt.Printf("%s %s %d page(s) %d bytes\n", id, d.Status, d.PageCount, len(pdf))
	return nil
}
