package pdfw

import (
	"encoding/binary"
	"math"
	"sort"
	"strings"
	"sync"
)

// PDF/A (ISO 19005-2 and -3): what an archival file adds to phantom's
// output. Everything else the standard asks phantom writes anyway: every
// font embedded, with a ToUnicode map; no encryption, no JavaScript, no
// external content; link annotations printable (/F 4); a file identifier;
// PDF 1.7 syntax.
//
//   - XMP metadata in the catalog, unfiltered, claiming the part and
//     conformance (pdfaid), with the title and producer the Info
//     dictionary holds (the two must agree).
//   - An output intent (GTS_PDFA1) with an sRGB ICC profile, which gives
//     the DeviceRGB and DeviceGray colours phantom paints their meaning.

// Conformance names a PDF/A part and level.
type Conformance string

// The PDF/A levels phantom writes: "b" (the appearance is preserved) and
// "u" (also, every character maps to Unicode, which phantom's text always
// does).
const (
	PDFA2B Conformance = "2b"
	PDFA2U Conformance = "2u"
	PDFA3B Conformance = "3b"
	PDFA3U Conformance = "3u"
)

// valid reports whether c is a level phantom writes.
func (c Conformance) valid() bool {
	switch c {
	case PDFA2B, PDFA2U, PDFA3B, PDFA3U:
		return true
	}
	return false
}

// writePDFA writes the XMP metadata, and for PDF/A the output intent, and
// returns the catalog entries that point at them.
func (w *writer) writePDFA(title string) []byte {
	c := w.opt.PDFA
	meta := w.alloc()
	extra := w.opt.XMP
	if w.opt.PDFUA {
		extra = pdfuaXMP(extra, c != "")
	}
	w.putStream(meta, []byte("/Type/Metadata/Subtype/XML"), xmpPacket(c, title, w.opt.Producer, extra))
	if c == "" {
		out := append([]byte(nil), "/Metadata "...)
		return appendRef(out, meta)
	}
	icc := w.alloc()
	w.putFlate(icc, []byte("/N 3"), sRGBProfile())
	intent := w.alloc()
	b := append([]byte(nil), "<</Type/OutputIntent/S/GTS_PDFA1/OutputConditionIdentifier(sRGB IEC61966-2.1)/Info(sRGB IEC61966-2.1)/DestOutputProfile "...)
	b = appendRef(b, icc)
	b = append(b, ">>"...)
	w.putObj(intent, b)
	out := append([]byte(nil), "/Metadata "...)
	out = appendRef(out, meta)
	out = append(out, "/OutputIntents["...)
	out = appendRef(out, intent)
	return append(out, ']')
}

// xmpPacket is the document's XMP metadata: the PDF/A identification,
// and the title and producer as the Info dictionary has them.
func xmpPacket(c Conformance, title, producer, extra string) []byte {
	var b strings.Builder
	b.WriteString("<?xpacket begin=\"\ufeff\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n")
	b.WriteString(`<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">` + "\n")
	if c != "" {
		b.WriteString(`<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">`)
		b.WriteString("<pdfaid:part>" + string(c[:1]) + "</pdfaid:part><pdfaid:conformance>" + strings.ToUpper(string(c[1:])) + "</pdfaid:conformance></rdf:Description>\n")
	}
	if title != "" {
		b.WriteString(`<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">`)
		b.WriteString(xmlEscape(title))
		b.WriteString("</rdf:li></rdf:Alt></dc:title></rdf:Description>\n")
	}
	if producer != "" {
		b.WriteString(`<rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/"><pdf:Producer>`)
		b.WriteString(xmlEscape(producer))
		b.WriteString("</pdf:Producer></rdf:Description>\n")
	}
	b.WriteString(extra)
	b.WriteString("</rdf:RDF></x:xmpmeta>\n<?xpacket end=\"w\"?>")
	return []byte(b.String())
}

// pdfuaXMP adds the PDF/UA-1 claim (ISO 14289-1 5: pdfuaid:part 1) to
// the rest of the XMP, extra. In a PDF/A file the pdfuaid schema is not one
// PDF/A predefines, so its extension schema is described too (ISO 19005-2
// 6.6.2.3), in the bag of extension schemas extra already has (an
// e-invoice's) or in one of its own.
func pdfuaXMP(extra string, pdfa bool) string {
	s := extra + `<rdf:Description rdf:about="" xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/"><pdfuaid:part>1</pdfuaid:part></rdf:Description>` + "\n"
	if !pdfa {
		return s
	}
	const bag = `<pdfaExtension:schemas><rdf:Bag>`
	schema := `<rdf:li rdf:parseType="Resource">` +
		`<pdfaSchema:schema>PDF/UA Universal Accessibility Schema</pdfaSchema:schema>` +
		`<pdfaSchema:namespaceURI>http://www.aiim.org/pdfua/ns/id/</pdfaSchema:namespaceURI>` +
		`<pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>` +
		`<pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType="Resource">` +
		`<pdfaProperty:name>part</pdfaProperty:name><pdfaProperty:valueType>Integer</pdfaProperty:valueType>` +
		`<pdfaProperty:category>internal</pdfaProperty:category><pdfaProperty:description>Indicates, which part of ISO 14289 standard is followed</pdfaProperty:description>` +
		`</rdf:li></rdf:Seq></pdfaSchema:property></rdf:li>`
	if i := strings.Index(s, bag); i >= 0 {
		return s[:i+len(bag)] + schema + s[i+len(bag):]
	}
	return s + `<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">` +
		bag + schema + `</rdf:Bag></pdfaExtension:schemas></rdf:Description>` + "\n"
}

// xmlEscape escapes text for XML content, dropping what XML 1.0 cannot
// hold (controls other than tab and newlines).
func xmlEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r < 0x20 && r != '\t' && r != '\n' && r != '\r', r == 0xfffe, r == 0xffff:
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

var (
	iccOnce sync.Once
	iccData []byte
)

// sRGBProfile is an ICC version 2 display profile for sRGB (IEC
// 61966-2.1), made from the standard's numbers: the primaries and white
// point adapted to D50 (the profile connection space) with the Bradford
// transform, and the sRGB transfer curve sampled 1,024 times.
func sRGBProfile() []byte {
	iccOnce.Do(func() { iccData = buildSRGBProfile() })
	return iccData
}

func buildSRGBProfile() []byte {
	be := binary.BigEndian
	s15 := func(v float64) []byte {
		var b [4]byte
		be.PutUint32(b[:], uint32(int32(math.Round(v*65536))))
		return b[:]
	}
	xyz := func(x, y, z float64) []byte {
		b := []byte("XYZ \x00\x00\x00\x00")
		b = append(b, s15(x)...)
		b = append(b, s15(y)...)
		return append(b, s15(z)...)
	}
	desc := func(s string) []byte {
		b := []byte("desc\x00\x00\x00\x00")
		b = be.AppendUint32(b, uint32(len(s)+1))
		b = append(b, s...)
		b = append(b, 0)
		b = append(b, make([]byte, 4+4+2+1+67)...) // no Unicode or ScriptCode description
		return b
	}
	text := func(s string) []byte {
		b := []byte("text\x00\x00\x00\x00")
		b = append(b, s...)
		return append(b, 0)
	}
	curve := func() []byte {
		const n = 1024
		b := []byte("curv\x00\x00\x00\x00")
		b = be.AppendUint32(b, n)
		for i := 0; i < n; i++ {
			v := float64(i) / (n - 1)
			if v <= 0.04045 {
				v /= 12.92
			} else {
				v = math.Pow((v+0.055)/1.055, 2.4)
			}
			b = be.AppendUint16(b, uint16(math.Round(v*65535)))
		}
		return b
	}
	trc := curve()
	// The sRGB primaries in XYZ (D65), adapted to D50 with Bradford: the
	// columns of the matrix ICC profiles of sRGB carry.
	tags := []struct {
		sig  string
		data []byte
	}{
		{"desc", desc("sRGB IEC61966-2.1")},
		{"cprt", text("No copyright, use freely")},
		{"wtpt", xyz(0.9642, 1.0, 0.8249)},
		{"rXYZ", xyz(0.4360747, 0.2225045, 0.0139322)},
		{"gXYZ", xyz(0.3850649, 0.7168786, 0.0971045)},
		{"bXYZ", xyz(0.1430804, 0.0606169, 0.7141733)},
		{"rTRC", trc},
		{"gTRC", trc},
		{"bTRC", trc},
	}
	head := make([]byte, 128)
	body := []byte{}
	table := be.AppendUint32(nil, uint32(len(tags)))
	off := 128 + 4 + 12*len(tags)
	shared := map[*byte]uint32{}
	for _, t := range tags {
		at, ok := shared[&t.data[0]]
		if !ok {
			for (off+len(body))%4 != 0 {
				body = append(body, 0)
			}
			at = uint32(off + len(body))
			shared[&t.data[0]] = at
			body = append(body, t.data...)
		}
		table = append(table, t.sig...)
		table = be.AppendUint32(table, at)
		table = be.AppendUint32(table, uint32(len(t.data)))
	}
	size := 128 + len(table) + len(body)
	be.PutUint32(head[0:], uint32(size))
	copy(head[4:], "none")
	be.PutUint32(head[8:], 0x02100000) // version 2.1
	copy(head[12:], "mntr")
	copy(head[16:], "RGB ")
	copy(head[20:], "XYZ ")
	// Creation date: fixed, so equal documents stay equal bytes.
	for i, v := range []uint16{2026, 1, 1, 0, 0, 0} {
		be.PutUint16(head[24+2*i:], v)
	}
	copy(head[36:], "acsp")
	be.PutUint32(head[64:], 0) // perceptual intent
	copy(head[68:], s15(0.9642))
	copy(head[72:], s15(1.0))
	copy(head[76:], s15(0.8249))
	out := append(head, table...)
	return append(out, body...)
}

// validRelationship reports whether r is an AFRelationship PDF defines.
func validRelationship(r string) bool {
	switch r {
	case "Data", "Source", "Alternative", "Supplement", "Unspecified":
		return true
	}
	return false
}

// writeAttachments embeds the attachments: each an embedded file stream
// (its media type as /Subtype, its size) and a file specification with
// /F and /UF, /Desc and /AFRelationship. It returns the entry of the
// catalog's /Names dictionary that lists them (an EmbeddedFiles name
// tree) and the catalog's /AF entry.
func (w *writer) writeAttachments() (embedded, af []byte) {
	if len(w.opt.Attachments) == 0 {
		return nil, nil
	}
	var specs []int
	names := append([]byte(nil), "/EmbeddedFiles<</Names["...)
	for _, a := range w.opt.Attachments {
		file := w.alloc()
		d := append([]byte(nil), "/Type/EmbeddedFile"...)
		if a.MIME != "" {
			d = append(d, "/Subtype"...)
			d = appendName(d, a.MIME)
		}
		d = append(d, "/Params<</Size "...)
		d = appendInt(d, len(a.Data))
		d = append(d, ">>"...)
		w.putFlate(file, d, a.Data)
		spec := w.alloc()
		b := append([]byte(nil), "<</Type/Filespec/F"...)
		b = appendTextString(b, a.Name)
		b = append(b, "/UF"...)
		b = appendTextString(b, a.Name)
		if a.Description != "" {
			b = append(b, "/Desc"...)
			b = appendTextString(b, a.Description)
		}
		b = append(b, "/AFRelationship/"...)
		b = append(b, a.Relationship...)
		b = append(b, "/EF<</F "...)
		b = appendRef(b, file)
		b = append(b, "/UF "...)
		b = appendRef(b, file)
		b = append(b, ">>>>"...)
		w.putObj(spec, b)
		specs = append(specs, spec)
	}
	// The name tree's keys in order.
	order := make([]int, len(specs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return w.opt.Attachments[order[i]].Name < w.opt.Attachments[order[j]].Name })
	for _, i := range order {
		names = appendTextString(names, w.opt.Attachments[i].Name)
		names = append(names, ' ')
		names = appendRef(names, specs[i])
	}
	names = append(names, "]>>"...)
	af = append([]byte(nil), "/AF["...)
	for i, s := range specs {
		if i > 0 {
			af = append(af, ' ')
		}
		af = appendRef(af, s)
	}
	return names, append(af, ']')
}
