package pdfform

import (
	"fmt"
	"image"
	"image/draw"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/requests"
)

// PageImage renders one page (from 1) at dpi. At 72 dpi a pixel is a
// point, so pieces' boxes are in the image's own coordinates.
func (e *Engine) PageImage(pdf []byte, page, dpi int, lim Limits) (*image.RGBA, error) {
	if len(pdf) > lim.MaxBytes {
		return nil, fmt.Errorf("%w: %d bytes; the limit is %d", ErrTooLarge, len(pdf), lim.MaxBytes)
	}
	var out *image.RGBA
	err := e.with(func(p pdfium.Pdfium) error {
		doc, err := p.OpenDocument(&requests.OpenDocument{File: &pdf})
		if err != nil {
			return fmt.Errorf("%w: %v", ErrUnreadable, err)
		}
		defer p.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc.Document})
		count, err := p.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: doc.Document})
		if err != nil || page < 1 || page > count.PageCount {
			return fmt.Errorf("%w: no page %d", ErrNoPage, page)
		}
		r, err := p.RenderPageInDPI(&requests.RenderPageInDPI{DPI: dpi,
			Page: requests.Page{ByIndex: &requests.PageByIndex{Document: doc.Document, Index: page - 1}}})
		if err != nil {
			return fmt.Errorf("%w: page %d: %v", ErrUnreadable, page, err)
		}
		defer r.CleanupFunc()
		// The image lives in the WebAssembly instance's memory: copy it out.
		src := r.Result.Image
		out = image.NewRGBA(src.Bounds())
		draw.Draw(out, out.Bounds(), src, src.Bounds().Min, draw.Src)
		return nil
	})
	return out, err
}

// ErrNoPage is a page number the PDF does not have.
var ErrNoPage = fmt.Errorf("no such page")
