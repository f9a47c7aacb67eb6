package actors

// A node's blobs (finished PDFs and uploads) are content-addressed files in
// its own folder; a blob is copied to a second node before anything that
// needs it is recorded (docs/design.md "Blobs"), and a node that lacks one
// copies it from a node that holds it when it is first needed.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/platen/platen/render"
	"github.com/platen/platen/storage"
)

// BlobPath is where a node takes and serves copies of blobs: PUT or GET
// BlobPath + sha256.
const BlobPath = "/peer/v1/blobs/"

// CopyBlob copies a finished PDF (or an upload) to a second live node, the first that takes
// it in rendezvous order for its hash, and returns the nodes that hold it
// (docs/design.md "Blobs": min(2, live nodes) holders before a document completes).
func (s *System) CopyBlob(hash string, data []byte) ([]string, error) {
	self := s.placement.Self()
	holders := []string{self.ID}
	if s.remote == nil {
		return holders, nil
	}
	var errs []error
	for _, m := range s.placement.Ranked(hash) {
		if m.ID == self.ID || m.Addr == "" {
			continue
		}
		ctx, cancel := context.WithTimeout(s.ctx, 30*time.Second)
		_, err := s.remote.Peers.Do(ctx, http.MethodPut, m.Addr, BlobPath+hash, data)
		cancel()
		if err == nil {
			return append(holders, m.ID), nil
		}
		errs = append(errs, fmt.Errorf("node %s: %w", m.ID, err))
	}
	if len(errs) == 0 {
		return holders, nil // the only live node
	}
	return nil, errors.Join(errs...)
}

// Blob reads a blob, first copying it from a node that holds it when this
// node lacks it.
func (s *System) Blob(hash string, holders []string) ([]byte, error) {
	return fetched(s, hash, holders, s.docs.Blobs.Read)
}

// OpenBlob opens a blob for streaming, first copying it from a node that
// holds it when this node lacks it.
func (s *System) OpenBlob(hash string, holders []string) (*storage.BlobFile, error) {
	return fetched(s, hash, holders, s.docs.Blobs.Open)
}

// fetched gets a blob from this node's store, and when it is not there,
// copies it from a holder (in a cluster) and gets it again.
func fetched[T any](s *System, hash string, holders []string, get func(string) (T, error)) (T, error) {
	v, err := get(hash)
	if errors.Is(err, storage.ErrNotFound) && s.docs.FetchBlob != nil {
		if err = s.docs.FetchBlob(hash, holders); err == nil {
			v, err = get(hash)
		}
	}
	return v, err
}

// LoadSource gives a render of a version made from an uploaded PDF the
// upload; other renders need none.
func (s *System) LoadSource(req *render.Request) (err error) {
	if f := req.Version.PDF; f != nil {
		req.Source, err = s.Blob(f.SourceHash, f.Holders)
	}
	return err
}
