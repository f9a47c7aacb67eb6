package pdfw

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"syscall"
	"testing"

	"github.com/platen/platen/render/phantom/draw"
)

// invoicePage lays out a page like an invoice or a statement page: a
// heading, addresses, a table of rows with rules and zebra backgrounds,
// totals and a footer; seed varies the numbers (and so the glyph order).
func invoicePage(t testing.TB, seed, rows int) *draw.Page {
	sans := loadFace(t, liberationSans, 0)
	bold := loadFace(t, liberationBold, 0)
	serif := loadFace(t, liberationSerf, 0)
	p := &draw.Page{Width: a4W, Height: a4H}
	add := func(f *testFace, size, x, y float64, s string) {
		p.Ops = append(p.Ops, f.textOp(size, x, y, s))
	}
	p.Ops = append(p.Ops, draw.Fill{Path: rect(0, 0, a4W, 90), Color: draw.Color{R: 0.12, G: 0.23, B: 0.45, A: 1}})
	t0 := bold.textOp(28, 48, 58, "INVOICE")
	t0.Color = white
	p.Ops = append(p.Ops, t0)
	add(sans, 11, 48, 120, "Platen Printing Ltd., 42 Harbour Road, Bristol BS1 4XY, United Kingdom")
	add(sans, 11, 48, 136, fmt.Sprintf("Invoice no. INV-%06d    Date: 2024-03-%02d    Due: 2024-04-%02d", 1000+seed, seed%28+1, seed%28+1))
	add(serif, 12, 48, 170, "Bill to: Jane Q. Customer, Flat 3, 17 Quayside Street, Newcastle NE1 3DX")
	add(serif, 12, 48, 186, "Reference: purchase order PO-7781 / cost centre 4410 / project Halcyon")
	y := 220.0
	p.Ops = append(p.Ops, draw.Fill{Path: rect(40, y-14, a4W-80, 20), Color: draw.Color{R: 0.9, G: 0.92, B: 0.95, A: 1}})
	for _, h := range []struct {
		x float64
		s string
	}{{48, "Description"}, {420, "Qty"}, {500, "Unit price"}, {640, "Amount"}} {
		add(bold, 11, h.x, y, h.s)
	}
	items := []string{"Consulting services", "Typesetting of the annual report", "Proof reading, office hours",
		"Printing: 250 copies, A4, colour", "Binding and finishing", "Delivery to the customer's office",
		"Design of the cover artwork", "Licence fee for fonts and images"}
	for r := 0; r < rows; r++ {
		y += 22
		if r%2 == 1 {
			p.Ops = append(p.Ops, draw.Fill{Path: rect(40, y-15, a4W-80, 22), Color: draw.Color{R: 0.97, G: 0.97, B: 0.97, A: 1}})
		}
		p.Ops = append(p.Ops, draw.Stroke{Path: line(40, y+7, a4W-40, y+7), Color: draw.Color{R: 0.8, G: 0.8, B: 0.8, A: 1}, Width: 0.75})
		for _, x := range []float64{410, 490} { // column rules, cell by cell
			p.Ops = append(p.Ops, draw.Fill{Path: rect(x, y-15, 0.75, 22), Color: draw.Color{R: 0.8, G: 0.8, B: 0.8, A: 1}})
		}
		q := (r*7+seed)%9 + 1
		price := float64((r*37+seed*11)%500) + 0.5
		add(sans, 11, 48, y, fmt.Sprintf("%s (item %d)", items[r%len(items)], r+1))
		add(sans, 11, 420, y, fmt.Sprint(q))
		add(sans, 11, 500, y, fmt.Sprintf("£%.2f", price))
		add(sans, 11, 640, y, fmt.Sprintf("£%.2f", price*float64(q)))
	}
	y += 40
	for _, l := range []string{"Subtotal", "VAT 20%", "Total due"} {
		add(bold, 12, 500, y, l)
		add(bold, 12, 640, y, fmt.Sprintf("£%d.%02d", 1000+seed*13, seed%100))
		y += 20
	}
	for i := 0; i < 4; i++ {
		p.Ops = append(p.Ops, draw.Stroke{Path: rect(40, 200, a4W-80, y-200), Color: black, Width: 1})
	}
	add(serif, 9, 48, a4H-60, "Payment within 30 days to sort code 12-34-56, account 12345678. Thank you for your business.")
	add(serif, 9, 48, a4H-46, "Registered in England and Wales no. 01234567. VAT registration GB 123 4567 89.")
	p.Links = []draw.Link{{Rect: draw.Rect{X: 48, Y: a4H - 70, W: 300, H: 14}, URI: "https://platen.example/pay"}}
	return p
}

func invoiceDoc(t testing.TB, seed int) *draw.Document {
	return &draw.Document{Title: "Invoice", Lang: "en", Pages: []*draw.Page{invoicePage(t, seed, 30)}}
}

func statementDoc(t testing.TB, seed int) *draw.Document {
	d := &draw.Document{Title: "Statement", Lang: "en"}
	for i := 0; i < 3; i++ {
		d.Pages = append(d.Pages, invoicePage(t, seed+i, 34))
		d.Outline = append(d.Outline, draw.OutlineItem{Title: fmt.Sprintf("Page %d", i+1), Level: 1, Page: i})
	}
	return d
}

func countOps(d *draw.Document) (glyphs, paths int) {
	for _, p := range d.Pages {
		for _, op := range p.Ops {
			switch o := op.(type) {
			case draw.Text:
				glyphs += len(o.Glyphs)
			case draw.Fill, draw.Stroke:
				paths++
			}
		}
	}
	return
}

// benchWrite writes the documents in turn. Besides wall time it reports
// the process's CPU time per document (cpu-ns/op, the garbage collector
// included), which a machine shared with other work inflates far less.
func benchWrite(b *testing.B, docs []*draw.Document, opt Options) {
	b.ReportAllocs()
	var buf bytes.Buffer
	size := 0
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		buf.Reset()
		if err := Write(&buf, docs[i%len(docs)], opt); err != nil {
			b.Fatal(err)
		}
		size += buf.Len()
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(size)/float64(b.N), "B/pdf")
}

// cpuTime is the process's user and system CPU time in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkInvoice writes one-page invoices. "same" repeats one document
// (the subset cache serves the fonts); "varied" cycles through 64 that
// differ in their numbers, so most font subsets are new, as for a run of
// invoices from one template.
func BenchmarkInvoice(b *testing.B) {
	same := []*draw.Document{invoiceDoc(b, 1)}
	var varied []*draw.Document
	for i := 0; i < 64; i++ {
		varied = append(varied, invoiceDoc(b, i*17+3))
	}
	g, p := countOps(same[0])
	b.Logf("invoice: %d glyphs, %d paths", g, p)
	b.Run("same", func(b *testing.B) { benchWrite(b, same, Options{}) })
	b.Run("varied", func(b *testing.B) { benchWrite(b, varied, Options{}) })
	b.Run("uncached", func(b *testing.B) {
		noSubsetCache = true
		defer func() { noSubsetCache = false }()
		benchWrite(b, same, Options{})
	})
}

// BenchmarkStatement writes three-page statements.
func BenchmarkStatement(b *testing.B) {
	doc := statementDoc(b, 5)
	g, p := countOps(doc)
	b.Logf("statement: %d glyphs, %d paths", g, p)
	b.Run("uncached", func(b *testing.B) {
		noSubsetCache = true
		defer func() { noSubsetCache = false }()
		benchWrite(b, []*draw.Document{doc}, Options{})
	})
}

// BenchmarkLevels compares flate levels and the object stream on the
// invoice, the subset cache off so the font programs are compressed too.
func BenchmarkLevels(b *testing.B) {
	doc := []*draw.Document{invoiceDoc(b, 1)}
	noSubsetCache = true
	defer func() { noSubsetCache = false }()
	for _, lv := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9} {
		b.Run(fmt.Sprintf("level%d", lv), func(b *testing.B) { benchWrite(b, doc, Options{Compression: lv}) })
	}
	b.Run("classic-xref", func(b *testing.B) { benchWrite(b, doc, Options{NoObjectStreams: true}) })
}

// BenchmarkSubset measures subsetting alone: the invoice's glyphs of
// Liberation Sans (glyf) and as many of Nimbus Sans (CFF).
func BenchmarkSubset(b *testing.B) {
	for _, path := range []string{liberationSans, nimbusSans} {
		face := loadFace(b, path, 0)
		fi, err := loadFont(face.font)
		if err != nil {
			b.Fatal(err)
		}
		gs := face.shape(11, "Invoice no. INV-001042 Date: 2024-03-14 Consulting services, Typesetting £0123456789 Proof reading office hours Printing Binding Delivery", false)
		gids := []uint16{0}
		seen := map[uint16]bool{0: true}
		for _, g := range gs {
			if !seen[g.ID] {
				seen[g.ID] = true
				gids = append(gids, g.ID)
			}
		}
		b.Run(fmt.Sprintf("%s-%dglyphs", face.font.PostScriptName, len(gids)), func(b *testing.B) {
			b.ReportAllocs()
			var sc scratch
			sc.newID = map[uint16]uint16{}
			n := 0
			for i := 0; i < b.N; i++ {
				var out []byte
				if fi.cff {
					out, err = fi.subsetCFF(gids, &sc)
				} else {
					out, err = fi.subsetTrueType(gids, &sc)
				}
				if err != nil {
					b.Fatal(err)
				}
				n = len(out)
			}
			b.ReportMetric(float64(n), "B/font")
		})
	}
}

// TestWriteSizes logs the sizes of the benchmark documents (go test -v).
func TestWriteSizes(t *testing.T) {
	for name, d := range map[string]*draw.Document{"invoice": invoiceDoc(t, 1), "statement": statementDoc(t, 5)} {
		var buf bytes.Buffer
		if err := Write(&buf, d, Options{}); err != nil {
			t.Fatal(err)
		}
		validate(t, buf.Bytes())
		g, p := countOps(d)
		t.Logf("%s: %d glyphs, %d paths: %d bytes", name, g, p, buf.Len())
		_ = io.Discard
	}
}

// BenchmarkSubsetCFF compares our CFF subsetter with tdewolff/font's on
// the same glyphs, interleaved in one run.
func BenchmarkSubsetCFF(b *testing.B) {
	face := loadFace(b, nimbusSans, 0)
	fi, err := loadFont(face.font)
	if err != nil {
		b.Fatal(err)
	}
	gs := face.shape(11, "Invoice no. INV-001042 Date: 2024-03-14 Consulting services, Typesetting £0123456789 Proof reading office hours Printing Binding Delivery", false)
	gids := []uint16{0}
	seen := map[uint16]bool{0: true}
	for _, g := range gs {
		if !seen[g.ID] {
			seen[g.ID] = true
			gids = append(gids, g.ID)
		}
	}
	slices.Sort(gids)
	var sc scratch
	for _, name := range []string{"ours", "tdewolff"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var out []byte
			for i := 0; i < b.N; i++ {
				if name == "ours" {
					out, err = fi.cffProg.subset(gids, &sc)
				} else {
					out, err = fi.subsetCFFSlow(gids)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(appendDeflate(nil, out, DefaultCompression))), "B/font-z")
		})
	}
}
