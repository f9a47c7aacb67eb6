package transport

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/platen/platen/actors"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/storage"
)

// Keys of the calling organisation, as /v1/keys (scopes keys.read and
// keys.write) and the console's key page (owners) serve them. Both ask the
// organisation's actor, which refuses a key stronger than its maker
// (actors.CreateKey's Holder): a key or person gives only scopes it holds,
// and revokes only keys whose scopes it holds (actors.RevokeKey's Holder).

// orgKeyView is an API key as its organisation sees it: without its value,
// with when it was last used.
type orgKeyView struct {
	keyView
	LastUsedAt *time.Time `json:"lastUsedAt"`
}

// orgKeys is the calling organisation's keys, newest first, revoked ones
// included.
func (s *Server) orgKeys(r *request) ([]orgKeyView, error) {
	keys, err := s.deps.Store.OrgKeys(r.org.ID)
	if err != nil {
		return nil, err
	}
	out := make([]orgKeyView, 0, len(keys))
	for i := len(keys) - 1; i >= 0; i-- {
		out = append(out, orgKeyView{keyView: viewKey(keys[i]), LastUsedAt: keys[i].LastUsedAt})
	}
	return out, nil
}

func (s *Server) listKeys(r *request) error {
	items, err := s.orgKeys(r)
	if err != nil {
		return err
	}
	return r.ok(http.StatusOK, map[string]any{"items": items}, fmt.Sprintf("%d keys", len(items)))
}

// createKey makes a key holding at most the caller's scopes; its value is in
// the answer only, which no cache may keep.
func (s *Server) createKey(r *request) error {
	var in struct {
		Name   string   `json:"name"`
		Scopes []string `json:"scopes"`
	}
	if err := r.decode(&in); err != nil {
		return err
	}
	nk, err := askOrg(r, r.org.ID, actors.CreateKey{Name: in.Name, Scopes: in.Scopes, Holder: slices.Clone(r.key.Scopes)})
	if err != nil {
		return err
	}
	view := orgKeyView{keyView: viewKey(nk.Key)}
	view.Key = nk.Secret
	r.Response.Header.Set("Cache-Control", "no-store")
	return r.ok(http.StatusCreated, view, "key created; copy it now, it is not shown again")
}

// revokeKey revokes one of the organisation's keys whose scopes the caller
// holds (actors.RevokeKey's Holder); another organisation's is not found.
func (s *Server) revokeKey(r *request) error {
	id := r.param("keyId")
	k, err := s.deps.Store.APIKey(id)
	if errors.Is(err, storage.ErrNotFound) || (err == nil && k.OrgID != r.org.ID) {
		return fmt.Errorf("%w: key %q", fault.ErrNotFound, id)
	}
	if err != nil {
		return err
	}
	k, err = askOrg(r, r.org.ID, actors.RevokeKey{KeyID: id, Holder: slices.Clone(r.key.Scopes)})
	if err != nil {
		return err
	}
	return r.ok(http.StatusOK, orgKeyView{keyView: viewKey(k), LastUsedAt: k.LastUsedAt}, "key revoked")
}
