package sign

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/platen/platen/pdf"
)

// Options is one signature.
type Options struct {
	Identity *Identity
	// Reason and Location are the signature dictionary's; either may be
	// empty.
	Reason, Location string
	// Visible draws a block naming the signer, the time, the reason and
	// the location at the foot of the last page, which the signature's
	// widget covers; otherwise the widget has no area.
	Visible bool
	// EmbedFonts draws the visible block in embedded fonts: a PDF/A
	// document needs it.
	EmbedFonts bool
	// Time is the signing time written in the signature dictionary (/M).
	Time time.Time
	// TSA, when set, time-stamps the signature: PAdES B-T. Without it the
	// signature is B-B.
	TSA *TSA
}

// Signature is what a signed document records of its signature.
type Signature struct {
	// Level is "PAdES-B-B" or "PAdES-B-T".
	Level       string    `json:"level"`
	Signer      string    `json:"signer"`
	Fingerprint string    `json:"certificateSha256"`
	SignedAt    time.Time `json:"signedAt"`
	// TimestampedAt is the time-stamp authority's time (B-T).
	TimestampedAt *time.Time `json:"timestampedAt,omitempty"`
	Reason        string     `json:"reason,omitempty"`
	Location      string     `json:"location,omitempty"`
	Appearance    string     `json:"appearance"`
}

// ErrSigned is pdf.ErrSigned: a signed PDF is never changed, nor signed
// again.
var ErrSigned = pdf.ErrSigned

// IsSigned reports whether a PDF carries a signature (pdf.IsSigned).
func IsSigned(file []byte) bool { return pdf.IsSigned(file) }

var byteRangeRE = regexp.MustCompile(`/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]`)

// Room reserved in /Contents for the CMS beyond what reserve counts (the
// chain, the issuer's name twice more, the serial, the signature value):
// the structure and the other attributes take under 1 KB; a time-stamp
// token with its authority's chain, up to 16 KB.
const (
	reserveSigner = 1 << 10
	reserveToken  = 16 << 10
)

// reserve is the room /Contents needs for a CMS by id.
func reserve(id *Identity, tsa bool) int {
	n := reserveSigner
	for _, c := range id.Chain {
		n += len(c.Raw)
	}
	signer := id.Chain[0]
	n += 2*len(signer.RawIssuer) + 2*len(signer.SerialNumber.Bytes())
	switch k := id.Key.Public().(type) {
	case *rsa.PublicKey:
		n += k.Size()
	case *ecdsa.PublicKey:
		n += 2*((k.Curve.Params().BitSize+7)/8) + 16
	}
	if tsa {
		n += reserveToken
	}
	return n
}

// PDF signs a finished PDF with a PAdES baseline signature (ETSI EN 319
// 142-1): an incremental update that adds the signature field and its
// dictionary, and a CMS signature (ETSI.CAdES.detached) over every byte but
// the signature's own. The bytes before the update are kept as they were.
func PDF(ctx context.Context, file []byte, o Options) ([]byte, Signature, error) {
	if IsSigned(file) {
		return nil, Signature{}, ErrSigned
	}
	at := o.Time.UTC().Truncate(time.Second)
	sig := Signature{Level: "PAdES-B-B", Signer: o.Identity.Signer(), Fingerprint: o.Identity.Fingerprint(), SignedAt: at,
		Reason: o.Reason, Location: o.Location, Appearance: "invisible"}
	if o.TSA != nil {
		sig.Level = "PAdES-B-T"
	}
	rect := [4]float64{}
	if o.Visible {
		sig.Appearance = "visible"
		lines := []string{"Digitally signed by " + sig.Signer, "Date: " + at.Format("2006-01-02 15:04:05") + " UTC"}
		if o.Reason != "" {
			lines = append(lines, "Reason: "+o.Reason)
		}
		if o.Location != "" {
			lines = append(lines, "Location: "+o.Location)
		}
		var err error
		if file, rect, err = pdf.SignatureBlock(file, lines, o.EmbedFonts); err != nil {
			return nil, Signature{}, err
		}
	}
	u, err := newUpdate(file)
	if err != nil {
		return nil, Signature{}, err
	}
	out, cs, ce, err := u.write(o, at, rect, reserve(o.Identity, o.TSA != nil))
	if err != nil {
		return nil, Signature{}, err
	}
	h := sha256.New()
	h.Write(out[:cs])
	h.Write(out[ce:])
	cms, err := signCMS(o.Identity, cmsInput{contentType: oidData, digest: h.Sum(nil)})
	if err != nil {
		return nil, Signature{}, err
	}
	if o.TSA != nil {
		sd, err := parseSignedData(cms)
		if err != nil {
			return nil, Signature{}, err
		}
		imprint := sha256.Sum256(sd.SignerInfos[0].Signature)
		token, when, err := o.TSA.Stamp(ctx, imprint[:])
		if err != nil {
			return nil, Signature{}, err
		}
		if cms, err = addUnsignedAttr(cms, oidTimeStampToken, token); err != nil {
			return nil, Signature{}, err
		}
		when = when.UTC()
		sig.TimestampedAt = &when
	}
	enc := hex.EncodeToString(cms)
	if len(enc) > ce-cs-2 {
		return nil, Signature{}, fmt.Errorf("sign: the signature takes %d bytes, over the %d reserved", len(cms), (ce-cs-2)/2)
	}
	copy(out[cs+1:], enc)
	return out, sig, nil
}

// update is an incremental update being made to a PDF.
type update struct {
	file      []byte
	ctx       *model.Context
	prev      int // the last cross-reference section's offset
	next      int // the next free object number
	offsets   map[int]int
	gens      map[int]int
	buf       bytes.Buffer
	usesXRefs bool // the file has cross-reference streams
}

var startxrefRE = regexp.MustCompile(`startxref\s+(\d+)\s+%%EOF`)

func newUpdate(file []byte) (*update, error) {
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	ctx, err := api.ReadContext(bytes.NewReader(file), conf)
	if err != nil {
		return nil, fmt.Errorf("sign: read the PDF: %w", err)
	}
	if ctx.Encrypt != nil {
		return nil, errors.New("sign: the PDF is encrypted")
	}
	if err := ctx.EnsurePageCount(); err != nil {
		return nil, fmt.Errorf("sign: read the PDF: %w", err)
	}
	all := startxrefRE.FindAllSubmatch(file, -1)
	if len(all) == 0 || ctx.Root == nil || ctx.Size == nil {
		return nil, errors.New("sign: the PDF has no trailer to update")
	}
	prev, _ := strconv.Atoi(string(all[len(all)-1][1]))
	u := &update{file: file, ctx: ctx, prev: prev, next: *ctx.Size, offsets: map[int]int{}, gens: map[int]int{},
		usesXRefs: ctx.Read.UsingXRefStreams}
	u.buf.Write(file)
	if !bytes.HasSuffix(file, []byte("\n")) {
		u.buf.WriteByte('\n')
	}
	return u, nil
}

// object starts object nr in the update.
func (u *update) object(nr, gen int, body string) {
	u.offsets[nr], u.gens[nr] = u.buf.Len(), gen
	fmt.Fprintf(&u.buf, "%d %d obj\n%s\nendobj\n", nr, gen, body)
}

func (u *update) alloc() int {
	u.next++
	return u.next - 1
}

// placeholder is the byte range before it is known: as wide as any offset
// it can hold.
const placeholder = "[0 0000000000 0000000000 0000000000]"

// write adds the signature field, its widget on the page it belongs to, the
// form, the signature dictionary with room for the CMS, and the
// cross-reference section. It returns the file and where /Contents' hex
// string starts and ends (its angle brackets included).
func (u *update) write(o Options, at time.Time, rect [4]float64, reserve int) ([]byte, int, int, error) {
	pageNr := 1
	if o.Visible {
		pageNr = u.ctx.PageCount
	}
	pageDict, pageRef, _, err := u.ctx.PageDict(pageNr, false)
	if err != nil || pageRef == nil {
		return nil, 0, 0, fmt.Errorf("sign: page %d: %v", pageNr, err)
	}
	sigNr, widgetNr, formNr := u.alloc(), u.alloc(), u.alloc()

	// The signature dictionary, with room for the CMS in hex.
	var sd strings.Builder
	sd.WriteString("<</Type/Sig/Filter/Adobe.PPKLite/SubFilter/ETSI.CAdES.detached/ByteRange " + placeholder + "/Contents <")
	contentsAt := len(sd.String()) - 1
	sd.WriteString(strings.Repeat("0", 2*reserve))
	sd.WriteString(">/M " + textString(at.Format("D:20060102150405+00'00'")) + "/Name " + textString(o.Identity.Signer()))
	if o.Reason != "" {
		sd.WriteString("/Reason " + textString(o.Reason))
	}
	if o.Location != "" {
		sd.WriteString("/Location " + textString(o.Location))
	}
	sd.WriteString(">>")
	u.object(sigNr, 0, sd.String())
	sigAt := u.offsets[sigNr] + len(fmt.Sprintf("%d 0 obj\n", sigNr))
	cs := sigAt + contentsAt
	ce := cs + 2*reserve + 2

	// The widget: no area when invisible; over the drawn block, with an
	// empty appearance (the block is page content), when visible.
	widget := fmt.Sprintf("<</Type/Annot/Subtype/Widget/FT/Sig/T %s/V %d 0 R/F 132/P %d %d R/Rect [%s %s %s %s]",
		textString("Signature "+strconv.Itoa(sigNr)), sigNr, pageRef.ObjectNumber.Value(), pageRef.GenerationNumber.Value(),
		num(rect[0]), num(rect[1]), num(rect[2]), num(rect[3]))
	if o.Visible {
		apNr := u.alloc()
		widget += fmt.Sprintf("/AP <</N %d 0 R>>", apNr)
		u.object(apNr, 0, fmt.Sprintf("<</Type/XObject/Subtype/Form/BBox [0 0 %s %s]/Resources <<>>/Length 0>>\nstream\n\nendstream",
			num(rect[2]-rect[0]), num(rect[3]-rect[1])))
	}
	u.object(widgetNr, 0, widget+">>")

	// The form: the fields it had, and the signature's; SigFlags 3 says
	// the document is signed and changes are to be appended.
	form := types.Dict{}
	var fields types.Array
	if old, err := u.ctx.DereferenceDict(u.ctx.RootDict["AcroForm"]); err == nil && old != nil {
		for k, v := range old {
			form[k] = v
		}
		if fs, err := u.ctx.DereferenceArray(old["Fields"]); err == nil {
			fields = append(fields, fs...)
		}
	}
	form["Fields"] = append(fields, *types.NewIndirectRef(widgetNr, 0))
	form["SigFlags"] = types.Integer(3)
	form.Delete("NeedAppearances")
	u.object(formNr, 0, form.PDFString())

	// The page, with the widget among its annotations.
	page := types.Dict{}
	for k, v := range pageDict {
		page[k] = v
	}
	annots, _ := u.ctx.DereferenceArray(pageDict["Annots"])
	page["Annots"] = append(slices.Clone(annots), *types.NewIndirectRef(widgetNr, 0))
	u.object(pageRef.ObjectNumber.Value(), pageRef.GenerationNumber.Value(), page.PDFString())

	// The catalog, pointing at the form.
	root := types.Dict{}
	for k, v := range u.ctx.RootDict {
		root[k] = v
	}
	root["AcroForm"] = *types.NewIndirectRef(formNr, 0)
	u.object(u.ctx.Root.ObjectNumber.Value(), u.ctx.Root.GenerationNumber.Value(), root.PDFString())

	u.xref()
	out := u.buf.Bytes()
	br := fmt.Sprintf("[0 %d %d %d]", cs, ce, len(out)-ce)
	if len(br) > len(placeholder) {
		return nil, 0, 0, errors.New("sign: the PDF is too large to sign")
	}
	at0 := sigAt + bytes.Index(out[sigAt:], []byte(placeholder))
	copy(out[at0:], br+strings.Repeat(" ", len(placeholder)-len(br)))
	return out, cs, ce, nil
}

// xref writes the update's cross-reference section and trailer, in the
// form the file already uses: a table, or a cross-reference stream.
func (u *update) xref() {
	var trailer strings.Builder
	fmt.Fprintf(&trailer, "/Root %d %d R", u.ctx.Root.ObjectNumber.Value(), u.ctx.Root.GenerationNumber.Value())
	if u.ctx.Info != nil {
		fmt.Fprintf(&trailer, "/Info %d %d R", u.ctx.Info.ObjectNumber.Value(), u.ctx.Info.GenerationNumber.Value())
	}
	if len(u.ctx.ID) > 0 {
		trailer.WriteString("/ID " + u.ctx.ID.PDFString())
	}
	fmt.Fprintf(&trailer, "/Prev %d", u.prev)
	if u.usesXRefs {
		xrefNr := u.alloc()
		u.offsets[xrefNr] = u.buf.Len()
		nrs := u.numbers()
		var index strings.Builder
		var data []byte
		for _, nr := range nrs {
			fmt.Fprintf(&index, "%d 1 ", nr)
			off := u.offsets[nr]
			data = append(data, 1, byte(off>>24), byte(off>>16), byte(off>>8), byte(off), byte(u.gens[nr]>>8), byte(u.gens[nr]))
		}
		fmt.Fprintf(&u.buf, "%d 0 obj\n<</Type/XRef/Size %d/W [1 4 2]/Index [%s]%s/Length %d>>\nstream\n", xrefNr, u.next,
			strings.TrimSpace(index.String()), trailer.String(), len(data))
		u.buf.Write(data)
		fmt.Fprintf(&u.buf, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", u.offsets[xrefNr])
		return
	}
	at := u.buf.Len()
	u.buf.WriteString("xref\n")
	for _, nr := range u.numbers() {
		fmt.Fprintf(&u.buf, "%d 1\n%010d %05d n\r\n", nr, u.offsets[nr], u.gens[nr])
	}
	fmt.Fprintf(&u.buf, "trailer\n<</Size %d%s>>\nstartxref\n%d\n%%%%EOF\n", u.next, trailer.String(), at)
}

func (u *update) numbers() []int {
	var nrs []int
	for nr := range u.offsets {
		nrs = append(nrs, nr)
	}
	slices.Sort(nrs)
	return nrs
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }

// textString writes a PDF text string: literal when it is printable ASCII,
// UTF-16BE with its byte order mark otherwise.
func textString(s string) string {
	ascii := true
	for _, r := range s {
		ascii = ascii && r >= 0x20 && r < 0x7f
	}
	if ascii {
		r := strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`)
		return "(" + r.Replace(s) + ")"
	}
	b := []byte{0xfe, 0xff}
	for _, c := range utf16.Encode([]rune(s)) {
		b = append(b, byte(c>>8), byte(c))
	}
	return "<" + hex.EncodeToString(b) + ">"
}
