package layout

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkLayoutInvoice lays out the corpus's one-page invoice with warm
// fonts, styles and shaping caches: the layout's own cost per document.
func BenchmarkLayoutInvoice(b *testing.B) {
	benchLayout(b, "business-invoice.html")
}

// BenchmarkLayoutLetter is the same for the one-page letter.
func BenchmarkLayoutLetter(b *testing.B) {
	benchLayout(b, "business-letter.html")
}

// BenchmarkLayoutStatement is the same for the three-page statement.
func BenchmarkLayoutStatement(b *testing.B) {
	benchLayout(b, "business-statement.html")
}

func benchLayout(b *testing.B, name string) {
	raw, err := os.ReadFile(filepath.Join("..", "corpus", "testdata", name))
	if err != nil {
		b.Skip("corpus document missing:", err)
	}
	g := ltGeometry("")
	doc, st, _, _ := ltLayoutDoc(b, string(raw), g, Options{})
	sh := ltShaper(b)
	if _, err := Layout(context.Background(), doc, st, sh, Options{}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Layout(context.Background(), doc, st, sh, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
