package fonts

import (
	"strconv"
	"sync"
	"testing"

	"github.com/platen/platen/render/phantom/style"
)

const sentence = "The quick brown fox jumps over the lazy dog, twice."

func benchLibrary(b *testing.B) *Library {
	b.Helper()
	l, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	return l
}

// BenchmarkScan is the first use of the fonts in a process: the scan of
// the machine's fonts and fontconfig's configuration.
func BenchmarkScan(b *testing.B) {
	cfg := loadFcConfig("/etc/fonts")
	for i := 0; i < b.N; i++ {
		if _, err := newLibrary(cfg.dirs, loadFcConfig("/etc/fonts")); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkShapeCold shapes a ten-word sentence the cache has not seen.
func BenchmarkShapeCold(b *testing.B) {
	sh := benchLibrary(b).NewShaper()
	q := Query{Families: []string{"Arial", "sans-serif"}, Weight: 400}
	texts := make([]string, 1024)
	for i := range texts {
		texts[i] = sentence + strconv.Itoa(i)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%len(texts) == 0 {
			clear(sh.cache)
		}
		sh.Shape(q, 16, texts[i%len(texts)], ShapeOptions{})
	}
}

// BenchmarkShapeCached shapes a sentence the cache has.
func BenchmarkShapeCached(b *testing.B) {
	sh := benchLibrary(b).NewShaper()
	q := Query{Families: []string{"Arial", "sans-serif"}, Weight: 400}
	sh.Shape(q, 16, sentence, ShapeOptions{})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sh.Shape(q, 16, sentence, ShapeOptions{})
	}
}

// BenchmarkShapeWord shapes the words of a sentence one by one, as layout
// does, from the cache.
func BenchmarkShapeWordCached(b *testing.B) {
	sh := benchLibrary(b).NewShaper()
	q := Query{Families: []string{"Arial", "sans-serif"}, Weight: 400}
	words := []string{"The", " ", "quick", " ", "brown", " ", "fox"}
	for _, w := range words {
		sh.Shape(q, 16, w, ShapeOptions{})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sh.Shape(q, 16, words[i%len(words)], ShapeOptions{})
	}
}

func BenchmarkMetrics(b *testing.B) {
	sh := benchLibrary(b).NewShaper()
	q := Query{Families: []string{"Times New Roman"}, Weight: 700, Style: style.FontItalic}
	sh.Metrics(q, 13.33)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sh.Metrics(q, 13.33)
	}
}

func BenchmarkResolve(b *testing.B) {
	l := benchLibrary(b)
	q := Query{Families: []string{"Helvetica Neue", "Helvetica", "Arial", "sans-serif"}, Weight: 700}
	l.Resolve(q)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l.Resolve(q)
	}
}

// BenchmarkResolveUncached resolves a family list fontconfig-style, with
// the library's caches emptied each time.
func BenchmarkResolveUncached(b *testing.B) {
	l := benchLibrary(b)
	q := Query{Families: []string{"Helvetica Neue", "Helvetica", "Arial", "sans-serif"}, Weight: 700}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l.mu.Lock()
		clear(l.resolved)
		clear(l.families)
		l.mu.Unlock()
		l.Resolve(q)
	}
}

// TestConcurrentShapers shapes from several goroutines with their own
// shapers over the one library (run with -race).
func TestConcurrentShapers(t *testing.T) {
	l, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	widths := make([]float64, 4)
	for g := range widths {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sh := l.NewShaper()
			for _, fam := range []string{"Arial", "serif", "monospace", "DejaVu Sans", "Nope"} {
				q := Query{Families: []string{fam}, Weight: 400 + 100*g}
				for _, r := range sh.Shape(q, 12, "Grüße ✓ שלום "+fam, ShapeOptions{}) {
					widths[g] += r.Width
				}
				sh.Metrics(q, 12)
			}
		}()
	}
	wg.Wait()
	for g, w := range widths {
		if w <= 0 {
			t.Errorf("goroutine %d shaped nothing", g)
		}
	}
}

// BenchmarkConfig reads fontconfig's configuration.
func BenchmarkConfig(b *testing.B) {
	for i := 0; i < b.N; i++ {
		loadFcConfig("/etc/fonts")
	}
}
