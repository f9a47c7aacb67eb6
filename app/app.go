package app

import (
	"errors"
	"fmt"
	"github.com/platen/platen/internal/seal"
	"sync"
	"time"

	"github.com/platen/platen/actors"
	"github.com/platen/platen/internal/clock"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/internal/ids"
	"github.com/platen/platen/links"
	"github.com/platen/platen/pdftemplate"
	"github.com/platen/platen/render"
	"github.com/platen/platen/storage"
	"github.com/platen/platen/webhooks"
)

// Deps is what the use cases need from their node.
type Deps struct {
	Store  *storage.Store
	Actors *actors.System
	// Versions is the cache of checked template versions.
	Versions *actors.Versions
	// Renderer prints previews.
	Renderer *render.Renderer
	// PDFTemplates reads uploaded PDFs.
	PDFTemplates *pdftemplate.Engine
	// Blobs holds uploads and PDFs.
	Blobs *storage.Blobs
	// Links mints download links.
	Links links.Links
	// Sealer seals signing keys at rest.
	Sealer *seal.Sealer
	// Guard checks webhook URLs at registration.
	Guard webhooks.Guard
	Clock clock.Clock
	// WaitTimeout is how long a generate that waits for its document waits
	// before answering with it still rendering (docs/design.md "Waiting").
	WaitTimeout time.Duration
	// CatchUp, in a cluster, waits until this node has applied what the
	// leader had committed when asked; nil on a single node.
	CatchUp func() error
	// Propose applies a command that belongs to no organisation's actor
	// (people, sessions, links) through the raft log and waits for it.
	Propose func(*storage.Command) error
	// OpenSignUp lets anyone sign up, each into a sandbox organisation of
	// their own.
	OpenSignUp bool
	// WalletCurrency is the ISO 4217 code of the micro-units money is
	// kept in.
	WalletCurrency string
}

// App runs the use cases. It is safe for concurrent use. The actors and the
// store hold all the state; App keeps only caches: what it draws once from
// the binary itself (the starters' thumbnails), documents' thumbnails by
// the hash of their never-changing PDF, and, sparing the log
// repeated entries, when this node last recorded a session's use (touched)
// and a key's (keyUses), each by id.
type App struct {
	deps             Deps
	thumbnails       thumbnails
	docThumbs        docThumbs
	touched, keyUses sync.Map // id -> time.Time
}

// New returns the use cases over deps.
func New(deps Deps) *App { return &App{deps: deps, thumbnails: thumbnails{m: map[string]*thumbnail{}}} }

// Template resolves a template id or slug within an organisation, from this
// node's store.
func (a *App) Template(orgID, ref string) (storage.Template, error) {
	var t storage.Template
	var err error
	if ids.HasKind(ref, ids.Template) {
		t, err = a.deps.Store.Template(ref)
	} else {
		t, err = a.deps.Store.TemplateBySlug(orgID, ref)
	}
	if errors.Is(err, storage.ErrNotFound) || (err == nil && t.OrgID != orgID) {
		return storage.Template{}, fmt.Errorf("%w: template %q", fault.ErrNotFound, ref)
	}
	return t, err
}

// Document reads a document of an organisation, as ReadDocument does.
func (a *App) Document(orgID, id string) (storage.Document, error) {
	d, err := a.ReadDocument(id)
	if !ids.HasKind(id, ids.Document) || errors.Is(err, storage.ErrNotFound) || (err == nil && d.OrgID != orgID) {
		return storage.Document{}, fmt.Errorf("%w: document %q", fault.ErrNotFound, id)
	}
	return d, err
}

// ReadDocument reads a document from this node's store, whoever owns it (a
// signed link names it). In a cluster, a document this node has as pending
// is read again once the node has applied everything the leader had
// committed: a caller told on another node that it is finished sees it so.
func (a *App) ReadDocument(id string) (storage.Document, error) {
	d, err := a.deps.Store.Document(id)
	if a.deps.CatchUp != nil && err == nil && d.Pending() {
		if a.deps.CatchUp() == nil {
			d, err = a.deps.Store.Document(id)
		}
	}
	return d, err
}

// fresh runs read, the part of a use case that reads before it asks any
// actor, and when it finds nothing runs it once more after this node has
// caught up with the leader: in a cluster, what the caller created through
// another node a moment ago may not be applied here yet. Reads change
// nothing, so running them twice is safe.
func (a *App) fresh(read func() error) error {
	err := read()
	if a.deps.CatchUp != nil && errors.Is(err, fault.ErrNotFound) && a.deps.CatchUp() == nil {
		err = read()
	}
	return err
}
