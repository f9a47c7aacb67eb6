package actors

import (
	"encoding/json"
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
		// Source and Pieces make a template from an uploaded PDF (already
		// in the blob store); it has no version until fields are marked.
		Source *storage.PDFSource
		Pieces json.RawMessage
	}
	// SaveVersion saves the next version. The Reply's value is the
	// storage.TemplateVersion.
	SaveVersion struct {
		TemplateID string
		Version    render.Version
		// Fields are the version of a template made from an uploaded PDF.
		Fields   []storage.PDFField
		Activate bool
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

// readTemplate makes the reply of a template command: the template as the
// store holds it once the command is applied.
func (a *orgActor) readTemplate(id string) func() any {
	store := a.deps.Store
	return func() any {
		t, _ := store.Template(id)
		return t
	}
}

func (m CreateTemplate) decide(a *orgActor, cmd *storage.Command) (decision, error) {
	store := a.deps.Store
	if err := checkName("name", m.Name); err != nil {
		return decision{}, err
	}
	if err := CheckSlug("slug", m.Slug); err != nil {
		return decision{}, err
	}
	if err := checkDescription(m.Description); err != nil {
		return decision{}, err
	}
	if _, err := store.TemplateBySlug(a.id, m.Slug); err == nil {
		return decision{}, fault.Conflict("slug", "the slug %q is taken", m.Slug)
	}
	t := storage.Template{ID: ids.New(ids.Template, cmd.At), OrgID: a.id, Slug: m.Slug, Name: m.Name,
		Description: m.Description, CopiedFrom: m.CopiedFrom}
	ct := &storage.CreateTemplate{Template: t, Activate: m.Activate, EventID: ids.New(ids.Event, cmd.At)}
	if m.Source != nil {
		if m.Version != nil {
			return decision{}, fault.Invalid("version", "a template made from a PDF gets its versions once fields are marked")
		}
		ct.Template.Source, ct.Pieces = m.Source, m.Pieces
	}
	if m.Version != nil {
		if _, err := m.Version.Check(); err != nil {
			return decision{}, err
		}
		v := versionRecord(t.ID, 1, *m.Version)
		ct.Version = &v
	}
	cmd.Kind, cmd.CreateTemplate = storage.KindCreateTemplate, ct
	return decision{after: a.readTemplate(t.ID)}, nil
}

func (m SaveVersion) decide(a *orgActor, cmd *storage.Command) (decision, error) {
	store := a.deps.Store
	t, err := a.template(m.TemplateID)
	if err != nil {
		return decision{}, err
	}
	v, _, err := CheckVersion(store, t, t.LatestVersion+1, m.Version, m.Fields)
	if err != nil {
		return decision{}, err
	}
	cmd.Kind = storage.KindSaveVersion
	cmd.SaveVersion = &storage.SaveVersion{Version: v, Activate: m.Activate, EventID: ids.New(ids.Event, cmd.At)}
	return decision{after: func() any {
		v, _ := store.TemplateVersion(t.ID, v.Number)
		return v
	}}, nil
}

func (m ActivateVersion) decide(a *orgActor, cmd *storage.Command) (decision, error) {
	t, err := a.template(m.TemplateID)
	if err != nil {
		return decision{}, err
	}
	if m.Number < 1 || m.Number > t.LatestVersion {
		return decision{}, fmt.Errorf("%w: template %s has versions 1 to %d", fault.ErrNotFound, t.Slug, t.LatestVersion)
	}
	if t.ActiveVersion == m.Number {
		return answer(t), nil
	}
	cmd.Kind = storage.KindActivateVersion
	cmd.ActivateVersion = &storage.ActivateVersion{TemplateID: t.ID, Number: m.Number, EventID: ids.New(ids.Event, cmd.At)}
	return decision{after: a.readTemplate(t.ID)}, nil
}

func (m UpdateTemplate) decide(a *orgActor, cmd *storage.Command) (decision, error) {
	store := a.deps.Store
	t, err := a.template(m.TemplateID)
	if err != nil {
		return decision{}, err
	}
	if m.Name != nil {
		if err := checkName("name", *m.Name); err != nil {
			return decision{}, err
		}
	}
	if m.Description != nil {
		if err := checkDescription(*m.Description); err != nil {
			return decision{}, err
		}
	}
	if m.Slug != nil && *m.Slug != t.Slug {
		if err := CheckSlug("slug", *m.Slug); err != nil {
			return decision{}, err
		}
		if _, err := store.TemplateBySlug(a.id, *m.Slug); err == nil {
			return decision{}, fault.Conflict("slug", "the slug %q is taken", *m.Slug)
		}
	}
	cmd.Kind = storage.KindUpdateTemplate
	cmd.UpdateTemplate = &storage.UpdateTemplate{TemplateID: t.ID, Name: m.Name, Slug: m.Slug, Description: m.Description, Archived: m.Archived}
	return decision{after: a.readTemplate(t.ID)}, nil
}

// CheckVersion checks the source of a version of t the way saving it does:
// a written template's by render.Version.Check, the fields of one made from
// an uploaded PDF against the upload's pieces. It returns the record a save
// would write, numbered n, and the version checked, ready to render. The org
// actor calls it before proposing a save; a draft preview (app.Preview)
// calls it and saves nothing, so an editor's form sees the refusals a save
// would give, at the same fields. It only reads the store.
func CheckVersion(store *storage.Store, t storage.Template, n int, v render.Version, fields []storage.PDFField) (storage.TemplateVersion, *render.Checked, error) {
	rec := versionRecord(t.ID, n, v)
	if t.Kind == storage.TemplatePDF {
		if v.HTML != "" || v.Manifest != nil || len(v.Assets) > 0 || v.Content != nil || v.SampleData != nil {
			return rec, nil, fault.Invalid("html", "a template made from a PDF has fields, not markup")
		}
		var err error
		if rec.Fields, err = checkFields(store, t, fields); err != nil {
			return rec, nil, err
		}
		c, err := pdfChecked(t, rec.Fields)
		return rec, c, err
	}
	if fields != nil {
		return rec, nil, fault.Invalid("fields", "only a template made from an uploaded PDF has fields")
	}
	c, err := v.Check()
	return rec, c, err
}

// MaxPDFFields bounds the fields of one version.
const MaxPDFFields = 500

var fieldKeyRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

// checkFields checks the fields of a version of a template made from an
// uploaded PDF against its pieces, and fills in what a field leaves out:
// whenMissing is "default" when a default is given, else "original".
func checkFields(store *storage.Store, t storage.Template, fields []storage.PDFField) ([]storage.PDFField, error) {
	if len(fields) == 0 {
		return nil, fault.Invalid("fields", "mark at least one piece as a field")
	}
	if len(fields) > MaxPDFFields {
		return nil, fault.Invalid("fields", "at most %d fields", MaxPDFFields)
	}
	raw, err := store.TemplatePieces(t.ID)
	if err != nil {
		return nil, err
	}
	var pieces []struct {
		ID   string `json:"id"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &pieces); err != nil {
		return nil, err
	}
	exists, texts := map[string]bool{}, map[string]string{}
	for _, p := range pieces {
		exists[p.ID], texts[p.ID] = true, p.Text
	}
	out := make([]storage.PDFField, len(fields))
	keys, used := map[string]bool{}, map[string]bool{}
	for i, f := range fields {
		at := fmt.Sprintf("fields[%d]", i)
		switch {
		case !exists[f.PieceID]:
			return nil, fault.Invalid(at+".pieceId", "%q is not a piece of this template's PDF", f.PieceID)
		case used[f.PieceID]:
			return nil, fault.Invalid(at+".pieceId", "%q is marked twice", f.PieceID)
		case !fieldKeyRE.MatchString(f.Key):
			return nil, fault.Invalid(at+".key", "a key is 1 to 64 letters, digits and '_', not starting with a digit")
		case keys[f.Key]:
			return nil, fault.Invalid(at+".key", "%q names two fields", f.Key)
		case len(f.Default) > render.MaxPDFValueBytes || !utf8.ValidString(f.Default):
			return nil, fault.Invalid(at+".default", "must be text of at most %d bytes", render.MaxPDFValueBytes)
		case f.Align != "" && f.Align != "left" && f.Align != "right" && f.Align != "center":
			return nil, fault.Invalid(at+".align", "must be left, right or center")
		}
		switch f.WhenMissing {
		case "":
			f.WhenMissing = storage.WhenMissingOriginal
			if f.Default != "" {
				f.WhenMissing = storage.WhenMissingDefault
			}
		case storage.WhenMissingDefault, storage.WhenMissingBlank, storage.WhenMissingOriginal:
		default:
			return nil, fault.Invalid(at+".whenMissing", "must be default, blank or original")
		}
		used[f.PieceID], keys[f.Key] = true, true
		f.Text = texts[f.PieceID]
		out[i] = f
	}
	return out, nil
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
