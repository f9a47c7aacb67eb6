package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// ErrSigned is a change asked of a PDF that is already signed: a signature
// is the last step (docs/signatures.md), and nothing may change the bytes it
// covers.
var ErrSigned = errors.New("the PDF is signed, and a signed PDF is never changed")

// IsSigned reports whether a PDF carries a signature: a signature field of
// its form whose value has a byte range. Text that merely looks like one
// (a title in the uncompressed XMP, say) does not count.
func IsSigned(file []byte) bool {
	// A signature dictionary is never in an object stream (its byte range
	// names file offsets): without the key in the file, there is none.
	if !bytes.Contains(file, []byte("/ByteRange")) {
		return false
	}
	ctx, err := api.ReadContext(bytes.NewReader(file), config())
	if err != nil {
		return false
	}
	return SignedContext(ctx)
}

// SignedContext is IsSigned of a PDF already read.
func SignedContext(ctx *model.Context) bool {
	form, err := ctx.DereferenceDict(ctx.RootDict["AcroForm"])
	if err != nil || form == nil {
		return false
	}
	seen := map[int]bool{}
	var signed func(o types.Object, depth int) bool
	signed = func(o types.Object, depth int) bool {
		if ref, ok := o.(types.IndirectRef); ok {
			if seen[ref.ObjectNumber.Value()] {
				return false
			}
			seen[ref.ObjectNumber.Value()] = true
		}
		f, err := ctx.DereferenceDict(o)
		if err != nil || f == nil || depth > 32 {
			return false
		}
		if ft, ok := f["FT"].(types.Name); ok && ft.Value() == "Sig" {
			if v, err := ctx.DereferenceDict(f["V"]); err == nil && v != nil && v["ByteRange"] != nil {
				return true
			}
		}
		kids, _ := ctx.DereferenceArray(f["Kids"])
		for _, k := range kids {
			if signed(k, depth+1) {
				return true
			}
		}
		return false
	}
	fields, _ := ctx.DereferenceArray(form["Fields"])
	for _, f := range fields {
		if signed(f, 0) {
			return true
		}
	}
	return false
}

// SignatureBlock draws a visible signature's block, the lines given in a
// bordered box, at the foot of the last page on the right, and returns the
// PDF and the box (llx, lly, urx, ury in points), which the signature's
// widget then covers. embedded draws it in fonts the PDF embeds, as a PDF/A
// document needs (see WatermarkEmbedded).
func SignatureBlock(file []byte, lines []string, embedded bool) ([]byte, [4]float64, error) {
	if IsSigned(file) {
		return nil, [4]float64{}, ErrSigned
	}
	font := "Helvetica"
	if embedded {
		if err := installWatermarkFonts(); err != nil {
			return nil, [4]float64{}, err
		}
		font = "LiberationSans"
	}
	n, err := PageCount(file)
	if err != nil {
		return nil, [4]float64{}, err
	}
	text := strings.Join(lines, "\n")
	wm, err := api.TextWatermark(text, "font:"+font+", points:8, rot:0, op:1, fillcol:#1f2a44, bgcol:#ffffff, border:0.75 #1f2a44, margins:6, "+
		"align:l, scale:1 abs, pos:br, off:-36 36", true, false, types.POINTS)
	if err != nil {
		return nil, [4]float64{}, fmt.Errorf("pdf: signature block: %w", err)
	}
	var out bytes.Buffer
	if err := api.AddWatermarks(bytes.NewReader(file), &out, []string{fmt.Sprint(n)}, wm, config()); err != nil {
		return nil, [4]float64{}, fmt.Errorf("pdf: signature block: %w", err)
	}
	r := wm.BbTrans.EnclosingRectangle(0)
	return out.Bytes(), [4]float64{r.LL.X, r.LL.Y, r.UR.X, r.UR.Y}, nil
}
