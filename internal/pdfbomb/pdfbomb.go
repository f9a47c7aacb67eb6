// Package pdfbomb writes the hostile uploads of issue 24 for the tests:
// well-formed PDFs of one page, each with one thing in it that costs far
// more to read than its size. They are built here rather than downloaded,
// in milliseconds.
package pdfbomb

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"strings"
)

// Build writes a PDF whose objects 1 to len(objs) have the given
// bodies (what stands between "obj" and "endobj"), with a correct
// cross-reference table and object 1 as its catalog.
func Build(objs ...[]byte) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(objs))
	for i, body := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n", i+1)
		b.Write(body)
		b.WriteString("\nendobj\n")
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<</Size %d /Root 1 0 R>>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

// OnePage is a PDF of one A4 page whose content stream (object 4) has
// the given dictionary entries and raw bytes, and whose page dictionary
// has extra entries.
func OnePage(pageExtra string, streamDict string, stream []byte, more ...[]byte) []byte {
	content := append([]byte(fmt.Sprintf("<</Length %d %s>>\nstream\n", len(stream), streamDict)), stream...)
	content = append(content, "\nendstream"...)
	objs := [][]byte{
		[]byte("<</Type /Catalog /Pages 2 0 R>>"),
		[]byte("<</Type /Pages /Kids [3 0 R] /Count 1>>"),
		[]byte("<</Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources <</Font <</F1 5 0 R>>>> /Contents 4 0 R " + pageExtra + ">>"),
		content,
		[]byte("<</Type /Font /Subtype /Type1 /BaseFont /Helvetica>>"),
	}
	return Build(append(objs, more...)...)
}

// PlainPage is an ordinary page of text: what every bomb is beside.
var PlainPage = []byte("BT /F1 24 Tf 72 720 Td (Certificate of Completion) Tj ET")

// zerosZlib is a zlib stream that inflates to n bytes of zeros (n a
// multiple of 1 MiB), at the best compression, about 1,000 to 1: 1 GiB is
// about 1 MB. Compressing 1 GiB takes seconds, so one flushed mebibyte of
// zeros is compressed and its steady-state block repeated, and the
// checksum written for the whole.
func zerosZlib(n int) []byte {
	const mib = 1 << 20
	var buf bytes.Buffer
	w, _ := zlib.NewWriterLevel(&buf, zlib.BestCompression)
	zero := make([]byte, mib)
	var cuts []int
	for range 3 {
		w.Write(zero)
		w.Flush()
		cuts = append(cuts, buf.Len())
	}
	w.Close()
	raw := buf.Bytes()
	block := raw[cuts[1]:cuts[2]]
	if !bytes.Equal(raw[cuts[0]:cuts[1]], block) {
		panic("pdfbomb: the compressor's blocks of zeros differ: cannot repeat one")
	}
	tail := raw[cuts[2] : len(raw)-4] // the final empty block
	out := append([]byte(nil), raw[:cuts[0]]...)
	out = append(out, bytes.Repeat(block, n/mib-1)...)
	out = append(out, tail...)
	// Adler-32 of n zeros: a stays 1, b counts the bytes.
	return binary.BigEndian.AppendUint32(out, uint32(n%65521)<<16|1)
}

// FlateContent is a page whose content stream is inflated bytes of zeros
// (white space to a content parser) in about a thousandth of that:
// FlateContent(1<<30) is the 1 MB PDF that inflates to 1 GiB. inflated is
// a multiple of 1 MiB.
func FlateContent(inflated int) []byte {
	return OnePage("", "/Filter /FlateDecode", zerosZlib(inflated))
}

// FlateImage is a page beside an image whose samples are inflated bytes
// of zeros: the bomb in what PDFium decodes only to draw.
func FlateImage(inflated int) []byte {
	return OnePage("", "", PlainPage, StreamObj("/Type /XObject /Subtype /Image /Width 16384 /Height 16384 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode", zerosZlib(inflated)))
}

// StreamObj is the body of a stream object.
func StreamObj(dict string, data []byte) []byte {
	out := append([]byte(fmt.Sprintf("<<%s /Length %d>>\nstream\n", dict, len(data))), data...)
	return append(out, "\nendstream"...)
}

// NestedDicts is a page with an entry nested depth dictionaries deep.
func NestedDicts(depth int) []byte {
	v := strings.Repeat("<</A ", depth) + "1" + strings.Repeat(">>", depth)
	return OnePage("/PieceInfo "+v, "", PlainPage)
}

// NestedArrays is a page with an entry nested depth arrays deep.
func NestedArrays(depth int) []byte {
	v := strings.Repeat("[", depth) + "1" + strings.Repeat("]", depth)
	return OnePage("/PieceInfo "+v, "", PlainPage)
}

// ManyObjects is a page beside n more objects that nothing refers to.
func ManyObjects(n int) []byte {
	more := make([][]byte, n)
	for i := range more {
		more[i] = []byte("null")
	}
	return OnePage("", "", PlainPage, more...)
}

// Zlib compresses b.
func Zlib(b []byte) []byte {
	var buf bytes.Buffer
	w := zlib.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// Hex writes b as ASCIIHex, without its closing >.
func Hex(b []byte) string { return fmt.Sprintf("%x", b) }

// ObjectStream is a page beside an object stream of n objects (each
// null), compressed: a few kilobytes that declare n objects.
func ObjectStream(n int) []byte {
	var head, body bytes.Buffer
	for i := range n {
		fmt.Fprintf(&head, "%d %d ", 6+i, i*5)
		body.WriteString("null ")
	}
	data := Zlib(append(head.Bytes(), body.Bytes()...))
	return OnePage("", "", PlainPage, StreamObj(fmt.Sprintf("/Type /ObjStm /N %d /First %d /Filter /FlateDecode", n, head.Len()), data))
}

// NestedInObjectStream is a page beside an object stream holding one
// array nested depth deep.
func NestedInObjectStream(depth int) []byte {
	obj := strings.Repeat("[", depth) + strings.Repeat("]", depth)
	head := "6 0 "
	data := Zlib([]byte(head + obj))
	return OnePage("", "", PlainPage, StreamObj(fmt.Sprintf("/Type /ObjStm /N 1 /First %d /Filter /FlateDecode", len(head)), data))
}
