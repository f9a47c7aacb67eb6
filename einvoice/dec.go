package einvoice

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"regexp"
	"strings"
)

// Dec is a decimal number from the invoice's data: an amount, a quantity,
// a price or a rate. It is exact (a rational number), so that sums and
// products are what the rules compute, and it is written back with the
// digits it needs. The zero Dec is absent: a field that was not given.
type Dec struct{ r *big.Rat }

// decimal is the form a number may take: xs:decimal's, with at most 15
// digits before the point and 8 after (no exponent).
var decimal = regexp.MustCompile(`^[-+]?([0-9]{1,15}(\.[0-9]{0,8})?|\.[0-9]{1,8})$`)

// errDec is a value that is not a decimal number.
var errDec = errors.New("must be a decimal number such as 19.90 (a JSON number or a string)")

// ParseDec reads a decimal number as CII writes it.
func ParseDec(s string) (Dec, error) {
	s = strings.TrimSpace(s)
	if !decimal.MatchString(s) {
		return Dec{}, errDec
	}
	s = strings.TrimSuffix(strings.TrimPrefix(s, "+"), ".") // xs:decimal allows +1 and 64.
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return Dec{}, errDec
	}
	return Dec{r}, nil
}

// D is a decimal from a literal the program writes; it panics on a bad one.
func D(s string) Dec {
	d, err := ParseDec(s)
	if err != nil {
		panic("einvoice: bad decimal " + s)
	}
	return d
}

// UnmarshalJSON reads a JSON number or a string holding one.
func (d *Dec) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		*d = Dec{}
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return errDec
		}
		b = []byte(s)
	}
	v, err := ParseDec(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// MarshalJSON writes the number as JSON, with the digits it needs.
func (d Dec) MarshalJSON() ([]byte, error) {
	if d.r == nil {
		return []byte("null"), nil
	}
	return []byte(d.String()), nil
}

// Set reports whether the field was given.
func (d Dec) Set() bool { return d.r != nil }

func (d Dec) rat() *big.Rat {
	if d.r == nil {
		return new(big.Rat)
	}
	return d.r
}

// Add, Sub, Mul and Quo are exact arithmetic; an absent operand counts as zero.
func (d Dec) Add(e Dec) Dec { return Dec{new(big.Rat).Add(d.rat(), e.rat())} }
func (d Dec) Sub(e Dec) Dec { return Dec{new(big.Rat).Sub(d.rat(), e.rat())} }
func (d Dec) Mul(e Dec) Dec { return Dec{new(big.Rat).Mul(d.rat(), e.rat())} }

// Quo divides by e; by zero it gives zero (the rules refuse a zero base
// quantity before anything divides by it).
func (d Dec) Quo(e Dec) Dec {
	if e.rat().Sign() == 0 {
		return Dec{new(big.Rat)}
	}
	return Dec{new(big.Rat).Quo(d.rat(), e.rat())}
}

// Cmp compares d and e.
func (d Dec) Cmp(e Dec) int { return d.rat().Cmp(e.rat()) }

// Sign is -1, 0 or 1.
func (d Dec) Sign() int { return d.rat().Sign() }

// Abs is |d|.
func (d Dec) Abs() Dec { return Dec{new(big.Rat).Abs(d.rat())} }

// Round2 rounds to two decimals as the EN 16931 rules do (XPath round:
// half up, towards positive infinity).
func (d Dec) Round2() Dec {
	x := new(big.Rat).Mul(d.rat(), big.NewRat(100, 1))
	x.Add(x, big.NewRat(1, 2))
	// floor(x) for a rational: the integer quotient rounded down.
	q := new(big.Int).Div(x.Num(), x.Denom()) // Euclidean: floor for a positive denominator
	return Dec{new(big.Rat).SetFrac(q, big.NewInt(100))}
}

// Places is the number of decimals d needs (at most 8 for what ParseDec reads).
func (d Dec) Places() int {
	r := d.rat()
	for n := 0; n <= 12; n++ {
		x := new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)))
		if x.IsInt() {
			return n
		}
	}
	return 12
}

// String writes d with the digits it needs: 19.9, 7, 0.0625.
func (d Dec) String() string {
	return d.rat().FloatString(d.Places())
}

// Amount writes d with two decimals: 19.90.
func (d Dec) Amount() string { return d.rat().FloatString(2) }
