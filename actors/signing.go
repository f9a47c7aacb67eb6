package actors

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/internal/ids"
	"github.com/platen/platen/internal/seal"
	"github.com/platen/platen/render"
	"github.com/platen/platen/sign"
	"github.com/platen/platen/storage"
)

// MaxSigningCertificates bounds an organisation's signing certificates.
const MaxSigningCertificates = 100

// CreateSigningCertificate stores an organisation's signing certificate.
// The caller has checked the PKCS#12 file and sealed the key
// (app.CreateSigningCertificate), so the key crosses between nodes sealed.
type CreateSigningCertificate struct {
	Certificate storage.SigningCertificate
}

// DeleteSigningCertificate deletes one: its sealed key is erased, and
// documents that ask for it are refused from then on.
type DeleteSigningCertificate struct {
	ID string
}

func (CreateSigningCertificate) replies(storage.SigningCertificate) {}
func (DeleteSigningCertificate) replies(storage.SigningCertificate) {}

func (m CreateSigningCertificate) decide(a *orgActor, cmd *storage.Command) (decision, error) {
	if a.org.ID == "" {
		return decision{}, fmt.Errorf("%w: organisation %s", fault.ErrNotFound, a.id)
	}
	if err := checkName("name", m.Certificate.Name); err != nil {
		return decision{}, err
	}
	if have, err := a.deps.Store.OrgSigningCertificates(a.id); err != nil {
		return decision{}, err
	} else if len(have) >= MaxSigningCertificates {
		return decision{}, fault.Invalid("file", "the organisation already has %d signing certificates, the most it may keep; delete one it no longer uses", len(have))
	}
	c := m.Certificate
	c.ID, c.OrgID = ids.New(ids.SigningCertificate, cmd.At), a.id
	cmd.Kind, cmd.CreateSigningCertificate = storage.KindCreateSigningCertificate, &c
	store := a.deps.Store
	return decision{after: func() any {
		stored, _ := store.SigningCertificate(c.ID)
		return stored
	}}, nil
}

func (m DeleteSigningCertificate) decide(a *orgActor, cmd *storage.Command) (decision, error) {
	c, err := a.deps.Store.SigningCertificate(m.ID)
	if errors.Is(err, storage.ErrNotFound) || (err == nil && (c.OrgID != a.id || c.DeletedAt != nil)) {
		return decision{}, fmt.Errorf("%w: signing certificate %q", fault.ErrNotFound, m.ID)
	}
	if err != nil {
		return decision{}, err
	}
	cmd.Kind, cmd.DeleteSigningCertificate = storage.KindDeleteSigningCertificate, &storage.DeleteSigningCertificate{ID: m.ID}
	store := a.deps.Store
	return decision{after: func() any {
		stored, _ := store.SigningCertificate(m.ID)
		return stored
	}}, nil
}

// signing opens the certificate a document asks to be signed with, for its
// render. A certificate deleted since the document was accepted, or one
// whose key does not open, is ErrSign: the document fails SIGNING_FAILED.
func (s *System) signing(doc storage.Document) (*render.Signing, error) {
	req := doc.Sign
	c, err := s.docs.Store.SigningCertificate(req.CertificateID)
	if err != nil || c.OrgID != doc.OrgID || c.DeletedAt != nil {
		s.identities.forget(req.CertificateID)
		return nil, fmt.Errorf("%w: its signing certificate %s was deleted", render.ErrSign, req.CertificateID)
	}
	if now := time.Now(); !now.Before(c.NotAfter) {
		return nil, fmt.Errorf("%w: its signing certificate %s expired on %s", render.ErrSign, c.ID, c.NotAfter.Format(time.RFC3339))
	}
	id, err := s.identities.open(c, s.deps.Sealer)
	if err != nil {
		return nil, err
	}
	return &render.Signing{Identity: id, CertificateID: c.ID, Reason: req.Reason, Location: req.Location,
		Visible: req.Appearance == "visible", TSA: s.docs.TSA}, nil
}

// identities keeps the signing keys this node has opened, so that each
// document does not unseal and parse its key again (an RSA key's checks
// cost a millisecond or more). A certificate is looked up in the store
// before its cached key is used, so a deleted one is never used.
type identities struct {
	mu   sync.Mutex // guards byID
	byID map[string]*sign.Identity
}

// maxIdentities bounds the cache; past it, it starts again.
const maxIdentities = 256

func (ids *identities) open(c storage.SigningCertificate, sealer *seal.Sealer) (*sign.Identity, error) {
	ids.mu.Lock()
	id, ok := ids.byID[c.ID]
	ids.mu.Unlock()
	if ok && id.Fingerprint() == c.Fingerprint {
		return id, nil
	}
	if sealer == nil {
		return nil, fmt.Errorf("%w: this node has no seal key", render.ErrSign)
	}
	raw, err := sealer.Open(c.IdentitySealed)
	if err != nil {
		return nil, fmt.Errorf("%w: the signing key does not open on this node: %v", render.ErrSign, err)
	}
	id, err = sign.UnmarshalIdentity(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", render.ErrSign, err)
	}
	ids.mu.Lock()
	if ids.byID == nil || len(ids.byID) >= maxIdentities {
		ids.byID = map[string]*sign.Identity{}
	}
	ids.byID[c.ID] = id
	ids.mu.Unlock()
	return id, nil
}

// forget drops a certificate's key from the cache: it was deleted.
func (ids *identities) forget(id string) {
	ids.mu.Lock()
	delete(ids.byID, id)
	ids.mu.Unlock()
}

// signatureRecord is what the document record keeps of its signature.
func signatureRecord(s *render.Signing, sig *sign.Signature) *storage.Signature {
	if sig == nil {
		return nil
	}
	return &storage.Signature{Level: sig.Level, Signer: sig.Signer, CertificateID: s.CertificateID, CertificateSHA256: sig.Fingerprint,
		SignedAt: sig.SignedAt, TimestampedAt: sig.TimestampedAt, Reason: sig.Reason, Location: sig.Location, Appearance: sig.Appearance}
}
