package pdfw

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"github.com/platen/platen/render/phantom/draw"
)

// TestPDFA: a PDF/A file carries XMP metadata claiming its part and level,
// with the title and producer its Info dictionary has, and an sRGB output
// intent; pdfcpu's strict validation accepts it; equal documents stay
// equal bytes; a level the writer does not write is refused.
func TestPDFA(t *testing.T) {
	sans := loadFace(t, liberationSans, 0)
	doc := &draw.Document{Title: "Invoice <INV-7> & co", Lang: "en", Pages: []*draw.Page{{Width: 400, Height: 200, Ops: []draw.Op{
		draw.Fill{Path: rect(0, 0, 400, 40), Color: draw.Color{R: 0.1, G: 0.2, B: 0.4, A: 1}},
		sans.textOp(16, 20, 80, "Invoice INV-7 total €12.50"),
	}}}}
	for _, level := range []Conformance{PDFA2B, PDFA3U} {
		path, pdf := writePDF(t, doc, Options{PDFA: level, Producer: "Platen"})
		meta, err := exec.Command("pdfinfo", "-meta", path).Output()
		if err != nil {
			t.Fatal(err)
		}
		m := string(meta)
		for _, want := range []string{
			"<pdfaid:part>" + string(level[:1]) + "</pdfaid:part>",
			"<pdfaid:conformance>" + strings.ToUpper(string(level[1:])) + "</pdfaid:conformance>",
			"<rdf:li xml:lang=\"x-default\">Invoice &lt;INV-7&gt; &amp; co</rdf:li>",
			"<pdf:Producer>Platen</pdf:Producer>",
		} {
			if !strings.Contains(m, want) {
				t.Errorf("%s: the XMP lacks %s:\n%s", level, want, m)
			}
		}
		_, flat := writePDF(t, doc, Options{PDFA: level, Producer: "Platen", NoObjectStreams: true})
		for _, want := range []string{"/OutputIntents[", "/S/GTS_PDFA1", "/Type/Metadata/Subtype/XML"} {
			if !bytes.Contains(flat, []byte(want)) {
				t.Errorf("%s: the file lacks %s", level, want)
			}
		}
		conf := model.NewDefaultConfiguration()
		conf.ValidationMode = model.ValidationStrict
		if err := api.Validate(bytes.NewReader(pdf), conf); err != nil {
			t.Errorf("%s: pdfcpu strict validation: %v", level, err)
		}
		_, again := writePDF(t, doc, Options{PDFA: level, Producer: "Platen"})
		if !bytes.Equal(pdf, again) {
			t.Errorf("%s: the same document gave other bytes", level)
		}
	}
	if _, plain := writePDF(t, doc, Options{NoObjectStreams: true}); bytes.Contains(plain, []byte("/OutputIntents")) {
		t.Error("a plain PDF has an output intent")
	}
	if err := Write(&bytes.Buffer{}, doc, Options{PDFA: "1a"}); !errors.Is(err, ErrPDFA) {
		t.Errorf("PDF/A-1a: %v, want ErrPDFA", err)
	}
}

// TestSRGBProfile reads the ICC profile back: a version 2 RGB display
// profile whose header, tag table and tags hold together, with the D50
// white point, primaries whose sum is that white, and a transfer curve
// that rises from 0 to 1 through sRGB's mid-grey.
func TestSRGBProfile(t *testing.T) {
	p := sRGBProfile()
	be := binary.BigEndian
	if int(be.Uint32(p)) != len(p) || string(p[36:40]) != "acsp" || string(p[12:16]) != "mntr" || string(p[16:20]) != "RGB " || be.Uint32(p[8:]) != 0x02100000 {
		t.Fatalf("header: %x", p[:40])
	}
	s15 := func(b []byte) float64 { return float64(int32(be.Uint32(b))) / 65536 }
	tags := map[string][]byte{}
	n := int(be.Uint32(p[128:]))
	for i := 0; i < n; i++ {
		e := p[132+12*i:]
		off, size := int(be.Uint32(e[4:])), int(be.Uint32(e[8:]))
		if off%4 != 0 || off+size > len(p) || off < 132+12*n {
			t.Fatalf("tag %s at %d+%d outside the profile", e[:4], off, size)
		}
		tags[string(e[:4])] = p[off : off+size]
	}
	for _, sig := range []string{"desc", "cprt", "wtpt", "rXYZ", "gXYZ", "bXYZ", "rTRC", "gTRC", "bTRC"} {
		if tags[sig] == nil {
			t.Fatalf("no %s tag", sig)
		}
	}
	w := tags["wtpt"]
	if x, y, z := s15(w[8:]), s15(w[12:]), s15(w[16:]); math.Abs(x-0.9642) > 1e-4 || math.Abs(y-1) > 1e-4 || math.Abs(z-0.8249) > 1e-4 {
		t.Errorf("white point %v %v %v", x, y, z)
	}
	var sum [3]float64
	for _, sig := range []string{"rXYZ", "gXYZ", "bXYZ"} {
		for k := 0; k < 3; k++ {
			sum[k] += s15(tags[sig][8+4*k:])
		}
	}
	if math.Abs(sum[0]-0.9642) > 2e-3 || math.Abs(sum[1]-1) > 2e-3 || math.Abs(sum[2]-0.8249) > 2e-3 {
		t.Errorf("the primaries sum to %v, not the white point", sum)
	}
	c := tags["rTRC"]
	count := int(be.Uint32(c[8:]))
	at := func(i int) float64 { return float64(be.Uint16(c[12+2*i:])) / 65535 }
	if count != 1024 || at(0) != 0 || at(count-1) != 1 || math.Abs(at(511)-0.2140) > 0.002 {
		t.Errorf("curve: %d points, %v .. %v, middle %v", count, at(0), at(count-1), at(511))
	}
	for i := 1; i < count; i++ {
		if at(i) < at(i-1) {
			t.Fatalf("the curve falls at %d", i)
		}
	}
}

// TestPDFARefusesCMYK: a CMYK JPEG cannot be in a PDF/A file whose output
// intent is sRGB: the writer refuses it, saying so; a plain file takes it.
func TestPDFARefusesCMYK(t *testing.T) {
	cmyk := &draw.Image{Kind: draw.JPEG, Width: 8, Height: 8, Components: 4, Data: redJPEG(t)}
	doc := &draw.Document{Pages: []*draw.Page{{Width: 100, Height: 100, Ops: []draw.Op{
		draw.DrawImage{Image: cmyk, Rect: draw.Rect{X: 0, Y: 0, W: 50, H: 50}},
	}}}}
	if err := Write(&bytes.Buffer{}, doc, Options{PDFA: PDFA3B}); !errors.Is(err, ErrPDFACMYK) {
		t.Errorf("PDF/A with a CMYK image: %v", err)
	}
	if err := Write(&bytes.Buffer{}, doc, Options{}); err != nil {
		t.Errorf("a plain PDF with a CMYK image: %v", err)
	}
}

// TestAttachments: a PDF/A-3 file embeds files as associated files: each
// is listed (pdfdetach), comes out byte for byte, carries its media type,
// description and AFRelationship, and sits beside the document's named
// destinations; extra XMP is written into the metadata; PDF/A-2 and
// malformed attachments are refused.
func TestAttachments(t *testing.T) {
	sans := loadFace(t, liberationSans, 0)
	xml := []byte(`<?xml version="1.0" encoding="UTF-8"?><rsm:CrossIndustryInvoice xmlns:rsm="urn:x"><a>Total €12.50</a></rsm:CrossIndustryInvoice>`)
	doc := &draw.Document{Title: "Invoice", Pages: []*draw.Page{{Width: 400, Height: 200, Ops: []draw.Op{
		sans.textOp(16, 20, 80, "Invoice INV-7"),
	}, Links: []draw.Link{{Rect: draw.Rect{X: 10, Y: 10, W: 50, H: 20}, Dest: "top"}},
		Anchors: []draw.Anchor{{Name: "top", Y: 0}}}}}
	extra := `<rdf:Description rdf:about="" xmlns:fx="urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#"><fx:DocumentFileName>factur-x.xml</fx:DocumentFileName></rdf:Description>`
	opt := Options{PDFA: PDFA3B, XMP: extra, Attachments: []Attachment{
		{Name: "factur-x.xml", Description: "Factur-X invoice", MIME: "text/xml", Relationship: "Data", Data: xml},
		{Name: "notes.txt", MIME: "text/plain", Relationship: "Supplement", Data: []byte("second file")},
	}}
	path, pdf := writePDF(t, doc, opt)
	list, err := exec.Command("pdfdetach", "-list", path).Output()
	if err != nil {
		t.Fatal(err)
	}
	if l := string(list); !strings.Contains(l, "2 embedded files") || !strings.Contains(l, "factur-x.xml") || !strings.Contains(l, "notes.txt") {
		t.Errorf("pdfdetach lists:\n%s", l)
	}
	out := filepath.Join(t.TempDir(), "x.xml")
	if err := exec.Command("pdfdetach", "-savefile", "factur-x.xml", "-o", out, path).Run(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(out); !bytes.Equal(got, xml) {
		t.Errorf("the attachment came out as %q", got)
	}
	_, flat := writePDF(t, doc, Options{PDFA: PDFA3B, XMP: extra, Attachments: opt.Attachments, NoObjectStreams: true})
	for _, want := range []string{"/AFRelationship/Data", "/AFRelationship/Supplement", "/Subtype/text#2Fxml", "/Desc(Factur-X invoice)", "/AF[", "/Dests ", "/EmbeddedFiles<<"} {
		if !bytes.Contains(flat, []byte(want)) {
			t.Errorf("the file lacks %s", want)
		}
	}
	meta, _ := exec.Command("pdfinfo", "-meta", path).Output()
	if !strings.Contains(string(meta), "<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>") {
		t.Errorf("the XMP lacks the extension:\n%s", meta)
	}
	// pdfcpu's strict mode knows PDF 1.7 without ISO 19005-3, which adds
	// AFRelationship to file specifications: relaxed mode here.
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	if err := api.Validate(bytes.NewReader(pdf), conf); err != nil {
		t.Errorf("pdfcpu validation: %v", err)
	}
	if err := Write(&bytes.Buffer{}, doc, Options{PDFA: PDFA2B, Attachments: opt.Attachments}); !errors.Is(err, ErrPDFAAttachment) {
		t.Errorf("PDF/A-2b with attachments: %v", err)
	}
	if err := Write(&bytes.Buffer{}, doc, Options{PDFA: PDFA3B, Attachments: []Attachment{{Name: "a.xml", Relationship: "Other"}}}); !errors.Is(err, ErrAttachment) {
		t.Errorf("an unknown AFRelationship: %v", err)
	}
}

// TestPDFANoNotdef: a character no font has is shaped to glyph 0, the
// .notdef box; a PDF/A file leaves it out (6.2.11.8-1), keeping the text
// after it in its place, and a plain file shows the box as Chromium does.
func TestPDFANoNotdef(t *testing.T) {
	sans := loadFace(t, liberationSans, 0)
	op := sans.textOp(16, 20, 80, "A\u4e00B")
	if op.Glyphs[1].ID != 0 {
		t.Fatalf("Liberation Sans has a glyph (%d) for U+4E00; the test needs one it lacks", op.Glyphs[1].ID)
	}
	doc := &draw.Document{Pages: []*draw.Page{{Width: 400, Height: 200, Ops: []draw.Op{op}}}}
	// notdefs counts the two-byte codes 0 shown: in this file CID 0 is
	// .notdef, and the strings hold the codes as raw bytes.
	notdefs := func(opt Options) (zero, shown int) {
		_, pdf := writePDF(t, doc, opt)
		var strs [][]string
		for _, bt := range regexp.MustCompile(`(?s)\nBT\n(.*?)\nET\n`).FindAllStringSubmatch(inflateStreams(t, pdf), -1) {
			strs = append(strs, regexp.MustCompile(`(?s)\(([^)]*)\)`).FindAllStringSubmatch(bt[1], -1)...)
		}
		for _, m := range strs {
			for i := 0; i+1 < len(m[1]); i += 2 {
				shown++
				if m[1][i] == 0 && m[1][i+1] == 0 {
					zero++
				}
			}
		}
		return zero, shown
	}
	if zero, shown := notdefs(Options{NoObjectStreams: true}); zero != 1 || shown != 3 {
		t.Errorf("the plain file shows %d glyphs, %d of them .notdef; want 3 and 1", shown, zero)
	}
	if zero, shown := notdefs(Options{PDFA: PDFA3B, NoObjectStreams: true}); zero != 0 || shown != 2 {
		t.Errorf("the PDF/A file shows %d glyphs, %d of them .notdef; want 2 and none", shown, zero)
	}
}
