// Package pdf reads and stamps finished PDFs with pdfcpu: the page count that
// billing uses (spec: "pages are counted from the finished PDF") and the
// watermark of sandbox documents and previews, stamped into the PDF after
// rendering so that no template style can hide it.
package pdf

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/font"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

func init() {
	// Left alone, pdfcpu writes a config file under the user's config folder
	// on first use, with a data race between first users, and calls os.Exit
	// when that folder is unusable. Its built-in defaults are what Platen wants.
	model.ConfigPath = "disable"
}

func config() *model.Configuration {
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	return conf
}

// PageCount returns the number of pages of a PDF.
func PageCount(pdf []byte) (int, error) {
	n, err := api.PageCount(bytes.NewReader(pdf), config())
	if err != nil {
		return 0, fmt.Errorf("pdf: count pages: %w", err)
	}
	return n, nil
}

// Watermark stamps big diagonal text across every page and a small line of
// notice along its foot, both on top of the content. The foot line keeps the
// mark readable to text extraction, where diagonal glyphs come apart.
func Watermark(pdf []byte, big, notice string) ([]byte, error) {
	return watermark(pdf, big, notice, "Helvetica-Bold", "Helvetica")
}

// WatermarkEmbedded is Watermark in fonts the PDF embeds (Liberation Sans,
// which the node's install script puts in place), for a PDF/A document:
// PDF/A forbids the standard fonts Watermark leaves to the reader.
func WatermarkEmbedded(pdf []byte, big, notice string) ([]byte, error) {
	if err := installWatermarkFonts(); err != nil {
		return nil, err
	}
	return watermark(pdf, big, notice, "LiberationSans-Bold", "LiberationSans")
}

var (
	fontsOnce sync.Once
	fontsErr  error
)

// installWatermarkFonts gives pdfcpu Liberation Sans as user fonts, once
// per process, in a folder of its own (pdfcpu keeps a processed copy of
// each font there).
func installWatermarkFonts() error {
	fontsOnce.Do(func() {
		dir, err := os.MkdirTemp("", "platen-pdfcpu-fonts-")
		if err != nil {
			fontsErr = fmt.Errorf("pdf: watermark fonts: %w", err)
			return
		}
		font.UserFontDir = dir
		for _, name := range []string{"LiberationSans-Bold.ttf", "LiberationSans-Regular.ttf"} {
			if err := font.InstallTrueTypeFont(dir, filepath.Join(liberationDir, name)); err != nil {
				fontsErr = fmt.Errorf("pdf: watermark fonts: %s: %w (install fonts-liberation)", name, err)
				return
			}
		}
		if err := font.LoadUserFonts(); err != nil {
			fontsErr = fmt.Errorf("pdf: watermark fonts: %w", err)
		}
	})
	return fontsErr
}

// liberationDir is where Debian's fonts-liberation puts Liberation Sans.
const liberationDir = "/usr/share/fonts/truetype/liberation"

func watermark(pdf []byte, big, notice, bold, regular string) ([]byte, error) {
	if IsSigned(pdf) {
		return nil, ErrSigned
	}
	// A watermark value holds per-document state: make new ones every call.
	diagonal, err := api.TextWatermark(big, "font:"+bold+", points:72, rot:45, op:0.18, fillcol:#c0392b, scale:0.8 rel", true, false, types.POINTS)
	if err != nil {
		return nil, fmt.Errorf("pdf: watermark: %w", err)
	}
	foot, err := api.TextWatermark(notice, "font:"+regular+", points:8, rot:0, op:0.9, fillcol:#c0392b, scale:1 abs, pos:bc, off:0 14", true, false, types.POINTS)
	if err != nil {
		return nil, fmt.Errorf("pdf: watermark: %w", err)
	}
	var mid, out bytes.Buffer
	if err := api.AddWatermarks(bytes.NewReader(pdf), &mid, nil, diagonal, config()); err != nil {
		return nil, fmt.Errorf("pdf: watermark: %w", err)
	}
	if err := api.AddWatermarks(bytes.NewReader(mid.Bytes()), &out, nil, foot, config()); err != nil {
		return nil, fmt.Errorf("pdf: watermark: %w", err)
	}
	return out.Bytes(), nil
}
