package app

import (
	"context"
	"crypto/ecdsa"
	"crypto/rsa"
	"errors"
	"fmt"
	"time"

	"github.com/platen/platen/actors"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/internal/ids"
	"github.com/platen/platen/render"
	"github.com/platen/platen/sign"
	"github.com/platen/platen/storage"
)

// NewSigningCertificate is an uploaded PKCS#12 file and its password.
type NewSigningCertificate struct {
	Name     string
	PKCS12   []byte
	Password string
}

// CreateSigningCertificate checks an uploaded PKCS#12 file
// (sign.ParsePKCS12), seals its key and chain with the cluster's seal key,
// and stores it. Neither the file nor the password is kept; the key is
// never shown again.
func (a *App) CreateSigningCertificate(ctx context.Context, orgID string, in NewSigningCertificate) (storage.SigningCertificate, error) {
	if a.deps.Sealer == nil {
		return storage.SigningCertificate{}, errors.New("app: no sealer for signing keys")
	}
	id, err := sign.ParsePKCS12(in.PKCS12, in.Password, a.deps.Clock.Now())
	if err != nil {
		return storage.SigningCertificate{}, err
	}
	raw, err := id.Marshal()
	if err != nil {
		return storage.SigningCertificate{}, err
	}
	cert := id.Chain[0]
	name := in.Name
	if name == "" {
		name = id.Signer()
	}
	rec := storage.SigningCertificate{Name: name, Subject: id.Signer(), SubjectDN: cert.Subject.String(), IssuerDN: cert.Issuer.String(),
		Serial: fmt.Sprintf("%X", cert.SerialNumber), Fingerprint: id.Fingerprint(), KeyAlgorithm: keyAlgorithm(id),
		NotBefore: cert.NotBefore.UTC(), NotAfter: cert.NotAfter.UTC(), ChainLength: len(id.Chain), IdentitySealed: a.deps.Sealer.Seal(raw)}
	return actors.Ask(a.deps.Actors, orgID, actors.CreateSigningCertificate{Certificate: rec})
}

func keyAlgorithm(id *sign.Identity) string {
	switch k := id.Key.Public().(type) {
	case *rsa.PublicKey:
		return fmt.Sprintf("RSA %d", k.N.BitLen())
	case *ecdsa.PublicKey:
		return "ECDSA " + k.Curve.Params().Name
	}
	return fmt.Sprintf("%T", id.Key.Public())
}

// SigningCertificate reads one of an organisation's signing certificates;
// a deleted one is not found.
func (a *App) SigningCertificate(orgID, id string) (storage.SigningCertificate, error) {
	c, err := a.deps.Store.SigningCertificate(id)
	if errors.Is(err, storage.ErrNotFound) || (err == nil && (c.OrgID != orgID || c.DeletedAt != nil)) || !ids.HasKind(id, ids.SigningCertificate) {
		return storage.SigningCertificate{}, fmt.Errorf("%w: signing certificate %q", fault.ErrNotFound, id)
	}
	return c, err
}

// SigningCertificates lists an organisation's signing certificates.
func (a *App) SigningCertificates(orgID string) ([]storage.SigningCertificate, error) {
	return a.deps.Store.OrgSigningCertificates(orgID)
}

// DeleteSigningCertificate deletes a certificate and erases its key.
// Documents already signed keep their signature; documents that ask for it
// afterwards are refused, and those still pending fail SIGNING_FAILED.
func (a *App) DeleteSigningCertificate(ctx context.Context, orgID, id string) (storage.SigningCertificate, error) {
	if _, err := a.SigningCertificate(orgID, id); err != nil {
		return storage.SigningCertificate{}, err
	}
	return actors.Ask(a.deps.Actors, orgID, actors.DeleteSigningCertificate{ID: id})
}

// signRequest checks a signature asked for under field: the certificate is
// the organisation's, not deleted, and valid now.
func (a *App) signRequest(orgID string, spec *render.SignSpec, field string) (*storage.SignRequest, error) {
	if spec == nil {
		return nil, nil
	}
	s := *spec
	if err := s.Check(field); err != nil {
		return nil, err
	}
	c, err := a.SigningCertificate(orgID, s.CertificateID)
	if errors.Is(err, fault.ErrNotFound) {
		return nil, fault.Invalid(field+".certificateId", "is not a signing certificate of this organisation; GET /v1/signing/certificates lists them")
	}
	if err != nil {
		return nil, err
	}
	if now := a.deps.Clock.Now(); !now.Before(c.NotAfter) {
		return nil, fault.Invalid(field+".certificateId", "names a certificate that expired on %s; upload its successor", c.NotAfter.Format(time.RFC3339))
	}
	return &storage.SignRequest{CertificateID: s.CertificateID, Reason: s.Reason, Location: s.Location, Appearance: s.Appearance}, nil
}

// CheckVersion makes the checks a version needs beyond its own, before it
// is saved: PDF/A (CheckPDFA), and that the certificate its manifest signs
// with is the organisation's.
func (a *App) CheckVersion(orgID string, v render.Version) error {
	if err := a.CheckPDFA(v); err != nil {
		return err
	}
	m, err := render.ParseManifest(v.Manifest, "manifest")
	if err != nil || m.Sign == nil {
		return nil // the save names what is wrong with the manifest
	}
	_, err = a.signRequest(orgID, m.Sign, "manifest.sign")
	return err
}
