package render

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/aymerick/raymond"
)

// ErrFill is a template that could not be filled: a helper failed, the
// markup referenced something it may not, or the time budget ran out.
var ErrFill = errors.New("template could not be filled")

// FillOptions adjusts one fill.
type FillOptions struct {
	// Budget bounds execution; zero means DefaultFillBudget.
	Budget time.Duration
	// Now is the time the "now" date means; zero means the wall clock.
	Now time.Time
	// CacheKey identifies an immutable version; fills with the same key reuse
	// the parsed template. Empty means parse afresh.
	CacheKey string
}

// DefaultFillBudget is long enough for thousands of rows and short enough
// that a runaway template cannot hold a render slot for long.
const DefaultFillBudget = 5 * time.Second

// FillHeaderFooter fills the manifest's header and footer with the same data
// as the page, wrapped in a base style: the chromium engine prints them in a
// context of their own, without the page's styles.
func FillHeaderFooter(c *Checked, data map[string]any, opt FillOptions) (header, footer string, err error) {
	ctx := make(map[string]any, len(data)+3)
	for k, v := range data {
		ctx[k] = v
	}
	ctx["content"] = c.Content
	ctx["pageNumber"] = raymond.SafeString(`<span class="pageNumber"></span>`)
	ctx["totalPages"] = raymond.SafeString(`<span class="totalPages"></span>`)
	out := [2]string{}
	for i, src := range []string{c.Manifest.Header, c.Manifest.Footer} {
		if src == "" {
			continue
		}
		tpl, err := raymond.Parse(src)
		if err != nil {
			return "", "", fmt.Errorf("%w: %s", ErrFill, cleanRaymondError(err))
		}
		tpl.RegisterHelpers(env{assets: c.Assets, locale: c.Manifest.Locale, currency: c.Manifest.Currency}.helpers())
		filled, err := execBudget(tpl, ctx, opt)
		if err != nil {
			return "", "", err
		}
		out[i] = headerFooterStyle + `<div class="platen-hf">` + filled + `</div>`
	}
	return out[0], out[1], nil
}

// headerFooterStyle gives headers and footers a readable size and the page's
// side padding; Chromium's own default is a few pixels high.
const headerFooterStyle = `<style>html,body{margin:0;padding:0}*{-webkit-print-color-adjust:exact;print-color-adjust:exact}` +
	`.platen-hf{box-sizing:border-box;width:100%;padding:0 12mm;font-family:"Liberation Sans",Arial,sans-serif;font-size:9pt;line-height:1.3;color:#333}` +
	`.platen-hf img{max-height:12mm}</style>`

// Fill executes the version's markup with data, its content, its assets and,
// when the manifest declares pagination, the pages array. data must already
// satisfy the schema.
func Fill(c *Checked, data map[string]any, opt FillOptions) (string, error) {
	tpl, err := compiled(c, opt)
	if err != nil {
		return "", err
	}
	ctx := make(map[string]any, len(data)+2)
	for k, v := range data {
		ctx[k] = v
	}
	ctx["content"] = c.Content
	if p := c.Manifest.Pagination; p != nil {
		items, _ := data[p.Collection].([]any)
		pages := Paginate(items, p.ItemsPerPage, p.FirstPageItemCount)
		list := make([]any, len(pages))
		for i, pg := range pages {
			list[i] = map[string]any{
				"pageNumber": pg.PageNumber, "pageCount": pg.PageCount, "items": pg.Items,
				"isFirstPage": pg.IsFirstPage, "isLastPage": pg.IsLastPage,
			}
		}
		ctx["pages"] = list
	}

	return execBudget(tpl, ctx, opt)
}

// execBudget executes a parsed template under recover and the time budget.
func execBudget(tpl *raymond.Template, ctx map[string]any, opt FillOptions) (string, error) {
	budget := opt.Budget
	if budget <= 0 {
		budget = DefaultFillBudget
	}
	type result struct {
		out string
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- result{err: fmt.Errorf("%w: %v", ErrFill, v)}
			}
		}()
		now := opt.Now
		if now.IsZero() {
			now = time.Now().UTC()
		}
		frame := raymond.NewDataFrame()
		frame.Set("now", now)
		out, err := tpl.ExecWith(ctx, frame)
		if err != nil {
			err = fmt.Errorf("%w: %s", ErrFill, cleanRaymondError(err))
		}
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		return r.out, r.err
	case <-time.After(budget):
		// raymond cannot be interrupted; the goroutine finishes on its own and
		// its result is dropped.
		return "", fmt.Errorf("%w: filling took longer than %s", ErrFill, budget)
	}
}

// compiled returns the parsed template with its helpers: the one Check
// compiled, else from the cache when the version has a key, else parsed
// afresh.
func compiled(c *Checked, opt FillOptions) (*raymond.Template, error) {
	if p := c.parsed; p != nil && p.src == c.HTML {
		return p.tpl, nil
	}
	if opt.CacheKey != "" {
		if tpl, ok := cache.get(opt.CacheKey); ok {
			return tpl, nil
		}
	}
	tpl, err := parse(c)
	if err != nil {
		return nil, fmt.Errorf("%w: %s", ErrFill, cleanRaymondError(err))
	}
	if opt.CacheKey != "" {
		cache.put(opt.CacheKey, tpl)
	}
	return tpl, nil
}

// parse compiles a version's markup and registers the helpers its manifest
// and assets give it. A compiled template is safe to execute concurrently.
func parse(c *Checked) (*raymond.Template, error) {
	tpl, err := raymond.Parse(c.HTML)
	if err != nil {
		return nil, err
	}
	e := env{assets: c.Assets, locale: c.Manifest.Locale, currency: c.Manifest.Currency}
	tpl.RegisterHelpers(e.helpers())
	return tpl, nil
}

// templateCache holds parsed templates of immutable versions. It is bounded:
// when full it is emptied, which costs one parse per version afterwards.
type templateCache struct {
	mu sync.Mutex // guards m
	m  map[string]*raymond.Template
}

const templateCacheSize = 512

var cache = &templateCache{m: map[string]*raymond.Template{}}

func (t *templateCache) get(k string) (*raymond.Template, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	tpl, ok := t.m[k]
	return tpl, ok
}

func (t *templateCache) put(k string, tpl *raymond.Template) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.m) >= templateCacheSize {
		t.m = map[string]*raymond.Template{}
	}
	t.m[k] = tpl
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }
