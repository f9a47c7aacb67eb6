package transport

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/platen/platen/actors"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/pdfform"
	"github.com/platen/platen/storage"
)

// pdfTemplateView is a template made from an uploaded PDF with every text
// piece found on it, as POST /v1/templates/pdf answers.
type pdfTemplateView struct {
	templateView
	Pieces json.RawMessage `json:"pieces"`
}

// sourceView is the upload of a template made from a PDF.
type sourceView struct {
	Filename   string            `json:"filename"`
	ByteSize   int64             `json:"byteSize"`
	SHA256     string            `json:"sha256"`
	Pages      []storage.PDFPage `json:"pages"`
	PieceCount int               `json:"pieceCount"`
}

func viewSource(s *storage.PDFSource) *sourceView {
	if s == nil {
		return nil
	}
	return &sourceView{Filename: s.Filename, ByteSize: s.ByteSize, SHA256: s.BlobHash, Pages: s.Pages, PieceCount: s.PieceCount}
}

// createPDFTemplate makes a template from an uploaded PDF: multipart fields
// file (the PDF), name and slug. It answers with every text piece found, to
// be marked as fields in a version.
func (s *Server) createPDFTemplate(r *request) error {
	form, err := r.MultipartForm()
	if err != nil {
		return fault.Invalid("file", "send the PDF as multipart/form-data with the fields file, name and slug")
	}
	files := form.File["file"]
	if len(files) != 1 {
		return fault.Invalid("file", "send exactly one PDF in the field file")
	}
	data, err := readPart(files[0])
	if err != nil {
		return err
	}
	filename := cleanUploadName(files[0].Filename)
	name := formValue(form, "name")
	if name == "" {
		name = strings.TrimSuffix(strings.TrimSuffix(filename, ".pdf"), ".PDF")
		if name == "" {
			name = "Uploaded PDF"
		}
	}
	slug := formValue(form, "slug")
	if slug == "" {
		slug = slugify(name)
	}
	// The cheap refusals before the analysis.
	if err := actors.CheckSlug("slug", slug); err != nil {
		return err
	}
	if _, err := s.deps.Store.TemplateBySlug(r.org.ID, slug); err == nil {
		return fmt.Errorf("%w: the slug %q is taken", fault.ErrConflict, slug)
	}
	a, err := s.deps.Forms.Analyze(data, pdfform.DefaultLimits)
	if err != nil {
		return uploadError(err)
	}
	if len(a.Pieces) == 0 {
		return fault.Invalid("file", "the PDF has no text to mark as fields (a scanned page is an image: it has none)")
	}
	// Only pieces the filler can cut out are offered.
	editable, notes, err := pdfform.Editable(data, a)
	if err != nil {
		return uploadError(err)
	}
	if len(editable) == 0 {
		return fault.Invalid("file", "none of the PDF's text can be edited in place: %s", strings.Join(notes, "; "))
	}
	pieces, err := json.Marshal(editable)
	if err != nil {
		return err
	}
	hash, err := s.deps.Blobs.Put(data)
	if err != nil {
		return err
	}
	holders, err := s.deps.Actors.CopyBlob(hash, data)
	if err != nil {
		return fmt.Errorf("%w: the upload could not be copied to a second node: %v", fault.ErrUnavailable, err)
	}
	src := &storage.PDFSource{Filename: filename, BlobHash: hash, BlobHolders: holders, ByteSize: int64(len(data)), PieceCount: len(editable)}
	for _, p := range a.Pages {
		src.Pages = append(src.Pages, storage.PDFPage{Number: p.Number, Width: p.Width, Height: p.Height})
	}
	res, err := r.askOrg(r.org.ID, actors.CreateTemplate{Name: name, Slug: slug, Source: src, Pieces: pieces})
	if err != nil {
		// The upload's blob stays: another upload of the same file may be
		// about to refer to it, and it is content-addressed, so the next
		// upload of this file reuses it.
		return err
	}
	t := res.(storage.Template)
	note := fmt.Sprintf("template created from a %d-page PDF with %d text pieces; mark fields with POST /v1/templates/%s/versions", len(a.Pages), len(editable), t.Slug)
	if len(notes) > 0 {
		note += fmt.Sprintf(". %d left out, as the filler cannot edit them: %s", len(a.Pieces)-len(editable), strings.Join(notes, "; "))
	}
	return r.ok(http.StatusCreated, pdfTemplateView{templateView: viewTemplate(t), Pieces: pieces}, note)
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

// readPart reads an uploaded file.
func readPart(fh *multipart.FileHeader) ([]byte, error) {
	f, err := fh.Open()
	if err != nil {
		return nil, fault.Invalid("file", "the upload could not be read")
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fault.Invalid("file", "the upload could not be read")
	}
	return data, nil
}

func formValue(form *multipart.Form, key string) string {
	if v := form.Value[key]; len(v) > 0 {
		return strings.TrimSpace(v[0])
	}
	return ""
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

// uploadError turns a refusal of the PDF reader into the API's.
func uploadError(err error) error {
	switch {
	case errors.Is(err, pdfform.ErrTooLarge):
		return fmt.Errorf("%w: %v", errTooLarge, err)
	case errors.Is(err, pdfform.ErrEncrypted), errors.Is(err, pdfform.ErrUnreadable):
		return fault.Invalid("file", "%v", err)
	case errors.Is(err, pdfform.ErrBusy):
		return &retryAfter{err: fmt.Errorf("%w: %v; retry shortly", fault.ErrOverloaded, err), seconds: 2}
	}
	return err
}

// pdfTemplate resolves :templateId to a template made from a PDF.
func (s *Server) pdfTemplate(r *request) (storage.Template, error) {
	t, err := s.template(r)
	if err != nil {
		return t, err
	}
	if t.Source == nil {
		return t, fmt.Errorf("%w: template %s is written, not made from a PDF: it has no pieces or page images", fault.ErrNotFound, t.Slug)
	}
	return t, nil
}

// listPieces answers a PDF template's text pieces, all or one page's.
func (s *Server) listPieces(r *request) error {
	t, err := s.pdfTemplate(r)
	if err != nil {
		return err
	}
	raw, err := s.deps.Store.TemplatePieces(t.ID)
	if err != nil {
		return err
	}
	var pieces []pdfform.Piece
	if err := json.Unmarshal(raw, &pieces); err != nil {
		return err
	}
	if p := string(r.QueryArgs().Peek("page")); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > len(t.Source.Pages) {
			return fault.Invalid("page", "must be a page number from 1 to %d", len(t.Source.Pages))
		}
		kept := pieces[:0]
		for _, pc := range pieces {
			if pc.Page == n {
				kept = append(kept, pc)
			}
		}
		pieces = kept
	}
	if pieces == nil {
		pieces = []pdfform.Piece{}
	}
	return r.ok(http.StatusOK, map[string]any{"items": pieces, "pages": t.Source.Pages}, fmt.Sprintf("%d pieces", len(pieces)))
}

// pageImage answers a page of a PDF template's upload as a PNG. At the
// default 72 dpi a pixel is a point, so the pieces' boxes are in the
// image's own pixels; at another dpi they scale by dpi/72.
func (s *Server) pageImage(r *request) error {
	t, err := s.pdfTemplate(r)
	if err != nil {
		return err
	}
	file := r.param("page")
	n, err := strconv.Atoi(strings.TrimSuffix(file, ".png"))
	if !strings.HasSuffix(file, ".png") || err != nil || n < 1 || n > len(t.Source.Pages) {
		return fmt.Errorf("%w: page %q: the pages are 1.png to %d.png", fault.ErrNotFound, file, len(t.Source.Pages))
	}
	dpi := 72
	if raw := string(r.QueryArgs().Peek("dpi")); raw != "" {
		if dpi, err = strconv.Atoi(raw); err != nil || dpi < 36 || dpi > 300 {
			return fault.Invalid("dpi", "must be a whole number from 36 to 300")
		}
	}
	pdf, err := s.deps.Actors.Blob(t.Source.BlobHash, t.Source.BlobHolders)
	if err != nil {
		return err
	}
	img, err := s.deps.Forms.PageImage(pdf, n, dpi, pdfform.DefaultLimits)
	if err != nil {
		return uploadError(err)
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
		return err
	}
	r.SetStatusCode(http.StatusOK)
	r.SetContentType("image/png")
	// A template's upload never changes.
	r.Response.Header.Set("Cache-Control", "private, max-age=86400, immutable")
	r.SetBody(buf.Bytes())
	return nil
}
