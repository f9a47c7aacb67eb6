package render

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Page sizes a document may set, in millimetres a side: the manifest's
// bounds (ParseManifest), which every engine is held to. Chromium and
// phantom both honour a size in an @page rule of the document's own CSS;
// phantom printed a 0 mm page, and drew a 100 m one for seconds.
const (
	minPageMM = 20
	maxPageMM = 2000
)

// cssPageSizeNames are the size keywords of CSS Paged Media 3 §7.1.
var cssPageSizeNames = []string{"a5", "a4", "a3", "b5", "b4", "jis-b5", "jis-b4", "letter", "legal", "ledger"}

// cssLengthRE is one absolute length, or em/rem (16 px in a page context).
var cssLengthRE = regexp.MustCompile(`^([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)(mm|cm|q|in|pt|pc|px|em|rem)$`)

// mmPer is millimetres per unit.
var mmPer = map[string]float64{"mm": 1, "cm": 10, "q": 0.25, "in": 25.4, "pt": 25.4 / 72, "pc": 25.4 / 6,
	"px": 25.4 / 96, "em": 16 * 25.4 / 96, "rem": 16 * 25.4 / 96}

// checkPageRules refuses a document whose CSS gives a page a size outside
// the manifest's bounds, or one it cannot read (calc(), var()), which an
// engine might: it reads every @page rule in the markup, after CSS comments
// and escapes, so that neither hides one. The markup is the filled
// template, before any engine. The error says the rule and the bounds.
func checkPageRules(html string) error {
	if !strings.Contains(html, "@") {
		return nil
	}
	css := html
	if strings.ContainsAny(html, `\/`) {
		css = decodeCSS(html)
	}
	lower := strings.ToLower(css)
	for i := 0; ; {
		at := strings.Index(lower[i:], "@page")
		if at < 0 {
			return nil
		}
		at += i
		i = at + len("@page")
		if i < len(lower) && isIdentByte(lower[i]) {
			continue // @pagefoo is another rule
		}
		open := strings.IndexByte(lower[i:], '{')
		if open < 0 {
			return nil
		}
		body, end := block(css, i+open)
		i = end
		for _, d := range topLevelDecls(body) {
			name, value, ok := strings.Cut(d, ":")
			if !ok || strings.TrimSpace(strings.ToLower(name)) != "size" {
				continue
			}
			if err := checkPageSize(value); err != nil {
				return fmt.Errorf("the rule @page { size: %s } %v; a page is between %dmm and %dmm on each side, as the manifest's pageSize", strings.TrimSpace(value), err, minPageMM, maxPageMM)
			}
		}
	}
}

// checkPageSize reads a size value: auto, a size name with an optional
// orientation, or one or two lengths.
func checkPageSize(value string) error {
	value = strings.TrimSpace(strings.ToLower(value))
	value = strings.TrimSpace(strings.TrimSuffix(value, "!important"))
	for _, f := range strings.Fields(value) {
		switch {
		case f == "auto" || f == "landscape" || f == "portrait":
		case containsStr(cssPageSizeNames, f):
		default:
			m := cssLengthRE.FindStringSubmatch(f)
			if m == nil {
				return fmt.Errorf("is not a size name (A4, letter…) or a length in mm, cm, in, pt or px")
			}
			v, _ := strconv.ParseFloat(m[1], 64)
			if mm := v * mmPer[m[2]]; !(mm >= minPageMM && mm <= maxPageMM) {
				return fmt.Errorf("makes a side %s (%.0fmm)", f, mm)
			}
		}
	}
	return nil
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func isIdentByte(c byte) bool {
	return c == '-' || c == '_' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 0x80
}

// block returns the text inside the braces that open at css[open], and the
// index after them (or the end of css when they do not close).
func block(css string, open int) (string, int) {
	depth := 0
	for j := open; j < len(css); j++ {
		switch css[j] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return css[open+1 : j], j + 1
			}
		}
	}
	return css[open+1:], len(css)
}

// topLevelDecls splits a rule's body into its declarations, leaving out
// nested rules (the margin boxes, @top-center { … }).
func topLevelDecls(body string) []string {
	var out []string
	depth, start := 0, 0
	for j := 0; j < len(body); j++ {
		switch body[j] {
		case '{':
			if depth == 0 {
				start = -1 // the text before a nested block is its prelude
			}
			depth++
		case '}':
			depth--
			if depth == 0 {
				start = j + 1
			}
		case ';':
			if depth == 0 {
				if start >= 0 {
					out = append(out, body[start:j])
				}
				start = j + 1
			}
		}
	}
	if start >= 0 && start < len(body) {
		out = append(out, body[start:])
	}
	return out
}

// decodeCSS drops CSS comments and decodes escapes (\73 ize is size), as
// an engine reads them before it sees a rule.
func decodeCSS(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return b.String()
			}
			i += 2 + end + 1
		case s[i] == '\\' && i+1 < len(s):
			j := i + 1
			for j < len(s) && j < i+7 && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				b.WriteByte(s[j]) // \x is x
				i = j
				continue
			}
			n, _ := strconv.ParseUint(s[i+1:j], 16, 32)
			b.WriteRune(rune(n))
			if j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n') {
				j++ // one white space ends a hex escape
			}
			i = j - 1
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
