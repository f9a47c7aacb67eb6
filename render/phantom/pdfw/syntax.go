package pdfw

import (
	"math"
	"unicode/utf16"
	"unicode/utf8"
)

// pow10 holds the scales appendNum rounds to.
var pow10 = [...]float64{1, 10, 100, 1e3, 1e4, 1e5, 1e6}

// maxNum bounds every number written: far beyond any page, well inside what
// every reader parses (PDF 1.7 Annex C lets integers reach 2^31).
const maxNum = 1e9

// appendNum appends v with at most dec decimals and no redundant characters
// ("0", ".5", "-12.25"). NaN and infinities become 0, huge values are clamped:
// a number in a PDF must always parse.
func appendNum(b []byte, v float64, dec int) []byte {
	if v != v || math.IsInf(v, 0) {
		return append(b, '0')
	}
	if v > maxNum {
		v = maxNum
	} else if v < -maxNum {
		v = -maxNum
	}
	if dec < 0 {
		dec = 0
	} else if dec >= len(pow10) {
		dec = len(pow10) - 1
	}
	p := int64(pow10[dec])
	i := int64(math.Round(v * pow10[dec]))
	if i == 0 {
		return append(b, '0')
	}
	if i < 0 {
		b = append(b, '-')
		i = -i
	}
	ip, fp := i/p, i%p
	if ip != 0 || fp == 0 {
		b = appendUint(b, uint64(ip))
	}
	if fp != 0 {
		// Strip trailing zeros, then write the remaining digits zero-padded.
		for fp%10 == 0 {
			fp /= 10
			dec--
		}
		b = append(b, '.')
		var tmp [8]byte
		n := len(tmp)
		for k := 0; k < dec; k++ {
			n--
			tmp[n] = byte('0' + fp%10)
			fp /= 10
		}
		b = append(b, tmp[n:]...)
	}
	return b
}

// appendInt appends a decimal integer.
func appendInt(b []byte, v int) []byte {
	if v < 0 {
		b = append(b, '-')
		return appendUint(b, uint64(-int64(v)))
	}
	return appendUint(b, uint64(v))
}

func appendUint(b []byte, v uint64) []byte {
	var tmp [20]byte
	n := len(tmp)
	for {
		n--
		tmp[n] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			break
		}
	}
	return append(b, tmp[n:]...)
}

// appendRef appends an indirect reference "n 0 R".
func appendRef(b []byte, num int) []byte {
	b = appendInt(b, num)
	return append(b, " 0 R"...)
}

const hexDigits = "0123456789ABCDEF"

// appendTextString appends a PDF text string (7.9.2.2): a literal string when
// s is printable ASCII (where PDFDocEncoding and ASCII agree), UTF-16BE with a
// byte order mark in hex otherwise.
func appendTextString(b []byte, s string) []byte {
	ascii := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e {
			ascii = false
			break
		}
	}
	if ascii {
		return appendLiteral(b, s)
	}
	b = append(b, "<FEFF"...)
	for _, r := range s { // invalid UTF-8 becomes U+FFFD
		b = appendUTF16Hex(b, r)
	}
	return append(b, '>')
}

// appendUTF16Hex appends r as UTF-16BE in hex (a surrogate pair above the BMP).
func appendUTF16Hex(b []byte, r rune) []byte {
	if r >= 0x10000 && r <= utf8.MaxRune {
		r1, r2 := utf16.EncodeRune(r)
		b = appendHex16(b, uint16(r1))
		return appendHex16(b, uint16(r2))
	}
	if r < 0 || r > 0xffff || (r >= 0xd800 && r < 0xe000) {
		r = utf8.RuneError
	}
	return appendHex16(b, uint16(r))
}

func appendHex16(b []byte, v uint16) []byte {
	return append(b, hexDigits[v>>12], hexDigits[v>>8&15], hexDigits[v>>4&15], hexDigits[v&15])
}

// appendLiteral appends s as a literal string, escaping what a reader would
// otherwise take as syntax: parentheses, backslash, and CR (which a reader
// turns into LF inside a string, 7.3.4.2).
func appendLiteral(b []byte, s string) []byte {
	b = append(b, '(')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', ')', '\\':
			b = append(b, '\\', c)
		case '\r':
			b = append(b, '\\', 'r')
		default:
			b = append(b, c)
		}
	}
	return append(b, ')')
}

// appendURI appends a URI as a literal string of 7-bit ASCII (12.6.4.7):
// bytes outside printable ASCII are percent-encoded.
func appendURI(b []byte, s string) []byte {
	b = append(b, '(')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '(' || c == ')' || c == '\\':
			b = append(b, '\\', c)
		case c <= 0x20 || c >= 0x7f:
			b = append(b, '%', hexDigits[c>>4], hexDigits[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, ')')
}

// appendName appends /s, escaping with #xx what a name may not hold (7.3.5).
func appendName(b []byte, s string) []byte {
	return appendNameBody(append(b, '/'), s)
}

// appendNameBody appends s escaped as the characters of a name.
func appendNameBody(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x21 || c > 0x7e || isDelim(c) || c == '#' {
			b = append(b, '#', hexDigits[c>>4], hexDigits[c&15])
			continue
		}
		b = append(b, c)
	}
	return b
}

func isDelim(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

// appendNums appends vs separated by spaces, each with dec decimals.
func appendNums(b []byte, dec int, vs ...float64) []byte {
	for i, v := range vs {
		if i > 0 {
			b = append(b, ' ')
		}
		b = appendNum(b, v, dec)
	}
	return b
}
