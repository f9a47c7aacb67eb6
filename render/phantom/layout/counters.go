package layout

import (
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/platen/platen/render/phantom/style"
)

// counterScopes holds the CSS counters in scope while the box tree is built
// in document order (CSS Lists 3 §4). A counter-reset on an element makes
// an instance visible to the element, its descendants and its following
// siblings: it lives in the frame of the element's parent.
type counterScopes struct {
	frames [][]counterInst
}

type counterInst struct {
	name  string
	value int
	// step is the list-item increment of a reversed list (-1), else 1.
	step int
}

func (c *counterScopes) push() { c.frames = append(c.frames, nil) }

func (c *counterScopes) pop() {
	if n := len(c.frames); n > 0 {
		c.frames[n-1] = nil
		c.frames = c.frames[:n-1]
	}
}

// find returns the innermost instance of name, nil when none is in scope.
func (c *counterScopes) find(name string) *counterInst {
	for i := len(c.frames) - 1; i >= 0; i-- {
		f := c.frames[i]
		for j := len(f) - 1; j >= 0; j-- {
			if f[j].name == name {
				return &f[j]
			}
		}
	}
	return nil
}

// reset makes a new instance in the current (innermost) frame; the frame is
// the one of the element's parent, so the instance reaches the siblings.
func (c *counterScopes) reset(name string, v, step int) {
	if len(c.frames) == 0 {
		c.push()
	}
	f := &c.frames[len(c.frames)-1]
	for i := range *f {
		if (*f)[i].name == name {
			(*f)[i].value, (*f)[i].step = v, step
			return
		}
	}
	*f = append(*f, counterInst{name: name, value: v, step: step})
}

// instance returns the counter name, making one at the outermost frame when
// none is in scope (an increment or set without a reset, CSS Lists 3 §4.4).
func (c *counterScopes) instance(name string) *counterInst {
	if in := c.find(name); in != nil {
		return in
	}
	c.reset(name, 0, 1)
	return c.find(name)
}

func (c *counterScopes) value(name string) int {
	if in := c.find(name); in != nil {
		return in.value
	}
	return 0
}

// values returns every instance of name in scope, outermost first, for
// counters().
func (c *counterScopes) values(name string) []int {
	var out []int
	for _, f := range c.frames {
		for _, in := range f {
			if in.name == name {
				out = append(out, in.value)
			}
		}
	}
	return out
}

func mentions(cs []style.Counter, name string) bool {
	for _, c := range cs {
		if c.Name == name {
			return true
		}
	}
	return false
}

// applyCounters runs an element's counter-reset, counter-set and
// counter-increment, and a list item's implicit list-item increment (or
// its value attribute).
func (b *builder) applyCounters(n *html.Node, s *style.Computed, box *Box) {
	for _, c := range s.CounterReset {
		b.counters.reset(c.Name, c.Value, 1)
	}
	listItem := s.Display == style.DisplayListItem && s.Display != style.DisplayNone
	if listItem && !mentions(s.CounterIncrement, "list-item") && !mentions(s.CounterSet, "list-item") {
		in := b.counters.instance("list-item")
		if n != nil && n.DataAtom == atom.Li {
			if v, ok := parseHTMLInt(attr(n, "value")); ok && hasAttr(n, "value") {
				in.value = v
			} else {
				in.value += in.step
			}
		} else {
			in.value += in.step
		}
	}
	for _, c := range s.CounterIncrement {
		in := b.counters.instance(c.Name)
		in.value += c.Value
	}
	for _, c := range s.CounterSet {
		b.counters.instance(c.Name).value = c.Value
	}
}

// resetListCounter starts an <ol>'s or <ul>'s list-item counter: start-1,
// or for a reversed list start+1 counting down, where start defaults to the
// number of items (HTML §4.4.5).
func (b *builder) resetListCounter(n *html.Node) {
	reversed := n.DataAtom == atom.Ol && hasAttr(n, "reversed")
	start, hasStart := 1, false
	if n.DataAtom == atom.Ol {
		if v, ok := parseHTMLInt(attr(n, "start")); ok {
			start, hasStart = v, true
		}
	}
	if !reversed {
		b.counters.reset("list-item", start-1, 1)
		return
	}
	if !hasStart {
		start = 0
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.DataAtom == atom.Li {
				start++
			}
		}
	}
	b.counters.reset("list-item", start+1, -1)
}

// counterStyleKind is a list-style-type Chromium formats.
type counterStyleKind uint8

const (
	csDecimal counterStyleKind = iota
	csDisc
	csCircle
	csSquare
	csDecimalLeadingZero
	csLowerAlpha
	csUpperAlpha
	csLowerRoman
	csUpperRoman
	csLowerGreek
	csNone
	csDisclosureOpen
	csDisclosureClosed
)

func counterStyle(name string) counterStyleKind {
	switch strings.ToLower(name) {
	case "", "decimal":
		return csDecimal
	case "disc":
		return csDisc
	case "circle":
		return csCircle
	case "square":
		return csSquare
	case "decimal-leading-zero":
		return csDecimalLeadingZero
	case "lower-alpha", "lower-latin":
		return csLowerAlpha
	case "upper-alpha", "upper-latin":
		return csUpperAlpha
	case "lower-roman":
		return csLowerRoman
	case "upper-roman":
		return csUpperRoman
	case "lower-greek":
		return csLowerGreek
	case "none":
		return csNone
	case "disclosure-open":
		return csDisclosureOpen
	case "disclosure-closed":
		return csDisclosureClosed
	}
	return csDecimal
}

// formatCounter is a counter's representation in a counter style (CSS
// Counter Styles 3 §6), without prefix or suffix.
func formatCounter(v int, cs counterStyleKind) string {
	switch cs {
	case csNone:
		return ""
	case csDisc:
		return "\u2022"
	case csCircle:
		return "\u25e6"
	case csSquare:
		return "\u25aa"
	case csDisclosureOpen:
		return "\u25be"
	case csDisclosureClosed:
		return "\u25b8"
	case csDecimalLeadingZero:
		if v >= 0 && v < 10 {
			return "0" + strconv.Itoa(v)
		}
		if v < 0 && v > -10 {
			return "-0" + strconv.Itoa(-v)
		}
		return strconv.Itoa(v)
	case csLowerAlpha, csUpperAlpha:
		if v < 1 {
			return strconv.Itoa(v)
		}
		s := alphabetic(v, "abcdefghijklmnopqrstuvwxyz")
		if cs == csUpperAlpha {
			s = strings.ToUpper(s)
		}
		return s
	case csLowerGreek:
		if v < 1 {
			return strconv.Itoa(v)
		}
		return alphabetic(v, "αβγδεζηθικλμνξοπρστυφχψω")
	case csLowerRoman, csUpperRoman:
		if v < 1 || v > 3999 {
			return strconv.Itoa(v)
		}
		s := roman(v)
		if cs == csLowerRoman {
			s = strings.ToLower(s)
		}
		return s
	}
	return strconv.Itoa(v)
}

// alphabetic is the alphabetic counter system: a, b, ..., z, aa, ab, ...
func alphabetic(v int, letters string) string {
	rs := []rune(letters)
	n := len(rs)
	var out []rune
	for v > 0 {
		v--
		out = append(out, rs[v%n])
		v /= n
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return string(out)
}

func roman(v int) string {
	vals := []int{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}
	syms := []string{"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"}
	var sb strings.Builder
	for i, x := range vals {
		for v >= x {
			sb.WriteString(syms[i])
			v -= x
		}
	}
	return sb.String()
}

// markerText is a list marker's text for list-style-type t and the item's
// ordinal: the symbol and a space for disc, circle and square, the number
// and ". " for numeric styles, the string itself for a string value.
func markerText(t string, ordinal int) string {
	if len(t) >= 2 && (t[0] == '"' || t[0] == '\'') && t[len(t)-1] == t[0] {
		return t[1 : len(t)-1]
	}
	cs := counterStyle(t)
	switch cs {
	case csNone:
		return ""
	case csDisc, csCircle, csSquare, csDisclosureOpen, csDisclosureClosed:
		return formatCounter(ordinal, cs) + " "
	}
	return formatCounter(ordinal, cs) + ". "
}
