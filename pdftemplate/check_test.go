package pdftemplate

import (
	"bytes"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/requests"
	"github.com/tetratelabs/wazero/api"

	"github.com/platen/platen/internal/pdfbomb"
)

// TestCheckRefusesTheBombs sends each hostile upload of issue 24 through
// Analyze and asserts its refusal's kind and words. Each is refused by
// the check, in Go, before PDFium or pdfcpu see it: the flate bomb after
// inflating no more than the limit (counted, not timed), the nesting
// bombs at the limit's depth.
func TestCheckRefusesTheBombs(t *testing.T) {
	e := testEngine(t)
	cfg := DefaultConfig()
	cases := []struct {
		name  string
		pdf   []byte
		words string
	}{
		{"a content stream of 1 GiB in 1 MB", pdfbomb.FlateContent(1 << 30), "the PDF is too complex to read: its pages' content is more than 32 MB"},
		{"an image of 1 GiB in 1 MB", pdfbomb.FlateImage(1 << 30), "the PDF is too complex to read: its compressed streams expand to more than 256 MB"},
		{"dictionaries nested 1,000,000 deep", pdfbomb.NestedDicts(1_000_000), "the PDF is too complex to read: the PDF's objects are nested more than 100 deep"},
		{"arrays nested 1,000,000 deep", pdfbomb.NestedArrays(1_000_000), "the PDF is too complex to read: the PDF's objects are nested more than 100 deep"},
		{"150,000 objects", pdfbomb.ManyObjects(150_000), "the PDF is too complex to read: it has more than 100,000 objects"},
		{"an object stream of 1,000,000 objects", pdfbomb.ObjectStream(1_000_000), "the PDF is too complex to read: it has more than 100,000 objects"},
		{"a nesting bomb inside an object stream", pdfbomb.NestedInObjectStream(100_000), "the PDF is too complex to read: the PDF's objects are nested more than 100 deep"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var used []api.Module
			var mu sync.Mutex
			e.used = func(m api.Module) { mu.Lock(); used = append(used, m); mu.Unlock() }
			defer func() { e.used = nil }()
			_, err := e.Analyze(c.pdf, DefaultLimits)
			if !errors.Is(err, ErrTooComplex) || err.Error() != c.words {
				t.Fatalf("%v, want %q", err, c.words)
			}
			if len(used) != 0 {
				t.Fatalf("PDFium ran %d times: the check should refuse before it", len(used))
			}
			got, _ := check(c.pdf, cfg)
			// The inflating stops at the limit: it reads at most one
			// buffer's worth past it.
			if got.inflated > cfg.MaxInflatedBytes+64<<10 || got.content > cfg.MaxContentBytes+64<<10 {
				t.Fatalf("inflated %d bytes (%d of content), past the limits", got.inflated, got.content)
			}
			if got.depth > cfg.MaxDepth {
				t.Fatalf("scanned to depth %d past the limit %d", got.depth, cfg.MaxDepth)
			}
		})
	}
	// A fill of such a template is refused alike: it reads the stored
	// upload again.
	if _, _, err := e.Fill(pdfbomb.NestedDicts(1_000_000), []Fill{{PieceID: "p1-1", Text: "x"}}, DefaultLimits); !errors.Is(err, ErrTooComplex) {
		t.Fatalf("fill of a nesting bomb: %v", err)
	}
}

// TestCheckPassesOrdinaryPDFs: every PDF of the corpus and the tests'
// own pass the check with room to spare (what the defaults are chosen
// by), and a bomb just under the limits passes it too.
func TestCheckPassesOrdinaryPDFs(t *testing.T) {
	cfg := DefaultConfig()
	var maxDepth, maxObjects int
	var maxInflated, maxContent int64
	for _, c := range corpus {
		got, err := check(readFixture(t, c.file), cfg)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if got.objects == 0 || got.inflated == 0 || got.depth < 2 {
			t.Fatalf("%s: counted %+v: the check read nothing", c.file, got)
		}
		maxDepth, maxObjects = max(maxDepth, got.depth), max(maxObjects, got.objects)
		maxInflated, maxContent = max(maxInflated, got.inflated), max(maxContent, got.content)
	}
	t.Logf("the corpus: at most %d deep, %d objects, %d bytes inflated, %d of content", maxDepth, maxObjects, maxInflated, maxContent)
	if maxDepth*10 > cfg.MaxDepth || maxObjects*100 > cfg.MaxObjects || maxInflated*100 > cfg.MaxInflatedBytes || maxContent*10 > cfg.MaxContentBytes {
		t.Fatalf("the corpus comes within a factor of 10 of a limit: %+v", cfg)
	}
	for name, pdf := range map[string][]byte{
		"100 dictionaries deep":   pdfbomb.NestedDicts(99),
		"100 arrays deep":         pdfbomb.NestedArrays(99),
		"99,000 objects":          pdfbomb.ManyObjects(99_000),
		"31 MiB of content":       pdfbomb.FlateContent(31 << 20),
		"255 MiB of image":        pdfbomb.FlateImage(255 << 20),
		"an object stream of 500": pdfbomb.ObjectStream(500),
	} {
		if _, err := check(pdf, cfg); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestCheckTokenizer: what the tokenizer must skip (strings, comments,
// stream bodies, hex strings) does not count towards nesting, and what
// it must see (nesting after them) does.
func TestCheckTokenizer(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxDepth = 3
	deep := "[[[[1]]]]"
	binary := bytes.Repeat([]byte("[[[[<<<<"), 100)
	cases := []struct {
		name string
		pdf  []byte
		ok   bool
	}{
		{"brackets in a string", []byte("1 0 obj (a [[[[ \\) (((b))) ) endobj"), true},
		{"brackets in a comment", []byte("% [[[[[[\n1 0 obj [1] endobj"), true},
		{"brackets in a hex string", []byte("1 0 obj <5b5b [[[[ > endobj"), true},
		{"brackets in an image's body", pdfbomb.OnePage("", "/Subtype /Image", binary), true},
		{"an image whose length is wrong", append([]byte("1 0 obj <</Subtype /Image /Length 3>> stream\n"), append(binary, "\nendstream endobj"...)...), true},
		{"nesting after a string", []byte("1 0 obj (a)" + deep + " endobj"), false},
		{"nesting after a comment", []byte("%c\n" + deep), false},
		{"nesting after a stream", append(pdfbomb.OnePage("", "/Subtype /Image", binary), deep...), false},
		{"nesting in a content stream", pdfbomb.OnePage("", "", []byte("BT "+deep+" TJ ET")), false},
		{"nesting in a Flate content stream", pdfbomb.OnePage("", "/Filter /FlateDecode", pdfbomb.Zlib([]byte("BT "+deep+" TJ ET"))), false},
		{"nesting in an ASCIIHex Flate stream", pdfbomb.OnePage("", "/Filter [/ASCIIHexDecode /FlateDecode]", []byte(pdfbomb.Hex(pdfbomb.Zlib([]byte(deep)))+">")), false},
		{"nesting in a font program is binary, not syntax", pdfbomb.OnePage("", "/Length1 9 /Filter /FlateDecode", pdfbomb.Zlib([]byte(deep))), true},
	}
	for _, c := range cases {
		_, err := check(c.pdf, cfg)
		if c.ok != (err == nil) {
			t.Errorf("%s: %v", c.name, err)
		}
		if err != nil && !errors.Is(err, ErrTooComplex) {
			t.Errorf("%s: %v, want ErrTooComplex", c.name, err)
		}
	}
}

// FuzzCheck feeds arbitrary bytes to the check: it may refuse, never
// panic, and never count past its limits.
func FuzzCheck(f *testing.F) {
	f.Add(pdfbomb.OnePage("/A [[1]]", "/Filter /FlateDecode", pdfbomb.Zlib(pdfbomb.PlainPage)))
	f.Add([]byte("1 0 obj <</Length 5 0 R /Type /ObjStm /N 3>> stream\n((<<\nendstream"))
	f.Add([]byte("<</Filter [/AHx /A85] /Length 9>>stream\r\n414243~>>endstream"))
	cfg := DefaultConfig()
	cfg.MaxDepth, cfg.MaxObjects, cfg.MaxInflatedBytes = 10, 100, 1<<20
	f.Fuzz(func(t *testing.T, pdf []byte) {
		got, err := check(pdf, cfg)
		if err != nil && !errors.Is(err, ErrTooComplex) {
			t.Fatalf("%v", err)
		}
		if got.depth > cfg.MaxDepth || got.inflated > cfg.MaxInflatedBytes+64<<10 {
			t.Fatalf("counted %+v past the limits", got)
		}
	})
}

// TestPDFiumIsBoundedAndFresh: what passes the check still runs in
// PDFium under a time and a memory limit, and on an instance of its own.
// When the time runs out the instance's module is closed and PDFium's
// next call fails; with the check's limits raised past a Flate bomb,
// PDFium stops at its memory limit. Each refusal is ErrTooComplex in
// words; the instance it ran on is closed, not pooled; and the next
// upload analyses on a new one.
func TestPDFiumIsBoundedAndFresh(t *testing.T) {
	// Two engines, one compiled module (the cache): one with a short
	// time, one with little memory.
	cache := t.TempDir()
	var used []api.Module
	engine := func(cfg Config) *Engine {
		cfg.Instances, cfg.CacheDir = 1, cache
		e, err := Compiled(cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		e.used = func(m api.Module) { used = append(used, m) }
		return e
	}
	pdf := readFixture(t, "chromium-invoice.pdf")
	afresh := func(e *Engine, what string) {
		t.Helper()
		n := len(used)
		a, err := e.Analyze(pdf, DefaultLimits)
		if err != nil || len(a.Pieces) == 0 {
			t.Fatalf("after %s: %v", what, err)
		}
		if len(used) != n+1 || used[n] == used[n-1] || !used[n].IsClosed() {
			t.Fatalf("the analysis after %s ran on the same or a pooled instance", what)
		}
	}

	e := engine(Config{Timeout: time.Second})
	calls := 0
	err := e.with(e.deadline(), func(p pdfium.Pdfium) error {
		for {
			// Open and close the invoice until PDFium refuses.
			doc, err := p.OpenDocument(&requests.OpenDocument{File: &pdf})
			if err != nil {
				return err
			}
			p.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc.Document})
			calls++
		}
	})
	if !errors.Is(err, ErrTooComplex) || err.Error() != "the PDF is too complex to read: reading it took longer than 1s" {
		t.Fatalf("%v, want a refusal for time", err)
	}
	if calls == 0 || len(used) != 1 || !used[0].IsClosed() {
		t.Fatalf("%d calls, the stopped instance closed: %v", calls, len(used) == 1 && used[0].IsClosed())
	}
	e.cfg.Timeout = time.Minute // the next analysis must not run into it on a busy machine
	afresh(e, "a refusal for time")

	// The check's own inflating counts in the time: under -race it is
	// slow, so the limit is generous and the bomb smaller (128 MiB still
	// runs PDFium out of 64).
	e = engine(Config{Timeout: 10 * time.Minute, MaxInflatedBytes: 256 << 20, MaxContentBytes: 256 << 20, MemoryLimitBytes: 64 << 20})
	_, err = e.Analyze(pdfbomb.FlateContent(128<<20), DefaultLimits)
	if !errors.Is(err, ErrTooComplex) || err.Error() != "the PDF is too complex to read: reading it needs more than 64 MB of memory" {
		t.Fatalf("%v, want a refusal for memory", err)
	}
	if size := used[2].Memory().Size(); size > 64<<20 || !used[2].IsClosed() {
		t.Fatalf("PDFium grew to %d bytes, closed %v", size, used[2].IsClosed())
	}
	afresh(e, "a refusal for memory")
}
