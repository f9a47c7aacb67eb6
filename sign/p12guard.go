package sign

import (
	"crypto/x509"
	"encoding/asn1"
	"errors"
	"fmt"
	"time"

	"software.sslmate.com/src/go-pkcs12"
)

// A PKCS#12 file names the work its keys take to derive: iteration counts
// and, for PBMAC1 and PBES2, key lengths. go-pkcs12 derives whatever the
// file asks, so a file of a few hundred bytes can ask for a gigabyte or
// years of CPU. checkPKCS12Work reads every such parameter that can be
// read before decryption and refuses a file over the limits, before the
// library sees it: the MAC's, each encrypted container's, and each
// shrouded key's outside an encrypted container. Bags inside an encrypted
// container are read by the library only after the container's capped
// derivation; exporters (OpenSSL, Windows, Java's keytool, macOS) put the
// key outside, and parsePKCS12Bounded bounds the rest in time.

// maxPKCS12Iterations is far above what exporters write (OpenSSL 2,048;
// the most cautious about 600,000) and derives in well under a second.
const maxPKCS12Iterations = 2_000_000

// maxDerivedKey bounds a PBKDF2 key length: the longest HMAC key or cipher
// key a PKCS#12 file uses is 64 bytes.
const maxDerivedKey = 64

var (
	oidDataContent     = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 1}
	oidEncryptedData   = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 6}
	oidShroudedKeyBag  = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 12, 10, 1, 2}
	oidPBES2           = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 5, 13}
	oidPBKDF2          = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 5, 12}
	oidPBMAC1          = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 5, 14}
	oidPKCS12PBEPrefix = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 12, 1}
)

type pfx struct {
	Version  int
	AuthSafe contentInfoRaw
	MacData  macData `asn1:"optional"`
}

type contentInfoRaw struct {
	ContentType asn1.ObjectIdentifier
	Content     asn1.RawValue `asn1:"explicit,optional,tag:0"`
}

type macData struct {
	Mac struct {
		Algorithm algorithm
		Digest    []byte
	}
	MacSalt    []byte
	Iterations int `asn1:"optional,default:1"`
}

type algorithm struct {
	Algorithm  asn1.ObjectIdentifier
	Parameters asn1.RawValue `asn1:"optional"`
}

type pbeParams struct {
	Salt       []byte
	Iterations int
}

type pbkdf2Params struct {
	Salt       asn1.RawValue
	Iterations int
	KeyLength  int       `asn1:"optional"`
	PRF        algorithm `asn1:"optional"`
}

type pbes2Params struct {
	KDF        algorithm
	Encryption algorithm
}

type pbmac1Params struct {
	KDF algorithm
	MAC algorithm
}

type encryptedData struct {
	Version int
	Info    struct {
		ContentType asn1.ObjectIdentifier
		Algorithm   algorithm
		Content     asn1.RawValue `asn1:"optional,tag:0"`
	}
}

type safeBag struct {
	ID    asn1.ObjectIdentifier
	Value asn1.RawValue `asn1:"explicit,tag:0"`
	Attrs asn1.RawValue `asn1:"optional"`
}

type encryptedPrivateKeyInfo struct {
	Algorithm algorithm
	Data      []byte
}

var errTooMuchWork = errors.New("asks for more key-derivation work than any exporter writes")

func checkPKCS12Work(der []byte) error {
	var p pfx
	if _, err := asn1.Unmarshal(der, &p); err != nil {
		return err
	}
	if p.MacData.Iterations > maxPKCS12Iterations || p.MacData.Iterations < 0 {
		return errTooMuchWork
	}
	if p.MacData.Mac.Algorithm.Algorithm.Equal(oidPBMAC1) {
		var mp pbmac1Params
		if _, err := asn1.Unmarshal(p.MacData.Mac.Algorithm.Parameters.FullBytes, &mp); err != nil {
			return err
		}
		if err := checkAlgorithm(mp.KDF); err != nil {
			return err
		}
	}
	if !p.AuthSafe.ContentType.Equal(oidDataContent) {
		return nil // signed authenticated safes are refused by the library
	}
	var content []byte
	if _, err := asn1.Unmarshal(p.AuthSafe.Content.Bytes, &content); err != nil {
		return err
	}
	var safe []contentInfoRaw
	if _, err := asn1.Unmarshal(content, &safe); err != nil {
		return err
	}
	for _, ci := range safe {
		switch {
		case ci.ContentType.Equal(oidEncryptedData):
			var ed encryptedData
			if _, err := asn1.Unmarshal(ci.Content.Bytes, &ed); err != nil {
				return err
			}
			if err := checkAlgorithm(ed.Info.Algorithm); err != nil {
				return err
			}
		case ci.ContentType.Equal(oidDataContent):
			var data []byte
			if _, err := asn1.Unmarshal(ci.Content.Bytes, &data); err != nil {
				return err
			}
			var bags []safeBag
			if _, err := asn1.Unmarshal(data, &bags); err != nil {
				return err
			}
			for _, b := range bags {
				if !b.ID.Equal(oidShroudedKeyBag) {
					continue
				}
				var epki encryptedPrivateKeyInfo
				if _, err := asn1.Unmarshal(b.Value.Bytes, &epki); err != nil {
					return err
				}
				if err := checkAlgorithm(epki.Algorithm); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// checkAlgorithm refuses a key derivation over the limits: a PKCS#12 PBE
// scheme's iterations, PBES2's PBKDF2 iterations and key length, or
// PBKDF2's own.
func checkAlgorithm(a algorithm) error {
	switch {
	case len(a.Algorithm) == len(oidPKCS12PBEPrefix)+1 && a.Algorithm[:len(oidPKCS12PBEPrefix)].Equal(oidPKCS12PBEPrefix):
		var p pbeParams
		if _, err := asn1.Unmarshal(a.Parameters.FullBytes, &p); err != nil {
			return err
		}
		if p.Iterations > maxPKCS12Iterations || p.Iterations < 0 {
			return errTooMuchWork
		}
	case a.Algorithm.Equal(oidPBES2):
		var p pbes2Params
		if _, err := asn1.Unmarshal(a.Parameters.FullBytes, &p); err != nil {
			return err
		}
		return checkAlgorithm(p.KDF)
	case a.Algorithm.Equal(oidPBKDF2):
		var p pbkdf2Params
		if _, err := asn1.Unmarshal(a.Parameters.FullBytes, &p); err != nil {
			return err
		}
		if p.Iterations > maxPKCS12Iterations || p.Iterations < 0 || p.KeyLength < 0 || p.KeyLength > maxDerivedKey {
			return errTooMuchWork
		}
	}
	return nil
}

// p12Slot lets one PKCS#12 file be opened at a time on a node: what the
// checks above cannot read is bounded to one core.
var p12Slot = make(chan struct{}, 1)

// p12Timeout bounds how long an upload waits for its file to open.
const p12Timeout = 10 * time.Second

// errP12Busy is an upload that found the node still opening another.
var errP12Busy = errors.New("another signing certificate is being opened on this node")

type p12Result struct {
	key  any
	cert *x509.Certificate
	cas  []*x509.Certificate
	err  error
}

// decodeBounded opens a PKCS#12 file in the node's one slot for it, and
// gives up waiting after p12Timeout.
func decodeBounded(data []byte, password string) p12Result {
	select {
	case p12Slot <- struct{}{}:
	case <-time.After(p12Timeout):
		return p12Result{err: errP12Busy}
	}
	done := make(chan p12Result, 1)
	go func() {
		defer func() { <-p12Slot }()
		key, cert, cas, err := pkcs12.DecodeChain(data, password)
		done <- p12Result{key, cert, cas, err}
	}()
	select {
	case r := <-done:
		return r
	case <-time.After(p12Timeout):
		return p12Result{err: fmt.Errorf("%w: opening the file took longer than %s", errTooMuchWork, p12Timeout)}
	}
}
