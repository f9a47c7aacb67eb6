package storage

import (
	"fmt"
	"time"
)

// SigningCertificate is an organisation's key and certificate for PAdES
// signatures (docs/signatures.md). The key is sealed with the cluster's seal
// key, as webhook secrets are, and never leaves a node; the rest describes
// the certificate for people to choose it.
type SigningCertificate struct {
	ID    string `json:"id"`
	OrgID string `json:"orgId"`
	Name  string `json:"name"`
	// Subject is the certificate's common name, the signer a reader shows.
	Subject   string `json:"subject"`
	SubjectDN string `json:"subjectDn"`
	IssuerDN  string `json:"issuerDn"`
	Serial    string `json:"serial"`
	// Fingerprint is the certificate's SHA-256, in hex.
	Fingerprint  string    `json:"fingerprint"`
	KeyAlgorithm string    `json:"keyAlgorithm"`
	NotBefore    time.Time `json:"notBefore"`
	NotAfter     time.Time `json:"notAfter"`
	ChainLength  int       `json:"chainLength"`
	// IdentitySealed is the key and chain (sign.Identity.Marshal), sealed.
	// Deleting the certificate erases it.
	IdentitySealed []byte     `json:"identitySealed,omitempty"`
	CreatedAt      time.Time  `json:"createdAt"`
	DeletedAt      *time.Time `json:"deletedAt,omitempty"`
}

// DeleteSigningCertificate deletes an organisation's signing certificate.
type DeleteSigningCertificate struct {
	ID string `json:"id"`
}

// Keys: the record under sc/<id>, and the organisation's index under
// osc/<org>/<id>.
func signingCertKey(id string) []byte         { return []byte("sc/" + id) }
func orgSigningCertsPrefix(org string) []byte { return []byte("osc/" + org + "/") }

// applyCreateSigningCertificate stores a certificate with its sealed key.
func applyCreateSigningCertificate(t *txn, c *Command) error {
	sc := *c.CreateSigningCertificate
	if sc.OrgID != c.OrgID || sc.ID == "" || len(sc.IdentitySealed) == 0 {
		return fmt.Errorf("%w: signing certificate record does not belong to the command", ErrCodec)
	}
	if _, err := getRaw(t.b, signingCertKey(sc.ID)); err == nil {
		return fmt.Errorf("%w: signing certificate %s exists", ErrConflict, sc.ID)
	}
	sc.CreatedAt, sc.DeletedAt = c.At, nil
	t.set(signingCertKey(sc.ID), mustEncode(&sc))
	t.set(append(orgSigningCertsPrefix(sc.OrgID), sc.ID...), nil)
	return t.err
}

// applyDeleteSigningCertificate erases the sealed key and drops the
// certificate from its organisation's list; the record stays, so that the
// documents it signed still name it.
func applyDeleteSigningCertificate(t *txn, c *Command) error {
	var sc SigningCertificate
	if err := getRecord(t.b, signingCertKey(c.DeleteSigningCertificate.ID), &sc); err != nil {
		return err
	}
	if sc.OrgID != c.OrgID || sc.DeletedAt != nil {
		return fmt.Errorf("%w: signing certificate %s", ErrNotFound, c.DeleteSigningCertificate.ID)
	}
	at := c.At
	sc.DeletedAt, sc.IdentitySealed = &at, nil
	t.set(signingCertKey(sc.ID), mustEncode(&sc))
	t.delete(append(orgSigningCertsPrefix(sc.OrgID), sc.ID...))
	return t.err
}

// SigningCertificate returns a signing certificate, deleted ones included.
func (s *Store) SigningCertificate(id string) (SigningCertificate, error) {
	var sc SigningCertificate
	err := getRecord(s.db, signingCertKey(id), &sc)
	return sc, err
}

// OrgSigningCertificates returns an organisation's signing certificates,
// oldest first; deleted ones are not listed.
func (s *Store) OrgSigningCertificates(orgID string) ([]SigningCertificate, error) {
	return lookupIndex(s, orgSigningCertsPrefix(orgID), s.SigningCertificate)
}
