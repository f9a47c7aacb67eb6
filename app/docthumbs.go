package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io"
	"sync"
	"time"

	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/pdftemplate"
	"github.com/platen/platen/storage"
)

// MaxThumbnailPDF is the largest PDF a document's thumbnail is drawn from:
// PDFium reads the whole file, and a thumbnail is not worth more memory.
const MaxThumbnailPDF = 32 << 20

// docThumbs keeps the thumbnails of documents' first pages by the PDF's
// hash: a stored PDF never changes, so an entry never goes stale. The
// oldest entries go first past maxDocThumbs (about 25 KB each). Drawing is
// bounded: at most thumbSlots at once on a node (PDFium's readers are
// shared with the documents of PDF templates, which must not wait behind
// a list of thumbnails), one drawing per PDF however many ask for it, and
// a PDF that could not be drawn is not tried again for failedFor.
type docThumbs struct {
	once     sync.Once
	slots    chan struct{}
	mu       sync.Mutex // guards the fields below
	m        map[string][]byte
	order    []string
	inflight map[string]*thumbCall
	failed   map[string]failedThumb
}

type thumbCall struct {
	done chan struct{}
	png  []byte
	err  error
}

type failedThumb struct {
	err   error
	until time.Time
}

const (
	maxDocThumbs = 512
	thumbSlots   = 2
	failedFor    = time.Minute
	// slotWait bounds how long a drawing waits for a slot.
	slotWait = 20 * time.Second
)

func (c *docThumbs) init() {
	c.once.Do(func() {
		c.slots = make(chan struct{}, thumbSlots)
		c.m = map[string][]byte{}
		c.inflight = map[string]*thumbCall{}
		c.failed = map[string]failedThumb{}
	})
}

func (c *docThumbs) putLocked(hash string, b []byte) {
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
// list shows. d is a record the caller may read (Document). A document
// that has no file (pending, failed, expired) is refused as the download
// is; a node whose drawing slots stay taken past ctx answers OVERLOADED.
func (a *App) DocumentThumbnail(ctx context.Context, d storage.Document) ([]byte, error) {
	if err := HasFile(d); err != nil {
		return nil, err
	}
	if d.ByteSize > MaxThumbnailPDF {
		return nil, fmt.Errorf("%w: document %s's PDF is %d MB; thumbnails are drawn for PDFs up to %d MB", pdftemplate.ErrTooComplex, d.ID, d.ByteSize>>20, MaxThumbnailPDF>>20)
	}
	c := &a.docThumbs
	c.init()
	c.mu.Lock()
	if b := c.m[d.BlobHash]; b != nil {
		c.mu.Unlock()
		return b, nil
	}
	if f, ok := c.failed[d.BlobHash]; ok && a.deps.Clock.Now().Before(f.until) {
		c.mu.Unlock()
		return nil, f.err
	}
	call, waiting := c.inflight[d.BlobHash]
	if !waiting {
		call = &thumbCall{done: make(chan struct{})}
		c.inflight[d.BlobHash] = call
	}
	c.mu.Unlock()
	if !waiting {
		go a.drawThumb(d, call)
	}
	select {
	case <-call.done:
		return call.png, call.err
	case <-ctx.Done():
		return nil, fault.Retry(fmt.Errorf("%w: the thumbnail is still being drawn; retry shortly", fault.ErrOverloaded), 2)
	}
}

// drawThumb draws d's first page into call, in a slot, and keeps the
// outcome: the picture, or the failure for failedFor.
func (a *App) drawThumb(d storage.Document, call *thumbCall) {
	c := &a.docThumbs
	select {
	case c.slots <- struct{}{}:
		call.png, call.err = a.drawFirstPage(d)
		<-c.slots
	case <-time.After(slotWait):
		call.err = fault.Retry(fmt.Errorf("%w: every thumbnail is being drawn; retry shortly", fault.ErrOverloaded), 2)
	}
	c.mu.Lock()
	delete(c.inflight, d.BlobHash)
	if call.err == nil {
		c.putLocked(d.BlobHash, call.png)
	} else if !errors.Is(call.err, fault.ErrOverloaded) {
		c.failed[d.BlobHash] = failedThumb{err: call.err, until: a.deps.Clock.Now().Add(failedFor)}
		for h, f := range c.failed {
			if a.deps.Clock.Now().After(f.until) {
				delete(c.failed, h)
			}
		}
	}
	c.mu.Unlock()
	close(call.done)
}

func (a *App) drawFirstPage(d storage.Document) ([]byte, error) {
	f, err := a.deps.Actors.OpenBlob(d.BlobHash, d.BlobHolders)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	file, err := io.ReadAll(io.LimitReader(f, MaxThumbnailPDF+1))
	if err != nil {
		return nil, err
	}
	img, err := a.deps.PDFTemplates.PageImageWidth(file, 1, ThumbnailWidth, pdftemplate.Limits{MaxBytes: len(file), MaxPages: max(d.PageCount, 1)})
	if err != nil {
		if errors.Is(err, pdftemplate.ErrBusy) {
			return nil, UploadError(err)
		}
		return nil, fmt.Errorf("document %s: drawing its first page: %w", d.ID, err)
	}
	return pngOnWhite(img, png.DefaultCompression)
}

// DocumentData is the data a document was rendered from, as it was sent.
func (a *App) DocumentData(orgID, id string) (json.RawMessage, error) {
	d, err := a.Document(orgID, id)
	if err != nil {
		return nil, err
	}
	return a.deps.Store.DocumentData(d.ID)
}

// HasFile refuses a document without a stored PDF, in the words the
// download uses.
func HasFile(d storage.Document) error {
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
