package storage

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"
)

// Template kinds.
const (
	TemplateWritten = "written"
	// TemplatePDF is a template made from an uploaded PDF: its versions
	// mark text pieces of the upload as fields.
	TemplatePDF = "pdf"
)

// Template is a template record; its versions are TemplateVersion records.
type Template struct {
	ID          string `json:"id"`
	OrgID       string `json:"orgId"`
	Slug        string `json:"slug"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Kind        string `json:"kind"`
	// ActiveVersion is the version that generates; 0 before any is active.
	ActiveVersion int `json:"activeVersion"`
	// LatestVersion is the highest version number saved.
	LatestVersion int    `json:"latestVersion"`
	CopiedFrom    string `json:"copiedFrom,omitempty"`
	// Source is the uploaded PDF of a TemplatePDF template.
	Source     *PDFSource `json:"source,omitempty"`
	CreatedAt  time.Time  `json:"createdAt"`
	UpdatedAt  time.Time  `json:"updatedAt"`
	ArchivedAt *time.Time `json:"archivedAt,omitempty"`
}

// PDFSource is the upload a TemplatePDF template was made from. The file is
// a blob; its text pieces are stored apart (TemplatePieces).
type PDFSource struct {
	Filename string `json:"filename"`
	BlobHash string `json:"blobHash"`
	// BlobHolders are the nodes that held the file when the template was
	// created.
	BlobHolders []string  `json:"blobHolders,omitempty"`
	ByteSize    int64     `json:"byteSize"`
	Pages       []PDFPage `json:"pages"`
	PieceCount  int       `json:"pieceCount"`
}

// PDFPage is one page of an upload, in points as displayed.
type PDFPage struct {
	Number int     `json:"number"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// When a field's key is missing from a document's data (PDFField.WhenMissing).
const (
	WhenMissingDefault  = "default"
	WhenMissingBlank    = "blank"
	WhenMissingOriginal = "original"
)

// PDFField marks one text piece of an upload as a field.
type PDFField struct {
	PieceID     string `json:"pieceId"`
	Key         string `json:"key"`
	Default     string `json:"default,omitempty"`
	WhenMissing string `json:"whenMissing"`
	Required    bool   `json:"required,omitempty"`
	// Align places a value in the original's width: left (the default),
	// right or center.
	Align string `json:"align,omitempty"`
	// Text is the piece's text when the version was saved: a fill checks
	// the piece still reads so.
	Text string `json:"text,omitempty"`
}

// TemplateVersion is one immutable version of a template: markup for a
// written template, fields for a TemplatePDF one.
type TemplateVersion struct {
	TemplateID string            `json:"templateId"`
	Number     int               `json:"number"`
	HTML       string            `json:"html"`
	Content    json.RawMessage   `json:"content,omitempty"`
	Manifest   json.RawMessage   `json:"manifest,omitempty"`
	SampleData json.RawMessage   `json:"sampleData,omitempty"`
	Assets     map[string]string `json:"assets,omitempty"`
	Fields     []PDFField        `json:"fields,omitempty"`
	CreatedAt  time.Time         `json:"createdAt"`
}

// TemplateActivatedData is the data of a template.activated event.
type TemplateActivatedData struct {
	TemplateID      string `json:"templateId"`
	Slug            string `json:"slug"`
	Version         int    `json:"version"`
	PreviousVersion int    `json:"previousVersion"`
}

// CreateTemplate creates a template, with its first version when Version is
// set; Activate makes that version active and emits template.activated.
type CreateTemplate struct {
	Template Template         `json:"template"`
	Version  *TemplateVersion `json:"version,omitempty"`
	Activate bool             `json:"activate,omitempty"`
	EventID  string           `json:"eventId,omitempty"`
	// Pieces are the text pieces of a TemplatePDF template's upload, as
	// the analysis wrote them (JSON), stored apart from the record.
	Pieces json.RawMessage `json:"pieces,omitempty"`
}

// SaveVersion stores the next version of a template. Its number must be the
// template's latest plus one.
type SaveVersion struct {
	Version  TemplateVersion `json:"version"`
	Activate bool            `json:"activate,omitempty"`
	EventID  string          `json:"eventId,omitempty"`
}

// ActivateVersion makes an existing version the one that generates.
type ActivateVersion struct {
	TemplateID string `json:"templateId"`
	Number     int    `json:"number"`
	EventID    string `json:"eventId"`
}

// UpdateTemplate renames, re-slugs, describes, archives or restores a template.
// Nil fields are left as they are.
type UpdateTemplate struct {
	TemplateID  string  `json:"templateId"`
	Name        *string `json:"name,omitempty"`
	Slug        *string `json:"slug,omitempty"`
	Description *string `json:"description,omitempty"`
	Archived    *bool   `json:"archived,omitempty"`
}

// Keys of templates.
//
//	t/<tplID>             Template
//	ts/<orgID>/<slug>     tplID
//	ot/<orgID>/<tplID>    empty: an org's templates
//	tp/<tplID>            the text pieces of a TemplatePDF template's upload
//	tv/<tplID>/<n>        TemplateVersion, n big-endian uint32
//
// A TemplatePDF template also holds its upload's blob: br/<hash>/<tplID>
// (documents.go).
func templateKey(id string) []byte              { return []byte("t/" + id) }
func templateSlugKey(orgID, slug string) []byte { return []byte("ts/" + orgID + "/" + slug) }
func orgTemplatesPrefix(orgID string) []byte    { return []byte("ot/" + orgID + "/") }
func orgTemplateKey(orgID, tplID string) []byte { return append(orgTemplatesPrefix(orgID), tplID...) }
func templatePiecesKey(id string) []byte        { return []byte("tp/" + id) }
func versionsPrefix(tplID string) []byte        { return []byte("tv/" + tplID + "/") }
func versionKey(tplID string, n int) []byte {
	return binary.BigEndian.AppendUint32(versionsPrefix(tplID), uint32(n))
}

// applyCreateTemplate writes a new template, its slug and, when the command
// carries one, its first version, made active if the command asks.
func applyCreateTemplate(t *txn, c *Command) error {
	ct := c.CreateTemplate
	tpl := ct.Template
	if tpl.OrgID != c.OrgID || tpl.ID == "" || tpl.Slug == "" {
		return fmt.Errorf("%w: template record does not belong to the command", ErrCodec)
	}
	if _, err := getRaw(t.b, templateKey(tpl.ID)); err == nil {
		return fmt.Errorf("%w: template %s exists", ErrConflict, tpl.ID)
	}
	if _, err := getRaw(t.b, templateSlugKey(c.OrgID, tpl.Slug)); err == nil {
		return fmt.Errorf("%w: the slug %q is taken", ErrConflict, tpl.Slug)
	}
	if v := ct.Version; v != nil && (v.Number != 1 || v.TemplateID != tpl.ID) {
		return fmt.Errorf("%w: a new template's first version is 1", ErrConflict)
	}

	tpl.Kind, tpl.CreatedAt, tpl.UpdatedAt, tpl.ActiveVersion, tpl.LatestVersion = TemplateWritten, c.At, c.At, 0, 0
	if tpl.Source != nil {
		// The upload is a blob this template holds for good: templates
		// are archived, never deleted.
		tpl.Kind = TemplatePDF
		t.set(append(blobRefPrefix(tpl.Source.BlobHash), tpl.ID...), nil)
		t.set(templatePiecesKey(tpl.ID), ct.Pieces)
	}
	if ct.Version != nil {
		v := *ct.Version
		v.CreatedAt = c.At
		tpl.LatestVersion = 1
		t.set(versionKey(tpl.ID, 1), mustEncode(&v))
	}
	t.set(templateSlugKey(c.OrgID, tpl.Slug), []byte(tpl.ID))
	t.set(orgTemplateKey(c.OrgID, tpl.ID), nil)
	if ct.Activate && ct.Version != nil {
		t.activate(c, &tpl, 1, ct.EventID)
	}
	t.set(templateKey(tpl.ID), mustEncode(&tpl))
	return t.err
}

// applySaveVersion stores a template's next version, made active if the
// command asks.
func applySaveVersion(t *txn, c *Command) error {
	sv := c.SaveVersion
	tpl, err := loadTemplate(t, c, sv.Version.TemplateID)
	if err != nil {
		return err
	}
	if n := sv.Version.Number; n != tpl.LatestVersion+1 {
		return fmt.Errorf("%w: version %d of %s; the next is %d", ErrConflict, n, sv.Version.TemplateID, tpl.LatestVersion+1)
	}
	v := sv.Version
	v.CreatedAt = c.At
	tpl.LatestVersion, tpl.UpdatedAt = v.Number, c.At
	t.set(versionKey(tpl.ID, v.Number), mustEncode(&v))
	if sv.Activate {
		t.activate(c, &tpl, v.Number, sv.EventID)
	}
	t.set(templateKey(tpl.ID), mustEncode(&tpl))
	return t.err
}

// applyActivateVersion makes a saved version the one that generates.
func applyActivateVersion(t *txn, c *Command) error {
	av := c.ActivateVersion
	tpl, err := loadTemplate(t, c, av.TemplateID)
	if err != nil {
		return err
	}
	if _, err := getRaw(t.b, versionKey(av.TemplateID, av.Number)); err != nil {
		return fmt.Errorf("%w: version %d of %s", ErrNotFound, av.Number, av.TemplateID)
	}
	tpl.UpdatedAt = c.At
	t.activate(c, &tpl, av.Number, av.EventID)
	t.set(templateKey(tpl.ID), mustEncode(&tpl))
	return t.err
}

// applyUpdateTemplate renames, re-slugs, describes, archives or restores a
// template; a new slug must be free.
func applyUpdateTemplate(t *txn, c *Command) error {
	u := c.UpdateTemplate
	tpl, err := loadTemplate(t, c, u.TemplateID)
	if err != nil {
		return err
	}
	if u.Slug != nil && *u.Slug != tpl.Slug {
		if _, err := getRaw(t.b, templateSlugKey(c.OrgID, *u.Slug)); err == nil {
			return fmt.Errorf("%w: the slug %q is taken", ErrConflict, *u.Slug)
		}
	}

	if u.Name != nil {
		tpl.Name = *u.Name
	}
	if u.Description != nil {
		tpl.Description = *u.Description
	}
	if u.Slug != nil && *u.Slug != tpl.Slug {
		t.delete(templateSlugKey(c.OrgID, tpl.Slug))
		tpl.Slug = *u.Slug
		t.set(templateSlugKey(c.OrgID, tpl.Slug), []byte(tpl.ID))
	}
	if u.Archived != nil {
		switch {
		case *u.Archived && tpl.ArchivedAt == nil:
			at := c.At
			tpl.ArchivedAt = &at
		case !*u.Archived:
			tpl.ArchivedAt = nil
		}
	}
	tpl.UpdatedAt = c.At
	t.set(templateKey(tpl.ID), mustEncode(&tpl))
	return t.err
}

// loadTemplate reads the template a command changes; another org's template
// is not found.
func loadTemplate(t *txn, c *Command, id string) (Template, error) {
	var tpl Template
	if err := getRecord(t.b, templateKey(id), &tpl); err != nil {
		return tpl, err
	}
	if tpl.OrgID != c.OrgID {
		return tpl, fmt.Errorf("%w: template %s", ErrNotFound, id)
	}
	return tpl, nil
}

// activate makes version n of tpl active, emitting template.activated.
func (t *txn) activate(c *Command, tpl *Template, n int, eventID string) {
	prev := tpl.ActiveVersion
	tpl.ActiveVersion = n
	t.emit(c.OrgID, EventTemplateActivated, eventID, c.At, TemplateActivatedData{TemplateID: tpl.ID, Slug: tpl.Slug, Version: n, PreviousVersion: prev})
}

// Template returns a template by id.
func (s *Store) Template(id string) (Template, error) {
	var t Template
	err := getRecord(s.db, templateKey(id), &t)
	return t, err
}

// TemplatePieces returns the text pieces of a TemplatePDF template's
// upload, as JSON.
func (s *Store) TemplatePieces(id string) (json.RawMessage, error) {
	raw, err := getRaw(s.db, templatePiecesKey(id))
	return json.RawMessage(raw), err
}

// TemplateBySlug returns an organisation's template by slug.
func (s *Store) TemplateBySlug(orgID, slug string) (Template, error) {
	id, err := getRaw(s.db, templateSlugKey(orgID, slug))
	if err != nil {
		return Template{}, err
	}
	return s.Template(string(id))
}

// OrgTemplates returns an organisation's templates, newest first, starting
// after the template id cursor (empty: from the newest), at most limit.
func (s *Store) OrgTemplates(orgID, cursor string, limit int) ([]Template, error) {
	var out []Template
	err := s.newestFirst(orgTemplatesPrefix(orgID), cursor, limit, func(id string, _ []byte) (bool, error) {
		t, err := s.Template(id)
		if err != nil {
			return false, err
		}
		out = append(out, t)
		return true, nil
	})
	return out, err
}

// TemplateVersion returns version n of a template.
func (s *Store) TemplateVersion(tplID string, n int) (TemplateVersion, error) {
	var v TemplateVersion
	err := getRecord(s.db, versionKey(tplID, n), &v)
	return v, err
}

// TemplateVersions returns every version of a template, oldest first.
func (s *Store) TemplateVersions(tplID string) ([]TemplateVersion, error) {
	prefix := versionsPrefix(tplID)
	return decodeRange[TemplateVersion](s, prefix, prefixEnd(prefix), 0)
}
