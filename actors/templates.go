package actors

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/internal/ids"
	"github.com/platen/platen/render"
	"github.com/platen/platen/storage"
)

// Template messages an org actor answers. Each waits until the actor has no
// command in flight, so the template it reads from the store is current.
type (
	// CreateTemplate creates a template, with a first version when Version is
	// set. The Reply's value is the storage.Template.
	CreateTemplate struct {
		Name, Slug, Description string
		Version                 *render.Version
		Activate                bool
		CopiedFrom              string
	}
	// SaveVersion saves the next version. The Reply's value is the
	// storage.TemplateVersion.
	SaveVersion struct {
		TemplateID string
		Version    render.Version
		Activate   bool
	}
	// ActivateVersion makes a saved version the one that generates. The
	// Reply's value is the storage.Template.
	ActivateVersion struct {
		TemplateID string
		Number     int
	}
	// UpdateTemplate changes a template's name, slug, description or archived
	// state; nil fields stay. The Reply's value is the storage.Template.
	UpdateTemplate struct {
		TemplateID              string
		Name, Slug, Description *string
		Archived                *bool
	}
)

// needsQuiet reports whether msg must be decided with nothing in flight.
func needsQuiet(msg any) bool {
	switch msg.(type) {
	case CreateTemplate, SaveVersion, ActivateVersion, UpdateTemplate:
		return true
	}
	return false
}

var slugRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,62}$`)

// reservedSlugs would shadow routes under /v1/templates.
var reservedSlugs = []string{"library", "pdf"}

// CheckSlug reports why slug cannot name a template.
func CheckSlug(field, slug string) error {
	if !slugRE.MatchString(slug) {
		return fault.Invalid(field, "a slug is 1 to 63 lower-case letters, digits and '-', starting with a letter or digit")
	}
	for _, r := range reservedSlugs {
		if slug == r {
			return fault.Invalid(field, "%q is reserved", slug)
		}
	}
	return nil
}

const maxDescriptionLen = 1000

// templateCommand decides a template message: the command to propose and how
// to build the reply once it is applied.
func (a *orgActor) templateCommand(msg any, cmd *storage.Command) (after func() any, reply any, err error) {
	store := a.deps.Store
	now := cmd.At
	readTemplate := func(id string) func() any {
		return func() any {
			t, _ := store.Template(id)
			return t
		}
	}
	switch m := msg.(type) {
	case CreateTemplate:
		if err := checkName("name", m.Name); err != nil {
			return nil, nil, err
		}
		if err := CheckSlug("slug", m.Slug); err != nil {
			return nil, nil, err
		}
		if err := checkDescription(m.Description); err != nil {
			return nil, nil, err
		}
		if _, err := store.TemplateBySlug(a.id, m.Slug); err == nil {
			return nil, nil, fmt.Errorf("%w: the slug %q is taken", fault.ErrConflict, m.Slug)
		}
		t := storage.Template{ID: ids.New(ids.Template, now), OrgID: a.id, Slug: m.Slug, Name: m.Name,
			Description: m.Description, CopiedFrom: m.CopiedFrom}
		ct := &storage.CreateTemplate{Template: t, Activate: m.Activate, EventID: ids.New(ids.Event, now)}
		if m.Version != nil {
			if _, err := m.Version.Check(); err != nil {
				return nil, nil, err
			}
			v := versionRecord(t.ID, 1, *m.Version)
			ct.Version = &v
		}
		cmd.Kind, cmd.CreateTemplate = storage.KindCreateTemplate, ct
		return readTemplate(t.ID), nil, nil
	case SaveVersion:
		t, err := a.template(m.TemplateID)
		if err != nil {
			return nil, nil, err
		}
		if _, err := m.Version.Check(); err != nil {
			return nil, nil, err
		}
		v := versionRecord(t.ID, t.LatestVersion+1, m.Version)
		cmd.Kind = storage.KindSaveVersion
		cmd.SaveVersion = &storage.SaveVersion{Version: v, Activate: m.Activate, EventID: ids.New(ids.Event, now)}
		return func() any {
			v, _ := store.TemplateVersion(t.ID, v.Number)
			return v
		}, nil, nil
	case ActivateVersion:
		t, err := a.template(m.TemplateID)
		if err != nil {
			return nil, nil, err
		}
		if m.Number < 1 || m.Number > t.LatestVersion {
			return nil, nil, fmt.Errorf("%w: template %s has versions 1 to %d", fault.ErrNotFound, t.Slug, t.LatestVersion)
		}
		if t.ActiveVersion == m.Number {
			return nil, t, nil
		}
		cmd.Kind = storage.KindActivateVersion
		cmd.ActivateVersion = &storage.ActivateVersion{TemplateID: t.ID, Number: m.Number, EventID: ids.New(ids.Event, now)}
		return readTemplate(t.ID), nil, nil
	case UpdateTemplate:
		t, err := a.template(m.TemplateID)
		if err != nil {
			return nil, nil, err
		}
		if m.Name != nil {
			if err := checkName("name", *m.Name); err != nil {
				return nil, nil, err
			}
		}
		if m.Description != nil {
			if err := checkDescription(*m.Description); err != nil {
				return nil, nil, err
			}
		}
		if m.Slug != nil && *m.Slug != t.Slug {
			if err := CheckSlug("slug", *m.Slug); err != nil {
				return nil, nil, err
			}
			if _, err := store.TemplateBySlug(a.id, *m.Slug); err == nil {
				return nil, nil, fmt.Errorf("%w: the slug %q is taken", fault.ErrConflict, *m.Slug)
			}
		}
		cmd.Kind = storage.KindUpdateTemplate
		cmd.UpdateTemplate = &storage.UpdateTemplate{TemplateID: t.ID, Name: m.Name, Slug: m.Slug, Description: m.Description, Archived: m.Archived}
		return readTemplate(t.ID), nil, nil
	}
	return nil, nil, fmt.Errorf("actors: %T is not a template message", msg)
}

// template reads one of the organisation's templates.
func (a *orgActor) template(id string) (storage.Template, error) {
	t, err := a.deps.Store.Template(id)
	if err != nil || t.OrgID != a.id {
		return storage.Template{}, fmt.Errorf("%w: template %s", fault.ErrNotFound, id)
	}
	return t, nil
}

func versionRecord(tplID string, n int, v render.Version) storage.TemplateVersion {
	return storage.TemplateVersion{TemplateID: tplID, Number: n, HTML: v.HTML, Content: v.Content,
		Manifest: v.Manifest, SampleData: v.SampleData, Assets: v.Assets}
}

func checkDescription(d string) error {
	if len(d) > maxDescriptionLen || !utf8.ValidString(d) || strings.ContainsRune(d, 0) {
		return fault.Invalid("description", "must be text of at most %d bytes", maxDescriptionLen)
	}
	return nil
}
