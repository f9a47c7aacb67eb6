package einvoice

import "strings"

//go:generate go run gen_codes.go

// codeSet is a set of codes from a space-separated list.
func codeSet(list string) map[string]bool {
	m := map[string]bool{}
	for _, c := range strings.Fields(list) {
		m[c] = true
	}
	return m
}

// IsCurrency reports whether code is an ISO 4217 currency code (the list
// EN 16931 takes, from the code database in ../shared).
func IsCurrency(code string) bool { return currencies[code] }
