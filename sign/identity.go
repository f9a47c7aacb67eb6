package sign

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
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

// maxChain bounds the certificates a file brings: each is embedded in
// every signature.
const maxChain = 10

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
	if err := checkPKCS12Work(data); errors.Is(err, errTooMuchWork) {
		return nil, fault.Invalid("file", "%v; export it again with your tool's defaults", err)
	} else if err != nil {
		return nil, fault.Invalid("file", "is not a PKCS#12 file with one key and its certificate (export it again, with the key, as .p12 or .pfx)")
	}
	r := decodeBounded(data, password)
	key, cert, cas, err := r.key, r.cert, r.cas, r.err
	switch {
	case errors.Is(err, pkcs12.ErrIncorrectPassword):
		return nil, fault.Invalid("password", "does not open the file")
	case errors.Is(err, errP12Busy):
		return nil, fmt.Errorf("%w: %v", fault.ErrOverloaded, err)
	case errors.Is(err, errTooMuchWork):
		return nil, fault.Invalid("file", "%v; export it again with your tool's defaults", err)
	case err != nil:
		return nil, fault.Invalid("file", "is not a PKCS#12 file with one key and its certificate (export it again, with the key, as .p12 or .pfx)")
	}
	if len(cas)+1 > maxChain {
		return nil, fault.Invalid("file", "holds %d certificates; a signing key's chain takes at most %d", len(cas)+1, maxChain)
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
		if n := k.N.BitLen(); n < 2048 || n > 8192 {
			return fault.Invalid("file", "holds an RSA key of %d bits; use one of 2048 to 8192 bits (3072 is common)", n)
		}
		// Go does not check that a key's primes are primes: a key with a
		// huge composite factor would cost seconds a signature. A real
		// key has two primes of half its length each.
		if !twoPrimes(id.Key, k.N.BitLen()) {
			return fault.Invalid("file", "holds an RSA key that is not made of two primes of half its size each")
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
	// One signature, checked with the certificate: the key works.
	digest := sha256.Sum256([]byte("platen signing key check"))
	sig, err := id.Key.Sign(rand.Reader, digest[:], crypto.SHA256)
	alg := x509.SHA256WithRSA
	if _, ok := id.Key.Public().(*ecdsa.PublicKey); ok {
		alg = x509.ECDSAWithSHA256
	}
	if err != nil || cert.CheckSignature(alg, []byte("platen signing key check"), sig) != nil {
		return fault.Invalid("file", "holds a key whose signatures its certificate does not verify")
	}
	return nil
}

// twoPrimes reports whether an RSA key is two primes of about half its n
// bits each.
func twoPrimes(key crypto.Signer, n int) bool {
	priv, ok := key.(*rsa.PrivateKey)
	if !ok || len(priv.Primes) != 2 {
		return false
	}
	for _, p := range priv.Primes {
		if d := p.BitLen() - (n+1)/2; d < -1 || d > 1 || !p.ProbablyPrime(20) {
			return false
		}
	}
	return true
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
