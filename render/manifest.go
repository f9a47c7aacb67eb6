package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/schema"
)

// Engine names (docs/design.md "Engines"): phantom is the fast engine, chromium
// the full browser engine. Empty means the platform default.
const (
	EnginePhantom  = "phantom"
	EngineChromium = "chromium"
)

// Manifest is a template version's manifest.
type Manifest struct {
	PageSize    PageSize      `json:"pageSize"`
	Orientation string        `json:"orientation,omitempty"`
	Engine      string        `json:"engine,omitempty"`
	Margins     *Margins      `json:"margins,omitempty"`
	Pagination  *Pagination   `json:"pagination,omitempty"`
	DataSchema  schema.Schema `json:"dataSchema,omitempty"`
	// Locale and Currency are the defaults of the formatting helpers.
	Locale   string `json:"locale,omitempty"`
	Currency string `json:"currency,omitempty"`
	// TaggedPDF asks for a tagged (accessible) PDF (docs/accessibility.md):
	// phantom's costs it 10-20 % of its render time, Chromium's about a
	// third of its throughput and twice the size, so it is off by default.
	TaggedPDF bool `json:"taggedPdf,omitempty"`
	// PDFA asks for an archival PDF/A file: 2b or 3b (the appearance kept),
	// 2u or 3u (also, every character maps to Unicode). Phantom writes it.
	PDFA string `json:"pdfa,omitempty"`
	// PDFUA "1" asks for an accessible PDF/UA-1 file (docs/accessibility.md):
	// tagged, and refused at save when the markup cannot be made
	// accessible. Phantom writes it; it combines with PDFA.
	PDFUA string `json:"pdfua,omitempty"`
	// EInvoice makes the document an e-invoice (Factur-X, ZUGFeRD or
	// XRechnung): the invoice in the data is checked, written as CII XML
	// and embedded in a PDF/A-3 file (docs/einvoices.md).
	EInvoice *EInvoice `json:"einvoice,omitempty"`
	// Sign signs every document of the version, last, after the watermark,
	// PDF/A and the e-invoice (docs/signatures.md).
	Sign *SignSpec `json:"sign,omitempty"`
	// Header and Footer are Handlebars markup printed on every page by the
	// chromium engine, with {{pageNumber}} and {{totalPages}}.
	Header string `json:"header,omitempty"`
	Footer string `json:"footer,omitempty"`
}

// Room kept for a header or footer when the manifest gives no margin there.
const (
	defaultHeaderMargin = "18mm"
	defaultFooterMargin = "16mm"
)

// PageSize is a named size or explicit dimensions.
type PageSize struct {
	Name   string `json:"-"`
	Width  string `json:"width,omitempty"`
	Height string `json:"height,omitempty"`
}

// MarshalJSON writes a named size as its name.
func (p PageSize) MarshalJSON() ([]byte, error) {
	if p.Name != "" {
		return json.Marshal(p.Name)
	}
	if p.Width == "" && p.Height == "" {
		return []byte(`""`), nil
	}
	type dims struct {
		Width  string `json:"width"`
		Height string `json:"height"`
	}
	return json.Marshal(dims{p.Width, p.Height})
}

// UnmarshalJSON reads "A4" or {"width":"210mm","height":"297mm"}.
func (p *PageSize) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &p.Name)
	}
	var d struct {
		Width  string `json:"width"`
		Height string `json:"height"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		return fmt.Errorf("pageSize must be a name such as A4 or an object with width and height")
	}
	p.Width, p.Height = d.Width, d.Height
	return nil
}

// Margins are CSS lengths around every page. They default to 0: sheets carry
// their own padding.
type Margins struct {
	Top    string `json:"top,omitempty"`
	Right  string `json:"right,omitempty"`
	Bottom string `json:"bottom,omitempty"`
	Left   string `json:"left,omitempty"`
}

// Pagination slices a collection of the data into pages.
type Pagination struct {
	// Collection names the array field to slice.
	Collection string `json:"collection"`
	// ItemsPerPage is how many items each page holds.
	ItemsPerPage int `json:"itemsPerPage"`
	// FirstPageItemCount lets the first page hold fewer, because it carries
	// the header; zero means ItemsPerPage.
	FirstPageItemCount int `json:"firstPageItemCount,omitempty"`
}

// Named page sizes in millimetres, portrait.
var pageSizes = map[string][2]float64{
	"A3":      {297, 420},
	"A4":      {210, 297},
	"A5":      {148, 210},
	"A6":      {105, 148},
	"Letter":  {215.9, 279.4},
	"Legal":   {215.9, 355.6},
	"Tabloid": {279.4, 431.8},
}

// PageSizeNames lists the named sizes, for error messages and docs.
const PageSizeNames = "A3, A4, A5, A6, Letter, Legal, Tabloid"

// Geometry is a page's size and margins in millimetres.
type Geometry struct {
	WidthMM, HeightMM                                float64
	MarginTop, MarginRight, MarginBottom, MarginLeft float64
	// Margin CSS as written, for @page.
	MarginCSS string
}

// SheetWidthMM and SheetHeightMM are the printable area: one .sheet.
func (g Geometry) SheetWidthMM() float64  { return g.WidthMM - g.MarginLeft - g.MarginRight }
func (g Geometry) SheetHeightMM() float64 { return g.HeightMM - g.MarginTop - g.MarginBottom }

var lengthRE = regexp.MustCompile(`^(\d+(?:\.\d+)?)(mm|cm|in|pt|px)$`)

// lengthMM reads a CSS length into millimetres; "0" is allowed bare.
func lengthMM(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" || s == "0" {
		return 0, true
	}
	m := lengthRE.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	switch m[2] {
	case "cm":
		v *= 10
	case "in":
		v *= 25.4
	case "pt":
		v *= 25.4 / 72
	case "px":
		v *= 25.4 / 96
	}
	return v, true
}

// ParseManifest reads and checks a manifest; refusals name the field under at.
func ParseManifest(raw []byte, at string) (Manifest, error) {
	var m Manifest
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		raw = []byte("{}")
	}
	// The schema is parsed on its own so its errors name their field.
	var shape struct {
		DataSchema json.RawMessage `json:"dataSchema"`
	}
	if err := json.Unmarshal(raw, &shape); err != nil {
		return m, fault.Invalid(at, "must be an object: %v", err)
	}
	s, err := schema.Parse(shape.DataSchema, at+".dataSchema")
	if err != nil {
		return m, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			return m, fault.Invalid(at+"."+strings.Trim(name, `"`), "is not a manifest field")
		}
		return m, fault.Invalid(at, "%v", err)
	}
	m.DataSchema = s
	return m, m.check(at)
}

func (m *Manifest) check(at string) error {
	if m.PageSize.Name == "" && m.PageSize.Width == "" && m.PageSize.Height == "" {
		m.PageSize.Name = "A4"
	}
	if m.PageSize.Name != "" {
		if _, ok := pageSizes[m.PageSize.Name]; !ok {
			return fault.Invalid(at+".pageSize", "unknown page size %q; sizes are %s, or {\"width\",\"height\"}", m.PageSize.Name, PageSizeNames)
		}
	} else {
		for name, v := range map[string]string{"width": m.PageSize.Width, "height": m.PageSize.Height} {
			if mm, ok := lengthMM(v); !ok || mm < 20 || mm > 2000 {
				return fault.Invalid(at+".pageSize."+name, "must be a CSS length between 20mm and 2000mm, such as 210mm")
			}
		}
	}
	switch m.Orientation {
	case "":
		m.Orientation = "portrait"
	case "portrait", "landscape":
	default:
		return fault.Invalid(at+".orientation", "must be portrait or landscape")
	}
	switch m.Engine {
	case "", EnginePhantom, EngineChromium:
	default:
		return fault.Invalid(at+".engine", "must be empty (the platform default), phantom or chromium")
	}
	if m.EInvoice != nil {
		if err := m.EInvoice.check(m, at); err != nil {
			return err
		}
	}
	switch m.PDFA {
	case "":
	case "2b", "2u", "3b", "3u":
		if m.Engine == EngineChromium {
			return fault.Invalid(at+".engine", "is chromium, but PDF/A is written by phantom: leave engine empty or name phantom")
		}
	default:
		return fault.Invalid(at+".pdfa", "must be 2b, 2u, 3b or 3u (PDF/A-2 or PDF/A-3, level b or u)")
	}
	switch m.PDFUA {
	case "":
	case "1":
		if m.Engine == EngineChromium {
			return fault.Invalid(at+".engine", "is chromium, but PDF/UA is written by phantom (Chromium's tagging does not meet PDF/UA's checks): leave engine empty or name phantom")
		}
	default:
		return fault.Invalid(at+".pdfua", "must be 1 (PDF/UA-1), or left out")
	}
	if m.Sign != nil {
		if err := m.Sign.Check(at + ".sign"); err != nil {
			return err
		}
	}
	if m.Header != "" || m.Footer != "" {
		if m.Margins == nil {
			m.Margins = &Margins{}
		}
		if m.Header != "" && m.Margins.Top == "" {
			m.Margins.Top = defaultHeaderMargin
		}
		if m.Footer != "" && m.Margins.Bottom == "" {
			m.Margins.Bottom = defaultFooterMargin
		}
		for name, src := range map[string]string{"header": m.Header, "footer": m.Footer} {
			if len(src) > 64<<10 {
				return fault.Invalid(at+"."+name, "is over 64 KB")
			}
			if err := lint(src); err != nil {
				return fault.Invalid(at+"."+name, "%v", err)
			}
		}
	}
	if m.Margins != nil {
		for name, v := range map[string]string{"top": m.Margins.Top, "right": m.Margins.Right, "bottom": m.Margins.Bottom, "left": m.Margins.Left} {
			if _, ok := lengthMM(v); !ok {
				return fault.Invalid(at+".margins."+name, "must be a CSS length such as 10mm, 0.5in or 12pt")
			}
		}
	}
	if p := m.Pagination; p != nil {
		if p.Collection == "" {
			return fault.Invalid(at+".pagination.collection", "is required: the name of the array field to slice")
		}
		if f, ok := m.DataSchema[p.Collection]; ok && f.Type != schema.TypeArray {
			return fault.Invalid(at+".pagination.collection", "names %q, which the schema declares as %s, not array", p.Collection, f.Type)
		}
		if p.ItemsPerPage < 1 || p.ItemsPerPage > 10000 {
			return fault.Invalid(at+".pagination.itemsPerPage", "must be between 1 and 10000")
		}
		if p.FirstPageItemCount < 0 || p.FirstPageItemCount > 10000 {
			return fault.Invalid(at+".pagination.firstPageItemCount", "must be between 0 and 10000")
		}
	}
	for _, reserved := range []string{"content", "pages"} {
		if _, ok := m.DataSchema[reserved]; ok {
			return fault.Invalid(at+".dataSchema."+reserved, "%q is given to the template by Platen; name the field otherwise", reserved)
		}
	}
	if m.Locale != "" && !knownLocale(m.Locale) {
		return fault.Invalid(at+".locale", "unknown locale %q; locales are %s", m.Locale, localeNames())
	}
	if m.Currency != "" && !currencyRE.MatchString(m.Currency) {
		return fault.Invalid(at+".currency", "must be an ISO 4217 code such as EUR")
	}
	return nil
}

var currencyRE = regexp.MustCompile(`^[A-Z]{3}$`)

// Geometry returns the manifest's page size and margins in millimetres.
func (m Manifest) Geometry() Geometry {
	var g Geometry
	if dims, ok := pageSizes[m.PageSize.Name]; ok {
		g.WidthMM, g.HeightMM = dims[0], dims[1]
	} else {
		g.WidthMM, _ = lengthMM(m.PageSize.Width)
		g.HeightMM, _ = lengthMM(m.PageSize.Height)
	}
	if m.Orientation == "landscape" {
		g.WidthMM, g.HeightMM = g.HeightMM, g.WidthMM
	}
	g.MarginCSS = "0"
	if mg := m.Margins; mg != nil {
		g.MarginTop, _ = lengthMM(mg.Top)
		g.MarginRight, _ = lengthMM(mg.Right)
		g.MarginBottom, _ = lengthMM(mg.Bottom)
		g.MarginLeft, _ = lengthMM(mg.Left)
		g.MarginCSS = fmt.Sprintf("%gmm %gmm %gmm %gmm", g.MarginTop, g.MarginRight, g.MarginBottom, g.MarginLeft)
	}
	return g
}
