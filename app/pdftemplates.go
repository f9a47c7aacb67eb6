package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/platen/platen/pdf"
	"image"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/platen/platen/actors"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/pdftemplate"
	"github.com/platen/platen/storage"
)

// Upload is an uploaded PDF to make a template from.
type Upload struct {
	// Filename is the name the file was uploaded with; only its last
	// element, cleaned, is kept.
	Filename string
	Data     []byte
	// Name and Slug are the template's; empty, they come from the file name.
	Name, Slug string
}

// PDFTemplate is a template made from an uploaded PDF, as created.
type PDFTemplate struct {
	Template storage.Template
	// Pieces are the text pieces offered as fields (JSON, as stored).
	Pieces json.RawMessage
	// Pages is the upload's page count; Found how many pieces the analysis
	// read, of which len(Pieces) can be edited.
	Pages, Found, Offered int
	// LeftOut says why each piece left out cannot be edited.
	LeftOut []string
}

// UploadPDFTemplate makes a template from an uploaded PDF: it reads every
// text piece, keeps the pieces the filler can cut out, stores the upload
// (copied to a second node in a cluster before the template exists), and
// creates the template through the organisation's actor. The cheap
// refusals (slug) come before the analysis.
func (a *App) UploadPDFTemplate(orgID string, up Upload) (PDFTemplate, error) {
	filename := cleanUploadName(up.Filename)
	name, slug := strings.TrimSpace(up.Name), strings.TrimSpace(up.Slug)
	if name == "" {
		name = strings.TrimSuffix(strings.TrimSuffix(filename, ".pdf"), ".PDF")
		if name == "" {
			name = "Uploaded PDF"
		}
	}
	if slug == "" {
		slug = slugify(name)
	}
	if err := actors.CheckSlug("slug", slug); err != nil {
		return PDFTemplate{}, err
	}
	if _, err := a.deps.Store.TemplateBySlug(orgID, slug); err == nil {
		return PDFTemplate{}, fault.Conflict("slug", "the slug %q is taken", slug)
	}
	if pdf.IsSigned(up.Data) {
		// Filling it would break its signature, and the filled copy would
		// carry one that no longer verifies.
		return PDFTemplate{}, fault.Invalid("file", "the PDF is signed, and filling it would break its signature: upload the PDF as it was before it was signed (Platen can sign the documents it makes: docs/signatures.md)")
	}
	analysis, err := a.deps.PDFTemplates.Analyze(up.Data, pdftemplate.DefaultLimits)
	if err != nil {
		return PDFTemplate{}, UploadError(err)
	}
	if len(analysis.Pieces) == 0 {
		return PDFTemplate{}, fault.Invalid("file", "the PDF has no text to mark as fields (a scanned page is an image: it has none)")
	}
	// Only pieces the filler can cut out are offered.
	editable, notes, err := pdftemplate.Editable(up.Data, analysis)
	if err != nil {
		return PDFTemplate{}, UploadError(err)
	}
	if len(editable) == 0 {
		return PDFTemplate{}, fault.Invalid("file", "none of the PDF's text can be edited in place: %s", strings.Join(notes, "; "))
	}
	pieces, err := json.Marshal(editable)
	if err != nil {
		return PDFTemplate{}, err
	}
	hash, err := a.deps.Blobs.Put(up.Data)
	if err != nil {
		return PDFTemplate{}, err
	}
	holders, err := a.deps.Actors.CopyBlob(hash, up.Data)
	if err != nil {
		return PDFTemplate{}, fmt.Errorf("%w: the upload could not be copied to a second node: %v", fault.ErrUnavailable, err)
	}
	src := &storage.PDFSource{Filename: filename, BlobHash: hash, BlobHolders: holders, ByteSize: int64(len(up.Data)), PieceCount: len(editable)}
	for _, p := range analysis.Pages {
		src.Pages = append(src.Pages, storage.PDFPage{Number: p.Number, Width: p.Width, Height: p.Height})
	}
	// A refusal leaves the upload's blob: another upload of the same file
	// may be about to refer to it, and it is content-addressed, so the
	// next upload of this file reuses it.
	t, err := actors.Ask(a.deps.Actors, orgID, actors.CreateTemplate{Name: name, Slug: slug, Source: src, Pieces: pieces})
	if err != nil {
		return PDFTemplate{}, err
	}
	return PDFTemplate{Template: t, Pieces: pieces, Pages: len(analysis.Pages),
		Found: len(analysis.Pieces), Offered: len(editable), LeftOut: notes}, nil
}

// UploadError turns a refusal of the PDF reader into the API's kinds. A
// PDF over a limit on what reading it costs stays an
// pdftemplate.ErrTooComplex (422 PDF_TOO_COMPLEX), of the field file.
func UploadError(err error) error {
	switch {
	case errors.Is(err, pdftemplate.ErrTooComplex):
		return &fault.FieldError{Kind: pdftemplate.ErrTooComplex, Field: "file", Msg: err.Error()}
	case errors.Is(err, pdftemplate.ErrTooLarge):
		return fmt.Errorf("%w: %v", fault.ErrTooLarge, err)
	case errors.Is(err, pdftemplate.ErrEncrypted), errors.Is(err, pdftemplate.ErrUnreadable):
		return fault.Invalid("file", "%v", err)
	case errors.Is(err, pdftemplate.ErrBusy):
		return fault.Retry(fmt.Errorf("%w: %v; retry shortly", fault.ErrOverloaded, err), 2)
	}
	return err
}

// cleanUploadName keeps the last element of an uploaded file's name,
// without control characters, at most 100 bytes of valid text.
func cleanUploadName(name string) string {
	name = path.Base(strings.ReplaceAll(name, `\`, "/"))
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return -1
		}
		return r
	}, name)
	for len(name) > 100 {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	if name == "." || name == "/" {
		return ""
	}
	return name
}

// slugify makes a slug of a name: lower-case letters and digits, the rest
// runs of '-'.
func slugify(name string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(name) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(c)
			dash = false
		} else {
			dash = true
		}
		if b.Len() >= 60 {
			break
		}
	}
	return b.String()
}

// PageImage draws page n of a PDF template's upload at dpi; at 72 dpi a
// pixel is a point, so the pieces' boxes are the image's own pixels.
func (a *App) PageImage(t storage.Template, page, dpi int) (*image.RGBA, error) {
	if t.Source == nil {
		return nil, fmt.Errorf("%w: template %s is written, not made from a PDF: it has no page images", fault.ErrNotFound, t.Slug)
	}
	pdf, err := a.deps.Actors.Blob(t.Source.BlobHash, t.Source.BlobHolders)
	if err != nil {
		return nil, err
	}
	img, err := a.deps.PDFTemplates.PageImage(pdf, page, dpi, pdftemplate.DefaultLimits)
	return img, UploadError(err)
}
