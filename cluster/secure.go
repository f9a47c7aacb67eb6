package cluster

import (
	"crypto/ed25519"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"
)

// Key is the cluster key every node of a cluster is started with. Gossip is
// encrypted with a key derived from it, and raft and peer traffic run over
// TLS whose certificates a CA derived from it signs: a process without the
// key can neither join, vote nor send to an actor.
type Key [32]byte

// NewKey returns a fresh cluster key in its text form.
func NewKey() string {
	var k Key
	if _, err := rand.Read(k[:]); err != nil {
		panic(err)
	}
	return base64.StdEncoding.EncodeToString(k[:])
}

// ParseKey reads a key in its text form: 32 bytes in standard base64.
func ParseKey(s string) (Key, error) {
	var k Key
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil || len(raw) != len(k) {
		return k, errors.New("cluster key: want 32 bytes in base64 (make one with `platen cluster-key`)")
	}
	copy(k[:], raw)
	return k, nil
}

// derive returns 32 bytes for one purpose; different purposes give unrelated keys.
func (k Key) derive(purpose string) []byte {
	out, err := hkdf.Key(sha256.New, k[:], nil, "platen cluster key: "+purpose, 32)
	if err != nil {
		panic(err) // only for lengths hkdf cannot make
	}
	return out
}

// GossipKey is the memberlist keyring key.
func (k Key) GossipKey() []byte { return k.derive("gossip") }

// SealKey is the key webhook secrets are sealed with on nodes that made no
// key of their own before joining a cluster: every node derives the same one.
func (k Key) SealKey() []byte { return k.derive("seal") }

// peerName is the name every peer certificate carries and every client checks.
const peerName = "platen-peer"

// PeerTLS makes this node's certificate, signed by the CA that every holder
// of the key derives, and returns the TLS settings of the node's server side
// (which demands a client certificate from the same CA) and client side.
func (k Key) PeerTLS(nodeID string) (server, client *tls.Config, err error) {
	caKey := ed25519.NewKeyFromSeed(k.derive("ca"))
	epoch := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	caTmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "platen cluster CA"},
		NotBefore:             epoch,
		NotAfter:              epoch.AddDate(100, 0, 0),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, caKey.Public(), caKey)
	if err != nil {
		return nil, nil, fmt.Errorf("cluster CA: %w", err)
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, nil, err
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	if err != nil {
		return nil, nil, err
	}
	now := time.Now()
	leafTmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: nodeID},
		DNSNames:     []string{peerName},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.AddDate(10, 0, 0),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, leafTmpl, ca, pub, caKey)
	if err != nil {
		return nil, nil, fmt.Errorf("node certificate: %w", err)
	}
	cert := tls.Certificate{Certificate: [][]byte{leafDER}, PrivateKey: priv}
	pool := x509.NewCertPool()
	pool.AddCert(ca)
	server = &tls.Config{
		Certificates: []tls.Certificate{cert},
		ClientAuth:   tls.RequireAndVerifyClientCert,
		ClientCAs:    pool,
		MinVersion:   tls.VersionTLS13,
	}
	client = &tls.Config{
		Certificates: []tls.Certificate{cert},
		RootCAs:      pool,
		ServerName:   peerName,
		MinVersion:   tls.VersionTLS13,
	}
	return server, client, nil
}
