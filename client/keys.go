package client

import "context"

// KeysService lists, creates and revokes the organisation's API keys
// (scopes keys.read and keys.write).
type KeysService struct{ c *Client }

// List lists the organisation's keys, newest first, revoked ones included,
// without their values.
func (s *KeysService) List(ctx context.Context, opts ...CallOption) ([]Key, error) {
	var l items[Key]
	if err := s.c.do(ctx, s.c.newCall(opListKeys), &l, opts); err != nil {
		return nil, err
	}
	return l.Items, nil
}

// CreateKeyRequest names a key and its scopes, which must be scopes the
// calling key holds (else 403 FORBIDDEN on "scopes").
type CreateKeyRequest struct {
	Name   string   `json:"name"`
	Scopes []string `json:"scopes"`
}

// Create makes a key. Its value, Key.Key, is in this answer only.
func (s *KeysService) Create(ctx context.Context, req CreateKeyRequest, opts ...CallOption) (*Key, error) {
	cl := s.c.newCall(opCreateKey)
	if err := cl.jsonBody(req); err != nil {
		return nil, err
	}
	var k Key
	if err := s.c.do(ctx, cl, &k, opts); err != nil {
		return nil, err
	}
	return &k, nil
}

// Revoke revokes a key; it stops working at once.
func (s *KeysService) Revoke(ctx context.Context, id string, opts ...CallOption) (*Key, error) {
	var k Key
	if err := s.c.do(ctx, s.c.newCall(opRevokeKey, id), &k, opts); err != nil {
		return nil, err
	}
	return &k, nil
}
