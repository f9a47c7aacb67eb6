package pdfw

import (
	"errors"
	"io"

	"github.com/platen/platen/render/phantom/draw"
)

// Options tunes the writer. The zero value is ready to use.
type Options struct {
	// Producer is written as the document's /Producer; empty means none.
	Producer string
	// Title, when set, replaces draw.Document.Title as the document title.
	Title string
}

// ErrNoPages is returned for a document without pages: a PDF needs one.
var ErrNoPages = errors.New("pdfw: the document has no pages")

// Write writes doc as a PDF to w.
func Write(w io.Writer, doc *draw.Document, opt Options) error {
	if doc == nil || len(doc.Pages) == 0 {
		return ErrNoPages
	}
	return errors.New("pdfw: not implemented yet")
}
