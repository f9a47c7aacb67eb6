package render

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/platen/platen/internal/memory"
	"github.com/platen/platen/render/handlebars"
)

// ErrFill is a template that could not be filled: a helper failed, the
// markup referenced something it may not, or the time budget ran out.
var ErrFill = errors.New("template could not be filled")

// ErrFillBudget is a fill stopped by one of its limits (FillLimits): the
// template repeats too much, writes too much or takes too long for its
// data. It is also ErrFill, and its message says which limit and in which
// block.
var ErrFillBudget = fmt.Errorf("%w: too costly for its data", ErrFill)

// FillOptions adjusts one fill.
type FillOptions struct {
	// Limits bound the fill; a zero field means its default
	// (DefaultFillLimits).
	Limits FillLimits
	// Now is the time the "now" date means; zero means the wall clock.
	Now time.Time
	// CacheKey identifies an immutable version; fills with the same key reuse
	// the parsed template. Empty means parse afresh.
	CacheKey string
	// spent, when set, receives what the fill spent (the tests measure the
	// starters and golden documents with it).
	spent *handlebars.Spent
}

// FillLimits bound one fill of a template's markup (docs/templates.md "Fill
// budgets"). The fill spends its steps and bytes as it runs and checks its
// time at every step, and stops at the first limit it passes: the work ends
// with the refusal, so no fill runs on behind it.
type FillLimits struct {
	// Time bounds the fill's wall-clock time.
	Time time.Duration
	// Steps bounds the template's units of work: each piece of text,
	// {{expression}} and block, each pass of a loop and each helper call.
	Steps int64
	// Bytes bounds the filled markup.
	Bytes int64
}

// DefaultFillLimits returns the limits a fill gets unless the operator sets
// others. Each is more than ten times what the most demanding starter or
// golden document spends (TestFillLimitsLeaveRoom measures them):
//   - 5 s: long enough for thousands of rows, short enough that a runaway
//     template cannot hold a render slot for long;
//   - 2,000,000 steps: a step costs a few hundred nanoseconds with the
//     node busy, so the limit ends a runaway loop in about a second, before
//     the time limit, which then stays for what steps do not count; a
//     2,000-page invoice of 20 rows a page takes about 1,000,000 (26 a row);
//   - 64 MB of markup: about 32 KB a page for the 2,000 pages a document
//     may have, far beyond any real document, and what a print engine can
//     still read.
func DefaultFillLimits() FillLimits {
	return FillLimits{Time: 5 * time.Second, Steps: 2_000_000, Bytes: 64 << 20}
}

// orDefault fills l's zero fields from DefaultFillLimits.
func (l FillLimits) orDefault() FillLimits {
	d := DefaultFillLimits()
	if l.Time <= 0 {
		l.Time = d.Time
	}
	if l.Steps <= 0 {
		l.Steps = d.Steps
	}
	if l.Bytes <= 0 {
		l.Bytes = d.Bytes
	}
	return l
}

// Validate checks the settings: none may be negative (zero is the default).
func (l FillLimits) Validate() error {
	if l.Time < 0 || l.Steps < 0 || l.Bytes < 0 {
		return fmt.Errorf("the fill limits must not be negative (zero is the default)")
	}
	return nil
}

// FillHeaderFooter fills the manifest's header and footer with the same data
// as the page, wrapped in a base style: the chromium engine prints them in a
// context of their own, without the page's styles.
func FillHeaderFooter(c *Checked, data map[string]any, opt FillOptions) (header, footer string, err error) {
	ctx := headerFooterContext(c, data)
	out := [2]string{}
	for i, src := range []string{c.Manifest.Header, c.Manifest.Footer} {
		if src == "" {
			continue
		}
		tpl, err := handlebars.Parse(src, env{assets: c.Assets, locale: c.Manifest.Locale, currency: c.Manifest.Currency}.helpers())
		if err != nil {
			return "", "", fmt.Errorf("%w: %w", ErrFill, err)
		}
		filled, err := execBudget(tpl, ctx, opt)
		if err != nil {
			return "", "", err
		}
		out[i] = headerFooterStyle + `<div class="platen-hf">` + filled + `</div>`
	}
	return out[0], out[1], nil
}

// headerFooterContext is what a header or footer is filled with: the data,
// the content, and the page number and count, which Chromium prints.
func headerFooterContext(c *Checked, data map[string]any) map[string]any {
	ctx := make(map[string]any, len(data)+3)
	for k, v := range data {
		ctx[k] = v
	}
	ctx["content"] = c.Content
	ctx["pageNumber"] = handlebars.SafeString(`<span class="pageNumber"></span>`)
	ctx["totalPages"] = handlebars.SafeString(`<span class="totalPages"></span>`)
	return ctx
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
	return execBudget(tpl, fillContext(c, data), opt)
}

// fillContext is what the markup is filled with: the data, the version's
// content and, when the manifest declares pagination, the pages array.
func fillContext(c *Checked, data map[string]any) map[string]any {
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
	return ctx
}

// execBudget fills a parsed template on the caller's goroutine within the
// fill's limits. A limit passed (ErrFillBudget), a helper's failure or its
// panic end the fill there and are ErrFill, with words that say which limit
// or helper and where.
func execBudget(tpl *handlebars.Template, ctx map[string]any, opt FillOptions) (string, error) {
	now := opt.Now
	if now.IsZero() {
		now = time.Now().UTC()
	}
	lim := opt.Limits.orDefault()
	out, err := tpl.Exec(ctx, handlebars.Run{
		Data:   map[string]any{"now": now},
		Limits: handlebars.Limits{Steps: lim.Steps, Bytes: lim.Bytes, Time: lim.Time},
		Spent:  opt.spent,
	})
	if errors.Is(err, handlebars.ErrLimit) {
		// The refused fill's output may have grown to the byte budget.
		memory.Release()
		return "", fmt.Errorf("%w: %w; repeat less (loops inside loops multiply) or send less data", ErrFillBudget, err)
	}
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrFill, err)
	}
	return out, nil
}

// compiled returns the parsed template with its helpers: the one Check
// compiled, else from the cache when the version has a key, else parsed
// afresh.
func compiled(c *Checked, opt FillOptions) (*handlebars.Template, error) {
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
		return nil, fmt.Errorf("%w: %w", ErrFill, err)
	}
	if opt.CacheKey != "" {
		cache.put(opt.CacheKey, tpl)
	}
	return tpl, nil
}

// parse compiles a version's markup and registers the helpers its manifest
// and assets give it. A compiled template is safe to execute concurrently.
func parse(c *Checked) (*handlebars.Template, error) {
	e := env{assets: c.Assets, locale: c.Manifest.Locale, currency: c.Manifest.Currency}
	return handlebars.Parse(c.HTML, e.helpers())
}

// templateCache holds parsed templates of immutable versions. It is bounded:
// when full it is emptied, which costs one parse per version afterwards.
type templateCache struct {
	mu sync.Mutex // guards m
	m  map[string]*handlebars.Template
}

const templateCacheSize = 512

var cache = &templateCache{m: map[string]*handlebars.Template{}}

func (t *templateCache) get(k string) (*handlebars.Template, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	tpl, ok := t.m[k]
	return tpl, ok
}

func (t *templateCache) put(k string, tpl *handlebars.Template) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.m) >= templateCacheSize {
		t.m = map[string]*handlebars.Template{}
	}
	t.m[k] = tpl
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }
