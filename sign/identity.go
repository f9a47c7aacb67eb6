package sign

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"software.sslmate.com/src/go-pkcs12"

	"github.com/platen/platen/internal/fault"
)

// Identity is a signing key and its certificate chain, the signer's
// certificate first.
type Identity struct {
	Key   crypto.Signer
	Chain []*x509.Certificate
}

// MaxPKCS12 bounds an uploaded PKCS#12 file: a key and a chain of a few
// certificates take a few kilobytes.
const MaxPKCS12 = 256 << 10

// ParsePKCS12 opens an uploaded PKCS#12 file (.p12, .pfx) with its
// password, and refuses, with the field and the fix, what cannot sign a
// PDF: a wrong password, a key that is neither RSA of 2048 bits or more nor
// ECDSA on a NIST curve, a certificate that is not the key's, one that has
// expired or is not yet valid at now, or one whose key usage excludes
// signatures.
func ParsePKCS12(data []byte, password string, now time.Time) (*Identity, error) {
	if len(data) == 0 {
		return nil, fault.Invalid("file", "is empty: send the PKCS#12 file (.p12 or .pfx) that holds the key and its certificate")
	}
	if len(data) > MaxPKCS12 {
		return nil, fault.Invalid("file", "is over %d KB; a key and its certificate chain take a few KB", MaxPKCS12>>10)
	}
	key, cert, cas, err := pkcs12.DecodeChain(data, password)
	if errors.Is(err, pkcs12.ErrIncorrectPassword) {
		return nil, fault.Invalid("password", "does not open the file")
	}
	if err != nil {
		return nil, fault.Invalid("file", "is not a PKCS#12 file with one key and its certificate (export it again, with the key, as .p12 or .pfx)")
	}
	signer, ok := key.(crypto.Signer)
	if !ok {
		return nil, fault.Invalid("file", "holds a key that cannot sign")
	}
	id := &Identity{Key: signer, Chain: append([]*x509.Certificate{cert}, cas...)}
	if err := id.check(now); err != nil {
		return nil, err
	}
	return id, nil
}

// check refuses a key or certificate that cannot make a PAdES signature.
func (id *Identity) check(now time.Time) error {
	switch k := id.Key.Public().(type) {
	case *rsa.PublicKey:
		if k.N.BitLen() < 2048 {
			return fault.Invalid("file", "holds an RSA key of %d bits; PAdES signatures need 2048 bits or more", k.N.BitLen())
		}
	case *ecdsa.PublicKey:
		switch k.Curve {
		case elliptic.P256(), elliptic.P384(), elliptic.P521():
		default:
			return fault.Invalid("file", "holds an ECDSA key on a curve readers do not check; use P-256, P-384 or P-521")
		}
	default:
		return fault.Invalid("file", "holds a %T key; use RSA (2048 bits or more) or ECDSA", id.Key.Public())
	}
	cert := id.Chain[0]
	if pub, ok := cert.PublicKey.(interface{ Equal(crypto.PublicKey) bool }); !ok || !pub.Equal(id.Key.Public()) {
		return fault.Invalid("file", "holds a certificate that is not the key's")
	}
	if now.Before(cert.NotBefore) {
		return fault.Invalid("file", "holds a certificate valid only from %s", cert.NotBefore.UTC().Format(time.RFC3339))
	}
	if !now.Before(cert.NotAfter) {
		return fault.Invalid("file", "holds a certificate that expired on %s", cert.NotAfter.UTC().Format(time.RFC3339))
	}
	if cert.KeyUsage != 0 && cert.KeyUsage&(x509.KeyUsageDigitalSignature|x509.KeyUsageContentCommitment) == 0 {
		return fault.Invalid("file", "holds a certificate whose key usage allows neither digital signatures nor non-repudiation")
	}
	return nil
}

// Signer is the name a signature shows: the certificate's common name, or
// its whole subject when it has none.
func (id *Identity) Signer() string {
	if cn := id.Chain[0].Subject.CommonName; cn != "" {
		return cn
	}
	return id.Chain[0].Subject.String()
}

// Fingerprint is the signing certificate's SHA-256, in hex.
func (id *Identity) Fingerprint() string {
	h := sha256.Sum256(id.Chain[0].Raw)
	return hex.EncodeToString(h[:])
}

// sealedForm is an identity as it is sealed at rest.
type sealedForm struct {
	Key   []byte   `json:"key"` // PKCS#8
	Chain [][]byte `json:"chain"`
}

// Marshal encodes the identity to be sealed: never store it unsealed.
func (id *Identity) Marshal() ([]byte, error) {
	key, err := x509.MarshalPKCS8PrivateKey(id.Key)
	if err != nil {
		return nil, fmt.Errorf("sign: %w", err)
	}
	f := sealedForm{Key: key}
	for _, c := range id.Chain {
		f.Chain = append(f.Chain, c.Raw)
	}
	return json.Marshal(f)
}

// UnmarshalIdentity reads what Marshal wrote.
func UnmarshalIdentity(b []byte) (*Identity, error) {
	var f sealedForm
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("sign: identity: %w", err)
	}
	key, err := x509.ParsePKCS8PrivateKey(f.Key)
	if err != nil {
		return nil, fmt.Errorf("sign: identity: %w", err)
	}
	signer, ok := key.(crypto.Signer)
	if !ok || len(f.Chain) == 0 {
		return nil, errors.New("sign: identity: no key or no certificate")
	}
	id := &Identity{Key: signer}
	for _, raw := range f.Chain {
		c, err := x509.ParseCertificate(raw)
		if err != nil {
			return nil, fmt.Errorf("sign: identity: %w", err)
		}
		id.Chain = append(id.Chain, c)
	}
	return id, nil
}
