package sign_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/platen/platen/sign"
	"github.com/platen/platen/sign/signtest"
)

// BenchmarkSign measures a signature of a two-page PDF, B-B, with an
// ECDSA P-256 key and an RSA 3072 one, and the check of the result.
func BenchmarkSign(b *testing.B) {
	file, err := os.ReadFile("../pdf/testdata/two-pages.pdf")
	if err != nil {
		b.Fatal(err)
	}
	ca, err := signtest.NewAuthority("root")
	if err != nil {
		b.Fatal(err)
	}
	for _, k := range []struct {
		name string
		o    signtest.Options
	}{{"ecdsa-p256", signtest.Options{}}, {"rsa-3072", signtest.Options{RSA: 3072}}} {
		id, err := ca.Issue("bench", k.o)
		if err != nil {
			b.Fatal(err)
		}
		var signed []byte
		b.Run("sign/"+k.name, func(b *testing.B) {
			for b.Loop() {
				if signed, _, err = sign.PDF(context.Background(), file, sign.Options{Identity: id, Time: time.Now()}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("verify/"+k.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := sign.Verify(signed); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
