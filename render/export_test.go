package render

import (
	"time"

	"github.com/aymerick/raymond"

	"github.com/platen/platen/render/handlebars"
)

// Helpers returns the helpers a version's markup is filled with.
func Helpers(c *Checked) map[string]any {
	return env{assets: c.Assets, locale: c.Manifest.Locale, currency: c.Manifest.Currency}.helpers()
}

// FillContext and HeaderFooterContext are what Fill and FillHeaderFooter
// fill with, their SafeStrings made raymond's, for raymond as an oracle.
func FillContext(c *Checked, data map[string]any) map[string]any {
	return forRaymond(fillContext(c, data))
}

func HeaderFooterContext(c *Checked, data map[string]any) map[string]any {
	return forRaymond(headerFooterContext(c, data))
}

func forRaymond(ctx map[string]any) map[string]any {
	for k, v := range ctx {
		if s, ok := v.(handlebars.SafeString); ok {
			ctx[k] = raymond.SafeString(s)
		}
	}
	return ctx
}

// FillSpent fills a version's markup, header and footer with data and
// returns the steps and bytes they spent together.
func FillSpent(c *Checked, data map[string]any, now time.Time) (handlebars.Spent, error) {
	var sp handlebars.Spent
	opt := FillOptions{Now: now, spent: &sp}
	if _, err := Fill(c, data, opt); err != nil {
		return sp, err
	}
	_, _, err := FillHeaderFooter(c, data, opt)
	return sp, err
}
