package client

import (
	"context"
	"fmt"
	"io"
	"strconv"
)

// TemplatesService is the templates routes (docs/api.md "Templates").
// A template is named by its id (tpl_…) or its slug.
type TemplatesService struct{ c *Client }

// CreateTemplateRequest creates a template and, when Source.HTML is set,
// its version 1, active unless Activate is false.
type CreateTemplateRequest struct {
	Name        string `json:"name"`
	Slug        string `json:"slug,omitempty"`
	Description string `json:"description,omitempty"`
	VersionSource
	Activate *bool `json:"activate,omitempty"`
}

// Create creates a template.
func (s *TemplatesService) Create(ctx context.Context, req CreateTemplateRequest, opts ...CallOption) (*Template, error) {
	return s.template(ctx, s.c.newCall(opCreateTemplate), req, opts)
}

// ListTemplatesParams pages GET /v1/templates; Archived lists the archived
// templates instead.
type ListTemplatesParams struct {
	Limit    int
	Cursor   string
	Archived bool
}

// List lists templates, newest first, a page at a time.
func (s *TemplatesService) List(ctx context.Context, p ListTemplatesParams, opts ...CallOption) (*Page[Template], error) {
	cl := s.c.newCall(opListTemplates)
	setInt(cl, "limit", p.Limit)
	setQuery(cl, "cursor", p.Cursor)
	if p.Archived {
		cl.query.Set("archived", "true")
	}
	var page Page[Template]
	if err := s.c.do(ctx, cl, &page, opts); err != nil {
		return nil, err
	}
	return &page, nil
}

// Get reads a template by id or slug.
func (s *TemplatesService) Get(ctx context.Context, ref string, opts ...CallOption) (*Template, error) {
	return s.template(ctx, s.c.newCall(opGetTemplate, ref), nil, opts)
}

// UpdateTemplateRequest changes the fields that are not nil.
type UpdateTemplateRequest struct {
	Name        *string `json:"name,omitempty"`
	Slug        *string `json:"slug,omitempty"`
	Description *string `json:"description,omitempty"`
	// Archived false restores an archived template.
	Archived *bool `json:"archived,omitempty"`
}

// Update renames, re-slugs, describes, archives or restores a template.
func (s *TemplatesService) Update(ctx context.Context, ref string, req UpdateTemplateRequest, opts ...CallOption) (*Template, error) {
	return s.template(ctx, s.c.newCall(opUpdateTemplate, ref), req, opts)
}

// Archive archives a template; it stays readable, and Update with Archived
// false restores it.
func (s *TemplatesService) Archive(ctx context.Context, ref string, opts ...CallOption) (*Template, error) {
	return s.template(ctx, s.c.newCall(opArchiveTemplate, ref), nil, opts)
}

// VersionRequest saves a version: its source and whether it becomes the
// one that generates.
type VersionRequest struct {
	VersionSource
	Activate bool `json:"activate,omitempty"`
}

// CreateVersion saves the template's next version. A source that cannot
// work is an *Error INVALID_REQUEST naming its field.
func (s *TemplatesService) CreateVersion(ctx context.Context, ref string, req VersionRequest, opts ...CallOption) (*Version, error) {
	cl := s.c.newCall(opCreateVersion, ref)
	if err := cl.jsonBody(req); err != nil {
		return nil, err
	}
	var v Version
	if err := s.c.do(ctx, cl, &v, opts); err != nil {
		return nil, err
	}
	return &v, nil
}

// ListVersions lists a template's versions, newest first, without source.
func (s *TemplatesService) ListVersions(ctx context.Context, ref string, opts ...CallOption) ([]VersionSummary, error) {
	var l items[VersionSummary]
	if err := s.c.do(ctx, s.c.newCall(opListVersions, ref), &l, opts); err != nil {
		return nil, err
	}
	return l.Items, nil
}

// GetVersion reads version n of a template, source included.
func (s *TemplatesService) GetVersion(ctx context.Context, ref string, n int, opts ...CallOption) (*Version, error) {
	var v Version
	if err := s.c.do(ctx, s.c.newCall(opGetVersion, ref, strconv.Itoa(n)), &v, opts); err != nil {
		return nil, err
	}
	return &v, nil
}

// ActivateVersion makes version n the one that generates.
func (s *TemplatesService) ActivateVersion(ctx context.Context, ref string, n int, opts ...CallOption) (*Template, error) {
	return s.template(ctx, s.c.newCall(opActivateVersion, ref, strconv.Itoa(n)), struct{}{}, opts)
}

// PreviewRequest renders a version (the active one, or Version), or an
// unsaved Draft, with its sample data or Data. Format "png" renders one
// page (Page, from 1) as a picture Width pixels wide.
type PreviewRequest struct {
	Data    map[string]any `json:"data,omitempty"`
	Version int            `json:"version,omitempty"`
	Engine  string         `json:"engine,omitempty"`
	Draft   *VersionSource `json:"draft,omitempty"`
	Format  string         `json:"format,omitempty"`
	Page    int            `json:"page,omitempty"`
	Width   int            `json:"width,omitempty"`
}

// Preview is a rendered preview: a PDF watermarked PREVIEW, or a PNG of
// one page.
type Preview struct {
	Content      []byte
	ContentType  string
	Pages        int
	Page         int
	Engine       string
	EngineReason string
}

// Preview renders a template without saving or billing anything.
func (s *TemplatesService) Preview(ctx context.Context, ref string, req PreviewRequest, opts ...CallOption) (*Preview, error) {
	cl := s.c.newCall(opPreview, ref)
	cl.raw = true
	if err := cl.jsonBody(req); err != nil {
		return nil, err
	}
	body, res, err := s.c.doRaw(ctx, cl, opts)
	if err != nil {
		return nil, err
	}
	p := &Preview{
		Content: body, ContentType: res.Header.Get("Content-Type"),
		Engine: res.Header.Get("X-Platen-Engine"), EngineReason: res.Header.Get("X-Platen-Engine-Reason"),
	}
	p.Pages, _ = strconv.Atoi(res.Header.Get("X-Platen-Pages"))
	p.Page, _ = strconv.Atoi(res.Header.Get("X-Platen-Page"))
	return p, nil
}

// Library lists the starter library.
func (s *TemplatesService) Library(ctx context.Context, opts ...CallOption) ([]Starter, error) {
	var l items[Starter]
	if err := s.c.do(ctx, s.c.newCall(opLibrary), &l, opts); err != nil {
		return nil, err
	}
	return l.Items, nil
}

// StarterThumbnail is a starter's first page with its sample data, as a
// PNG 320 pixels wide.
func (s *TemplatesService) StarterThumbnail(ctx context.Context, starterSlug string, opts ...CallOption) ([]byte, error) {
	cl := s.c.newCall(opStarterThumbnail, starterSlug)
	cl.raw = true
	body, _, err := s.c.doRaw(ctx, cl, opts)
	return body, err
}

// CopyStarterRequest names the copy; empty fields take the starter's.
type CopyStarterRequest struct {
	Slug string `json:"slug,omitempty"`
	Name string `json:"name,omitempty"`
}

// CopyStarter copies a starter into the organisation; its version 1 is
// active and generates at once.
func (s *TemplatesService) CopyStarter(ctx context.Context, starterSlug string, req CopyStarterRequest, opts ...CallOption) (*Template, error) {
	return s.template(ctx, s.c.newCall(opCopyStarter, starterSlug), req, opts)
}

// UploadPDFRequest makes a template from a PDF: File is read whole (up to
// 20 MB) and sent as Filename.
type UploadPDFRequest struct {
	File     io.Reader
	Filename string
	Name     string
	Slug     string
}

// UploadPDF makes a template from an uploaded PDF and answers it with
// every text piece found.
func (s *TemplatesService) UploadPDF(ctx context.Context, req UploadPDFRequest, opts ...CallOption) (*PDFTemplate, error) {
	if req.File == nil {
		return nil, fmt.Errorf("platen: UploadPDF needs a File")
	}
	var fields []formField
	for _, f := range []formField{{"name", req.Name}, {"slug", req.Slug}} {
		if f.value != "" {
			fields = append(fields, f)
		}
	}
	name := req.Filename
	if name == "" {
		name = "upload.pdf"
	}
	cl := s.c.newCall(opUploadPDF)
	if err := cl.formBody(fields, name, req.File, "the PDF"); err != nil {
		return nil, err
	}
	var t PDFTemplate
	if err := s.c.do(ctx, cl, &t, opts); err != nil {
		return nil, err
	}
	return &t, nil
}

// Pieces lists the text pieces of a template made from a PDF: every
// page's, or page's alone when page > 0.
func (s *TemplatesService) Pieces(ctx context.Context, ref string, page int, opts ...CallOption) (*Pieces, error) {
	cl := s.c.newCall(opPieces, ref)
	setInt(cl, "page", page)
	var p Pieces
	if err := s.c.do(ctx, cl, &p, opts); err != nil {
		return nil, err
	}
	return &p, nil
}

// PageImage is page (from 1) of a template made from a PDF as a PNG, at
// dpi (0: 72, where the pieces' boxes are its pixels).
func (s *TemplatesService) PageImage(ctx context.Context, ref string, page, dpi int, opts ...CallOption) ([]byte, error) {
	cl := s.c.newCall(opPageImage, ref, strconv.Itoa(page)+".png")
	cl.raw = true
	setInt(cl, "dpi", dpi)
	body, _, err := s.c.doRaw(ctx, cl, opts)
	return body, err
}

// template sends cl with body (nil: none) and decodes a Template.
func (s *TemplatesService) template(ctx context.Context, cl *call, body any, opts []CallOption) (*Template, error) {
	if body != nil {
		if err := cl.jsonBody(body); err != nil {
			return nil, err
		}
	}
	var t Template
	if err := s.c.do(ctx, cl, &t, opts); err != nil {
		return nil, err
	}
	return &t, nil
}
