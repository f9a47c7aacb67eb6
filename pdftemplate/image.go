package pdftemplate

import (
	"fmt"
	"image"
	"image/draw"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
	"github.com/klippa-app/go-pdfium/responses"
)

// PageImage renders one page (from 1) at dpi. At 72 dpi a pixel is a
// point, so pieces' boxes are in the image's own coordinates.
func (e *Engine) PageImage(pdf []byte, page, dpi int, lim Limits) (*image.RGBA, error) {
	return e.pageImage(pdf, page, lim, func(p pdfium.Pdfium, at requests.Page) (*responses.RenderPage, func(), error) {
		r, err := p.RenderPageInDPI(&requests.RenderPageInDPI{DPI: dpi, Page: at})
		if err != nil {
			return nil, nil, err
		}
		return &r.Result, r.CleanupFunc, nil
	})
}

// PageImageWidth renders one page (from 1) width pixels wide, its height
// in proportion: a thumbnail whose size does not depend on the page's.
func (e *Engine) PageImageWidth(pdf []byte, page, width int, lim Limits) (*image.RGBA, error) {
	return e.pageImage(pdf, page, lim, func(p pdfium.Pdfium, at requests.Page) (*responses.RenderPage, func(), error) {
		r, err := p.RenderPageInPixels(&requests.RenderPageInPixels{Width: width, Page: at})
		if err != nil {
			return nil, nil, err
		}
		return &r.Result, r.CleanupFunc, nil
	})
}

// pageImage opens pdf, has render draw one of its pages, and copies the
// image out of the WebAssembly instance's memory, which cleanup frees.
func (e *Engine) pageImage(pdf []byte, page int, lim Limits, render func(p pdfium.Pdfium, at requests.Page) (r *responses.RenderPage, cleanup func(), err error)) (*image.RGBA, error) {
	var out *image.RGBA
	err := e.withDoc(e.deadline(), pdf, lim, func(p pdfium.Pdfium, doc references.FPDF_DOCUMENT, pages int) error {
		if page < 1 || page > pages {
			return fmt.Errorf("%w: no page %d", ErrNoPage, page)
		}
		r, cleanup, err := render(p, requests.Page{ByIndex: &requests.PageByIndex{Document: doc, Index: page - 1}})
		if err != nil {
			return unreadable(fmt.Sprintf("page %d cannot be drawn", page), err)
		}
		if cleanup != nil {
			defer cleanup()
		}
		src := r.Image
		out = image.NewRGBA(src.Bounds())
		draw.Draw(out, out.Bounds(), src, src.Bounds().Min, draw.Src)
		return nil
	})
	return out, err
}

// ErrNoPage is a page number the PDF does not have.
var ErrNoPage = fmt.Errorf("no such page")
