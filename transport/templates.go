package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/platen/platen/actors"
	"github.com/platen/platen/app"
	"github.com/platen/platen/auth"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/internal/ids"
	"github.com/platen/platen/render"
	"github.com/platen/platen/starters"
	"github.com/platen/platen/storage"
)

// templateView is a template as the API shows it.
type templateView struct {
	ID            string `json:"id"`
	Slug          string `json:"slug"`
	Name          string `json:"name"`
	Description   string `json:"description,omitempty"`
	Kind          string `json:"kind"`
	ActiveVersion int    `json:"activeVersion"`
	LatestVersion int    `json:"latestVersion"`
	CopiedFrom    string `json:"copiedFrom,omitempty"`
	// Source is the upload of a template made from a PDF.
	Source     *sourceView `json:"source,omitempty"`
	CreatedAt  time.Time   `json:"createdAt"`
	UpdatedAt  time.Time   `json:"updatedAt"`
	ArchivedAt *time.Time  `json:"archivedAt,omitempty"`
}

func viewTemplate(t storage.Template) templateView {
	return templateView{ID: t.ID, Slug: t.Slug, Name: t.Name, Description: t.Description, Kind: t.Kind,
		ActiveVersion: t.ActiveVersion, LatestVersion: t.LatestVersion, CopiedFrom: t.CopiedFrom, Source: viewSource(t.Source),
		CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt, ArchivedAt: t.ArchivedAt}
}

// versionView is a whole version.
type versionView struct {
	TemplateID string            `json:"templateId"`
	Version    int               `json:"version"`
	Active     bool              `json:"active"`
	HTML       string            `json:"html,omitempty"`
	Content    json.RawMessage   `json:"content,omitempty"`
	Manifest   json.RawMessage   `json:"manifest,omitempty"`
	SampleData json.RawMessage   `json:"sampleData,omitempty"`
	Assets     map[string]string `json:"assets,omitempty"`
	// Fields are a version of a template made from a PDF.
	Fields []storage.PDFField `json:"fields,omitempty"`
	// Engine is the engine the version's sample data gets, and why.
	Engine    *render.Choice `json:"engine,omitempty"`
	CreatedAt time.Time      `json:"createdAt"`
}

// withEngine adds the engine the version's sample data gets. It is advice:
// when it cannot be worked out the answer goes without it, and a save that
// succeeded is never reported as failed because of it.
func (s *Server) withEngine(v versionView, t storage.Template) versionView {
	if c, err := s.app.EngineChoice(t, v.Version); err == nil {
		v.Engine = &c
	}
	return v
}

func viewVersion(v storage.TemplateVersion, t storage.Template) versionView {
	return versionView{TemplateID: v.TemplateID, Version: v.Number, Active: v.Number == t.ActiveVersion, HTML: v.HTML,
		Content: v.Content, Manifest: v.Manifest, SampleData: v.SampleData, Assets: v.Assets, Fields: v.Fields, CreatedAt: v.CreatedAt}
}

// versionSummary is a version in a listing, without its source.
type versionSummary struct {
	Version    int       `json:"version"`
	Active     bool      `json:"active"`
	HTMLBytes  int       `json:"htmlBytes"`
	AssetCount int       `json:"assetCount"`
	FieldCount int       `json:"fieldCount,omitempty"`
	CreatedAt  time.Time `json:"createdAt"`
}

// template resolves :templateId, an id or a slug, within the caller's organisation.
func (s *Server) template(r *request) (storage.Template, error) {
	return s.app.Template(r.org.ID, r.param("templateId"))
}

// versionInput is the source of a version in a request.
type versionInput struct {
	HTML       string            `json:"html"`
	Content    json.RawMessage   `json:"content"`
	Manifest   json.RawMessage   `json:"manifest"`
	SampleData json.RawMessage   `json:"sampleData"`
	Assets     map[string]string `json:"assets"`
	// Fields mark pieces of a template made from a PDF.
	Fields   []storage.PDFField `json:"fields"`
	Activate *bool              `json:"activate"`
}

func (v versionInput) version() render.Version {
	return render.Version{HTML: v.HTML, Content: v.Content, Manifest: v.Manifest, SampleData: v.SampleData, Assets: v.Assets}
}

func (s *Server) createTemplate(r *request) error {
	var in struct {
		Name        string `json:"name"`
		Slug        string `json:"slug"`
		Description string `json:"description"`
		versionInput
	}
	if err := r.decode(&in); err != nil {
		return err
	}
	msg := actors.CreateTemplate{Name: in.Name, Slug: in.Slug, Description: in.Description}
	if in.HTML != "" {
		v := in.version()
		if err := s.app.CheckVersion(r.org.ID, v); err != nil {
			return err
		}
		msg.Version = &v
		msg.Activate = in.Activate == nil || *in.Activate
	}
	t, err := askOrg(r, r.org.ID, msg)
	if err != nil {
		return err
	}
	note := "template created without a version; save one with POST /v1/templates/" + t.Slug + "/versions"
	if t.LatestVersion > 0 {
		note = fmt.Sprintf("template created with version 1 (active: %v)", t.ActiveVersion == 1)
	}
	return r.ok(http.StatusCreated, viewTemplate(t), note)
}

// maxListLimit and defaultListLimit bound listings (docs/design.md "Listing").
const (
	defaultListLimit = 20
	maxListLimit     = 100
)

func listLimit(r *request) (int, error) {
	raw := string(r.QueryArgs().Peek("limit"))
	if raw == "" {
		return defaultListLimit, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 || n > maxListLimit {
		return 0, fault.Invalid("limit", "must be a whole number from 1 to %d", maxListLimit)
	}
	return n, nil
}

// listCursor reads a listing's cursor parameter, which must be an id of the
// kind the listing pages through; empty means the first page.
func listCursor(r *request, kind string) (string, error) {
	cursor := string(r.QueryArgs().Peek("cursor"))
	if cursor != "" && !ids.HasKind(cursor, kind) {
		return "", fault.Invalid("cursor", "is not a cursor this listing gave")
	}
	return cursor, nil
}

func (s *Server) listTemplates(r *request) error {
	limit, err := listLimit(r)
	if err != nil {
		return err
	}
	archived := string(r.QueryArgs().Peek("archived"))
	if archived != "" && archived != "true" && archived != "false" {
		return fault.Invalid("archived", "must be true or false")
	}
	cursor, err := listCursor(r, ids.Template)
	if err != nil {
		return err
	}
	items := []templateView{}
	var next *string
	for {
		batch, err := s.deps.Store.OrgTemplates(r.org.ID, cursor, limit+1)
		if err != nil {
			return err
		}
		for _, t := range batch {
			if (t.ArchivedAt != nil) != (archived == "true") {
				cursor = t.ID
				continue
			}
			if len(items) == limit {
				next = &items[len(items)-1].ID
				break
			}
			items = append(items, viewTemplate(t))
			cursor = t.ID
		}
		if next != nil || len(batch) <= limit {
			break
		}
	}
	return r.ok(http.StatusOK, map[string]any{"items": items, "nextCursor": next}, fmt.Sprintf("%d templates", len(items)))
}

func (s *Server) getTemplate(r *request) error {
	t, err := s.template(r)
	if err != nil {
		return err
	}
	return r.ok(http.StatusOK, viewTemplate(t), "")
}

func (s *Server) patchTemplate(r *request) error {
	t, err := s.template(r)
	if err != nil {
		return err
	}
	var in struct {
		Name        *string `json:"name"`
		Slug        *string `json:"slug"`
		Description *string `json:"description"`
		Archived    *bool   `json:"archived"`
	}
	if err := r.decode(&in); err != nil {
		return err
	}
	res, err := askOrg(r, r.org.ID, actors.UpdateTemplate{TemplateID: t.ID, Name: in.Name, Slug: in.Slug, Description: in.Description, Archived: in.Archived})
	if err != nil {
		return err
	}
	return r.ok(http.StatusOK, viewTemplate(res), "template updated")
}

func (s *Server) archiveTemplate(r *request) error {
	t, err := s.template(r)
	if err != nil {
		return err
	}
	yes := true
	res, err := askOrg(r, r.org.ID, actors.UpdateTemplate{TemplateID: t.ID, Archived: &yes})
	if err != nil {
		return err
	}
	return r.ok(http.StatusOK, viewTemplate(res), "template archived; PATCH {\"archived\": false} restores it")
}

func (s *Server) createVersion(r *request) error {
	t, err := s.template(r)
	if err != nil {
		return err
	}
	var in versionInput
	if err := r.decode(&in); err != nil {
		return err
	}
	if err := s.app.CheckVersion(r.org.ID, in.version()); err != nil {
		return err
	}
	v, err := askOrg(r, r.org.ID, actors.SaveVersion{TemplateID: t.ID, Version: in.version(), Fields: in.Fields, Activate: in.Activate != nil && *in.Activate})
	if err != nil {
		return err
	}
	if t, err = s.deps.Store.Template(t.ID); err != nil {
		return err
	}
	note := fmt.Sprintf("version %d saved", v.Number)
	if v.Number == t.ActiveVersion {
		note += " and active"
	}
	view := s.withEngine(viewVersion(v, t), t)
	if view.Engine != nil && view.Engine.Engine != "" {
		note += "; its sample data renders with " + view.Engine.Engine
	}
	return r.ok(http.StatusCreated, view, note)
}

func (s *Server) listVersions(r *request) error {
	t, err := s.template(r)
	if err != nil {
		return err
	}
	vs, err := s.deps.Store.TemplateVersions(t.ID)
	if err != nil {
		return err
	}
	items := make([]versionSummary, 0, len(vs))
	for i := len(vs) - 1; i >= 0; i-- {
		v := vs[i]
		items = append(items, versionSummary{Version: v.Number, Active: v.Number == t.ActiveVersion, HTMLBytes: len(v.HTML), AssetCount: len(v.Assets), FieldCount: len(v.Fields), CreatedAt: v.CreatedAt})
	}
	return r.ok(http.StatusOK, map[string]any{"items": items}, fmt.Sprintf("%d versions", len(items)))
}

// versionNumber reads the :n parameter.
func versionNumber(r *request) (int, error) {
	n, err := strconv.Atoi(r.param("n"))
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%w: version %q", fault.ErrNotFound, r.param("n"))
	}
	return n, nil
}

func (s *Server) getVersion(r *request) error {
	t, err := s.template(r)
	if err != nil {
		return err
	}
	n, err := versionNumber(r)
	if err != nil {
		return err
	}
	v, err := s.deps.Store.TemplateVersion(t.ID, n)
	if errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("%w: version %d of %s", fault.ErrNotFound, n, t.Slug)
	}
	if err != nil {
		return err
	}
	return r.ok(http.StatusOK, s.withEngine(viewVersion(v, t), t), "")
}

func (s *Server) activateVersion(r *request) error {
	t, err := s.template(r)
	if err != nil {
		return err
	}
	n, err := versionNumber(r)
	if err != nil {
		return err
	}
	res, err := askOrg(r, r.org.ID, actors.ActivateVersion{TemplateID: t.ID, Number: n})
	if err != nil {
		return err
	}
	return r.ok(http.StatusOK, viewTemplate(res), fmt.Sprintf("version %d is active", n))
}

// previewInput is the body of a preview.
type previewInput struct {
	Data    map[string]any `json:"data"`
	Version int            `json:"version"`
	Engine  string         `json:"engine"`
	// Draft is a version's source as POST .../versions takes it, rendered
	// without being saved.
	Draft *versionInput `json:"draft"`
	// Format is "pdf" (the default) or "png": one page as a picture, page
	// Page (default 1) Width pixels wide, for an editor's live preview.
	Format string `json:"format"`
	Page   int    `json:"page"`
	Width  int    `json:"width"`
}

// preview renders a version, or a draft, with its sample data or the given
// data, watermarked and unbilled, and answers with the PDF itself.
func (s *Server) preview(r *request) error {
	var in previewInput
	if err := r.decode(&in); err != nil {
		return err
	}
	req := app.PreviewRequest{Version: in.Version, Data: in.Data, Engine: in.Engine}
	if in.Draft != nil {
		// A draft is authoring: the route's templates.read lets a key
		// render what is saved, not markup of its own.
		if !auth.Grants(r.key.Scopes, auth.TemplatesWrite) {
			return fmt.Errorf("%w: previewing a draft needs the scope %s (%s)", errForbidden, auth.TemplatesWrite, auth.Label(string(auth.TemplatesWrite)))
		}
		if in.Draft.Activate != nil {
			return fault.Invalid("draft.activate", "a draft is never saved, so it cannot be activated")
		}
		req.Draft = &app.Draft{Version: in.Draft.version(), Fields: in.Draft.Fields}
	}
	switch in.Format {
	case "", "pdf":
		if in.Page != 0 || in.Width != 0 {
			return fault.Invalid("format", `page and width choose a picture: send "format": "png" with them`)
		}
	case "png":
		req.Image = &app.PageImageRequest{Page: in.Page, Width: in.Width}
	default:
		return fault.Invalid("format", `must be "pdf" or "png"`)
	}
	r.asked = true
	// Not the request as the context: fasthttp's RequestCtx.Done reads the
	// server's state without a lock and races with Shutdown. The render
	// has its own time budget.
	p, err := s.app.Preview(context.Background(), r.org.ID, r.param("templateId"), req)
	if err != nil {
		return err
	}
	name := fmt.Sprintf("%s-v%d-preview", p.Template.Slug, p.Version)
	if in.Draft != nil {
		name = p.Template.Slug + "-draft-preview"
	}
	r.SetStatusCode(http.StatusOK)
	r.Response.Header.Set("X-Platen-Pages", strconv.Itoa(p.Pages))
	r.Response.Header.Set("X-Platen-Engine", p.Engine)
	r.Response.Header.Set("X-Platen-Engine-Reason", asciiHeader(p.EngineReason))
	if req.Image != nil {
		r.SetContentType("image/png")
		r.Response.Header.Set("Content-Disposition", fmt.Sprintf(`inline; filename="%s-p%d.png"`, name, p.Page))
		r.Response.Header.Set("X-Platen-Page", strconv.Itoa(p.Page))
		r.SetBody(p.PNG)
		return nil
	}
	r.SetContentType("application/pdf")
	r.Response.Header.Set("Content-Disposition", fmt.Sprintf(`inline; filename="%s.pdf"`, name))
	r.SetBody(p.PDF)
	return nil
}

// starterView is a starter in the library listing.
type starterView struct {
	Slug        string          `json:"slug"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Category    string          `json:"category,omitempty"`
	Manifest    json.RawMessage `json:"manifest"`
	SampleData  json.RawMessage `json:"sampleData"`
}

func (s *Server) library(r *request) error {
	all, err := starters.All()
	if err != nil {
		return err
	}
	items := make([]starterView, len(all))
	for i, st := range all {
		items[i] = starterView{Slug: st.Slug, Name: st.Name, Description: st.Description, Category: st.Category,
			Manifest: st.Version.Manifest, SampleData: st.Version.SampleData}
	}
	return r.ok(http.StatusOK, map[string]any{"items": items}, fmt.Sprintf("%d starters", len(items)))
}

// starterThumbnail answers the first page of a starter with its sample
// data as a PNG, for the starter gallery. A node draws each once; the
// browser keeps it a day, since a starter changes only with a new release.
func (s *Server) starterThumbnail(r *request) error {
	img, err := s.app.StarterThumbnail(context.Background(), r.param("starterSlug"))
	if err != nil {
		return err
	}
	r.SetStatusCode(http.StatusOK)
	r.SetContentType("image/png")
	r.Response.Header.Set("Cache-Control", "private, max-age=86400")
	r.SetBody(img)
	return nil
}

// copyStarter copies a starter into the organisation as a template whose
// version 1 is active.
func (s *Server) copyStarter(r *request) error {
	var in struct {
		Slug string `json:"slug"`
		Name string `json:"name"`
	}
	if err := r.decode(&in); err != nil {
		return err
	}
	r.asked = true
	t, err := s.app.CopyStarter(r.org.ID, r.param("starterSlug"), in.Slug, in.Name)
	if err != nil {
		return err
	}
	return r.ok(http.StatusCreated, viewTemplate(t), "starter copied; version 1 is active and generates now")
}

// asciiHeader keeps a text safe in a header value: printable ASCII only,
// each other character one "?".
func asciiHeader(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 || r > 0x7e {
			r = '?'
		}
		b.WriteRune(r)
	}
	return b.String()
}
