package pdf

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// Check is one rule checked on a file: its id (for PDF/A, the veraPDF rule
// id, clause and test number, of ISO 19005), whether the file passed it,
// and, when it did not, what is wrong.
type Check struct {
	ID     string `json:"id"`
	Passed bool   `json:"passed"`
	Detail string `json:"detail,omitempty"`
}

// PDFARule is a rule CheckPDFA checks, with what it says.
type PDFARule struct {
	ID, Text string
}

// PDFARules are the PDF/A-2 and PDF/A-3 rules CheckPDFA checks, by their
// veraPDF ids (docs/einvoices.md lists them). 6.8-* (embedded files) is
// checked only for PDF/A-3, where files may be embedded.
var PDFARules = []PDFARule{
	{"6.1.2-1", "the header begins at byte 0 with %PDF-1.n and one EOL"},
	{"6.1.2-2", "the header is followed by a comment of at least four bytes above 127"},
	{"6.1.3-1", "the trailer has a file identifier (ID)"},
	{"6.1.3-2", "the trailer has no Encrypt entry"},
	{"6.1.3-3", "nothing follows the last %%EOF but one optional EOL"},
	{"6.1.7.1-1", "every stream's Length is the number of bytes between stream and endstream"},
	{"6.1.7.1-3", "no stream dictionary has F, FFilter or FDecodeParms"},
	{"6.1.7.2-1", "no stream uses the LZWDecode or Crypt filter"},
	{"6.2.3-1", "the output intent's profile is an ICC output or monitor profile (prtr or mntr) of GRAY, RGB or CMYK, version below 5"},
	{"6.2.4.3-2", "DeviceRGB is used under a PDF/A output intent with an RGB profile"},
	{"6.2.11.3.2-1", "every embedded TrueType CIDFont (CIDFontType2) has a CIDToGIDMap"},
	{"6.2.11.4.1-1", "every font other than Type 3 and Type 0 embeds its font program"},
	{"6.3.1-1", "only annotation types that PDF/A allows"},
	{"6.3.2-1", "every annotation other than a Popup has the F key"},
	{"6.3.2-2", "every annotation's flags print it and do not hide it"},
	{"6.4.2-2", "the catalog has no NeedsRendering key"},
	{"6.5.1-1", "no Launch, Sound, Movie, ResetForm, ImportData, Hide, SetOCGState, Rendition, Trans, GoTo3DView or JavaScript action"},
	{"6.6.2.1-1", "the catalog has XMP metadata, a stream of Type Metadata and Subtype XML"},
	{"6.6.2.1-2", "the XMP packet header has no bytes attribute"},
	{"6.6.2.1-3", "the XMP packet header has no encoding attribute"},
	{"6.6.2.1-4", "the XMP metadata is well-formed XML"},
	{"6.6.2.3.1-1", "every XMP property's schema is predefined or described by an extension schema"},
	{"6.6.2.3.3-1", "every extension schema is in the pdfaExtension container with schema, namespaceURI, prefix and its properties' name, valueType, category and description"},
	{"6.6.4-1", "the XMP metadata identifies the PDF/A part and conformance (pdfaid)"},
	{"6.6.4-2", "pdfaid:part is the part asked for"},
	{"6.6.4-3", "pdfaid:conformance is the level asked for"},
	{"6.8-1", "every embedded file has its MIME type as Subtype"},
	{"6.8-2", "every embedded file's specification has F and UF"},
	{"6.8-3", "every embedded file's specification has an AFRelationship"},
	{"6.8-4", "every embedded file is an associated file (listed in an AF array)"},
}

// CheckPDFA checks a PDF against the PDF/A rules Platen can check itself
// (PDFARules), for part 2 or 3 at level b or u ("3b"). It says which rules
// passed; it is not veraPDF, and a file that passes every rule here is not
// thereby claimed valid: fonts' glyph coverage (6.2.11.4.1-2, 6.2.11.8-1)
// and content streams' operators are not checked. An error is a file that
// cannot be read at all.
//
// files names the files the PDF should embed: a file missing among them
// fails 6.8-2, so that no embedded-file rule passes for want of a file.
func CheckPDFA(file []byte, level string, files ...string) ([]Check, error) {
	checks, _, err := CheckPDFAFiles(file, level, files...)
	return checks, err
}

// CheckPDFAFiles is CheckPDFA that also returns the content of the files
// named that the PDF embeds, read in the same pass.
func CheckPDFAFiles(file []byte, level string, files ...string) ([]Check, map[string][]byte, error) {
	if len(level) != 2 || level[0] != '2' && level[0] != '3' || level[1] != 'b' && level[1] != 'u' {
		return nil, nil, fmt.Errorf("pdf: PDF/A level %q: want 2b, 2u, 3b or 3u", level)
	}
	c := &pdfaChecker{file: file, level: level, fails: map[string]string{}, content: map[string][]byte{}}
	c.header()
	if encrypted(file) {
		// An encrypted file cannot be read without its password: nothing
		// beyond the header is checked, and nothing is said to pass.
		c.fail("6.1.3-2", "the trailer has an Encrypt entry")
		for _, r := range PDFARules {
			if !strings.HasPrefix(r.ID, "6.1.2-") {
				c.fail(r.ID, "not checked: the file is encrypted")
			}
		}
	} else {
		ctx, err := api.ReadContext(bytes.NewReader(file), config())
		if err != nil {
			return nil, nil, fmt.Errorf("pdf: read for the PDF/A checks: %w", err)
		}
		c.ctx = ctx
		c.trailer()
		c.objects()
		c.outputIntent()
		c.metadata()
		c.files(files)
	}
	var out []Check
	for _, r := range PDFARules {
		if strings.HasPrefix(r.ID, "6.8-") && !strings.HasPrefix(level, "3") {
			continue
		}
		d, failed := c.fails[r.ID]
		out = append(out, Check{ID: r.ID, Passed: !failed, Detail: d})
	}
	return out, c.content, nil
}

type pdfaChecker struct {
	file  []byte
	ctx   *model.Context
	level string
	fails map[string]string
	// rgb is set when a content stream or image uses DeviceRGB.
	rgb bool
	// af is the file specifications listed in an AF array.
	af map[int]bool
	// fileSpecs is every embedded file's specification, by object number.
	fileSpecs map[int]types.Dict
	// content is the embedded files asked for, by name.
	content map[string][]byte
}

// fail records the first failure of a rule.
func (c *pdfaChecker) fail(id, format string, args ...any) {
	if _, ok := c.fails[id]; !ok {
		c.fails[id] = fmt.Sprintf(format, args...)
	}
}

// encrypted reports whether a trailer (or cross-reference stream) of the
// file names an Encrypt dictionary.
func encrypted(file []byte) bool {
	for _, kw := range []string{"trailer", "/XRef"} {
		for rest := file; ; {
			i := bytes.Index(rest, []byte(kw))
			if i < 0 {
				break
			}
			rest = rest[i+len(kw):]
			end := bytes.Index(rest, []byte(">>"))
			if end < 0 {
				end = len(rest)
			}
			if bytes.Contains(rest[:end], []byte("/Encrypt")) {
				return true
			}
		}
	}
	return false
}

var headerRE = regexp.MustCompile(`^%PDF-1\.[0-9](\r\n|\r|\n)`)

func (c *pdfaChecker) header() {
	m := headerRE.FindSubmatch(c.file)
	if m == nil {
		c.fail("6.1.2-1", "the file does not begin with %%PDF-1.n and an EOL")
		return
	}
	rest := c.file[len(m[0]):]
	if len(rest) < 5 || rest[0] != '%' || rest[1] < 128 || rest[2] < 128 || rest[3] < 128 || rest[4] < 128 {
		c.fail("6.1.2-2", "the header is not followed by a comment of four bytes above 127")
	}
}

func (c *pdfaChecker) trailer() {
	x := c.ctx.XRefTable
	if len(x.ID) != 2 {
		c.fail("6.1.3-1", "the trailer has no ID of two strings")
	}
	if x.Encrypt != nil || x.E != nil {
		c.fail("6.1.3-2", "the trailer has an Encrypt entry")
	}
	i := bytes.LastIndex(c.file, []byte("%%EOF"))
	if i < 0 {
		c.fail("6.1.3-3", "the file has no %%%%EOF")
	} else if tail := c.file[i+5:]; len(tail) > 2 || len(tail) > 0 && string(tail) != "\n" && string(tail) != "\r\n" && string(tail) != "\r" {
		c.fail("6.1.3-3", "%d bytes follow the last %%%%EOF", len(tail))
	}
	if _, ok := x.RootDict.Find("NeedsRendering"); ok {
		c.fail("6.4.2-2", "the catalog has NeedsRendering")
	}
}

var forbiddenActions = map[string]bool{"Launch": true, "Sound": true, "Movie": true, "ResetForm": true, "ImportData": true, "Hide": true,
	"SetOCGState": true, "Rendition": true, "Trans": true, "GoTo3DView": true, "JavaScript": true, "SetState": true, "NOP": true}

var allowedAnnots = map[string]bool{"Text": true, "Link": true, "FreeText": true, "Line": true, "Square": true, "Circle": true, "Polygon": true,
	"PolyLine": true, "Highlight": true, "Underline": true, "Squiggly": true, "StrikeOut": true, "Stamp": true, "Caret": true, "Ink": true,
	"Popup": true, "FileAttachment": true, "Widget": true, "PrinterMark": true, "TrapNet": true, "Watermark": true, "Redact": true}

// objects checks each indirect object: streams, fonts, annotations,
// actions, and where DeviceRGB is used.
func (c *pdfaChecker) objects() {
	c.af = map[int]bool{}
	c.fileSpecs = map[int]types.Dict{}
	for nr, e := range c.ctx.XRefTable.Table {
		if e == nil || e.Free {
			continue
		}
		o, err := c.ctx.XRefTable.Dereference(*types.NewIndirectRef(nr, 0))
		if err != nil || o == nil {
			continue
		}
		switch o := o.(type) {
		case types.StreamDict:
			c.stream(nr, e, o)
			c.dict(nr, o.Dict, 0)
		case types.Dict:
			c.dict(nr, o, 0)
		case types.Array:
			c.nested(nr, o, 0)
		}
	}
}

// nested checks the dictionaries written inside an object (an action in
// an annotation, a font in a resource dictionary), down to a few levels.
func (c *pdfaChecker) nested(nr int, o types.Object, depth int) {
	if depth > 8 {
		return
	}
	switch o := o.(type) {
	case types.Dict:
		c.dict(nr, o, depth+1)
	case types.Array:
		for _, v := range o {
			c.nested(nr, v, depth+1)
		}
	}
}

func (c *pdfaChecker) stream(nr int, e *model.XRefTableEntry, sd types.StreamDict) {
	for _, k := range []string{"F", "FFilter", "FDecodeParms"} {
		if _, ok := sd.Find(k); ok {
			c.fail("6.1.7.1-3", "object %d's stream dictionary has %s", nr, k)
		}
	}
	for _, f := range sd.FilterPipeline {
		if f.Name == "LZWDecode" || f.Name == "Crypt" {
			c.fail("6.1.7.2-1", "object %d uses %s", nr, f.Name)
		}
	}
	if sd.StreamLength != nil && !e.Compressed && sd.StreamOffset > 0 {
		end := sd.StreamOffset + *sd.StreamLength
		if end < sd.StreamOffset || end > int64(len(c.file)) || !endstreamAt(c.file[end:]) {
			c.fail("6.1.7.1-1", "object %d's Length (%d) does not end where endstream begins", nr, *sd.StreamLength)
		}
	}
	if sd.Type() != nil && *sd.Type() == "XObject" {
		if cs, ok := sd.Find("ColorSpace"); ok && nameIs(cs, "DeviceRGB") {
			c.rgb = true
		}
	}
	if sd.IsPageContent || bytes.Contains(sd.Raw, []byte(" rg")) {
		c.rgb = true // phantom's content streams paint in DeviceRGB
	}
}

// endstreamAt reports whether b starts with an optional EOL and endstream.
func endstreamAt(b []byte) bool {
	for _, eol := range []string{"\r\n", "\n", "\r", ""} {
		if bytes.HasPrefix(b, []byte(eol+"endstream")) {
			return true
		}
	}
	return false
}

func nameIs(o types.Object, name string) bool {
	n, ok := o.(types.Name)
	return ok && string(n) == name
}

func (c *pdfaChecker) dict(nr int, d types.Dict, depth int) {
	x := c.ctx.XRefTable
	for _, v := range d {
		c.nested(nr, v, depth)
	}
	if s, ok := d.Find("S"); ok {
		if n, ok := s.(types.Name); ok && forbiddenActions[string(n)] {
			c.fail("6.5.1-1", "object %d is a %s action", nr, n)
		}
	}
	if af, ok := d.Find("AF"); ok {
		if arr, err := x.DereferenceArray(af); err == nil {
			for _, o := range arr {
				if r, ok := o.(types.IndirectRef); ok {
					c.af[r.ObjectNumber.Value()] = true
				}
			}
		}
	}
	if _, ok := d.Find("EF"); ok && depth == 0 && (d.Type() == nil || *d.Type() == "Filespec") {
		c.fileSpecs[nr] = d
	}
	t := d.Type()
	switch {
	case t != nil && *t == "Font":
		c.font(nr, d)
	case t != nil && *t == "Annot", d.Subtype() != nil && d["Rect"] != nil && (t == nil || *t == "Annot"):
		c.annot(nr, d)
	}
	if cs, ok := d.Find("ColorSpace"); ok {
		if csd, err := x.DereferenceDict(cs); err == nil {
			for _, v := range csd {
				if nameIs(v, "DeviceRGB") {
					c.rgb = true
				}
			}
		}
	}
}

func (c *pdfaChecker) font(nr int, d types.Dict) {
	x := c.ctx.XRefTable
	sub := ""
	if s := d.Subtype(); s != nil {
		sub = *s
	}
	if sub == "Type3" || sub == "Type0" {
		return
	}
	fd, err := x.DereferenceDict(d["FontDescriptor"])
	embedded := false
	if err == nil && fd != nil {
		for _, k := range []string{"FontFile", "FontFile2", "FontFile3"} {
			if _, ok := fd.Find(k); ok {
				embedded = true
			}
		}
	}
	if !embedded {
		name := ""
		if b := d.NameEntry("BaseFont"); b != nil {
			name = *b
		}
		c.fail("6.2.11.4.1-1", "font %s (object %d) does not embed its program", name, nr)
	}
	if sub == "CIDFontType2" && embedded {
		if _, ok := d.Find("CIDToGIDMap"); !ok {
			c.fail("6.2.11.3.2-1", "CIDFont object %d has no CIDToGIDMap", nr)
		}
	}
}

func (c *pdfaChecker) annot(nr int, d types.Dict) {
	sub := ""
	if s := d.Subtype(); s != nil {
		sub = *s
	}
	if !allowedAnnots[sub] {
		c.fail("6.3.1-1", "object %d is a %s annotation", nr, sub)
	}
	if sub == "Popup" {
		return
	}
	f, ok := d.Find("F")
	if !ok {
		c.fail("6.3.2-1", "annotation %d has no F key", nr)
		return
	}
	flags, ok := f.(types.Integer)
	if !ok || flags&4 == 0 || flags&(1|2|32|256) != 0 {
		c.fail("6.3.2-2", "annotation %d's flags (%v) do not print it, or hide it", nr, f)
	}
}

func (c *pdfaChecker) outputIntent() {
	x := c.ctx.XRefTable
	arr, _ := x.DereferenceArray(x.RootDict["OutputIntents"])
	rgbIntent := false
	for _, o := range arr {
		oi, err := x.DereferenceDict(o)
		if err != nil || oi == nil {
			continue
		}
		if s := oi.NameEntry("S"); s == nil || *s != "GTS_PDFA1" {
			continue
		}
		sd, _, err := x.DereferenceStreamDict(oi["DestOutputProfile"])
		if err != nil || sd == nil {
			c.fail("6.2.3-1", "the PDF/A output intent has no DestOutputProfile")
			continue
		}
		if err := sd.Decode(); err != nil || len(sd.Content) < 20 {
			c.fail("6.2.3-1", "the output intent's ICC profile cannot be read")
			continue
		}
		icc := sd.Content
		class, space, major := string(icc[12:16]), string(icc[16:20]), icc[8]
		if class != "prtr" && class != "mntr" || space != "RGB " && space != "CMYK" && space != "GRAY" || major >= 5 {
			c.fail("6.2.3-1", "the ICC profile is class %q, colour space %q, version %d", class, space, major)
		}
		rgbIntent = rgbIntent || space == "RGB "
	}
	if len(arr) == 0 {
		c.fail("6.2.3-1", "the catalog has no output intent")
	}
	if c.rgb && !rgbIntent {
		c.fail("6.2.4.3-2", "DeviceRGB is used without a PDF/A output intent of an RGB profile")
	}
}

// Schemas XMP predefines (XMP Specification, ISO 19005), which need no
// extension schema.
var predefinedXMP = map[string]bool{
	"http://purl.org/dc/elements/1.1/": true, "http://ns.adobe.com/xap/1.0/": true, "http://ns.adobe.com/pdf/1.3/": true,
	"http://ns.adobe.com/xap/1.0/mm/": true, "http://ns.adobe.com/xap/1.0/rights/": true, "http://www.aiim.org/pdfa/ns/id/": true,
	"http://ns.adobe.com/xap/1.0/sType/ResourceRef#": true, "http://ns.adobe.com/xap/1.0/sType/ResourceEvent#": true,
	"http://ns.adobe.com/xap/1.0/bj/": true, "http://ns.adobe.com/xap/1.0/t/pg/": true, "http://ns.adobe.com/photoshop/1.0/": true,
	"http://ns.adobe.com/exif/1.0/": true, "http://ns.adobe.com/tiff/1.0/": true,
	"http://www.aiim.org/pdfa/ns/extension/": true, "http://www.aiim.org/pdfa/ns/schema#": true, "http://www.aiim.org/pdfa/ns/property#": true,
	"http://www.aiim.org/pdfa/ns/type#": true, "http://www.aiim.org/pdfa/ns/field#": true,
}

const (
	rdfNS = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
	xNS   = "adobe:ns:meta/"
)

func (c *pdfaChecker) metadata() {
	x := c.ctx.XRefTable
	sd, _, err := x.DereferenceStreamDict(x.RootDict["Metadata"])
	if err != nil || sd == nil || sd.Type() == nil || *sd.Type() != "Metadata" || sd.Subtype() == nil || *sd.Subtype() != "XML" {
		c.fail("6.6.2.1-1", "the catalog has no Metadata stream of Type Metadata and Subtype XML")
		c.fail("6.6.4-1", "there is no XMP metadata")
		return
	}
	if err := sd.Decode(); err != nil {
		c.fail("6.6.2.1-4", "the metadata stream cannot be decoded")
		return
	}
	meta := sd.Content
	if i := bytes.Index(meta, []byte("<?xpacket begin=")); i >= 0 {
		end := bytes.Index(meta[i:], []byte("?>"))
		if end > 0 {
			head := string(meta[i : i+end])
			if strings.Contains(head, " bytes=") {
				c.fail("6.6.2.1-2", "the packet header has a bytes attribute")
			}
			if strings.Contains(head, " encoding=") {
				c.fail("6.6.2.1-3", "the packet header has an encoding attribute")
			}
		}
	}
	// Walk the XML: well-formed, the pdfaid claims, each property's
	// namespace, and the extension schemas' namespaces and fields.
	dec := xml.NewDecoder(bytes.NewReader(meta))
	var stack []xml.Name
	used := map[string]string{}
	described := map[string]bool{}
	var part, conformance string
	var inSchema, inProperty bool
	schemaFields, propFields := map[string]bool{}, map[string]bool{}
	text := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			c.fail("6.6.2.1-4", "the XMP is not well-formed: %v", err)
			return
		}
		switch t := tok.(type) {
		case xml.StartElement:
			text = ""
			depth := len(stack)
			stack = append(stack, t.Name)
			// A property is a child of an rdf:Description.
			if depth > 0 && stack[depth-1].Space == rdfNS && stack[depth-1].Local == "Description" && t.Name.Space != rdfNS {
				used[t.Name.Space] = t.Name.Local
			}
			for _, a := range t.Attr { // properties written as attributes of rdf:Description
				if t.Name.Space == rdfNS && t.Name.Local == "Description" && a.Name.Space != "" && a.Name.Space != rdfNS && a.Name.Space != "xmlns" && a.Name.Space != "http://www.w3.org/XML/1998/namespace" {
					used[a.Name.Space] = a.Name.Local
				}
			}
			if t.Name.Space == rdfNS && t.Name.Local == "li" && depth > 0 {
				parent := stack[depth-1]
				if parent.Local == "Bag" && depth > 1 && stack[depth-2].Local == "schemas" {
					inSchema, schemaFields = true, map[string]bool{}
				}
				if parent.Local == "Seq" && depth > 1 && stack[depth-2].Local == "property" && stack[depth-2].Space == "http://www.aiim.org/pdfa/ns/schema#" {
					inProperty, propFields = true, map[string]bool{}
				}
			}
		case xml.CharData:
			text += string(t)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
			v := strings.TrimSpace(text)
			switch {
			case t.Name.Space == "http://www.aiim.org/pdfa/ns/id/" && t.Name.Local == "part":
				part = v
			case t.Name.Space == "http://www.aiim.org/pdfa/ns/id/" && t.Name.Local == "conformance":
				conformance = v
			case inProperty && t.Name.Space == "http://www.aiim.org/pdfa/ns/property#":
				propFields[t.Name.Local] = v != ""
			case inProperty && t.Name.Space == rdfNS && t.Name.Local == "li":
				inProperty = false
				for _, f := range []string{"name", "valueType", "category", "description"} {
					if !propFields[f] {
						c.fail("6.6.2.3.3-1", "an extension schema property has no %s", f)
					}
				}
			case inSchema && t.Name.Space == "http://www.aiim.org/pdfa/ns/schema#":
				schemaFields[t.Name.Local] = v != "" || t.Name.Local == "property"
				if t.Name.Local == "namespaceURI" {
					described[v] = true
				}
			case inSchema && t.Name.Space == rdfNS && t.Name.Local == "li" && len(stack) > 0 && stack[len(stack)-1].Local == "Bag":
				inSchema = false
				for _, f := range []string{"schema", "namespaceURI", "prefix"} {
					if !schemaFields[f] {
						c.fail("6.6.2.3.3-1", "an extension schema has no %s", f)
					}
				}
			}
			text = ""
		}
	}
	for ns, prop := range used {
		if ns != "" && !predefinedXMP[ns] && !described[ns] {
			c.fail("6.6.2.3.1-1", "property %s of namespace %s has no extension schema", prop, ns)
		}
	}
	if part == "" || conformance == "" {
		c.fail("6.6.4-1", "the XMP has no pdfaid:part and pdfaid:conformance")
		return
	}
	if want := c.level[:1]; part != want {
		c.fail("6.6.4-2", "pdfaid:part is %s, the document asked for %s", part, want)
	}
	if want := strings.ToUpper(c.level[1:]); conformance != want {
		c.fail("6.6.4-3", "pdfaid:conformance is %s, the document asked for %s", conformance, want)
	}
}

// files checks the embedded files (PDF/A-3 6.8).
func (c *pdfaChecker) files(want []string) {
	x := c.ctx.XRefTable
	found := map[string]bool{}
	defer func() {
		for _, name := range want {
			if !found[name] {
				c.fail("6.8-2", "%s is not embedded with a file specification", name)
			}
		}
	}()
	for nr, fs := range c.fileSpecs {
		name := textEntry(fs, "UF")
		if _, ok := fs.Find("F"); !ok || name == nil {
			c.fail("6.8-2", "the file specification (object %d) lacks F or UF", nr)
		}
		label := fmt.Sprint(nr)
		if name != nil {
			label = *name
			found[label] = true
		}
		if r := fs.NameEntry("AFRelationship"); r == nil {
			c.fail("6.8-3", "embedded file %s has no AFRelationship", label)
		}
		if !c.af[nr] {
			c.fail("6.8-4", "embedded file %s is not listed in an AF array", label)
		}
		ef, err := x.DereferenceDict(fs["EF"])
		if err != nil || ef == nil {
			continue
		}
		sd, _, err := x.DereferenceStreamDict(ef["F"])
		if err != nil || sd == nil {
			continue
		}
		sub := sd.Subtype()
		if sub == nil || !mimeRE.MatchString(*sub) {
			c.fail("6.8-1", "embedded file %s has no MIME type as Subtype", label)
		}
		if slices.Contains(want, label) {
			if err := sd.Decode(); err == nil {
				c.content[label] = sd.Content
			}
		}
	}
}

// textEntry is a text string entry, literal or hex, decoded.
func textEntry(d types.Dict, key string) *string {
	o, ok := d.Find(key)
	if !ok {
		return nil
	}
	s, err := types.StringOrHexLiteral(o)
	if err != nil {
		return nil
	}
	return s
}

var mimeRE = regexp.MustCompile(`^[-\w+.]+/[-\w+.]+$`)

// EmbeddedFile returns the bytes of the embedded file named name, or nil.
func EmbeddedFile(file []byte, name string) ([]byte, error) {
	ctx, err := api.ReadContext(bytes.NewReader(file), config())
	if err != nil {
		return nil, fmt.Errorf("pdf: read: %w", err)
	}
	x := ctx.XRefTable
	for nr, e := range x.Table {
		if e == nil || e.Free {
			continue
		}
		o, err := x.Dereference(*types.NewIndirectRef(nr, 0))
		if err != nil {
			continue
		}
		d, ok := o.(types.Dict)
		if !ok {
			continue
		}
		uf := textEntry(d, "UF")
		if uf == nil || *uf != name {
			continue
		}
		ef, err := x.DereferenceDict(d["EF"])
		if err != nil || ef == nil {
			continue
		}
		sd, _, err := x.DereferenceStreamDict(ef["F"])
		if err != nil || sd == nil {
			continue
		}
		if err := sd.Decode(); err != nil {
			return nil, fmt.Errorf("pdf: decode %s: %w", name, err)
		}
		return sd.Content, nil
	}
	return nil, nil
}
