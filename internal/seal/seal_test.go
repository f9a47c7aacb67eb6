package seal

import (
	"bytes"
	"errors"
	"testing"
)

func TestSealOpen(t *testing.T) {
	key := bytes.Repeat([]byte{7}, 32)
	s, _ := New(key)
	a, b := s.Seal([]byte("whsec_abc")), s.Seal([]byte("whsec_abc"))
	if bytes.Equal(a, b) || bytes.Contains(a, []byte("whsec_abc")) {
		t.Fatal("sealing is deterministic or leaks the plain text")
	}
	if got, err := s.Open(a); err != nil || string(got) != "whsec_abc" {
		t.Fatalf("open: %q %v", got, err)
	}
	other, _ := New(bytes.Repeat([]byte{8}, 32))
	if _, err := other.Open(a); !errors.Is(err, ErrOpen) {
		t.Fatal("opened with another key")
	}
	a[len(a)-1] ^= 1
	if _, err := s.Open(a); !errors.Is(err, ErrOpen) {
		t.Fatal("a damaged value opened")
	}
	if _, err := New([]byte("short")); err == nil {
		t.Fatal("a short key accepted")
	}
}
