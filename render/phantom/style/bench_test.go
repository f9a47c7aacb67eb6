package style

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func loadInvoice(tb testing.TB) *html.Node {
	tb.Helper()
	b, err := os.ReadFile("testdata/invoice.html")
	if err != nil {
		tb.Fatal(err)
	}
	doc, err := html.Parse(strings.NewReader(string(b)))
	if err != nil {
		tb.Fatal(err)
	}
	return doc
}

// BenchmarkComputeInvoice styles a one-page invoice: about 200 elements
// and 60 author rules, the sheets cached as they are between documents of
// one template.
func BenchmarkComputeInvoice(b *testing.B) {
	doc := loadInvoice(b)
	opt := Options{PageWidth: 793.7, PageHeight: 1122.5}
	if _, err := Compute(doc, opt); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Compute(doc, opt); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseInvoiceSheet parses the invoice's style sheet, as the
// first document of a template does.
func BenchmarkParseInvoiceSheet(b *testing.B) {
	doc := loadInvoice(b)
	var text string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "style" && n.FirstChild != nil && len(n.FirstChild.Data) > len(text) {
			text = n.FirstChild.Data
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		parseSheet(text)
	}
}

// BenchmarkComputeLongInvoice styles the invoice with five times the rows
// (about 850 elements, three pages).
func BenchmarkComputeLongInvoice(b *testing.B) {
	raw, err := os.ReadFile("testdata/invoice.html")
	if err != nil {
		b.Fatal(err)
	}
	s := string(raw)
	i, j := strings.Index(s, "<tbody>")+len("<tbody>"), strings.Index(s, "</tbody>")
	s = s[:i] + strings.Repeat(s[i:j], 5) + s[j:]
	doc, err := html.Parse(strings.NewReader(s))
	if err != nil {
		b.Fatal(err)
	}
	opt := Options{PageWidth: 793.7, PageHeight: 1122.5}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Compute(doc, opt); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkComputeNoSharing is BenchmarkComputeInvoice with a style
// attribute on every cell, which defeats style sharing: the cost of the
// full cascade per element.
func BenchmarkComputeNoSharing(b *testing.B) {
	raw, err := os.ReadFile("testdata/invoice.html")
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	s := regexpTD.ReplaceAllStringFunc(string(raw), func(m string) string {
		n++
		return m[:3] + ` style="--n: ` + strconv.Itoa(n) + `"` + m[3:]
	})
	doc, err := html.Parse(strings.NewReader(s))
	if err != nil {
		b.Fatal(err)
	}
	opt := Options{PageWidth: 793.7, PageHeight: 1122.5}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Compute(doc, opt); err != nil {
			b.Fatal(err)
		}
	}
}

var regexpTD = regexp.MustCompile(`<td[ >]`)
