package style

import (
	"fmt"
	"strings"
	"testing"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
)

// TestStructuralPseudoClasses: phantom's own matcher agrees with cascadia
// on the structural pseudo-classes it takes over (so that a long table's
// zebra rows cost linear time), on every row of a table with text and
// comments between rows, and refuses what it does not handle.
func TestStructuralPseudoClasses(t *testing.T) {
	sels := []string{
		"tr:nth-child(even)", "tr:nth-child(odd) td", "tr:nth-child(2n+1)", "tr:nth-child(3n)", "tr:nth-child(-n+3)",
		"tr:nth-child(n+4)", "tr:nth-child(5)", "tr:nth-child( 2n + 1 )", "tr:nth-last-child(2)", "tr:first-child",
		"tr:last-child", "td:only-child", "tbody > tr:nth-of-type(2n) > td:last-of-type", "td:first-of-type",
		"td:nth-last-of-type(1)", ".z:nth-child(odd)", "td:first-child:last-child", "table tr:nth-child(+3n-1) td.x",
	}
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><table><tbody>")
	for i := 0; i < 9; i++ {
		fmt.Fprintf(&b, "<tr class=z><td class=x>%d</td>", i)
		if i%3 == 0 {
			b.WriteString("<!-- c --><td>b</td><th>h</th>")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("<tr><td>only</td></tr></tbody></table>")
	doc, err := html.Parse(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	var els []*html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && (n.Data == "tr" || n.Data == "td" || n.Data == "th") {
			els = append(els, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	cp := &computer{}
	for _, sel := range sels {
		s := compileSimple(sel)
		if s == nil {
			t.Errorf("%s: not compiled for phantom's matcher", sel)
			continue
		}
		ref, err := cascadiaMatcher(sel)
		if err != nil {
			t.Fatal(err)
		}
		hits := 0
		for _, n := range els {
			want := ref(n)
			got := matchByHand(cp, s, n)
			if got != want {
				t.Errorf("%s on <%s> %q: phantom %v, cascadia %v", sel, n.Data, text(n), got, want)
			}
			if want {
				hits++
			}
		}
		if hits == 0 {
			t.Errorf("%s matches nothing: a test that cannot fail", sel)
		}
	}
	for _, sel := range []string{"tr:nth-child(2n of .z)", "tr:not(.z)", "a:hover", "tr:nth-child(x)", "tr + tr", "td:nth-child()"} {
		if compileSimple(sel) != nil {
			t.Errorf("%s was compiled for phantom's matcher, which does not handle it", sel)
		}
	}
	for _, tc := range []struct {
		s    string
		a, b int
	}{{"odd", 2, 1}, {"EVEN", 2, 0}, {"7", 0, 7}, {"-n+3", -1, 3}, {"n", 1, 0}, {"+4n-2", 4, -2}, {"-2n", -2, 0}} {
		if a, b, ok := parseAnB(tc.s); !ok || a != tc.a || b != tc.b {
			t.Errorf("parseAnB(%q) = %d, %d, %v", tc.s, a, b, ok)
		}
	}
}

// matchByHand matches s against n as the computer does while styling,
// with n's ancestors on the stack.
func matchByHand(cp *computer, s *simpleSel, n *html.Node) bool {
	cp.stack, cp.clsBuf, cp.classes = cp.stack[:0], cp.clsBuf[:0], cp.classes[:0]
	var anc []*html.Node
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode {
			anc = append(anc, p)
		}
	}
	for i := len(anc) - 1; i >= 0; i-- {
		cp.pushStack(anc[i])
	}
	id := ""
	for _, a := range n.Attr {
		switch a.Key {
		case "class":
			cp.classes = append(cp.classes, strings.Fields(a.Val)...)
		case "id":
			id = a.Val
		}
	}
	m, _ := cp.matchSimple(s, n, id)
	return m
}

func text(n *html.Node) string {
	if c := n.FirstChild; c != nil && c.Type == html.TextNode {
		return c.Data
	}
	return ""
}

func cascadiaMatcher(sel string) (func(*html.Node) bool, error) {
	s, err := cascadia.Parse(sel)
	if err != nil {
		return nil, err
	}
	return s.Match, nil
}
