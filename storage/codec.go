package storage

import (
	"encoding/json"
	"fmt"
)

// recordVersion is the first byte of every stored record and command. A later
// encoding gets a new number and a decoder for the old one stays.
const recordVersion byte = 1

// encode writes v as a versioned record.
func encode(v any) ([]byte, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("%w: encode %T: %v", ErrCodec, v, err)
	}
	out := make([]byte, 0, len(body)+1)
	out = append(out, recordVersion)
	return append(out, body...), nil
}

// mustEncode is encode for the record types of this package, which always marshal.
func mustEncode(v any) []byte {
	b, err := encode(v)
	if err != nil {
		panic(err)
	}
	return b
}

// decode reads a versioned record into v.
func decode(b []byte, v any) error {
	if len(b) == 0 {
		return fmt.Errorf("%w: empty record", ErrCodec)
	}
	switch b[0] {
	case recordVersion:
		if err := json.Unmarshal(b[1:], v); err != nil {
			return fmt.Errorf("%w: decode %T: %v", ErrCodec, v, err)
		}
		return nil
	default:
		return fmt.Errorf("%w: unknown record version %d", ErrCodec, b[0])
	}
}
