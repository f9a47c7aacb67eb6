package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// The development CA: a certificate authority of this machine's user, kept
// in the configuration folder, that `platen webhooks listen` issues its
// receiver's certificate from and that a node started with `platen serve
// --dev` trusts for webhook deliveries. It is made on first use; its key is
// readable by its owner only. It is for development: nothing else trusts it.

const (
	devCAFile    = "dev-ca.pem"
	devCAKeyFile = "dev-ca-key.pem"
)

// devCA is the CA's certificate and key.
type devCA struct {
	CertPath string
	cert     *x509.Certificate
	key      *ecdsa.PrivateKey
}

// ensureDevCA loads the development CA of dir, making it when missing; made
// says it was made now.
func ensureDevCA(dir string) (ca *devCA, made bool, err error) {
	certPath, keyPath := filepath.Join(dir, devCAFile), filepath.Join(dir, devCAKeyFile)
	certPEM, err1 := os.ReadFile(certPath)
	keyPEM, err2 := os.ReadFile(keyPath)
	if err1 == nil && err2 == nil {
		ca, err := parseDevCA(certPath, certPEM, keyPEM)
		return ca, false, err
	}
	if !errors.Is(err1, fs.ErrNotExist) && err1 != nil {
		return nil, false, err1
	}
	if !errors.Is(err2, fs.ErrNotExist) && err2 != nil {
		return nil, false, err2
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, false, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, false, err
	}
	serial, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	host, _ := os.Hostname()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{Organization: []string{"Platen development CA"}, CommonName: "Platen development CA (" + host + ")"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().AddDate(10, 0, 0),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
		// Name constraints: the CA vouches for this machine's loopback
		// names only, so that a node trusting it (serve --dev), or anything
		// else it is added to, trusts no certificate for another host
		// issued with its key.
		PermittedDNSDomainsCritical: true,
		PermittedDNSDomains:         []string{"localhost"},
		PermittedIPRanges:           loopbackRanges(),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, false, err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, false, err
	}
	// The key first, owner-only: a CA certificate without its key is of
	// no use, and a key never lies about readable by others.
	if err := writeFileMode(keyPath, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		return nil, false, err
	}
	certPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	if err := writeFileMode(certPath, certPEM, 0o644); err != nil {
		return nil, false, err
	}
	ca, err = parseDevCA(certPath, certPEM, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}))
	return ca, true, err
}

// loopbackRanges are 127.0.0.0/8 and ::1, the addresses the CA may vouch for.
func loopbackRanges() []*net.IPNet {
	return []*net.IPNet{
		{IP: net.IPv4(127, 0, 0, 0).To4(), Mask: net.CIDRMask(8, 32)},
		{IP: net.IPv6loopback, Mask: net.CIDRMask(128, 128)},
	}
}

func parseDevCA(certPath string, certPEM, keyPEM []byte) (*devCA, error) {
	cb, _ := pem.Decode(certPEM)
	kb, _ := pem.Decode(keyPEM)
	if cb == nil || kb == nil {
		return nil, fmt.Errorf("the development CA in %s is damaged: delete %s and %s to make a new one", filepath.Dir(certPath), devCAFile, devCAKeyFile)
	}
	cert, err := x509.ParseCertificate(cb.Bytes)
	if err != nil {
		return nil, fmt.Errorf("the development CA %s: %w", certPath, err)
	}
	key, err := x509.ParseECPrivateKey(kb.Bytes)
	if err != nil {
		return nil, fmt.Errorf("the development CA's key: %w", err)
	}
	return &devCA{CertPath: certPath, cert: cert, key: key}, nil
}

// writeFileMode writes b to path with exactly mode, whatever the umask or
// an older file's mode.
func writeFileMode(path string, b []byte, mode os.FileMode) error {
	if err := os.WriteFile(path, b, mode); err != nil {
		return err
	}
	return os.Chmod(path, mode)
}

// serverCert is a certificate for this machine's loopback addresses, issued
// by the CA, valid for a day.
func (ca *devCA) serverCert() (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	serial, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "platen webhooks listen"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:     []string{"localhost"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der, ca.cert.Raw}, PrivateKey: key}, nil
}
