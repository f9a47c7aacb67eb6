package render

import (
	"fmt"
	"regexp"
	"strings"
)

// Document wraps filled markup into the HTML an engine prints: the sheet
// rules of the page size go first in <head>, so a template's own styles can
// override them. overlay, when not empty, is HTML printed on every page
// (position: fixed repeats on each printed page).
func Document(filled string, g Geometry, overlay string) string {
	style := sheetCSS(g)
	var b strings.Builder
	b.Grow(len(filled) + len(style) + len(overlay) + 128)
	switch loc := headOpenRE.FindStringIndex(filled); {
	case loc != nil:
		b.WriteString(filled[:loc[1]])
		b.WriteString(style)
		b.WriteString(filled[loc[1]:])
	default:
		if loc := htmlOpenRE.FindStringIndex(filled); loc != nil {
			b.WriteString(filled[:loc[1]])
			b.WriteString("<head>" + style + "</head>")
			b.WriteString(filled[loc[1]:])
		} else {
			b.WriteString("<!DOCTYPE html><html><head><meta charset=\"utf-8\">" + style + "</head><body>")
			b.WriteString(filled)
			b.WriteString("</body></html>")
		}
	}
	out := b.String()
	if overlay != "" {
		if i := lastIndexFold(out, "</body>"); i >= 0 {
			out = out[:i] + overlay + out[i:]
		} else {
			out += overlay
		}
	}
	return out
}

var (
	headOpenRE = regexp.MustCompile(`(?i)<head(\s[^>]*)?>`)
	htmlOpenRE = regexp.MustCompile(`(?i)<html(\s[^>]*)?>`)
)

func lastIndexFold(s, sub string) int { return strings.LastIndex(strings.ToLower(s), sub) }

// sheetCSS is the base style of every document (spec "Sheets"): the printed
// page size and margins, and .sheet as exactly one page with overflow hidden.
// Each sheet breaks before itself rather than after, so nothing that follows
// the last sheet can make a blank page; a break before the first content of a
// document makes no page. Empty elements after a sheet are hidden: all they
// could add is a blank page.
func sheetCSS(g Geometry) string {
	return fmt.Sprintf(`<style data-platen="sheets">
@page { size: %.2fmm %.2fmm; margin: %s; }
html, body { margin: 0; padding: 0; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
.sheet { width: %.2fmm; height: %.2fmm; overflow: hidden; position: relative; box-sizing: border-box; break-before: page; page-break-before: always; }
.sheet ~ :empty:not(.sheet) { display: none; }
</style>`, g.WidthMM, g.HeightMM, g.MarginCSS, g.SheetWidthMM(), g.SheetHeightMM())
}
