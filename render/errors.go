package render

import "github.com/platen/platen/internal/fault"

func init() {
	fault.Register("render.fill", ErrFill)
	fault.Register("render.render", ErrRender)
	fault.Register("render.too_many_pages", ErrTooManyPages)
	fault.Register("render.timeout", ErrTimeout)
}
