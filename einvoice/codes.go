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
