package render

import (
	"context"
	"errors"
)

// Job is one document to print.
type Job struct {
	HTML     string
	Geometry Geometry
	// Tagged asks for a tagged (accessible) PDF.
	Tagged bool
	// Header and Footer are filled markup printed on every page; an engine
	// replaces the elements of class pageNumber and totalPages.
	Header, Footer string
}

// Engine prints HTML documents to PDF.
type Engine interface {
	// Name is the engine's name as documents record it.
	Name() string
	// Render prints one document. It honours ctx's deadline.
	Render(ctx context.Context, job Job) ([]byte, error)
}

// A Judge is an engine that can say, before printing, what a job uses that it
// does not lay out. The platform default asks it (docs/design.md "Engines"):
// a document it fully supports goes to it, anything else to chromium.
type Judge interface {
	// Unsupported lists what the job uses that the engine does not lay out,
	// each a short stable name and where it is used ("display:flex at
	// div"); empty means the engine supports the whole job. A check that
	// cannot finish within ctx lists why, so the job goes elsewhere.
	Unsupported(ctx context.Context, job Job) []string
}

// ErrRender is a document the engine could not print.
var ErrRender = errors.New("render failed")
