package images

import (
	"strings"
)

// cssRule is one selector of a <style> rule with its declarations.
type cssRule struct {
	sel   []compound // right to left: sel[0] is the subject
	comb  []byte     // comb[i] joins sel[i] to sel[i+1]: ' ' descendant, '>' child
	spec  int        // specificity: ids<<16 | classes<<8 | types
	order int
	decls []cssDecl
}

type compound struct {
	tag     string // "" or "*" for any
	id      string
	classes []string
}

type cssDecl struct {
	prop, value string
	important   bool
}

// parseCSS reads the rules of an SVG's <style> elements: compound selectors
// of type, class and id joined by descendant or child combinators, which is
// what SVG editors write (Illustrator's ".st0{fill:#E30613;}"). A selector
// phantom does not match (attributes, pseudo-classes, siblings) is reported
// in unsupported and its rule skipped; at-rules are skipped.
func parseCSS(src string, order *int) (rules []cssRule, unsupported bool) {
	src = stripCSSComments(src)
	for len(src) > 0 {
		src = strings.TrimLeft(src, " \t\r\n\f")
		if src == "" {
			break
		}
		if src[0] == '@' {
			// Skip the at-rule: to ';' or its balanced block.
			semi := strings.IndexByte(src, ';')
			brace := strings.IndexByte(src, '{')
			if brace < 0 || (semi >= 0 && semi < brace) {
				if semi < 0 {
					break
				}
				src = src[semi+1:]
				continue
			}
			src = skipBlock(src, brace)
			continue
		}
		brace := strings.IndexByte(src, '{')
		if brace < 0 {
			break
		}
		end := strings.IndexByte(src[brace:], '}')
		if end < 0 {
			end = len(src) - brace
		}
		prelude := src[:brace]
		body := src[brace+1 : brace+end]
		if brace+end+1 <= len(src) {
			src = src[brace+end+1:]
		} else {
			src = ""
		}
		decls := parseDecls(body)
		for _, sel := range strings.Split(prelude, ",") {
			r, ok := parseSelector(strings.TrimSpace(sel))
			if !ok {
				unsupported = true
				continue
			}
			r.order = *order
			*order++
			r.decls = decls
			rules = append(rules, r)
		}
	}
	return rules, unsupported
}

func stripCSSComments(s string) string {
	if !strings.Contains(s, "/*") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "/*")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		j := strings.Index(s[i+2:], "*/")
		if j < 0 {
			return b.String()
		}
		s = s[i+2+j+2:]
	}
}

// skipBlock returns src after the block whose '{' is at open.
func skipBlock(src string, open int) string {
	depth := 0
	for i := open; i < len(src); i++ {
		switch src[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return src[i+1:]
			}
		}
	}
	return ""
}

// parseDecls reads "prop: value; ..." (a rule's body or a style attribute).
func parseDecls(body string) []cssDecl {
	var out []cssDecl
	for decl := range strings.SplitSeq(body, ";") {
		prop, val, ok := strings.Cut(decl, ":")
		if !ok {
			continue
		}
		prop = strings.ToLower(strings.TrimSpace(prop))
		val = strings.TrimSpace(val)
		imp := false
		if i := strings.LastIndexByte(val, '!'); i >= 0 && strings.EqualFold(strings.TrimSpace(val[i+1:]), "important") {
			imp = true
			val = strings.TrimSpace(val[:i])
		}
		if prop == "" || val == "" {
			continue
		}
		out = append(out, cssDecl{prop: prop, value: val, important: imp})
	}
	return out
}

// parseSelector reads one complex selector; ok is false for what phantom
// does not match.
func parseSelector(s string) (cssRule, bool) {
	if s == "" || strings.ContainsAny(s, "[:+~()\\") {
		return cssRule{}, false
	}
	s = strings.ReplaceAll(s, ">", " > ")
	var sels []compound
	var combs []byte
	pending := byte(' ')
	spec := 0
	for _, f := range strings.Fields(s) {
		if f == ">" {
			if len(sels) == 0 || pending == '>' {
				return cssRule{}, false
			}
			pending = '>'
			continue
		}
		c, sp, ok := parseCompound(f)
		if !ok {
			return cssRule{}, false
		}
		spec += sp
		if len(sels) > 0 {
			combs = append(combs, pending)
		}
		sels = append(sels, c)
		pending = ' '
	}
	if len(sels) == 0 || pending == '>' {
		return cssRule{}, false
	}
	// Reverse to right-to-left.
	for i, j := 0, len(sels)-1; i < j; i, j = i+1, j-1 {
		sels[i], sels[j] = sels[j], sels[i]
	}
	for i, j := 0, len(combs)-1; i < j; i, j = i+1, j-1 {
		combs[i], combs[j] = combs[j], combs[i]
	}
	return cssRule{sel: sels, comb: combs, spec: spec}, true
}

func parseCompound(f string) (compound, int, bool) {
	var c compound
	spec := 0
	i := 0
	for i < len(f) && f[i] != '.' && f[i] != '#' {
		i++
	}
	c.tag = f[:i]
	if c.tag != "" && c.tag != "*" {
		spec++
	}
	for i < len(f) {
		kind := f[i]
		j := i + 1
		for j < len(f) && f[j] != '.' && f[j] != '#' {
			j++
		}
		name := f[i+1 : j]
		if name == "" {
			return c, 0, false
		}
		if kind == '.' {
			c.classes = append(c.classes, name)
			spec += 1 << 8
		} else {
			if c.id != "" {
				return c, 0, false
			}
			c.id = name
			spec += 1 << 16
		}
		i = j
	}
	return c, spec, true
}

func (c *compound) matches(n *node) bool {
	if n.name == "" {
		return false
	}
	if c.tag != "" && c.tag != "*" && c.tag != n.name {
		return false
	}
	if c.id != "" && c.id != n.id {
		return false
	}
	for _, want := range c.classes {
		found := false
		for _, have := range n.classes {
			if have == want {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// matchBudget bounds the ancestor steps one selector match may take:
// backtracking over descendant combinators is exponential in the worst case.
const matchBudget = 4096

// matches reports whether the rule's selector matches n in its document
// (the tree as written, not as <use> places it, as in SVG 2).
func (r *cssRule) matches(n *node) bool {
	if !r.sel[0].matches(n) {
		return false
	}
	budget := matchBudget
	return matchFrom(r, 1, n.parent, &budget)
}

func matchFrom(r *cssRule, i int, anc *node, budget *int) bool {
	if i == len(r.sel) {
		return true
	}
	switch r.comb[i-1] {
	case '>':
		*budget--
		return *budget > 0 && anc != nil && r.sel[i].matches(anc) && matchFrom(r, i+1, anc.parent, budget)
	default:
		for a := anc; a != nil; a = a.parent {
			*budget--
			if *budget <= 0 {
				return false
			}
			if r.sel[i].matches(a) && matchFrom(r, i+1, a.parent, budget) {
				return true
			}
		}
		return false
	}
}
