package app

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"sync"

	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/pdftemplate"
	"github.com/platen/platen/render"
	"github.com/platen/platen/starters"
)

// ThumbnailWidth is the width in pixels of a starter's thumbnail: a card
// in the dashboard's starter gallery, sharp at twice its 160 CSS pixels.
const ThumbnailWidth = 320

// thumbnails keeps each starter's thumbnail once drawn. Starters are
// compiled into the binary, so a thumbnail never goes stale and there are
// as many entries as starters; a render that failed is not kept, so the
// next request tries again.
type thumbnails struct {
	mu sync.Mutex // guards m
	m  map[string]*thumbnail
}

// thumbnail is one starter's; its mu makes requests that arrive together
// wait for one drawing rather than each draw it.
type thumbnail struct {
	mu  sync.Mutex // guards png
	png []byte
}

// StarterThumbnail is the first page of a starter rendered with its sample
// data, as a PNG ThumbnailWidth pixels wide on white: what the starter
// gallery shows. It is drawn once per node and starter (a render, then
// PDFium in WebAssembly for the raster, the way pages of uploaded PDFs are
// drawn) and kept in memory.
func (a *App) StarterThumbnail(ctx context.Context, slug string) ([]byte, error) {
	st, ok := starters.Find(slug)
	if !ok {
		return nil, fmt.Errorf("%w: no starter %q in the library", fault.ErrNotFound, slug)
	}
	a.thumbnails.mu.Lock()
	th := a.thumbnails.m[st.Slug]
	if th == nil {
		th = &thumbnail{}
		a.thumbnails.m[st.Slug] = th
	}
	a.thumbnails.mu.Unlock()
	th.mu.Lock()
	defer th.mu.Unlock()
	if th.png != nil {
		return th.png, nil
	}
	out, err := a.drawStarter(ctx, st)
	if err != nil {
		return nil, err
	}
	th.png = out
	return out, nil
}

// drawStarter renders st with its sample data and rasterises its first page.
func (a *App) drawStarter(ctx context.Context, st starters.Starter) ([]byte, error) {
	checked, err := st.Version.Check()
	if err != nil {
		return nil, fmt.Errorf("starter %s: %w", st.Slug, err)
	}
	res, err := a.deps.Renderer.Render(ctx, render.Request{Version: checked, Data: checked.Sample, Now: a.deps.Clock.Now()})
	if err != nil {
		return nil, fmt.Errorf("starter %s: %w", st.Slug, err)
	}
	page, err := a.deps.PDFTemplates.PageImageWidth(res.PDF, 1, ThumbnailWidth, pdftemplate.Limits{MaxBytes: len(res.PDF), MaxPages: res.Pages})
	if err != nil {
		return nil, fmt.Errorf("starter %s: drawing its first page: %w", st.Slug, err)
	}
	// A page without a painted background comes out transparent.
	img := image.NewRGBA(page.Bounds())
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	draw.Draw(img, img.Bounds(), page, page.Bounds().Min, draw.Over)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
