package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestDevCAVouchesForLoopbackOnly: the development CA's key is its
// owner's alone, its receiver certificate verifies for localhost and the
// loopback addresses, and a certificate it issues for any other host does
// not verify, so a node trusting it trusts it for nothing else.
func TestDevCAVouchesForLoopbackOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "platen")
	ca, made, err := ensureDevCA(dir)
	if err != nil || !made {
		t.Fatalf("ensureDevCA: made %v, %v", made, err)
	}
	if st, err := os.Stat(filepath.Join(dir, devCAKeyFile)); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the CA's key: %v, %v", st.Mode(), err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(ca.cert)
	leaf, err := ca.serverCert()
	if err != nil {
		t.Fatal(err)
	}
	lc, err := x509.ParseCertificate(leaf.Certificate[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"localhost", "127.0.0.1", "::1"} {
		if _, err := lc.Verify(x509.VerifyOptions{Roots: roots, DNSName: name}); err != nil {
			t.Errorf("the receiver's certificate for %s: %v", name, err)
		}
	}
	for _, c := range []struct {
		dns []string
		ip  []string
	}{{dns: []string{"example.com"}}, {dns: []string{"hooks.example.com", "localhost"}}, {ip: []string{"10.0.0.5"}}, {ip: []string{"203.0.113.7"}}} {
		key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		tmpl := &x509.Certificate{
			SerialNumber: big.NewInt(7), Subject: pkix.Name{CommonName: "other"},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
			DNSNames: c.dns,
		}
		for _, ip := range c.ip {
			tmpl.IPAddresses = append(tmpl.IPAddresses, parseIP(t, ip))
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
		if err != nil {
			t.Fatal(err)
		}
		other, _ := x509.ParseCertificate(der)
		name := append(c.dns, c.ip...)[0]
		if _, err := other.Verify(x509.VerifyOptions{Roots: roots, DNSName: name}); err == nil {
			t.Errorf("a certificate the development CA issued for %v verifies", name)
		}
	}
	again, made, err := ensureDevCA(dir)
	if err != nil || made || !again.cert.Equal(ca.cert) {
		t.Fatalf("the second use did not load the same CA: made %v, %v", made, err)
	}
}

func parseIP(t *testing.T, s string) net.IP {
	t.Helper()
	ip := net.ParseIP(s)
	if ip == nil {
		t.Fatalf("bad IP %s", s)
	}
	return ip
}
