package actors

import (
	"fmt"
	"sync"

	"github.com/platen/platen/render"
	"github.com/platen/platen/storage"
)

// Versions loads template versions and keeps them checked: versions are
// immutable, so a checked version never goes stale. The cache is bounded;
// when full it is emptied and refilled as versions are used.
type Versions struct {
	store *storage.Store

	mu sync.Mutex // guards m
	m  map[string]*render.Checked
}

const versionCacheSize = 1024

// NewVersions returns a cache over store.
func NewVersions(store *storage.Store) *Versions {
	return &Versions{store: store, m: map[string]*render.Checked{}}
}

// Key is a version's identity, used for the parsed-template cache too.
func VersionKey(tplID string, n int) string { return fmt.Sprintf("%s@%d", tplID, n) }

// Get returns version n of a template, checked.
func (v *Versions) Get(tplID string, n int) (*render.Checked, error) {
	key := VersionKey(tplID, n)
	v.mu.Lock()
	c, ok := v.m[key]
	v.mu.Unlock()
	if ok {
		return c, nil
	}
	stored, err := v.store.TemplateVersion(tplID, n)
	if err != nil {
		return nil, err
	}
	if stored.Fields != nil {
		c, err = v.pdfTemplate(stored)
	} else {
		c, err = render.Version{HTML: stored.HTML, Content: stored.Content, Manifest: stored.Manifest,
			SampleData: stored.SampleData, Assets: stored.Assets}.Check()
	}
	if err != nil {
		return nil, fmt.Errorf("version %d of %s no longer passes its checks: %w", n, tplID, err)
	}
	v.mu.Lock()
	if len(v.m) >= versionCacheSize {
		v.m = map[string]*render.Checked{}
	}
	v.m[key] = c
	v.mu.Unlock()
	return c, nil
}

// pdfTemplate is a version of a template made from an uploaded PDF.
func (v *Versions) pdfTemplate(stored storage.TemplateVersion) (*render.Checked, error) {
	t, err := v.store.Template(stored.TemplateID)
	if err != nil {
		return nil, err
	}
	return pdfChecked(t, stored.Fields)
}

// pdfChecked is the checked form of a template made from an uploaded PDF
// with the given fields: what its renders fill.
func pdfChecked(t storage.Template, fields []storage.PDFField) (*render.Checked, error) {
	if t.Source == nil {
		return nil, fmt.Errorf("template %s has fields but no uploaded PDF", t.ID)
	}
	f := &render.PDFTemplate{SourceHash: t.Source.BlobHash, Holders: t.Source.BlobHolders}
	for _, fl := range fields {
		f.Fields = append(f.Fields, render.PDFField{PieceID: fl.PieceID, Key: fl.Key, Default: fl.Default,
			WhenMissing: fl.WhenMissing, Required: fl.Required, Align: fl.Align, Text: fl.Text})
	}
	return &render.Checked{PDF: f, Sample: f.Sample()}, nil
}
