// Package hostile makes the templates a key holder can send to spend a
// node's CPU and memory: markup that repeats without end, documents that
// would print for ever, pages of absurd sizes (the uploads that do the same
// are internal/pdfbomb's). The tests of every limit that stops them
// (docs/operator.md) send these, and only tests import this package.
package hostile

// TripleLoop is markup that repeats its innermost block len(items)³ times:
// with text, every repeat writes it; without, it only iterates.
func TripleLoop(withText bool) string {
	inner := ""
	if withText {
		inner = "<span>{{this}} and more text that fills the output</span>"
	}
	return "<html><body>{{#each items}}{{#each @root.items}}{{#each @root.items}}" + inner + "{{/each}}{{/each}}{{/each}}</body></html>"
}

// Items is n small numbers, the data a loop runs over.
func Items(n int) []any {
	items := make([]any, n)
	for i := range items {
		items[i] = i
	}
	return items
}

// HugeBox is markup with one box px pixels tall.
func HugeBox(px string) string {
	return `<html><body><div style="width:100px;height:` + px + `px;background:#def">tall</div></body></html>`
}

// ManyPages is markup that prints one page for each of its data's items
// (page-break-after on each), for {"items": Items(n)}.
func ManyPages() string {
	return `<html><body>{{#each items}}<div style="page-break-after:always">Page {{this}}</div>{{/each}}</body></html>`
}

// PageSize is markup whose CSS sets the printed page's size.
func PageSize(size string) string {
	return `<html><head><style>@page { size: ` + size + ` }</style></head><body><p>Hello</p></body></html>`
}
