package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/platen/platen/render"
	"github.com/platen/platen/render/chromium"
	"github.com/platen/platen/render/phantom"
)

// renderLocal renders a template folder with data to a PDF, with no server:
//
//	platen render TEMPLATE_DIR [DATA.json] -o out.pdf
//
// Without DATA.json the folder's sample.json is used.
func renderLocal(args []string) error {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	out := fs.String("o", "out.pdf", "where to write the PDF")
	engine := fs.String("engine", "", "phantom or chromium (default: the manifest's, else the platform default)")
	defaultEngine := fs.String("default-engine", render.DefaultRendererConfig().DefaultEngine, "engine for a template that names none: auto, phantom or chromium (as platen serve)")
	watermark := fs.String("watermark", "", "stamp this text on every page")
	// Flags may come after the folder and data file.
	var pos []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(pos) < 1 || len(pos) > 2 {
		return fmt.Errorf("usage: platen render TEMPLATE_DIR [DATA.json] -o out.pdf")
	}
	// A template folder as `platen templates pull` writes it, or a
	// starter's (folder.go).
	f, meta, err := readFolder(pos[0])
	if err != nil {
		return err
	}
	src, err := folderSource(f, meta.AssetTypes)
	if err != nil {
		return err
	}
	checked, err := render.Version{HTML: src.HTML, Manifest: src.Manifest, Content: src.Content,
		SampleData: src.SampleData, Assets: src.Assets}.Check()
	if err != nil {
		return refusalInFolder(err)
	}
	data := checked.Sample
	if len(pos) == 2 {
		raw, err := os.ReadFile(pos[1])
		if err != nil {
			return err
		}
		data = map[string]any{}
		if err := json.Unmarshal(raw, &data); err != nil {
			return fmt.Errorf("%s: %w", pos[1], err)
		}
	}
	// The same engines and the same choice as a node: Chromium starts only
	// if the document goes to it.
	cfg := render.DefaultRendererConfig()
	cfg.DefaultEngine = *defaultEngine
	if err := cfg.Validate(); err != nil {
		return err
	}
	eng, err := chromium.New(chromium.DefaultConfig())
	if err != nil {
		return err
	}
	defer eng.Close()
	fast, err := phantom.New(phantom.DefaultConfig())
	if err != nil {
		return err
	}
	req := render.Request{Version: checked, Data: data, Engine: *engine, Now: time.Now().UTC()}
	if *watermark != "" {
		req.Watermark = &render.Watermark{Text: *watermark, Notice: *watermark}
	}
	res, err := render.NewRenderer(cfg, eng, fast).Render(context.Background(), req)
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, res.PDF, 0o644); err != nil {
		return err
	}
	fmt.Printf("%s: %d pages, %d bytes, %s in %s (%s)\n", *out, res.Pages, len(res.PDF), res.Engine, res.Duration.Round(time.Millisecond), res.EngineReason)
	return nil
}
