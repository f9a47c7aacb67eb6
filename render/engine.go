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

// ErrRender is a document the engine could not print.
var ErrRender = errors.New("render failed")
