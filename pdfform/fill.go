package pdfform

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"

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

// Fill is a new value for one piece.
type Fill struct {
	PieceID string
	Text    string
}

// Filled is what happened to one piece.
type Filled struct {
	PieceID string `json:"pieceId"`
	// Font is the font the value was set in; Substituted says it is not the
	// original's (whose embedded subset may lack the new glyphs).
	Font        string  `json:"font"`
	Substituted bool    `json:"substituted"`
	Size        float64 `json:"size"`
	// Lines is how many lines the value took: more than one when it did not
	// fit on one even at the smallest size allowed.
	Lines int `json:"lines"`
}

// shrinkFloor is the smallest size a value shrinks to before it wraps
// (DESIGN.md "shrink floor"): the larger of 6 pt and half the original's
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
func (e *Engine) Fill(pdf []byte, fills []Fill, lim Limits) ([]byte, []Filled, error) {
	if len(fills) == 0 {
		return pdf, []Filled{}, nil
	}
	a, err := e.Analyze(pdf, lim)
	if err != nil {
		return nil, nil, err
	}
	byID := map[string]Piece{}
	for _, p := range a.Pieces {
		byID[p.ID] = p
	}
	perPage := map[int][]Fill{}
	for _, f := range fills {
		p, ok := byID[f.PieceID]
		if !ok {
			return nil, nil, fmt.Errorf("%w: %q", ErrNoPiece, f.PieceID)
		}
		perPage[p.Page] = append(perPage[p.Page], f)
	}
	pages := make([]int, 0, len(perPage))
	for n := range perPage {
		pages = append(pages, n)
	}
	sort.Ints(pages)

	drop := map[int]map[int]bool{}
	for _, n := range pages {
		drop[n] = map[int]bool{}
		for _, f := range perPage[n] {
			for _, r := range byID[f.PieceID].TextRanks {
				drop[n][r] = true
			}
		}
	}
	edited, err := removeText(pdf, a.Pages, drop)
	if err != nil {
		return nil, nil, err
	}
	overlay, report, err := e.overlay(a.Pages, pages, perPage, byID)
	if err != nil {
		return nil, nil, err
	}
	for k, n := range pages {
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
	return edited, report, nil
}

// removeText deletes the given text operators (by rank) from the pages'
// content streams and writes the document again.
func removeText(pdf []byte, pages []Page, drop map[int]map[int]bool) ([]byte, error) {
	ctx, err := api.ReadContext(bytes.NewReader(pdf), model.NewDefaultConfiguration())
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnreadable, err)
	}
	if err := ctx.EnsurePageCount(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnreadable, err)
	}
	for n, ranks := range drop {
		d, _, _, err := ctx.PageDict(n, false)
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
		// The page's operators are counted across its content streams, in order.
		offset, total := 0, 0
		type part struct {
			sd   *types.StreamDict
			nr   int
			ops  []textOp
			base int
		}
		var parts []part
		for _, r := range refs {
			sd, _, err := ctx.DereferenceStreamDict(r)
			if err != nil || sd == nil {
				return nil, fmt.Errorf("%w: page %d content: %v", ErrUnreadable, n, err)
			}
			if err := sd.Decode(); err != nil {
				return nil, fmt.Errorf("%w: page %d content: %v", ErrUnreadable, n, err)
			}
			ops, err := textOps(sd.Content)
			if err != nil {
				return nil, fmt.Errorf("%w: page %d: %v", ErrNotEditable, n, err)
			}
			parts = append(parts, part{sd: sd, nr: r.ObjectNumber.Value(), ops: ops, base: offset})
			offset += len(ops)
			total += len(ops)
		}
		if total != pages[n-1].TextObjects {
			return nil, fmt.Errorf("%w: page %d shows text %d times where PDFium sees %d text objects", ErrNotEditable, n, total, pages[n-1].TextObjects)
		}
		for _, pt := range parts {
			local := map[int]bool{}
			for r := range ranks {
				if r >= pt.base && r < pt.base+len(pt.ops) {
					local[r-pt.base] = true
				}
			}
			if len(local) == 0 {
				continue
			}
			pt.sd.Content = removeTextOps(pt.sd.Content, pt.ops, local)
			if err := pt.sd.Encode(); err != nil {
				return nil, err
			}
			entry, ok := ctx.FindTableEntryLight(pt.nr)
			if !ok {
				return nil, fmt.Errorf("%w: page %d content object %d", ErrUnreadable, n, pt.nr)
			}
			entry.Object = *pt.sd
		}
	}
	var out bytes.Buffer
	if err := api.WriteContext(ctx, &out); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// overlay makes a document with one page per filled page, of its size,
// holding only the new values.
func (e *Engine) overlay(all []Page, pages []int, perPage map[int][]Fill, byID map[string]Piece) ([]byte, []Filled, error) {
	var out []byte
	var report []Filled
	err := e.with(func(p pdfium.Pdfium) error {
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
		file, name := substitute(piece.Font, piece.Bold, piece.Italic)
		font, ok := fonts[file]
		if !ok {
			data, err := readFont(file)
			if err != nil {
				return nil, err
			}
			loadedFont, err := p.FPDFText_LoadFont(&requests.FPDFText_LoadFont{Document: doc, Data: data, FontType: enums.FPDF_FONT_TRUETYPE, CID: false})
			if err != nil {
				return nil, fmt.Errorf("load font %s: %w", file, err)
			}
			font, fonts[file] = loadedFont.Font, loadedFont.Font
		}
		size, lines := fitText(p, doc, font, f.Text, piece)
		color := parseColor(piece.Color)
		// Each line starts at the piece's origin; the first sits on the
		// original's baseline, the rest below it.
		baseline := page.Height - piece.Baseline
		for i, line := range lines {
			obj, err := p.FPDFPageObj_CreateTextObj(&requests.FPDFPageObj_CreateTextObj{Document: doc, Font: font, FontSize: float32(size)})
			if err != nil {
				return nil, err
			}
			if _, err := p.FPDFText_SetText(&requests.FPDFText_SetText{PageObject: obj.PageObject, Text: line}); err != nil {
				return nil, err
			}
			p.FPDFPageObj_SetFillColor(&requests.FPDFPageObj_SetFillColor{PageObject: obj.PageObject, FillColor: color})
			y := baseline - float64(i)*size*1.15
			p.FPDFPageObj_Transform(&requests.FPDFPageObj_Transform{PageObject: obj.PageObject,
				Transform: structs.FPDF_FS_MATRIX{A: 1, D: 1, E: float32(piece.OriginX), F: float32(y)}})
			if _, err := p.FPDFPage_InsertObject(&requests.FPDFPage_InsertObject{Page: ref, PageObject: obj.PageObject}); err != nil {
				return nil, err
			}
		}
		report = append(report, Filled{PieceID: f.PieceID, Font: name, Substituted: name != piece.Font, Size: round2(size), Lines: len(lines)})
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
// and Courier (and Liberation itself), else DejaVu.
func substitute(family string, bold, italic bool) (file, name string) {
	f := strings.ToLower(family)
	var base string
	switch {
	case strings.Contains(f, "courier") || strings.Contains(f, "mono"):
		base, name = "LiberationMono", "Liberation Mono"
	case strings.Contains(f, "times") || strings.Contains(f, "serif") && !strings.Contains(f, "sans"):
		base, name = "LiberationSerif", "Liberation Serif"
	case strings.Contains(f, "arial") || strings.Contains(f, "helvetica") || strings.Contains(f, "liberation sans"):
		base, name = "LiberationSans", "Liberation Sans"
	default:
		// DejaVu Sans: fonts-dejavu-core has the upright faces only.
		if bold {
			return "DejaVuSans-Bold.ttf", "DejaVu Sans"
		}
		return "DejaVuSans.ttf", "DejaVu Sans"
	}
	switch {
	case bold && italic:
		return base + "-BoldItalic.ttf", name
	case bold:
		return base + "-Bold.ttf", name
	case italic:
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
