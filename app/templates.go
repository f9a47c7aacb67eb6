package app

import (
	"context"
	"errors"
	"fmt"
	"image/png"
	"strconv"
	"strings"
	"time"

	"github.com/platen/platen/actors"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/render"
	"github.com/platen/platen/starters"
	"github.com/platen/platen/storage"
)

// CopyStarter copies a starter into an organisation as a template whose
// version 1 is active, so it generates at once. Without a slug it takes the
// starter's, or the first of slug-2, slug-3… that is free; without a name,
// the starter's.
func (a *App) CopyStarter(orgID, starterSlug, slug, name string) (storage.Template, error) {
	st, ok := starters.Find(starterSlug)
	if !ok {
		return storage.Template{}, fmt.Errorf("%w: no starter %q in the library", fault.ErrNotFound, starterSlug)
	}
	if name == "" {
		name = st.Name
	}
	if slug == "" {
		slug = st.Slug
		for i := 2; i <= 100; i++ {
			if _, err := a.deps.Store.TemplateBySlug(orgID, slug); errors.Is(err, storage.ErrNotFound) {
				break
			}
			slug = fmt.Sprintf("%s-%d", st.Slug, i)
		}
	}
	v := st.Version
	return actors.Ask(a.deps.Actors, orgID, actors.CreateTemplate{Name: name, Slug: slug, Description: st.Description, Version: &v, Activate: true, CopiedFrom: st.Slug})
}

// PreviewRequest asks for a preview of a template version or of a draft.
type PreviewRequest struct {
	// Version is the version to preview; 0 means the active one.
	Version int
	// Draft, when set, is previewed instead of a saved version: checked as
	// saving it would be, rendered, and never stored.
	Draft *Draft
	// Data is the data to render; nil means the version's sample data.
	Data map[string]any
	// Engine is the engine asked for; empty means the platform default.
	Engine string
	// Image, when set, asks for one page as a PNG besides the PDF.
	Image *PageImageRequest
}

// PageImageRequest asks for one page of a preview as a picture: what the
// dashboard's editor shows, since not every browser shows a PDF inline
// (phones download it instead) and a picture appears in screenshots.
type PageImageRequest struct {
	// Page is the page, from 1; 0 means 1.
	Page int
	// Width is the picture's width in pixels; 0 means PreviewImageWidth.
	Width int
}

// PreviewImageWidth is a preview picture's width when none is asked for:
// an editor's preview column on a laptop, sharp on a phone at twice its
// 390 CSS pixels. MinPreviewImageWidth and MaxPreviewImageWidth bound what
// may be asked: a picture 2,000 pixels wide is A4 at 240 dpi.
const (
	PreviewImageWidth    = 800
	MinPreviewImageWidth = 100
	MaxPreviewImageWidth = 2000
)

// Draft is the source of a version not saved: what an editor holds while
// its author types.
type Draft struct {
	Version render.Version
	// Fields mark pieces of a template made from an uploaded PDF.
	Fields []storage.PDFField
}

// Preview is a rendered preview.
type Preview struct {
	Template storage.Template
	// Version is the version rendered; 0 for a draft.
	Version int
	render.Result
	// PNG is page Page, the one PreviewRequest.Image asked for, on white.
	PNG  []byte
	Page int
}

// Preview renders a version of a template, or a draft of one, with its
// sample data or the given data, watermarked and never billed (docs/api.md
// "Preview"). A draft is checked by actors.CheckVersion, the check a save
// makes, and its refusals name their field under "draft." so an editor
// shows each at its input. It renders within a preview's budget, shorter
// than a document's (render.RendererConfig.PreviewTimeout), and holds no
// more than its organisation's share of the Chromium pages. It costs a
// render and nothing more: no actor is
// asked, nothing is proposed to raft, nothing is written to the store or
// the blob files, and its parsed markup is not cached (it has no identity).
func (a *App) Preview(ctx context.Context, orgID, templateRef string, in PreviewRequest) (Preview, error) {
	if in.Image != nil {
		im := *in.Image // the caller's stays as asked
		in.Image = &im
		if im.Width == 0 {
			im.Width = PreviewImageWidth
		}
		if im.Width < MinPreviewImageWidth || im.Width > MaxPreviewImageWidth {
			return Preview{}, fault.Invalid("width", "must be a whole number of pixels from %d to %d", MinPreviewImageWidth, MaxPreviewImageWidth)
		}
		if im.Page == 0 {
			im.Page = 1
		}
		if im.Page < 1 {
			return Preview{}, fault.Invalid("page", "must be a page number from 1")
		}
	}
	var t storage.Template
	var checked *render.Checked
	n := in.Version
	err := a.fresh(func() (err error) {
		if t, err = a.Template(orgID, templateRef); err != nil || in.Draft != nil {
			return err
		}
		if n == 0 {
			n = t.ActiveVersion
		}
		if n == 0 {
			return fmt.Errorf("%w: template %s has no active version to preview; save one first", fault.ErrConflict, t.Slug)
		}
		checked, err = a.deps.Versions.Get(t.ID, n)
		if errors.Is(err, storage.ErrNotFound) {
			return fault.Invalid("version", "template %s has no version %d", t.Slug, n)
		}
		return err
	})
	if err != nil {
		return Preview{}, err
	}
	cacheKey, notice := actors.VersionKey(t.ID, n), "Preview of "+t.Slug+" version "+strconv.Itoa(n)+": not a billed document"
	if in.Draft != nil {
		if n != 0 {
			return Preview{}, fault.Invalid("version", "a draft preview renders the draft; leave version out")
		}
		if _, checked, err = actors.CheckVersion(a.deps.Store, t, 0, in.Draft.Version, in.Draft.Fields); err != nil {
			return Preview{}, inDraft(err)
		}
		cacheKey, notice = "", "Preview of a draft of "+t.Slug+": not saved, not a billed document"
	}
	data := in.Data
	if data == nil {
		data = checked.Sample
	}
	req := render.Request{
		Version: checked, Data: data, Engine: in.Engine, CacheKey: cacheKey, Now: a.deps.Clock.Now(),
		Watermark: &render.Watermark{Text: "PREVIEW", Notice: notice},
		Preview:   true, Org: orgID, OrgPages: actors.OrgPages(a.deps.Store, orgID),
	}
	if err := a.deps.Actors.LoadSource(&req); err != nil {
		return Preview{}, err
	}
	res, err := a.deps.Renderer.Render(ctx, req)
	if err != nil {
		return Preview{Template: t, Version: n, Result: res}, renderRefusal(orgID, err, res.Report.Engine)
	}
	if in.Image == nil {
		return Preview{Template: t, Version: n, Result: res}, nil
	}
	if in.Image.Page > res.Pages {
		return Preview{}, fault.Invalid("page", "the preview has %d page(s); ask for page 1 to %d", res.Pages, res.Pages)
	}
	out, err := a.pagePNG(res, in.Image.Page, in.Image.Width, png.BestSpeed)
	return Preview{Template: t, Version: n, Result: res, PNG: out, Page: in.Image.Page}, err
}

// inDraft names a refusal of a draft's field as the request holds it:
// "manifest.pageSize" of the draft is "draft.manifest.pageSize".
func inDraft(err error) error {
	var fe *fault.FieldError
	if !errors.As(err, &fe) {
		return err
	}
	return &fault.FieldError{Kind: fe.Kind, Field: "draft." + fe.Field, Msg: fe.Msg}
}

// CheckPDFA refuses, before it is saved, a version whose manifest asks
// for PDF/A when its sample data would not print as PDF/A: phantom writes
// it, and the sample uses what phantom does not support (or the node does
// not run phantom). A version that fails its own checks is left to the
// save, which names the field.
func (a *App) CheckPDFA(v render.Version) error {
	if m, err := render.ParseManifest(v.Manifest, "manifest"); err != nil || m.PDFA == "" && m.PDFUA == "" {
		return nil // most versions: no second check of the whole version
	}
	checked, err := v.Check()
	if err != nil {
		return nil
	}
	if checked.Manifest.PDFUA == "1" {
		// What cannot be made accessible is refused with what to fix
		// (docs/accessibility.md "What is refused").
		if err := a.deps.Renderer.CheckAccessibleVersion(checked, checked.Sample, "html"); err != nil {
			return err
		}
	}
	if e := checked.Manifest.EInvoice; e != nil && len(checked.Sample) > 0 {
		// The sample is what the console and the gallery generate from:
		// an e-invoice template's sample must be a valid invoice.
		if _, err := e.Invoice(checked.Sample); err != nil {
			var fe *fault.FieldError
			if errors.As(err, &fe) {
				return fault.Invalid("sampleData"+strings.TrimPrefix(fe.Field, "data"), "%s", fe.Msg)
			}
			return err
		}
	}
	_, err = a.deps.Renderer.Choose(render.Request{Version: checked, Data: checked.Sample, Now: a.deps.Clock.Now()})
	if errors.Is(err, render.ErrRender) {
		return fault.Invalid("html", "%s", strings.TrimPrefix(err.Error(), render.ErrRender.Error()+": "))
	}
	if err != nil {
		return nil
	}
	// What PDF/A forbids shows only when the file is written (a CMYK
	// image): the sample is printed once, as a preview is.
	ctx, cancel := context.WithTimeout(context.Background(), pdfaSampleTimeout)
	defer cancel()
	_, err = a.deps.Renderer.Render(ctx, render.Request{Version: checked, Data: checked.Sample, Preview: true, Now: a.deps.Clock.Now()})
	if errors.Is(err, render.ErrNotPDFA) {
		msg := strings.TrimPrefix(err.Error(), render.ErrRender.Error()+": "+render.ErrNotPDFA.Error()+": ")
		field := "assets"
		if names := render.CMYKAssets(checked.Assets); len(names) > 0 {
			field += "." + names[0]
		}
		return fault.Invalid(field, "the template asks for %s, and %s", render.Standards(checked.Manifest.PDFA, checked.Manifest.PDFUA == "1"), msg)
	}
	return nil
}

// pdfaSampleTimeout bounds the print of a PDF/A version's sample at save.
const pdfaSampleTimeout = 20 * time.Second

// EngineChoice says which engine a version's sample data gets, and why
// (docs/design.md "Engines"): what saving or reading a version reports, so
// a template's author learns before any document whether the fast engine
// takes it. A sample that cannot be filled is not an error here: the choice
// then says so and names no engine.
func (a *App) EngineChoice(t storage.Template, n int) (render.Choice, error) {
	checked, err := a.deps.Versions.Get(t.ID, n)
	if err != nil {
		return render.Choice{}, err
	}
	c, err := a.deps.Renderer.Choose(render.Request{Version: checked, Data: checked.Sample,
		CacheKey: actors.VersionKey(t.ID, n), Now: a.deps.Clock.Now()})
	switch {
	case errors.Is(err, render.ErrFill), errors.Is(err, fault.ErrPayload):
		return render.Choice{Reason: "the sample data does not fill the template: " + err.Error()}, nil
	case err != nil:
		return render.Choice{}, err
	}
	return c, nil
}
