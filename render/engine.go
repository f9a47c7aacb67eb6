package render

import (
	"context"
	"errors"
	"strings"
	"unicode/utf8"
)

// Job is one document to print.
type Job struct {
	HTML     string
	Geometry Geometry
	// Tagged asks for a tagged (accessible) PDF.
	Tagged bool
	// PDFA asks for a PDF/A file of that part and level ("2b", "2u", "3b",
	// "3u"), which phantom writes; "" for none.
	PDFA string
	// PDFUA asks for a PDF/UA-1 file (ISO 14289-1): tagged, with the
	// metadata PDF/UA asks for. Phantom writes it.
	PDFUA bool
	// Attachments are files the PDF embeds as associated files (an
	// e-invoice's XML), and XMP more RDF for its metadata; PDF/A-3 only.
	Attachments []Attachment
	XMP         string
	// Header and Footer are filled markup printed on every page; an engine
	// replaces the elements of class pageNumber and totalPages.
	Header, Footer string
	// Findings, when set, is filled by the engine with what the document's
	// report needs from the print: its fonts and the assets that did not
	// load.
	Findings *Findings
	// Org is the organisation the document is printed for, and OrgPages
	// how many of the engine's pages it may hold at once (0: the engine's
	// own default). An engine with a pool of pages shares them out by it,
	// so that one organisation's documents cannot hold them all.
	Org      string
	OrgPages int
}

// Findings is what an engine tells of a document it printed, for its report
// (Report): the font families the PDF uses, the families asked for and set
// in another, and the assets it refers to that were not loaded.
type Findings struct {
	Fonts        Fonts
	FailedAssets []FailedAsset
}

// AddFailedAsset records an asset that did not load, once per URL, keeping
// a data: URI short: its start is enough to tell which it was.
func (f *Findings) AddFailedAsset(url, reason string) {
	url = ShortURL(url)
	for _, a := range f.FailedAssets {
		if a.URL == url {
			return
		}
	}
	if len(f.FailedAssets) < maxFailedAssets {
		f.FailedAssets = append(f.FailedAssets, FailedAsset{URL: url, Reason: reason})
	}
}

// maxFailedAssets bounds a report's list: a document with ten thousand
// broken images must not make its record big.
const maxFailedAssets = 50

// ShortURL cuts a URL to at most 200 bytes, whole characters, marking the
// cut with "…"; a data: URI is cut to its first 64.
func ShortURL(u string) string {
	limit := 200
	if len(u) >= 5 && strings.EqualFold(u[:5], "data:") {
		limit = 64
	}
	if len(u) <= limit {
		return u
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(u[cut]) {
		cut--
	}
	return u[:cut] + "…"
}

// Reasons an asset is not loaded, as reports give them.
const (
	// ReasonNotFetched is a reference to anything but a data: URI or one of
	// the template's assets: documents reach nothing outside themselves.
	ReasonNotFetched = "not fetched: a document loads only data: URIs and its template's assets"
	// ReasonUndecodable prefixes why an asset could not be decoded.
	ReasonUndecodable = "cannot be decoded"
)

// Engine prints HTML documents to PDF.
type Engine interface {
	// Name is the engine's name as documents record it.
	Name() string
	// Render prints one document. It honours ctx's deadline.
	Render(ctx context.Context, job Job) ([]byte, error)
}

// A Judge is an engine that can say, before printing, what a job uses that it
// does not lay out. The platform default asks it (docs/design.md "Engines"):
// a document it fully supports goes to it, anything else to chromium.
type Judge interface {
	// Unsupported lists what the job uses that the engine does not lay out,
	// each a short stable name and where it is used ("display:grid at
	// div"); empty means the engine supports the whole job. A check that
	// cannot finish within ctx lists why, so the job goes elsewhere.
	Unsupported(ctx context.Context, job Job) []string
}

// ErrRender is a document the engine could not print.
var ErrRender = errors.New("render failed")

// ErrNotPDFA is a document asked for as PDF/A that uses what PDF/A forbids
// and phantom cannot make conform (a CMYK image under the sRGB output
// intent); it comes wrapped in ErrRender, with what it is.
var ErrNotPDFA = errors.New("cannot be made PDF/A")
