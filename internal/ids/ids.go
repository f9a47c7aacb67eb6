// Package ids makes Platen's identifiers: a kind prefix and 26 characters of
// Crockford base32 holding a 48-bit millisecond timestamp and 80 random bits,
// so ids sort by creation time (docs/design.md "Ids") and never collide in practice.
//
// Ids are chosen by the proposer of a command, never inside the state machine,
// which must stay deterministic (docs/design.md "Consistency" rule 3).
package ids

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"strings"
	"sync"
	"time"
)

// Prefixes of each kind of identifier.
const (
	Document = "doc"
	Template = "tpl"
	Webhook  = "whk"
	Delivery = "dlv"
	Org      = "org"
	Key      = "key"
	Ledger   = "led"
	Event    = "evt"
	Request  = "req"
	User     = "usr"
	// SigningCertificate is a signing certificate's.
	SigningCertificate = "crt"
)

const alphabet = "0123456789abcdefghjkmnpqrstvwxyz"

// monotonic makes the ids of one process sort in the order they were made,
// even within one millisecond: a second id in the same millisecond (or with a
// clock that went back) takes the last one's time and its random part plus one.
var monotonic struct {
	sync.Mutex // guards the fields below
	ms         uint64
	rnd        [10]byte
}

// New returns a fresh identifier of the given kind made at time t. Within a
// process, each id sorts after the one made before it.
func New(kind string, t time.Time) string {
	var raw [16]byte
	ms := uint64(max(t.UnixMilli(), 0))
	monotonic.Lock()
	if ms <= monotonic.ms {
		ms = monotonic.ms
		for i := len(monotonic.rnd) - 1; i >= 0; i-- {
			monotonic.rnd[i]++
			if monotonic.rnd[i] != 0 {
				break
			}
		}
	} else {
		monotonic.ms = ms
		if _, err := rand.Read(monotonic.rnd[:]); err != nil {
			panic("ids: crypto/rand failed: " + err.Error())
		}
	}
	binary.BigEndian.PutUint64(raw[:8], ms<<16)
	copy(raw[6:], monotonic.rnd[:])
	monotonic.Unlock()
	var b strings.Builder
	b.Grow(len(kind) + 1 + 26)
	b.WriteString(kind)
	b.WriteByte('_')
	encode(&b, raw)
	return b.String()
}

// HasKind reports whether id is well formed and of the given kind.
func HasKind(id, kind string) bool {
	rest, ok := strings.CutPrefix(id, kind+"_")
	if !ok || len(rest) != 26 {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if strings.IndexByte(alphabet, rest[i]) < 0 {
			return false
		}
	}
	return true
}

// encode writes 128 bits as 26 base32 characters, most significant first.
func encode(b *strings.Builder, raw [16]byte) {
	hi := binary.BigEndian.Uint64(raw[:8])
	lo := binary.BigEndian.Uint64(raw[8:])
	// 130 bits of output for 128 of input: the top two bits are zero.
	for i := 25; i >= 0; i-- {
		shift := uint(i * 5)
		var v uint64
		switch {
		case shift >= 64:
			v = hi >> (shift - 64)
		case shift > 59:
			v = lo>>shift | hi<<(64-shift)
		default:
			v = lo >> shift
		}
		b.WriteByte(alphabet[v&31])
	}
}

// Derive makes a deterministic identifier of kind from another identifier of
// any kind and a seed: it keeps the source's time part, so it sorts with it,
// and fills the rest from a hash of both. The state machine uses it where an
// id must be the same on every replica.
func Derive(kind, source, seed string) string {
	_, rest, _ := strings.Cut(source, "_")
	if len(rest) < 10 {
		rest = strings.Repeat("0", 10)
	}
	sum := sha256.Sum256([]byte(source + "\x00" + seed))
	var b strings.Builder
	b.WriteString(kind)
	b.WriteByte('_')
	b.WriteString(rest[:10])
	for i := 0; i < 16; i++ {
		b.WriteByte(alphabet[sum[i]&31])
	}
	return b.String()
}
