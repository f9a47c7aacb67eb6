package style

// scanTop walks s from i, starting at nesting depth depth, and calls at
// with each byte that is outside quoted strings and the depth after it:
// "(" opens and ")" closes a level, and so do "[" and "]" when selector is
// set, where a backslash also escapes the next byte outside strings, as in
// a selector. It stops where at returns true and gives that index, or -1.
// It is the one reader of "top level" for values and selectors alike.
func scanTop(s string, i, depth int, selector bool, at func(i int, c byte, depth int) bool) int {
	var quote byte
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
			continue
		case c == '"' || c == '\'':
			quote = c
			continue
		case selector && c == '\\':
			i++
			continue
		case c == '(' || selector && c == '[':
			depth++
		case c == ')' || selector && c == ']':
			depth--
		}
		if at(i, c, depth) {
			return i
		}
	}
	return -1
}
