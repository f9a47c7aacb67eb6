package transport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"

	"github.com/platen/platen/app"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/pdftemplate"
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
	r.asked = true
	t, err := s.app.UploadPDFTemplate(r.org.ID, app.Upload{Filename: files[0].Filename, Data: data, Name: formValue(form, "name"), Slug: formValue(form, "slug")})
	if err != nil {
		return err
	}
	note := fmt.Sprintf("template created from a %d-page PDF with %d text pieces; mark fields with POST /v1/templates/%s/versions", t.Pages, t.Offered, t.Template.Slug)
	if len(t.LeftOut) > 0 {
		note += fmt.Sprintf(". %d left out, as the filler cannot edit them: %s", t.Found-t.Offered, strings.Join(t.LeftOut, "; "))
	}
	return r.ok(http.StatusCreated, pdfTemplateView{templateView: viewTemplate(t.Template), Pieces: t.Pieces}, note)
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
	var pieces []pdftemplate.Piece
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
		pieces = []pdftemplate.Piece{}
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
	img, err := s.app.PageImage(t, n, dpi)
	if err != nil {
		return err
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
