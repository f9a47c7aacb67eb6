// Package signtest makes what signature tests and benchmarks need and
// cannot fetch here: a certificate authority and signing keys made with Go's
// crypto/x509, their PKCS#12 files, and a small RFC 3161 time-stamp
// authority served on loopback. Nothing in it is for production.
package signtest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"software.sslmate.com/src/go-pkcs12"

	"github.com/platen/platen/sign"
)

// Authority is a test certificate authority.
type Authority struct {
	Cert *x509.Certificate
	Key  crypto.Signer
}

var serial atomic.Int64

// NewAuthority makes a self-signed CA, valid from an hour ago for ten
// years.
func NewAuthority(name string) (*Authority, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial.Add(1)), Subject: pkix.Name{CommonName: name, Organization: []string{"Platen tests"}},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().AddDate(10, 0, 0), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		return nil, err
	}
	cert, _ := x509.ParseCertificate(der)
	return &Authority{Cert: cert, Key: key}, nil
}

// Options shape a signing identity.
type Options struct {
	// RSA makes an RSA key of that many bits; 0 makes ECDSA P-256.
	RSA int
	// NotBefore and NotAfter default to an hour ago and a year ahead.
	NotBefore, NotAfter time.Time
	// KeyUsage defaults to digital signature and non-repudiation.
	KeyUsage x509.KeyUsage
	// ExtKeyUsage is a time-stamp authority's (crypto/x509 does not mark it
	// critical as RFC 3161 2.3 asks; the verifiers here do not mind).
	ExtKeyUsage []x509.ExtKeyUsage
}

// Issue makes a key and a certificate for it signed by the authority.
func (a *Authority) Issue(name string, o Options) (*sign.Identity, error) {
	var key crypto.Signer
	var err error
	if o.RSA > 0 {
		key, err = rsa.GenerateKey(rand.Reader, o.RSA)
	} else {
		key, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	}
	if err != nil {
		return nil, err
	}
	if o.NotBefore.IsZero() {
		o.NotBefore = time.Now().Add(-time.Hour)
	}
	if o.NotAfter.IsZero() {
		o.NotAfter = time.Now().AddDate(1, 0, 0)
	}
	if o.KeyUsage == 0 {
		o.KeyUsage = x509.KeyUsageDigitalSignature | x509.KeyUsageContentCommitment
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial.Add(1)), Subject: pkix.Name{CommonName: name, Organization: []string{"Platen tests"}},
		NotBefore: o.NotBefore, NotAfter: o.NotAfter, KeyUsage: o.KeyUsage, ExtKeyUsage: o.ExtKeyUsage}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, a.Cert, key.Public(), a.Key)
	if err != nil {
		return nil, err
	}
	cert, _ := x509.ParseCertificate(der)
	return &sign.Identity{Key: key, Chain: []*x509.Certificate{cert, a.Cert}}, nil
}

// PKCS12 encodes an identity as an uploaded file would be: modern
// algorithms (AES-256, PBKDF2), as OpenSSL 3 writes them.
func PKCS12(id *sign.Identity, password string) ([]byte, error) {
	return pkcs12.Modern.Encode(id.Key, id.Chain[0], id.Chain[1:], password)
}

// LegacyPKCS12 encodes it with the old algorithms (3DES), as Windows and
// older tools write them.
func LegacyPKCS12(id *sign.Identity, password string) ([]byte, error) {
	return pkcs12.LegacyDES.Encode(id.Key, id.Chain[0], id.Chain[1:], password)
}

// TSA is a time-stamp authority on loopback.
type TSA struct {
	URL       string
	Authority *Authority
	// Requests counts the requests answered with a token.
	Requests atomic.Int64
	// Refuse makes it answer every request with status 2 (rejection).
	Refuse atomic.Bool
	id     *sign.Identity
	srv    *http.Server
}

// StartTSA serves a time-stamp authority on 127.0.0.1 at a random port.
func StartTSA() (*TSA, error) {
	ca, err := NewAuthority("Platen test TSA root")
	if err != nil {
		return nil, err
	}
	id, err := ca.Issue("Platen test TSA", Options{KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageTimeStamping}})
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	t := &TSA{URL: "http://" + ln.Addr().String() + "/tsa", Authority: ca, id: id}
	t.srv = &http.Server{Handler: http.HandlerFunc(t.serve), ReadHeaderTimeout: 5 * time.Second}
	go t.srv.Serve(ln)
	return t, nil
}

// Close stops the authority.
func (t *TSA) Close() { t.srv.Close() }

var policy = asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 99999, 1}

func (t *TSA) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 8<<10))
	var req sign.TimeStampReq
	if err == nil {
		_, err = asn1.Unmarshal(body, &req)
	}
	w.Header().Set("Content-Type", "application/timestamp-reply")
	if err != nil || t.Refuse.Load() {
		resp, _ := asn1.Marshal(sign.TimeStampResp{Status: sign.PKIStatusInfo{Status: 2}})
		w.Write(resp)
		return
	}
	sn, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 63))
	token, err := sign.TimeStampToken(t.id, sign.TSTInfo{Version: 1, Policy: policy, MessageImprint: req.MessageImprint,
		SerialNumber: sn, GenTime: time.Now().UTC().Truncate(time.Second), Nonce: req.Nonce})
	if err != nil {
		http.Error(w, fmt.Sprint(err), http.StatusInternalServerError)
		return
	}
	resp, _ := asn1.Marshal(sign.TimeStampResp{Status: sign.PKIStatusInfo{Status: 0}, TimeStampToken: asn1.RawValue{FullBytes: token}})
	t.Requests.Add(1)
	w.Write(resp)
}
