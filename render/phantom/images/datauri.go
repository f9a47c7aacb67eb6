package images

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// ErrNotDataURI is returned for any src that is not a data: URI: phantom reads
// nothing outside the document (no network, no files), like production Chromium.
var ErrNotDataURI = errors.New("images: only data: URIs are loaded")

// ErrBadDataURI is returned for a data: URI that the fetch standard's data URL
// processor rejects (no comma, bad base64): Chromium shows nothing for it.
var ErrBadDataURI = errors.New("images: malformed data: URI")

// dataURI splits a data: URI into its MIME type essence (lower case, "" when
// missing) and its decoded payload, following the URL parser (tabs and
// newlines removed, the fragment cut off at the first '#') and the fetch
// standard's data URL processor (percent-decoding, forgiving base64).
// Payloads larger than MaxBytes are refused before they are decoded.
func dataURI(src string) (mime string, data []byte, err error) {
	s := strings.TrimFunc(src, func(r rune) bool { return r <= ' ' })
	if len(s) < 5 || !strings.EqualFold(s[:5], "data:") {
		return "", nil, fmt.Errorf("%w (got %s)", ErrNotDataURI, describeSrc(s))
	}
	s = s[5:]
	if strings.IndexByte(s, '\n') >= 0 || strings.IndexByte(s, '\r') >= 0 || strings.IndexByte(s, '\t') >= 0 {
		s = strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, s)
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	meta, body, ok := strings.Cut(s, ",")
	if !ok {
		return "", nil, fmt.Errorf("%w: no comma after the media type", ErrBadDataURI)
	}
	meta = strings.Trim(meta, " \t\n\f\r")
	isBase64 := false
	if i := strings.LastIndexByte(meta, ';'); i >= 0 {
		if strings.EqualFold(strings.TrimLeft(meta[i+1:], " "), "base64") {
			isBase64 = true
			meta = meta[:i]
		}
	}
	// A rough bound first, so a huge URI is refused before any work.
	if n := len(body); (isBase64 && n/4*3 > MaxBytes+3) || (!isBase64 && n > 3*MaxBytes) {
		return "", nil, fmt.Errorf("%w: payload of about %d bytes; the limit is %d", ErrTooLarge, payloadEstimate(n, isBase64), MaxBytes)
	}
	if isBase64 && strings.IndexByte(body, '%') < 0 {
		data = fastBase64(body)
	}
	if data == nil {
		data = percentDecode(body)
		if isBase64 {
			data, err = forgivingBase64(data)
			if err != nil {
				return "", nil, err
			}
		}
	}
	if len(data) > MaxBytes {
		return "", nil, fmt.Errorf("%w: payload of %d bytes; the limit is %d", ErrTooLarge, len(data), MaxBytes)
	}
	mime, _, _ = strings.Cut(meta, ";")
	mime = strings.ToLower(strings.Trim(mime, " \t\n\f\r"))
	if !strings.Contains(mime, "/") {
		mime = ""
	}
	return mime, data, nil
}

func payloadEstimate(n int, b64 bool) int {
	if b64 {
		return n / 4 * 3
	}
	return n
}

// DecodeDataURI returns a data: URI's MIME type essence and its payload
// (at most MaxBytes), for the other resources a document gives as data:
// URIs (fonts).
func DecodeDataURI(src string) (mime string, data []byte, err error) { return dataURI(src) }

// isDataURI reports whether src has the data: scheme.
func isDataURI(src string) bool {
	s := strings.TrimLeft(src, "\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f ")
	return len(s) >= 5 && strings.EqualFold(s[:5], "data:")
}

// fastBase64 decodes the common case, plain base64 without whitespace or
// percent escapes, in one pass; nil when the forgiving path is needed.
func fastBase64(s string) []byte {
	enc := base64.RawStdEncoding
	if strings.HasSuffix(s, "=") {
		enc = base64.StdEncoding
	}
	out := make([]byte, enc.DecodedLen(len(s)))
	n, err := enc.Decode(out, []byte(s))
	if err != nil {
		return nil
	}
	return out[:n]
}

// describeSrc names a rejected src briefly for an error message: its scheme,
// or that it is a relative path, never the whole (possibly huge) string.
func describeSrc(s string) string {
	if s == "" {
		return "an empty src"
	}
	if i := strings.IndexByte(s, ':'); i > 0 && i < 16 && !strings.ContainsAny(s[:i], "/?#.") {
		return "a " + strings.ToLower(s[:i]) + ": URL"
	}
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return fmt.Sprintf("the relative URL %q", s)
}

// percentDecode decodes %XX sequences; a '%' not followed by two hex digits
// stays as it is (URL standard). It returns a fresh slice.
func percentDecode(s string) []byte {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) {
			h, ok1 := unhex(s[i+1])
			l, ok2 := unhex(s[i+2])
			if ok1 && ok2 {
				out = append(out, h<<4|l)
				i += 2
				continue
			}
		}
		out = append(out, c)
	}
	return out
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// forgivingBase64 is the WHATWG forgiving-base64 decode: ASCII whitespace is
// ignored, padding is optional, and the input is decoded in place.
func forgivingBase64(b []byte) ([]byte, error) {
	n := 0
	for _, c := range b {
		switch c {
		case ' ', '\t', '\n', '\f', '\r':
			continue
		}
		b[n] = c
		n++
	}
	b = b[:n]
	if len(b)%4 == 0 {
		if len(b) > 0 && b[len(b)-1] == '=' {
			b = b[:len(b)-1]
			if len(b) > 0 && b[len(b)-1] == '=' {
				b = b[:len(b)-1]
			}
		}
	}
	if len(b)%4 == 1 {
		return nil, fmt.Errorf("%w: base64 of a length no bytes can have", ErrBadDataURI)
	}
	m, err := base64.RawStdEncoding.Decode(b, b)
	if err != nil {
		return nil, fmt.Errorf("%w: bad base64: %v", ErrBadDataURI, err)
	}
	return b[:m], nil
}
