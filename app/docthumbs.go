package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"sync"

	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/pdftemplate"
	"github.com/platen/platen/storage"
)

// MaxThumbnailPDF is the largest PDF a document's thumbnail is drawn from:
// PDFium reads the whole file, and a thumbnail is not worth more memory.
const MaxThumbnailPDF = 32 << 20

// docThumbs keeps the thumbnails of documents' first pages by the PDF's
// hash: a stored PDF never changes, so an entry never goes stale. The
// oldest entries go first past maxDocThumbs (about 25 KB each).
type docThumbs struct {
	mu    sync.Mutex // guards m and order
	m     map[string][]byte
	order []string
}

const maxDocThumbs = 512

func (c *docThumbs) get(hash string) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[hash]
}

func (c *docThumbs) put(hash string, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string][]byte{}
	}
	if _, ok := c.m[hash]; ok {
		return
	}
	c.m[hash] = b
	c.order = append(c.order, hash)
	if len(c.order) > maxDocThumbs {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
}

// DocumentThumbnail is the first page of a completed document's PDF, as a
// PNG ThumbnailWidth pixels wide on white: what the dashboard's document
// list shows. A document that has no file (pending, failed, expired) is
// refused as the download is.
func (a *App) DocumentThumbnail(ctx context.Context, orgID, id string) (thumb []byte, hash string, err error) {
	d, err := a.Document(orgID, id)
	if err != nil {
		return nil, "", err
	}
	if err := hasFile(d); err != nil {
		return nil, "", err
	}
	if b := a.docThumbs.get(d.BlobHash); b != nil {
		return b, d.BlobHash, nil
	}
	if d.ByteSize > MaxThumbnailPDF {
		return nil, "", fmt.Errorf("%w: document %s is %d MB; thumbnails are drawn for PDFs up to %d MB", fault.ErrTooLarge, d.ID, d.ByteSize>>20, MaxThumbnailPDF>>20)
	}
	f, err := a.deps.Actors.OpenBlob(d.BlobHash, d.BlobHolders)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	file, err := io.ReadAll(io.LimitReader(f, MaxThumbnailPDF+1))
	if err != nil {
		return nil, "", err
	}
	if err := ctx.Err(); err != nil {
		return nil, "", err
	}
	img, err := a.deps.PDFTemplates.PageImageWidth(file, 1, ThumbnailWidth, pdftemplate.Limits{MaxBytes: len(file), MaxPages: max(d.PageCount, 1)})
	if err != nil {
		return nil, "", fmt.Errorf("document %s: drawing its first page: %w", d.ID, err)
	}
	onWhite(img)
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.DefaultCompression}).Encode(&buf, img); err != nil {
		return nil, "", err
	}
	a.docThumbs.put(d.BlobHash, buf.Bytes())
	return buf.Bytes(), d.BlobHash, nil
}

// DocumentData is the data a document was rendered from, as it was sent.
func (a *App) DocumentData(orgID, id string) (json.RawMessage, error) {
	d, err := a.Document(orgID, id)
	if err != nil {
		return nil, err
	}
	return a.deps.Store.DocumentData(d.ID)
}

// hasFile refuses a document without a stored PDF, in the words the
// download uses.
func hasFile(d storage.Document) error {
	switch {
	case d.FileExpired:
		return ErrFileExpired
	case d.Status == storage.StatusFailed:
		return fmt.Errorf("%w: document %s failed; it has no file", fault.ErrConflict, d.ID)
	case d.Status != storage.StatusCompleted:
		return fmt.Errorf("%w: document %s is %s; there is no file yet", fault.ErrConflict, d.ID, d.Status)
	}
	return nil
}
