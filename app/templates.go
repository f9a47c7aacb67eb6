package app

import (
	"context"
	"errors"
	"fmt"
	"strconv"

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
	res, err := a.deps.Actors.AskOrg(orgID, actors.CreateTemplate{Name: name, Slug: slug, Description: st.Description, Version: &v, Activate: true, CopiedFrom: st.Slug})
	if err != nil {
		return storage.Template{}, err
	}
	return res.(storage.Template), nil
}

// PreviewRequest asks for a preview of a template version.
type PreviewRequest struct {
	// Version is the version to preview; 0 means the active one.
	Version int
	// Data is the data to render; nil means the version's sample data.
	Data map[string]any
	// Engine is the engine asked for; empty means the platform default.
	Engine string
}

// Preview is a rendered preview.
type Preview struct {
	Template storage.Template
	// Version is the version rendered.
	Version int
	render.Result
}

// Preview renders a version of a template with its sample data or the given
// data, watermarked and never billed (docs/api.md "Preview").
func (a *App) Preview(ctx context.Context, orgID, templateRef string, in PreviewRequest) (Preview, error) {
	var t storage.Template
	var checked *render.Checked
	n := in.Version
	err := a.fresh(func() (err error) {
		if t, err = a.Template(orgID, templateRef); err != nil {
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
	data := in.Data
	if data == nil {
		data = checked.Sample
	}
	req := render.Request{
		Version: checked, Data: data, Engine: in.Engine, CacheKey: actors.VersionKey(t.ID, n), Now: a.deps.Clock.Now(),
		Watermark: &render.Watermark{Text: "PREVIEW", Notice: "Preview of " + t.Slug + " version " + strconv.Itoa(n) + ": not a billed document"},
	}
	if err := a.deps.Actors.LoadSource(&req); err != nil {
		return Preview{}, err
	}
	res, err := a.deps.Renderer.Render(ctx, req)
	return Preview{Template: t, Version: n, Result: res}, err
}

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
