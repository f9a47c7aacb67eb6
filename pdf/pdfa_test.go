package pdf

import (
	"bytes"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

// minimal is a small PDF/A-3b file written by hand, object by object, so
// that each test can break one thing in it: a catalog with XMP metadata
// (the pdfaid claim and a described extension schema), an output intent
// with a monitor RGB profile, one page painted in DeviceRGB with an
// embedded TrueType font and a printable link, and one embedded file with
// its relationship, listed in the catalog's AF.
type minimal struct {
	header  string
	objs    map[int]string // dictionary text
	streams map[int]string // stream data, for the objects that are streams
	trailer string
	tail    string
	xmp     string
}

const xmpOK = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"><pdfaid:part>3</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance></rdf:Description>
<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource"><pdfaSchema:schema>Test</pdfaSchema:schema><pdfaSchema:namespaceURI>urn:test#</pdfaSchema:namespaceURI><pdfaSchema:prefix>t</pdfaSchema:prefix>
<pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType="Resource"><pdfaProperty:name>Kind</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>DESC</pdfaProperty:description></rdf:li></rdf:Seq></pdfaSchema:property>
</rdf:li></rdf:Bag></pdfaExtension:schemas></rdf:Description>
<rdf:Description rdf:about="" xmlns:t="urn:test#"><t:Kind>INVOICE</t:Kind></rdf:Description>
</rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>`

func newMinimal() *minimal {
	icc := make([]byte, 128)
	icc[8] = 2
	copy(icc[12:], "mntrRGB XYZ ")
	return &minimal{
		header: "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n",
		objs: map[int]string{
			1:  "/Type/Catalog/Pages 2 0 R/Metadata 3 0 R/OutputIntents[4 0 R]/AF[8 0 R]/Names<</EmbeddedFiles<</Names[(f.xml) 8 0 R]>>>>",
			2:  "/Type/Pages/Kids[5 0 R]/Count 1",
			3:  "/Type/Metadata/Subtype/XML",
			4:  "/Type/OutputIntent/S/GTS_PDFA1/OutputConditionIdentifier(sRGB)/DestOutputProfile 10 0 R",
			5:  "/Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]/Contents 6 0 R/Resources<</Font<</F1 7 0 R>>>>/Annots[11 0 R]",
			6:  "",
			7:  "/Type/Font/Subtype/TrueType/BaseFont/ABCDEF+Test/FirstChar 32/LastChar 32/Widths[500]/Encoding/WinAnsiEncoding/FontDescriptor 12 0 R",
			8:  "/Type/Filespec/F(f.xml)/UF(f.xml)/AFRelationship/Data/EF<</F 9 0 R>>",
			9:  "/Type/EmbeddedFile/Subtype/text#2Fxml",
			10: "/N 3",
			11: "/Type/Annot/Subtype/Link/Rect[0 0 10 10]/F 4/A<</S/URI/URI(https://example.com)>>",
			12: "/Type/FontDescriptor/FontName/ABCDEF+Test/Flags 32/FontBBox[0 0 1000 1000]/ItalicAngle 0/Ascent 800/Descent -200/CapHeight 700/StemV 80/FontFile2 13 0 R",
			13: "",
		},
		streams: map[int]string{3: "", 6: "1 0 0 rg BT /F1 12 Tf 10 10 Td ( ) Tj ET", 9: "<a/>", 10: string(icc), 13: "not really a font program"},
		trailer: "/ID[<0123456789abcdef0123456789abcdef><0123456789abcdef0123456789abcdef>]",
		tail:    "\n",
		xmp:     xmpOK,
	}
}

// bytes writes the file with a correct cross-reference table.
func (m *minimal) bytes() []byte {
	var b bytes.Buffer
	b.WriteString(m.header)
	var nums []int
	for n := range m.objs {
		nums = append(nums, n)
	}
	sort.Ints(nums)
	max := nums[len(nums)-1]
	offsets := make([]int, max+1)
	for _, n := range nums {
		offsets[n] = b.Len()
		d := m.objs[n]
		data, stream := m.streams[n]
		if n == 3 {
			data = m.xmp
		}
		if stream {
			if !strings.Contains(d, "/Length") {
				d += fmt.Sprintf("/Length %d", len(data))
			}
			fmt.Fprintf(&b, "%d 0 obj\n<<%s>>\nstream\n%s\nendstream\nendobj\n", n, d, data)
		} else {
			fmt.Fprintf(&b, "%d 0 obj\n<<%s>>\nendobj\n", n, d)
		}
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f\r\n", max+1)
	for n := 1; n <= max; n++ {
		if offsets[n] == 0 {
			b.WriteString("0000000000 65535 f\r\n")
			continue
		}
		fmt.Fprintf(&b, "%010d 00000 n\r\n", offsets[n])
	}
	fmt.Fprintf(&b, "trailer\n<</Size %d/Root 1 0 R%s>>\nstartxref\n%d\n%%%%EOF%s", max+1, m.trailer, xref, m.tail)
	return b.Bytes()
}

func failed(t *testing.T, file []byte, level string, files ...string) map[string]string {
	t.Helper()
	checks, err := CheckPDFA(file, level, files...)
	if err != nil {
		t.Fatalf("the checker cannot read the file: %v", err)
	}
	out := map[string]string{}
	for _, c := range checks {
		if !c.Passed {
			out[c.ID] = c.Detail
		}
	}
	return out
}

// TestCheckPDFABreaks: the hand-written file passes every rule; each
// rule, broken on purpose in a copy, fails, and with a reason.
func TestCheckPDFABreaks(t *testing.T) {
	if f := failed(t, newMinimal().bytes(), "3b", "f.xml"); len(f) > 0 {
		t.Fatalf("the sound file fails: %v", f)
	}
	replace := func(n int, old, new string) func(*minimal) {
		return func(m *minimal) {
			if !strings.Contains(m.objs[n], old) {
				panic(fmt.Sprintf("object %d lacks %q", n, old))
			}
			m.objs[n] = strings.Replace(m.objs[n], old, new, 1)
		}
	}
	xmp := func(old, new string) func(*minimal) {
		return func(m *minimal) {
			if !strings.Contains(m.xmp, old) {
				panic("the XMP lacks " + old)
			}
			m.xmp = strings.Replace(m.xmp, old, new, 1)
		}
	}
	breaks := map[string]func(*minimal){
		"6.1.2-1": func(m *minimal) { m.header = "%PDF-1.7 \n%\xe2\xe3\xcf\xd3\n" },
		"6.1.2-2": func(m *minimal) { m.header = "%PDF-1.7\n%abcd\n" },
		"6.1.3-1": func(m *minimal) { m.trailer = "" },
		"6.1.3-2": func(m *minimal) {
			m.trailer += "/Encrypt 14 0 R"
			m.objs[14] = "/Filter/Standard/V 1/R 2/O(x)/U(x)/P -4"
		},
		"6.1.3-3":      func(m *minimal) { m.tail = "\nmore bytes after the end\n" },
		"6.1.7.1-1":    func(m *minimal) { m.objs[6] = "/Length 7" },
		"6.1.7.1-3":    func(m *minimal) { m.objs[13] = "/FFilter/FlateDecode" },
		"6.1.7.2-1":    func(m *minimal) { m.objs[13] = "/Filter/LZWDecode" },
		"6.2.3-1":      func(m *minimal) { icc := []byte(m.streams[10]); copy(icc[12:], "scnr"); m.streams[10] = string(icc) },
		"6.2.4.3-2":    func(m *minimal) { icc := []byte(m.streams[10]); copy(icc[16:], "GRAY"); m.streams[10] = string(icc) },
		"6.2.11.3.2-1": replace(7, "/Subtype/TrueType", "/Subtype/CIDFontType2"),
		"6.2.11.4.1-1": replace(12, "/FontFile2 13 0 R", ""),
		"6.3.1-1":      replace(11, "/Subtype/Link", "/Subtype/Movie"),
		"6.3.2-1":      replace(11, "/F 4", ""),
		"6.3.2-2":      replace(11, "/F 4", "/F 6"),
		"6.4.2-2":      replace(1, "/Type/Catalog", "/Type/Catalog/NeedsRendering true"),
		"6.5.1-1":      replace(11, "/S/URI/URI(https://example.com)", "/S/JavaScript/JS(app.alert(1))"),
		"6.6.2.1-1":    replace(1, "/Metadata 3 0 R", ""),
		"6.6.2.1-2":    xmp(`id="W5M0MpCehiHzreSzNTczkc9d"`, `id="W5M0MpCehiHzreSzNTczkc9d" bytes="1024"`),
		"6.6.2.1-3":    xmp(`id="W5M0MpCehiHzreSzNTczkc9d"`, `id="W5M0MpCehiHzreSzNTczkc9d" encoding="UTF-8"`),
		"6.6.2.1-4":    xmp("</pdfaid:part>", "</pdfaid:parts>"),
		"6.6.2.3.1-1":  xmp("<pdfaSchema:namespaceURI>urn:test#</pdfaSchema:namespaceURI>", "<pdfaSchema:namespaceURI>urn:other#</pdfaSchema:namespaceURI>"),
		"6.6.2.3.3-1":  xmp("<pdfaProperty:description>DESC</pdfaProperty:description>", ""),
		"6.6.4-1":      xmp("<pdfaid:conformance>B</pdfaid:conformance>", ""),
		"6.6.4-2":      xmp("<pdfaid:part>3</pdfaid:part>", "<pdfaid:part>2</pdfaid:part>"),
		"6.6.4-3":      xmp("<pdfaid:conformance>B</pdfaid:conformance>", "<pdfaid:conformance>U</pdfaid:conformance>"),
		"6.8-1":        replace(9, "/Subtype/text#2Fxml", ""),
		"6.8-2":        replace(8, "/UF(f.xml)", ""),
		"6.8-3":        replace(8, "/AFRelationship/Data", ""),
		"6.8-4":        replace(1, "/AF[8 0 R]", ""),
	}
	for _, r := range PDFARules {
		t.Run(r.ID, func(t *testing.T) {
			brk, ok := breaks[r.ID]
			if !ok {
				t.Fatalf("rule %s has no test that breaks it", r.ID)
			}
			m := newMinimal()
			brk(m)
			f := failed(t, m.bytes(), "3b", "f.xml")
			if d, ok := f[r.ID]; !ok || d == "" {
				t.Errorf("breaking %s (%s) is not caught: failures %v", r.ID, r.Text, f)
			}
		})
	}
	// PDF/A-2 has no embedded-file rules to list.
	for _, c := range must(CheckPDFA(newMinimal().bytes(), "2b")) {
		if strings.HasPrefix(c.ID, "6.8-") {
			t.Errorf("a PDF/A-2 check lists %s", c.ID)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestDocsListThePDFARules: docs/einvoices.md lists every rule CheckPDFA
// checks, with what it checks.
func TestDocsListThePDFARules(t *testing.T) {
	b, err := os.ReadFile("../docs/einvoices.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range PDFARules {
		if !strings.Contains(string(b), "| `"+r.ID+"` | "+r.Text+" |") {
			t.Errorf("docs/einvoices.md does not list %s (%s)", r.ID, r.Text)
		}
	}
}
