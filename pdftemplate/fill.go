package pdftemplate

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/enums"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
	"github.com/klippa-app/go-pdfium/structs"
)

// ErrNoPiece is a fill naming a piece the PDF does not have.
var ErrNoPiece = errors.New("no such text piece")

// Fill is a new value for one piece. Align places it in the original's
// space: "left" (or empty) from where the original began, "right" to where
// it ended, "center" on its middle.
type Fill struct {
	PieceID string
	Text    string
	Align   string
	// Expect, when set, is the piece's text when the field was marked. A
	// later analysis (a newer version of this package) may number pieces
	// otherwise: the piece on the same page with this text, nearest the
	// numbered one, is filled, or the fill is refused.
	Expect string
}

// alignment is how much of the space a value leaves is put before it.
func alignment(align string) float64 {
	switch align {
	case "right":
		return 1
	case "center":
		return 0.5
	}
	return 0
}

// Filled is what happened to one piece.
type Filled struct {
	PieceID string `json:"pieceId"`
	// Font is the font the value was set in: the original's embedded font
	// when it has every glyph of the value and the value fits, else a
	// substitute, which Substituted and Reason tell.
	Font        string `json:"font"`
	Substituted bool   `json:"substituted"`
	Reason      string `json:"reason,omitempty"`
	// Original is the font of the piece the value replaced.
	Original string  `json:"original,omitempty"`
	Size     float64 `json:"size"`
	// Lines is how many lines the value took: more than one when it did not
	// fit on one even at the smallest size allowed.
	Lines int `json:"lines"`
	// Box is where the value's ink is on the page, as pieces' boxes are.
	Box Box `json:"box"`
}

// shrinkFloor is the smallest size a value shrinks to before it wraps
// (docs/design.md "Limits"): the larger of 6 pt and half the original's
// size, and never larger than the original.
func shrinkFloor(size float64) float64 { return min(size, max(6, size/2)) }

// FontDirs are where the substitute fonts are looked for (Debian's
// fonts-liberation and fonts-dejavu-core).
var FontDirs = []string{"/usr/share/fonts/truetype/liberation", "/usr/share/fonts/truetype/dejavu"}

// Fill replaces the text of the named pieces. The pieces' text-showing
// operators are deleted from the page's content stream, and nothing else
// in it changes, so copying or extracting the page no longer finds the old
// text and everything unmarked prints as before. The values are set, in the
// pieces' size and colour at their origin and baseline, on an overlay page
// stamped over the page.
//
// The fill reads the stored upload again under the engine's limits: its
// checks (cached for a PDF that passed them lately), and one time budget
// for all its PDFium work. A refusal's words name the limit or the piece;
// a reader's own error text goes to the log.
func (e *Engine) Fill(pdf []byte, fills []Fill, lim Limits) (out []byte, report []Filled, err error) {
	out, report, err = e.fill(e.deadline(), pdf, fills, lim)
	for _, known := range []error{ErrTooComplex, ErrUnreadable, ErrEncrypted, ErrTooLarge, ErrBusy, ErrNoPiece, ErrNotEditable} {
		if errors.Is(err, known) {
			return out, report, err
		}
	}
	if err != nil {
		return nil, nil, unreadable("the filled PDF could not be written", err)
	}
	return out, report, nil
}

func (e *Engine) fill(deadline time.Time, pdf []byte, fills []Fill, lim Limits) (out []byte, report []Filled, err error) {
	// pdfcpu runs outside PDFium's sandbox: a malformed file that reaches
	// a bug in it is refused, not a crash.
	defer func() {
		if r := recover(); r != nil {
			out, report, err = nil, nil, recovered(r)
		}
	}()
	if len(fills) == 0 {
		return pdf, []Filled{}, nil
	}
	a, err := e.analysis(deadline, pdf, lim)
	if err != nil {
		return nil, nil, err
	}
	byID := map[string]Piece{}
	for _, p := range a.Pieces {
		byID[p.ID] = p
	}
	perPage := map[int][]Fill{}
	asked := fills // the report names pieces as the caller did
	fills = slices.Clone(fills)
	for i, f := range fills {
		p, err := a.locate(f.PieceID, f.Expect)
		if err != nil {
			return nil, nil, err
		}
		fills[i].PieceID = p.ID
		perPage[p.Page] = append(perPage[p.Page], fills[i])
	}
	pages := make([]int, 0, len(perPage))
	for n := range perPage {
		pages = append(pages, n)
	}
	sort.Ints(pages)

	missing, err := e.missingGlyphs(deadline, pdf, lim, fills, byID)
	if err != nil {
		return nil, nil, err
	}
	ctx, err := readForEdit(pdf)
	if err != nil {
		return nil, nil, err
	}
	ed := &editor{ctx: ctx, pages: a.Pages, content: map[int]*pageContent{}, drops: map[int]map[int][]Part{}, inserts: map[int]map[int][]insertion{}}
	// A value is set in the original's own embedded font, in place of its
	// glyphs, when the font has a glyph for every character and it fits;
	// else it goes on the overlay in a substitute.
	inPlace := map[string]Filled{}
	reasons := map[string]string{} // why a value is not in place
	for _, f := range fills {
		piece := byID[f.PieceID]
		filled, why, err := ed.setInPlace(piece, f, missing[f.PieceID])
		switch {
		case err != nil:
			return nil, nil, err
		case filled.PieceID != "":
			inPlace[f.PieceID] = filled
		default:
			reasons[f.PieceID] = why
		}
		for _, part := range piece.Parts {
			ed.drop(piece.Page, part)
		}
	}
	if err := ed.apply(); err != nil {
		return nil, nil, err
	}
	var buf bytes.Buffer
	if err := api.WriteContext(ctx, &buf); err != nil {
		return nil, nil, err
	}
	edited := buf.Bytes()

	overlaid := map[int][]Fill{}
	var stamped []int // the pages with a value on the overlay
	for _, n := range pages {
		text := false
		for _, f := range perPage[n] {
			if _, ok := inPlace[f.PieceID]; ok {
				continue
			}
			overlaid[n] = append(overlaid[n], f)
			text = text || strings.TrimSpace(f.Text) != ""
		}
		if text {
			stamped = append(stamped, n)
		}
	}
	overlay, onOverlay, err := e.overlay(deadline, a.Pages, stamped, overlaid, byID)
	if err != nil {
		return nil, nil, err
	}
	if len(stamped) > 0 {
		if overlay, err = fixHyphens(overlay, fills); err != nil {
			return nil, nil, err
		}
	}
	for k, n := range stamped {
		wm, err := api.PDFWatermarkForReadSeeker(bytes.NewReader(overlay), k+1, "scalefactor:1 abs, position:bl, rotation:0, offset:0 0", true, false, types.POINTS)
		if err != nil {
			return nil, nil, fmt.Errorf("overlay of page %d: %w", n, err)
		}
		var out bytes.Buffer
		if err := api.AddWatermarks(bytes.NewReader(edited), &out, []string{strconv.Itoa(n)}, wm, model.NewDefaultConfiguration()); err != nil {
			return nil, nil, fmt.Errorf("overlay of page %d: %w", n, err)
		}
		edited = out.Bytes()
	}
	// The report, in the fills' order.
	byPiece := map[string]Filled{}
	for _, f := range onOverlay {
		byPiece[f.PieceID] = f
	}
	for id, f := range inPlace {
		byPiece[id] = f
	}
	report = make([]Filled, 0, len(fills))
	for i, f := range fills {
		r, ok := byPiece[f.PieceID]
		if !ok { // a blank value on a page with nothing to stamp
			r = Filled{PieceID: f.PieceID, Font: byID[f.PieceID].Font, Size: byID[f.PieceID].Size}
		}
		if r.Substituted {
			r.Reason = reasons[f.PieceID]
		}
		r.Original = byID[f.PieceID].Font
		r.PieceID = asked[i].PieceID
		report = append(report, r)
	}
	return edited, report, nil
}

// readForEdit reads a PDF with pdfcpu for editing its content streams.
func readForEdit(pdf []byte) (*model.Context, error) {
	ctx, err := api.ReadContext(bytes.NewReader(pdf), model.NewDefaultConfiguration())
	if err != nil {
		return nil, unreadable("its objects cannot be read for editing", err)
	}
	// Validation reads every object, those in object streams too: without
	// it WriteContext loses the ones nothing touched (pdfTeX's fonts).
	if err := api.ValidateContext(ctx); err != nil {
		return nil, unreadable("its objects do not follow the PDF standard closely enough to edit", err)
	}
	return ctx, nil
}

// editor collects the edits of pages' text operators and applies them:
// glyphs cut out (their advance kept, so the rest of a line stays put),
// and values written in place of the first glyphs they replace.
type editor struct {
	ctx     *model.Context
	pages   []Page
	content map[int]*pageContent
	// page → operator rank → the parts to cut, and the value written
	drops   map[int]map[int][]Part
	inserts map[int]map[int][]insertion
}

// insertion is a value written at a part's place: its TJ operands in the
// operator's font, and how far they move (thousandths of the font size).
type insertion struct {
	from    int
	tj      []byte
	advance float64
	// tf is the operator's own Tf size, and size, when set, the smaller
	// one the value shrank to.
	size, tf float64
	// lead is a gap before the value (aligning it right or centre), in
	// thousandths of the size it is set at.
	lead float64
	// spacing is what character and word spacing add to the value's
	// advance, in text space units.
	spacing float64
}

// pageContent is a page's content streams and their text operators.
type pageContent struct {
	streams   []contentStream
	resources types.Dict
	fonts     map[string]*pageFont
}

type contentStream struct {
	sd   *types.StreamDict
	nr   int
	ops  []textOp
	base int // the rank of its first operator among the page's
}

// page reads page n's content streams once.
func (ed *editor) page(n int) (*pageContent, error) {
	if pc, ok := ed.content[n]; ok {
		return pc, nil
	}
	d, _, inh, err := ed.ctx.PageDict(n, false)
	if err != nil || d == nil {
		return nil, fmt.Errorf("%w: page %d: %v", ErrUnreadable, n, err)
	}
	var refs []types.IndirectRef
	switch c := d["Contents"].(type) {
	case types.IndirectRef:
		refs = append(refs, c)
	case types.Array:
		for _, o := range c {
			if r, ok := o.(types.IndirectRef); ok {
				refs = append(refs, r)
			}
		}
	}
	pc := &pageContent{fonts: map[string]*pageFont{}}
	total := 0
	st := &textState{} // carried from stream to stream: they are one content
	for _, r := range refs {
		sd, _, err := ed.ctx.DereferenceStreamDict(r)
		if err != nil || sd == nil {
			return nil, fmt.Errorf("%w: page %d content: %v", ErrUnreadable, n, err)
		}
		if err := sd.Decode(); err != nil {
			return nil, fmt.Errorf("%w: page %d content: %v", ErrUnreadable, n, err)
		}
		ops, err := textOps(sd.Content, st)
		if err != nil {
			return nil, fmt.Errorf("%w: page %d: %v", ErrNotEditable, n, err)
		}
		pc.streams = append(pc.streams, contentStream{sd: sd, nr: r.ObjectNumber.Value(), ops: ops, base: total})
		total += len(ops)
	}
	// The operators are counted across the page's content streams, in
	// order, and must be PDFium's text objects one for one.
	if total != ed.pages[n-1].TextObjects {
		return nil, fmt.Errorf("%w: page %d shows text %d times where PDFium sees %d text objects", ErrNotEditable, n, total, ed.pages[n-1].TextObjects)
	}
	if inh != nil {
		pc.resources = inh.Resources
	}
	if r, ok := d["Resources"]; ok {
		if rd, err := ed.ctx.DereferenceDict(r); err == nil && rd != nil {
			pc.resources = rd
		}
	}
	ed.content[n] = pc
	return pc, nil
}

// op finds the operator of a rank.
func (pc *pageContent) op(rank int) (textOp, bool) {
	for _, cs := range pc.streams {
		if rank >= cs.base && rank < cs.base+len(cs.ops) {
			return cs.ops[rank-cs.base], true
		}
	}
	return textOp{}, false
}

func (ed *editor) font(pc *pageContent, name string) *pageFont {
	f, ok := pc.fonts[name]
	if !ok {
		f = readPageFont(ed.ctx, pc.resources, name)
		pc.fonts[name] = f
	}
	return f
}

func (ed *editor) drop(page int, p Part) {
	if ed.drops[page] == nil {
		ed.drops[page] = map[int][]Part{}
	}
	ed.drops[page][p.Rank] = append(ed.drops[page][p.Rank], p)
}

// setInPlace writes a value in place of a piece's first glyphs, in the
// piece's own font, when the font has every glyph, the value is one line
// and it fits. It reports whether it did, and if not, why.
func (ed *editor) setInPlace(piece Piece, f Fill, missing rune) (Filled, string, error) {
	text := f.Text
	switch {
	case strings.TrimSpace(text) == "":
		return Filled{}, "", nil
	case missing != 0:
		return Filled{}, fmt.Sprintf("the embedded font has no glyph for %q", missing), nil
	case strings.ContainsAny(text, "\n\r"):
		return Filled{}, "a value of several lines is set in a substitute font", nil
	case len(piece.Parts) == 0 || piece.Parts[0].Glyphs == 0:
		return Filled{}, "the original's glyphs could not be read one by one", nil
	}
	first := piece.Parts[0]
	pc, err := ed.page(piece.Page)
	if err != nil {
		return Filled{}, "", err
	}
	op, ok := pc.op(first.Rank)
	if !ok {
		return Filled{}, "the original's operator was not found", nil
	}
	font := ed.font(pc, op.font)
	if font == nil || font.width == 0 || font.codes == nil {
		return Filled{}, "the embedded font's encoding cannot be written to", nil
	}
	enc, missing, ok := font.encode(text)
	if !ok {
		return Filled{}, fmt.Sprintf("the embedded font has no glyph for %q", missing), nil
	}
	tf, err := strconv.ParseFloat(op.size, 64)
	if err != nil || tf <= 0 {
		return Filled{}, "the original's font size could not be read", nil
	}
	stretch := piece.Stretch
	if stretch <= 0 {
		stretch = 1
	}
	// A width in points at a size: the glyphs' advance, and the character
	// and word spacing in force (text space units, whatever the size).
	widthAt := func(e encoded, size float64) float64 {
		spacing := op.tc*float64(e.glyphs) + op.tw*float64(e.spaces)
		return (e.advance/1000*size + spacing*size/tf) * stretch
	}
	ins := insertion{from: first.From, tj: enc.tj, advance: enc.advance, spacing: op.tc*float64(enc.glyphs) + op.tw*float64(enc.spaces), tf: tf}
	// Wider than the space: smaller, down to the floor, in the same font.
	size := piece.Size
	// The room is the original's: its ink, or its advance in the same
	// font, whichever is wider (advances count the glyphs' side bearings).
	room := piece.Box.W
	if was, _, ok := font.encode(piece.Text); ok {
		room = max(room, widthAt(was, size))
	}
	old := room // the original's width, which an aligned value lines up with
	room *= 1.02
	if width := widthAt(enc, size); width > room {
		if size = size * room / width; size < shrinkFloor(piece.Size) {
			return Filled{}, "the value does not fit on one line in the embedded font, even at the smallest size", nil
		}
		ins.size = tf * size / piece.Size
	}
	// Aligned right or centred: a gap before the value, in thousandths of
	// the size it is set at.
	width := widthAt(enc, size)
	shift := (old - width) * alignment(f.Align)
	ins.lead = shift / (size * stretch) * 1000
	if ed.inserts[piece.Page] == nil {
		ed.inserts[piece.Page] = map[int][]insertion{}
	}
	// Several values may go in one operator (a label and its value in one
	// TJ): each at its own part.
	ed.inserts[piece.Page][first.Rank] = append(ed.inserts[piece.Page][first.Rank], ins)
	return Filled{PieceID: piece.ID, Font: piece.Font, Size: round2(size), Lines: 1,
		Box: Box{X: round2(piece.Box.X + shift), Y: piece.Box.Y, W: round2(width), H: piece.Box.H}}, "", nil
}

// missingGlyphs finds, for each value, the first character the embedded
// font of its piece has no glyph for: a subset holds only the glyphs its
// document used, though its encoding and widths may name more.
func (e *Engine) missingGlyphs(deadline time.Time, pdf []byte, lim Limits, fills []Fill, byID map[string]Piece) (map[string]rune, error) {
	out := map[string]rune{}
	err := e.withDoc(deadline, pdf, lim, func(p pdfium.Pdfium, doc references.FPDF_DOCUMENT, pages int) error {
		for _, f := range fills {
			piece := byID[f.PieceID]
			if len(piece.Parts) == 0 || strings.TrimSpace(f.Text) == "" {
				continue
			}
			out[f.PieceID] = missingGlyph(p, doc, piece, f.Text)
		}
		return nil
	})
	return out, err
}

// missingGlyph is the first character of text the font of piece's first
// glyphs cannot draw; a font that cannot be read lacks them all.
func missingGlyph(p pdfium.Pdfium, doc references.FPDF_DOCUMENT, piece Piece, text string) rune {
	first, _ := utf8.DecodeRuneInString(strings.TrimSpace(text))
	page, err := p.FPDF_LoadPage(&requests.FPDF_LoadPage{Document: doc, Index: piece.Page - 1})
	if err != nil {
		return first
	}
	defer p.FPDF_ClosePage(&requests.FPDF_ClosePage{Page: page.Page})
	obj, err := p.FPDFPage_GetObject(&requests.FPDFPage_GetObject{Page: requests.Page{ByReference: &page.Page}, Index: piece.Parts[0].Object})
	if err != nil {
		return first
	}
	font, err := p.FPDFTextObj_GetFont(&requests.FPDFTextObj_GetFont{PageObject: obj.PageObject})
	if err != nil {
		return first
	}
	seen := map[rune]bool{}
	for _, r := range text {
		if unicode.IsSpace(r) || seen[r] {
			continue
		}
		seen[r] = true
		req := &paddedGlyphPath{req: requests.FPDFFont_GetGlyphPath{Font: font.Font, Glyph: uint32(r), FontSize: 12}}
		path, err := p.FPDFFont_GetGlyphPath(&req.req)
		if err != nil {
			return r
		}
		n, err := p.FPDFGlyphPath_CountGlyphSegments(&requests.FPDFGlyphPath_CountGlyphSegments{GlyphPath: path.GlyphPath})
		if err != nil || n.Count <= 0 {
			return r
		}
	}
	return 0
}

// apply rewrites the edited operators in their content streams.
func (ed *editor) apply() error {
	for n, ranks := range ed.drops {
		pc, err := ed.page(n)
		if err != nil {
			return err
		}
		for _, cs := range pc.streams {
			edits := map[int][]byte{}
			for rank, parts := range ranks {
				if rank < cs.base || rank >= cs.base+len(cs.ops) {
					continue
				}
				op := cs.ops[rank-cs.base]
				font := ed.font(pc, op.font)
				known := font != nil && font.width > 0 && !slices.ContainsFunc(parts, func(p Part) bool { return p.Glyphs == 0 })
				if !known {
					if !slices.ContainsFunc(parts, func(p Part) bool { return p.Whole }) {
						return fmt.Errorf("%w: page %d: part of a line in font %q, whose encoding this filler cannot cut", ErrNotEditable, n, op.font)
					}
					edits[rank-cs.base] = nil // the whole operator goes
					continue
				}
				b, err := rewriteTextOp(cs.sd.Content, op, font.width, parts, ed.inserts[n][rank])
				if err != nil {
					return fmt.Errorf("page %d: %w", n, err)
				}
				edits[rank-cs.base] = b
			}
			if len(edits) == 0 {
				continue
			}
			cs.sd.Content = editTextOps(cs.sd.Content, cs.ops, edits)
			if err := cs.sd.Encode(); err != nil {
				return err
			}
			entry, ok := ed.ctx.FindTableEntryLight(cs.nr)
			if !ok {
				return fmt.Errorf("%w: page %d content object %d", ErrUnreadable, n, cs.nr)
			}
			entry.Object = *cs.sd
		}
	}
	return nil
}

// overlay makes a document with one page per filled page, of its size,
// holding only the new values.
func (e *Engine) overlay(deadline time.Time, all []Page, pages []int, perPage map[int][]Fill, byID map[string]Piece) ([]byte, []Filled, error) {
	var out []byte
	var report []Filled
	err := e.with(deadline, func(p pdfium.Pdfium) error {
		doc, err := p.FPDF_CreateNewDocument(&requests.FPDF_CreateNewDocument{})
		if err != nil {
			return err
		}
		defer p.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc.Document})
		fonts := map[string]references.FPDF_FONT{}
		for k, n := range pages {
			page := all[n-1]
			np, err := p.FPDFPage_New(&requests.FPDFPage_New{Document: doc.Document, PageIndex: k, Width: page.Width, Height: page.Height})
			if err != nil {
				return err
			}
			rep, err := setValues(p, doc.Document, np.Page, page, perPage[n], byID, fonts)
			p.FPDF_ClosePage(&requests.FPDF_ClosePage{Page: np.Page})
			if err != nil {
				return fmt.Errorf("page %d: %w", n, err)
			}
			report = append(report, rep...)
		}
		var buf bytes.Buffer
		if _, err := p.FPDF_SaveAsCopy(&requests.FPDF_SaveAsCopy{Document: doc.Document, FileWriter: &buf}); err != nil {
			return fmt.Errorf("save: %w", err)
		}
		out = buf.Bytes()
		return nil
	})
	return out, report, err
}

func setValues(p pdfium.Pdfium, doc references.FPDF_DOCUMENT, target references.FPDF_PAGE, page Page, fills []Fill, byID map[string]Piece, fonts map[string]references.FPDF_FONT) ([]Filled, error) {
	ref := requests.Page{ByReference: &target}
	var report []Filled
	for _, f := range fills {
		piece := byID[f.PieceID]
		file, name := substitute(piece)
		// A simple font when WinAnsi encodes the value (its ToUnicode reads
		// back exactly); a CID font, which encodes anything the font has,
		// otherwise.
		cid := !ascii(f.Text)
		key := fmt.Sprintf("%s/%v", file, cid)
		font, ok := fonts[key]
		if !ok {
			data, err := readFont(file)
			if err != nil {
				return nil, err
			}
			loadedFont, err := p.FPDFText_LoadFont(&requests.FPDFText_LoadFont{Document: doc, Data: data, FontType: enums.FPDF_FONT_TRUETYPE, CID: cid})
			if err != nil {
				return nil, fmt.Errorf("load font %s: %w", file, err)
			}
			font, fonts[key] = loadedFont.Font, loadedFont.Font
		}
		size, lines := fitText(p, doc, font, f.Text, piece)
		color := parseColor(piece.Color)
		// The overlay page is the page as displayed (the stamp turns a
		// rotated page upright). Each line starts at the piece's origin,
		// the first on the original's baseline, the rest below it, along
		// the original's direction.
		ox, oy := page.Geom.display(piece.Origin[0], piece.Origin[1])
		tx, ty := page.Geom.display(piece.Origin[0]+piece.Dir[0], piece.Origin[1]+piece.Dir[1])
		dx, dy := tx-ox, oy-ty // y up on the overlay
		if l := math.Hypot(dx, dy); l > 0 {
			dx, dy = dx/l, dy/l
		} else {
			dx, dy = 1, 0
		}
		var box Box // where the value's ink is, as displayed
		for i, line := range lines {
			obj, err := p.FPDFPageObj_CreateTextObj(&requests.FPDFPageObj_CreateTextObj{Document: doc, Font: font, FontSize: float32(size)})
			if err != nil {
				return nil, err
			}
			if _, err := p.FPDFText_SetText(&requests.FPDFText_SetText{PageObject: obj.PageObject, Text: line}); err != nil {
				return nil, err
			}
			p.FPDFPageObj_SetFillColor(&requests.FPDFPageObj_SetFillColor{PageObject: obj.PageObject, FillColor: color})
			// Aligned right or centred: each line moves along the text by
			// part of the room it leaves in the original's width.
			shift := 0.0
			if a := alignment(f.Align); a > 0 {
				if b, err := p.FPDFPageObj_GetBounds(&requests.FPDFPageObj_GetBounds{PageObject: obj.PageObject}); err == nil {
					shift = (math.Abs(dx)*piece.Box.W + math.Abs(dy)*piece.Box.H - float64(b.Right-b.Left)) * a
				}
			}
			down := float64(i) * size * 1.15
			p.FPDFPageObj_Transform(&requests.FPDFPageObj_Transform{PageObject: obj.PageObject,
				Transform: structs.FPDF_FS_MATRIX{A: float32(dx), B: float32(dy), C: float32(-dy), D: float32(dx),
					E: float32(ox + down*dy + shift*dx), F: float32(page.Height - oy - down*dx + shift*dy)}})
			if b, err := p.FPDFPageObj_GetBounds(&requests.FPDFPageObj_GetBounds{PageObject: obj.PageObject}); err == nil {
				l, t, r, btm := float64(b.Left), page.Height-float64(b.Top), float64(b.Right), page.Height-float64(b.Bottom)
				if i > 0 {
					l, t, r, btm = min(l, box.X), min(t, box.Y), max(r, box.X+box.W), max(btm, box.Y+box.H)
				}
				box = Box{X: l, Y: t, W: r - l, H: btm - t}
			}
			if _, err := p.FPDFPage_InsertObject(&requests.FPDFPage_InsertObject{Page: ref, PageObject: obj.PageObject}); err != nil {
				return nil, err
			}
		}
		report = append(report, Filled{PieceID: f.PieceID, Font: name, Substituted: true, Size: round2(size), Lines: len(lines), Box: Box{X: round2(box.X), Y: round2(box.Y), W: round2(box.W), H: round2(box.H)}})
	}
	if _, err := p.FPDFPage_GenerateContent(&requests.FPDFPage_GenerateContent{Page: ref}); err != nil {
		return nil, err
	}
	return report, nil
}

// fitText returns the size and lines a value takes in a piece's box: the
// original size if it fits, else smaller down to the shrink floor, else
// wrapped at that size. An empty value takes no lines.
func fitText(p pdfium.Pdfium, doc references.FPDF_DOCUMENT, font references.FPDF_FONT, text string, piece Piece) (float64, []string) {
	width := func(s string, size float64) float64 {
		obj, err := p.FPDFPageObj_CreateTextObj(&requests.FPDFPageObj_CreateTextObj{Document: doc, Font: font, FontSize: float32(size)})
		if err != nil {
			return 0
		}
		defer p.FPDFPageObj_Destroy(&requests.FPDFPageObj_Destroy{PageObject: obj.PageObject})
		p.FPDFText_SetText(&requests.FPDFText_SetText{PageObject: obj.PageObject, Text: s})
		b, err := p.FPDFPageObj_GetBounds(&requests.FPDFPageObj_GetBounds{PageObject: obj.PageObject})
		if err != nil {
			return 0
		}
		return float64(b.Right - b.Left)
	}
	if strings.TrimSpace(text) == "" {
		return piece.Size, nil
	}
	// A little room: the original's box is its ink, a value's width its advance.
	room := piece.Box.W * 1.02
	w := width(text, piece.Size)
	if !strings.Contains(text, "\n") && (w <= room || w == 0) {
		return piece.Size, []string{text}
	}
	size := piece.Size
	if w > room {
		size = max(piece.Size*room/w, shrinkFloor(piece.Size))
	}
	if !strings.Contains(text, "\n") && width(text, size) <= room {
		return size, []string{text}
	}
	// A value with line breaks keeps them, and each of its lines wraps.
	var lines []string
	for _, para := range strings.Split(text, "\n") {
		line := ""
		for _, word := range strings.Fields(para) {
			next := strings.TrimSpace(line + " " + word)
			if line != "" && width(next, size) > room {
				lines = append(lines, line)
				next = word
			}
			line = next
		}
		lines = append(lines, line)
	}
	return size, lines
}

// substitute picks the font file a piece's value is set in, in the piece's
// face: the metric-compatible Liberation family for Arial, Helvetica, Times
// and Courier (and their clones: Liberation, Nimbus, Arimo, Tinos,
// Cousine), else DejaVu of the piece's kind (sans, serif or mono), from
// fonts-dejavu-core, which has upright and bold faces only.
func substitute(p Piece) (file, name string) {
	f := strings.ToLower(p.Font)
	has := func(names ...string) bool {
		for _, n := range names {
			if strings.Contains(f, n) {
				return true
			}
		}
		return false
	}
	var base string
	switch {
	case has("courier", "liberation mono", "nimbus mono", "cousine"):
		base, name = "LiberationMono", "Liberation Mono"
	case has("times", "liberation serif", "nimbus roman", "tinos"):
		base, name = "LiberationSerif", "Liberation Serif"
	case has("arial", "helvetica", "liberation sans", "nimbus sans", "arimo"):
		base, name = "LiberationSans", "Liberation Sans"
	default:
		file, name = "DejaVuSans", "DejaVu Sans"
		switch {
		case p.Mono || has("mono"):
			file, name = "DejaVuSansMono", "DejaVu Sans Mono"
		case p.Serif || has("serif") && !has("sans"):
			file, name = "DejaVuSerif", "DejaVu Serif"
		}
		if p.Bold {
			return file + "-Bold.ttf", name
		}
		return file + ".ttf", name
	}
	switch {
	case p.Bold && p.Italic:
		return base + "-BoldItalic.ttf", name
	case p.Bold:
		return base + "-Bold.ttf", name
	case p.Italic:
		return base + "-Italic.ttf", name
	}
	return base + "-Regular.ttf", name
}

// fontFiles caches the substitute fonts' bytes: a fill loads them into each
// document it writes, and the files do not change.
var fontFiles sync.Map // file name → []byte

func readFont(file string) ([]byte, error) {
	if b, ok := fontFiles.Load(file); ok {
		return b.([]byte), nil
	}
	for _, dir := range FontDirs {
		if b, err := os.ReadFile(dir + "/" + file); err == nil {
			fontFiles.Store(file, b)
			return b, nil
		}
	}
	return nil, fmt.Errorf("font %s not found in %v (scripts/install-deps.sh installs it)", file, FontDirs)
}

func parseColor(hex string) structs.FPDF_COLOR {
	var r, g, b uint
	fmt.Sscanf(strings.TrimPrefix(hex, "#"), "%02x%02x%02x", &r, &g, &b)
	return structs.FPDF_COLOR{R: r, G: g, B: b, A: 255}
}

// ascii reports whether s is all ASCII: what a simple font loaded by PDFium
// reads back exactly.
func ascii(s string) bool {
	for _, r := range s {
		if r >= 0x80 {
			return false
		}
	}
	return true
}

// Editable checks an upload once, so that no document made from it fails
// later: pdfcpu must read it, and every piece offered must be one the
// filler can cut out. It returns the pieces of a that can be filled, and
// a note for each page or piece left out and why.
func Editable(pdf []byte, a *Analysis) (pieces []Piece, notes []string, err error) {
	defer func() {
		if r := recover(); r != nil {
			pieces, notes, err = nil, nil, recovered(r)
		}
	}()
	ctx, err := readForEdit(pdf)
	if err != nil {
		return nil, nil, err
	}
	ed := &editor{ctx: ctx, pages: a.Pages, content: map[int]*pageContent{}}
	bad := map[int]bool{}
	for _, p := range a.Pieces {
		if bad[p.Page] {
			continue
		}
		pc, err := ed.page(p.Page)
		if err != nil {
			bad[p.Page] = true
			notes = append(notes, fmt.Sprintf("page %d: %v", p.Page, err))
			continue
		}
		cuttable := true
		for _, part := range p.Parts {
			op, ok := pc.op(part.Rank)
			if !ok {
				cuttable = false
				break
			}
			if font := ed.font(pc, op.font); !part.Whole && (font == nil || font.width == 0) {
				cuttable = false
			}
		}
		if !cuttable {
			notes = append(notes, fmt.Sprintf("%s (%q): part of a line in a font whose encoding cannot be cut", p.ID, p.Text))
			continue
		}
		pieces = append(pieces, p)
	}
	return pieces, notes, nil
}

// fixHyphens corrects the overlay's CID fonts' ToUnicode maps: a font has
// one glyph for the hyphen and the soft hyphen, and PDFium maps it back to
// the soft hyphen, so copied text would lose its hyphens. Unless a value
// holds a soft hyphen, the glyph reads back as a hyphen.
func fixHyphens(overlay []byte, fills []Fill) ([]byte, error) {
	for _, f := range fills {
		if strings.ContainsRune(f.Text, '\u00ad') {
			return overlay, nil
		}
	}
	if !bytes.Contains(overlay, []byte("ToUnicode")) {
		return overlay, nil
	}
	ctx, err := readForEdit(overlay)
	if err != nil {
		return nil, err
	}
	changed := false
	for _, entry := range ctx.Table {
		if entry == nil || entry.Free {
			continue
		}
		sd, ok := entry.Object.(types.StreamDict)
		if !ok {
			continue
		}
		if err := sd.Decode(); err != nil || !bytes.Contains(sd.Content, []byte("begincmap")) {
			continue
		}
		fixed := bytes.ReplaceAll(bytes.ReplaceAll(sd.Content, []byte("<00AD>"), []byte("<002D>")), []byte("<00ad>"), []byte("<002d>"))
		if bytes.Equal(fixed, sd.Content) {
			continue
		}
		sd.Content = fixed
		if err := sd.Encode(); err != nil {
			return nil, err
		}
		entry.Object = sd
		changed = true
	}
	if !changed {
		return overlay, nil
	}
	var out bytes.Buffer
	if err := api.WriteContext(ctx, &out); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// locate finds the piece a fill names: by id, and when expect is set, the
// piece with that text on the same page, the id's own first, else the
// nearest to it in reading order.
func (a *Analysis) locate(id, expect string) (Piece, error) {
	at := -1
	for i, p := range a.Pieces {
		if p.ID == id {
			at = i
		}
	}
	if at >= 0 && (expect == "" || a.Pieces[at].Text == expect) {
		return a.Pieces[at], nil
	}
	if expect != "" {
		page, _ := strconv.Atoi(strings.TrimPrefix(strings.SplitN(id, "-", 2)[0], "p"))
		best, bestDist := -1, 0
		for i, p := range a.Pieces {
			if p.Page != page || p.Text != expect {
				continue
			}
			if d := abs(i - at); best < 0 || d < bestDist {
				best, bestDist = i, d
			}
		}
		if best >= 0 {
			return a.Pieces[best], nil
		}
		return Piece{}, fmt.Errorf("%w: %s reading %q is no longer in the PDF", ErrNoPiece, id, expect)
	}
	return Piece{}, fmt.Errorf("%w: %q", ErrNoPiece, id)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
