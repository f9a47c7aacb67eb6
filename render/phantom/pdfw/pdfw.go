package pdfw

import (
	"crypto/sha256"
	"errors"
	"io"
	"sync"

	"github.com/platen/platen/render/phantom/draw"
)

// Options tunes the writer. The zero value is ready to use.
type Options struct {
	// Producer is written as the document's /Producer; empty means none.
	Producer string
	// Title, when set, replaces draw.Document.Title as the document title.
	Title string
	// Compression is the flate level (1 fastest .. 9 smallest) for content
	// streams, font programs and images; 0 means DefaultCompression.
	Compression int
	// NoObjectStreams writes every object at the top level with a classic
	// cross-reference table (PDF 1.4 style) instead of packing dictionaries
	// into a compressed object stream with a cross-reference stream.
	NoObjectStreams bool
	// PDFA, when set, makes the file PDF/A of that part and level
	// (pdfa.go); Write refuses a level it does not write.
	PDFA Conformance
	// PDFUA claims PDF/UA-1 (ISO 14289-1) in the XMP metadata; the
	// document must be tagged (draw.Document.Struct), or Write refuses it.
	PDFUA bool
	// Attachments are files embedded in the document as associated files
	// (/AF, PDF 2.0 and PDF/A-3): a Factur-X invoice's XML, say. PDF/A-2
	// allows none (Write refuses them).
	Attachments []Attachment
	// XMP is more RDF for the document's XMP metadata, written as it is
	// (an extension schema's description and properties); it must be
	// well-formed rdf:Description elements.
	XMP string
}

// Attachment is a file embedded in the document.
type Attachment struct {
	// Name is the file's name (factur-x.xml), Description its /Desc.
	Name, Description string
	// MIME is its media type (text/xml).
	MIME string
	// Relationship is its AFRelationship: Data, Source, Alternative,
	// Supplement or Unspecified.
	Relationship string
	Data         []byte
}

// ErrPDFA is returned for a PDF/A level the writer does not write.
var ErrPDFA = errors.New("pdfw: PDF/A levels written are 2b, 2u, 3b and 3u")

// ErrPDFAAttachment is returned for attachments in a PDF/A-2 file, which
// may embed only PDF/A files (PDF/A-3 embeds any).
var ErrPDFAAttachment = errors.New("pdfw: PDF/A-2 cannot embed files; ask for PDF/A-3")

// ErrAttachment is returned for an attachment without a name or with an
// AFRelationship PDF does not define.
var ErrAttachment = errors.New("pdfw: an attachment needs a name and an AFRelationship of Data, Source, Alternative, Supplement or Unspecified")

// ErrPDFACMYK is returned for a PDF/A document with a CMYK image: its
// sRGB output intent gives CMYK colours no meaning.
var ErrPDFACMYK = errors.New("a CMYK JPEG image cannot be in a PDF/A file with an sRGB output intent; give the image in RGB")

// ErrUntagged is returned for PDF/UA asked of an untagged document.
var ErrUntagged = errors.New("pdfw: PDF/UA needs a tagged document")

// ErrNoPages is returned for a document without pages: a PDF needs one.
var ErrNoPages = errors.New("pdfw: the document has no pages")

// maxPages bounds a document: far beyond any business document, and a guard
// against a runaway layout.
const maxPages = 100000

// ErrTooLarge is returned for a document beyond the writer's limits.
var ErrTooLarge = errors.New("pdfw: the document is too large")

// Write writes doc as a PDF to w. It fails only when doc has no pages, is
// too large, or uses a font it cannot embed (ErrFont); odd input (NaNs,
// empty paths, zero-size images, unbalanced pushes) is tolerated.
func Write(w io.Writer, doc *draw.Document, opt Options) error {
	if doc == nil || len(doc.Pages) == 0 {
		return ErrNoPages
	}
	if len(doc.Pages) > maxPages {
		return ErrTooLarge
	}
	if opt.PDFA != "" && !opt.PDFA.valid() {
		return ErrPDFA
	}
	if opt.PDFUA && doc.Struct == nil {
		return ErrUntagged
	}
	if len(opt.Attachments) > 0 && (opt.PDFA == PDFA2B || opt.PDFA == PDFA2U) {
		return ErrPDFAAttachment
	}
	for _, a := range opt.Attachments {
		if !validRelationship(a.Relationship) || a.Name == "" {
			return ErrAttachment
		}
	}
	pw := writerPool.Get().(*writer)
	defer pw.release()
	pw.opt = opt
	pw.level = opt.Compression
	if pw.level < 1 || pw.level > 9 {
		pw.level = DefaultCompression
	}
	if err := pw.document(doc); err != nil {
		return err
	}
	_, err := w.Write(pw.out)
	return err
}

var writerPool = sync.Pool{New: func() any {
	return &writer{
		fontOf:  make(map[*draw.Font]*docFont),
		t3Of:    make(map[t3Key]*type3Font),
		imageOf: make(map[*draw.Image]*docImage),
		gsOf:    make(map[gsKey]int),
	}
}}

// maxRetained bounds the buffers a pooled writer keeps between documents,
// so one huge document does not pin its memory for the life of the process.
const maxRetained = 4 << 20

// writer builds one PDF in memory. It is pooled: its buffers and maps are
// reused by the next document.
type writer struct {
	opt   Options
	level int
	err   error // the first font error; painting goes on, Write fails

	out    []byte   // the file
	objs   []objLoc // by object number; objs[0] is the free head
	stm    []byte   // the object stream's objects, when packing
	stmN   []int    // their numbers
	stmO   []int    // their offsets in stm
	stmNum int      // the object stream's number
	tmp    []byte   // a dictionary being built
	raw    []byte   // an uncompressed stream being built
	zbuf   sliceWriter
	rows   [4][]byte // PNG-filtered rows being compared
	sc     scratch

	catalog, pages, resources int
	pageRefs                  []int

	fonts   []*docFont
	fontOf  map[*draw.Font]*docFont
	t3      []*type3Font // fake bold (type3.go)
	t3Of    map[t3Key]*type3Font
	images  []*docImage
	imageOf map[*draw.Image]*docImage
	gstates []gsKey
	gsOf    map[gsKey]int
	forms   []int // transparency group XObjects, by resource index
	// shadings are the gradients' shading objects, by resource index.
	shadings []int

	c content
	// tags writes a tagged document's marks and structure tree.
	tags       tagWriter
	structRoot int
}

// objLoc says where an object is: at a file offset, or inside the object
// stream at an index.
type objLoc struct {
	inStm bool
	off   int // file offset, or index in the object stream
}

// scratch holds the subsetter's buffers, reused between documents.
type scratch struct {
	order                              []uint16
	newID                              map[uint16]uint16
	glyf, loca, hmtx, head, hhea, maxp []byte
	offsets                            []uint32
	font, font2                        []byte
	cffUse                             cffUse
	gsubrs, lsubrs, charset            []byte
	charStrings, private, top, strings []byte
	sidMap, strs                       []uint16
	spans                              []uint32
}

func (w *writer) release() {
	for _, f := range w.fonts {
		f.release()
	}
	clear(w.fontOf)
	clear(w.t3Of)
	w.t3 = w.t3[:0]
	clear(w.imageOf)
	clear(w.gsOf)
	w.fonts, w.images, w.gstates, w.forms, w.shadings = w.fonts[:0], w.images[:0], w.gstates[:0], w.forms[:0], w.shadings[:0]
	w.pageRefs = w.pageRefs[:0]
	w.objs, w.stmN, w.stmO = w.objs[:0], w.stmN[:0], w.stmO[:0]
	w.err = nil
	w.c.reset()
	if cap(w.out) > maxRetained || cap(w.raw) > maxRetained || cap(w.stm) > maxRetained || cap(w.sc.font) > maxRetained {
		return // let the collector have it
	}
	w.out, w.stm, w.tmp, w.raw = w.out[:0], w.stm[:0], w.tmp[:0], w.raw[:0]
	writerPool.Put(w)
}

// alloc reserves the next object number.
func (w *writer) alloc() int {
	if len(w.objs) == 0 {
		w.objs = append(w.objs, objLoc{}) // object 0, the head of the free list
	}
	w.objs = append(w.objs, objLoc{off: -1})
	return len(w.objs) - 1
}

// putObj writes a non-stream object: into the object stream when packing,
// else at the top level.
func (w *writer) putObj(num int, body []byte) {
	if !w.opt.NoObjectStreams {
		w.objs[num] = objLoc{inStm: true, off: len(w.stmN)}
		w.stmN = append(w.stmN, num)
		w.stmO = append(w.stmO, len(w.stm))
		w.stm = append(w.stm, body...)
		w.stm = append(w.stm, '\n')
		return
	}
	w.objs[num] = objLoc{off: len(w.out)}
	w.out = appendInt(w.out, num)
	w.out = append(w.out, " 0 obj\n"...)
	w.out = append(w.out, body...)
	w.out = append(w.out, "\nendobj\n"...)
}

// putStream writes a stream object at the top level: dict holds the
// dictionary's entries without the brackets and /Length.
func (w *writer) putStream(num int, dict, data []byte) {
	w.objs[num] = objLoc{off: len(w.out)}
	w.out = appendInt(w.out, num)
	w.out = append(w.out, " 0 obj\n<<"...)
	w.out = append(w.out, dict...)
	w.out = append(w.out, "/Length "...)
	w.out = appendInt(w.out, len(data))
	w.out = append(w.out, ">>stream\n"...)
	w.out = append(w.out, data...)
	w.out = append(w.out, "\nendstream\nendobj\n"...)
}

// putFlate compresses data and writes it as a stream with dict's entries.
func (w *writer) putFlate(num int, dict, data []byte) {
	w.zbuf.b = appendDeflate(w.zbuf.b[:0], data, w.level)
	d := append(dict, "/Filter/FlateDecode"...)
	w.putStream(num, d, w.zbuf.b)
}

// document writes the whole file into w.out.
func (w *writer) document(doc *draw.Document) error {
	w.out = append(w.out[:0], "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"...)
	w.stm = w.stm[:0]
	w.catalog = w.alloc()
	w.pages = w.alloc()
	w.resources = w.alloc()

	for range doc.Pages {
		w.pageRefs = append(w.pageRefs, w.alloc())
	}
	w.tags.reset(doc)
	w.structRoot = 0
	nav := w.prepareNav(doc)
	w.collectGlyphs(doc)
	if w.err != nil {
		return w.err
	}
	for i, p := range doc.Pages {
		w.page(i, p, nav)
	}
	if w.err != nil {
		return w.err
	}
	if err := w.writeFonts(); err != nil {
		return err
	}
	w.writeType3Fonts()
	w.writeImages()
	if w.err != nil {
		return w.err
	}
	w.writeResources()
	w.writePages()
	if w.tags.on {
		w.structRoot = w.writeStructTree(doc.Struct)
	}
	info := w.writeNav(doc, nav)
	w.finish(info)
	return nil
}

// writePages writes the page tree root: one flat /Kids array, with the
// shared resources inherited by every page.
func (w *writer) writePages() {
	b := append(w.tmp[:0], "<</Type/Pages/Kids["...)
	for i, r := range w.pageRefs {
		if i > 0 {
			b = append(b, ' ')
		}
		b = appendRef(b, r)
	}
	b = append(b, "]/Count "...)
	b = appendInt(b, len(w.pageRefs))
	b = append(b, "/Resources "...)
	b = appendRef(b, w.resources)
	b = append(b, ">>"...)
	w.tmp = b
	w.putObj(w.pages, b)
}

// finish writes the object stream, the cross-reference section and the
// trailer. The file identifier is a hash of everything before it, so equal
// documents get equal identifiers (14.4).
func (w *writer) finish(info int) {
	if !w.opt.NoObjectStreams && len(w.stmN) > 0 {
		stmNum := w.alloc()
		hdr := w.raw[:0]
		for i, n := range w.stmN {
			hdr = appendInt(hdr, n)
			hdr = append(hdr, ' ')
			hdr = appendInt(hdr, w.stmO[i])
			hdr = append(hdr, ' ')
		}
		first := len(hdr)
		hdr = append(hdr, w.stm...)
		w.raw = hdr
		d := append(w.tmp[:0], "/Type/ObjStm/N "...)
		d = appendInt(d, len(w.stmN))
		d = append(d, "/First "...)
		d = appendInt(d, first)
		w.tmp = d
		w.putFlate(stmNum, d, hdr)
		w.stmNum = stmNum
	}
	id := sha256.Sum256(w.out)
	trailer := func(b []byte) []byte {
		b = append(b, "/Size "...)
		b = appendInt(b, len(w.objs))
		b = append(b, "/Root "...)
		b = appendRef(b, w.catalog)
		if info > 0 {
			b = append(b, "/Info "...)
			b = appendRef(b, info)
		}
		b = append(b, "/ID[<"...)
		for k := 0; k < 2; k++ {
			if k == 1 {
				b = append(b, "><"...)
			}
			for _, c := range id[:16] {
				b = append(b, hexDigits[c>>4], hexDigits[c&15])
			}
		}
		return append(b, ">]"...)
	}
	if w.opt.NoObjectStreams {
		start := len(w.out)
		w.out = append(w.out, "xref\n0 "...)
		w.out = appendInt(w.out, len(w.objs))
		w.out = append(w.out, "\n0000000000 65535 f\r\n"...)
		for _, o := range w.objs[1:] {
			w.out = appendPadded(w.out, o.off, 10)
			w.out = append(w.out, " 00000 n\r\n"...)
		}
		w.out = append(w.out, "trailer\n<<"...)
		w.out = trailer(w.out)
		w.out = append(w.out, ">>\nstartxref\n"...)
		w.out = appendInt(w.out, start)
		w.out = append(w.out, "\n%%EOF\n"...)
		return
	}
	// A cross-reference stream (7.5.8), itself the last object.
	xref := w.alloc()
	start := len(w.out)
	w.objs[xref] = objLoc{off: start}
	ow := byteWidth(start)
	iw := byteWidth(len(w.stmN))
	if sw := byteWidth(w.stmNum); sw > ow {
		ow = sw
	}
	rows := w.raw[:0]
	for i, o := range w.objs {
		switch {
		case i == 0:
			rows = append(rows, 0)
			rows = appendBE(rows, 0, ow)
			rows = appendBE(rows, 0xffff, iw)
		case o.inStm:
			rows = append(rows, 2)
			rows = appendBE(rows, w.stmNum, ow)
			rows = appendBE(rows, o.off, iw)
		default:
			rows = append(rows, 1)
			rows = appendBE(rows, o.off, ow)
			rows = appendBE(rows, 0, iw)
		}
	}
	w.raw = rows
	d := append(w.tmp[:0], "/Type/XRef/W[1 "...)
	d = appendInt(d, ow)
	d = append(d, ' ')
	d = appendInt(d, iw)
	d = append(d, ']')
	d = trailer(d)
	w.tmp = d
	w.putFlate(xref, d, rows)
	w.out = append(w.out, "startxref\n"...)
	w.out = appendInt(w.out, start)
	w.out = append(w.out, "\n%%EOF\n"...)
}

// byteWidth is the number of bytes v needs, at least 1.
func byteWidth(v int) int {
	n := 1
	for v >= 256 {
		v >>= 8
		n++
	}
	return n
}

// appendBE appends v big-endian in n bytes.
func appendBE(b []byte, v, n int) []byte {
	for i := n - 1; i >= 0; i-- {
		b = append(b, byte(v>>(8*i)))
	}
	return b
}

// appendPadded appends v zero-padded to n digits.
func appendPadded(b []byte, v, n int) []byte {
	var tmp [20]byte
	for i := n - 1; i >= 0; i-- {
		tmp[i] = byte('0' + v%10)
		v /= 10
	}
	return append(b, tmp[:n]...)
}
