package pdftemplate

import (
	"fmt"
	"image"
	"image/draw"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
)

// PageImage renders one page (from 1) at dpi. At 72 dpi a pixel is a
// point, so pieces' boxes are in the image's own coordinates.
func (e *Engine) PageImage(pdf []byte, page, dpi int, lim Limits) (*image.RGBA, error) {
	var out *image.RGBA
	err := e.withDoc(pdf, lim, func(p pdfium.Pdfium, doc references.FPDF_DOCUMENT, pages int) error {
		if page < 1 || page > pages {
			return fmt.Errorf("%w: no page %d", ErrNoPage, page)
		}
		r, err := p.RenderPageInDPI(&requests.RenderPageInDPI{DPI: dpi,
			Page: requests.Page{ByIndex: &requests.PageByIndex{Document: doc, Index: page - 1}}})
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
