// Command htmlpdf prints HTML files to PDF exactly as a document is printed
// in production (render.Document wraps the markup with the sheet rules of
// the page geometry), with either engine. It is the workbench for comparing
// phantom with Chromium:
//
//	go run ./render/phantom/internal/htmlpdf -engine chromium -manifest '{"pageSize":"A4"}' a.html b.html
//
// writes a.chromium.pdf and b.chromium.pdf beside the inputs (or into -out).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/platen/platen/render"
	"github.com/platen/platen/render/chromium"
)

func main() {
	engine := flag.String("engine", "chromium", "chromium or phantom")
	manifest := flag.String("manifest", `{"pageSize":"A4"}`, "the manifest whose page size and margins apply")
	out := flag.String("out", "", "folder for the PDFs (default: beside each input)")
	flag.Parse()
	if err := run(*engine, *manifest, *out, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "htmlpdf:", err)
		os.Exit(1)
	}
}

func run(engine, manifest, out string, files []string) error {
	m, err := render.ParseManifest([]byte(manifest), "manifest")
	if err != nil {
		return err
	}
	var e render.Engine
	switch engine {
	case "chromium":
		ce, err := chromium.New(chromium.DefaultConfig())
		if err != nil {
			return err
		}
		if err := ce.Start(); err != nil {
			return err
		}
		defer ce.Close()
		e = ce
	default:
		ne, err := newEngine(engine)
		if err != nil {
			return err
		}
		e = ne
	}
	g := m.Geometry()
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		start := time.Now()
		pdf, err := e.Render(ctx, render.Job{HTML: render.Document(string(raw), g, ""), Geometry: g})
		cancel()
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		dst := strings.TrimSuffix(f, filepath.Ext(f)) + "." + engine + ".pdf"
		if out != "" {
			dst = filepath.Join(out, filepath.Base(dst))
		}
		if err := os.WriteFile(dst, pdf, 0o644); err != nil {
			return err
		}
		fmt.Printf("%s  %d bytes  %s\n", dst, len(pdf), time.Since(start).Round(time.Millisecond))
	}
	return nil
}
