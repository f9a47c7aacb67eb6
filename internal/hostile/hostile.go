// Package hostile makes the inputs a key holder can send to spend a node's
// CPU and memory: PDFs that inflate or nest without end, templates that
// repeat without end, documents that would print for ever. The tests of
// every limit that stops them (docs/operator.md "Limits") send these, and
// only tests import this package.
package hostile

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"strings"
)

// pdf writes a PDF of the given objects (numbered from 1; object 1 is the
// catalog) with a correct cross-reference table, so that a reader takes
// the file at its word and the limits, not a repair, decide.
func pdf(objects ...[]byte) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(objects))
	for i, o := range objects {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n", i+1)
		b.Write(o)
		b.WriteString("\nendobj\n")
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objects)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objects)+1, xref)
	return b.Bytes()
}

// page is the objects of a one-page A4 document whose page dictionary
// carries extra, with Helvetica as F1 and content as object 4.
func page(extra string, content []byte) [][]byte {
	return [][]byte{
		[]byte("<< /Type /Catalog /Pages 2 0 R >>"),
		[]byte("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
		[]byte("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R " + extra + " >>"),
		content,
		[]byte("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"),
	}
}

// stream is a stream object of data, Flate-compressed at best compression.
func stream(data io.Reader) []byte {
	var z bytes.Buffer
	w, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	io.Copy(w, data)
	w.Close()
	return append(fmt.Appendf(nil, "<< /Length %d /Filter /FlateDecode >>\nstream\n", z.Len()), append(z.Bytes(), "\nendstream"...)...)
}

// FlateBombPDF is a one-page PDF whose content stream, about a
// thousandth of its size compressed, inflates to inflated bytes of
// spaces after one line of text: 1 GiB makes a file of about 1 MB.
func FlateBombPDF(inflated int64) []byte {
	text := "BT /F1 24 Tf 72 720 Td (Certificate of completion) Tj ET\n"
	body := io.MultiReader(strings.NewReader(text), io.LimitReader(repeat(' '), inflated-int64(len(text))))
	return pdf(page("", stream(body))...)
}

// NestedDictPDF is a one-page PDF whose page dictionary holds a
// dictionary nested depth deep (/A << /A << … >> >>).
func NestedDictPDF(depth int) []byte {
	return pdf(page("/Bomb "+strings.Repeat("<< /A ", depth)+"1"+strings.Repeat(" >>", depth), textStream())...)
}

// NestedArrayPDF is a one-page PDF whose page dictionary holds an array
// nested depth deep ([[[…]]]).
func NestedArrayPDF(depth int) []byte {
	return pdf(page("/Bomb "+strings.Repeat("[", depth)+"1"+strings.Repeat("]", depth), textStream())...)
}

// ManyObjectsPDF is a one-page PDF with n more objects, each a small
// dictionary the page's array of them refers to.
func ManyObjectsPDF(n int) []byte {
	objs := page("/Extra 6 0 R", textStream())
	refs := make([]string, n)
	for i := range refs {
		refs[i] = fmt.Sprintf("%d 0 R", i+7)
	}
	objs = append(objs, []byte("["+strings.Join(refs, " ")+"]"))
	for i := 0; i < n; i++ {
		objs = append(objs, fmt.Appendf(nil, "<< /N %d >>", i))
	}
	return pdf(objs...)
}

// SmallPDF is an ordinary one-page PDF with one line of text: what a
// limit must still let through.
func SmallPDF() []byte { return pdf(page("", textStream())...) }

func textStream() []byte {
	return stream(strings.NewReader("BT /F1 24 Tf 72 720 Td (Certificate of completion) Tj ET\n"))
}

// repeat is an endless reader of one byte.
type repeat byte

func (r repeat) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// TripleLoop is markup that repeats its innermost block len(items)³ times:
// with text, every repeat writes it; without, it only iterates.
func TripleLoop(withText bool) string {
	inner := ""
	if withText {
		inner = "<span>{{this}} and more text that fills the output</span>"
	}
	return "<html><body>{{#each items}}{{#each @root.items}}{{#each @root.items}}" + inner + "{{/each}}{{/each}}{{/each}}</body></html>"
}

// Items is n small numbers, the data a loop runs over.
func Items(n int) []any {
	items := make([]any, n)
	for i := range items {
		items[i] = i
	}
	return items
}

// HugeBox is markup with one box px pixels tall.
func HugeBox(px string) string {
	return `<html><body><div style="width:100px;height:` + px + `px;background:#def">tall</div></body></html>`
}

// ManyPages is markup that prints one page for each of its data's items
// (page-break-after on each), for {"items": Items(n)}.
func ManyPages() string {
	return `<html><body>{{#each items}}<div style="page-break-after:always">Page {{this}}</div>{{/each}}</body></html>`
}

// PageSize is markup whose CSS sets the printed page's size.
func PageSize(size string) string {
	return `<html><head><style>@page { size: ` + size + ` }</style></head><body><p>Hello</p></body></html>`
}
