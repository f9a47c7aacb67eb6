package style

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/css"
)

// tokKind is what a value token is. Values are lexed once, when their style
// sheet is parsed, into a small tree of toks; computing a style reads them
// without parsing numbers or strings again.
type tokKind uint8

const (
	tIdent tokKind = iota // k lower-case, s as written
	tNumber
	tPercent
	tDim    // n and k (the unit, lower-case)
	tString // s unescaped
	tHash   // s without '#'
	tURL    // s, the URL unescaped
	tFunc   // k the name lower-case, args
	tDelim  // s: ",", "/", "+", "-", "*", "!" and the like
	tParen  // a (…) or […] block, args
)

// tok is one component value of a declaration. ws is set when whitespace
// preceded it.
type tok struct {
	kind tokKind
	ws   bool
	n    float64
	s    string
	k    string
	args []tok
}

func (t *tok) isIdent(k string) bool { return t.kind == tIdent && t.k == k }
func (t *tok) isDelim(d string) bool { return t.kind == tDelim && t.s == d }
func (t *tok) isComma() bool         { return t.kind == tDelim && t.s == "," }

// maxTokDepth bounds the nesting of functions and blocks in one value.
const maxTokDepth = 32

// lexValue turns the tokens of one declaration value (as the tdewolff
// parser returns them) into toks, and reports whether "!important" ended it.
func lexValue(vals []css.Token) (out []tok, important bool) {
	// Strip a trailing "!important" (the parser keeps it in the values).
	n := len(vals)
	for n > 0 && (vals[n-1].TokenType == css.WhitespaceToken || vals[n-1].TokenType == css.CommentToken) {
		n--
	}
	if n >= 2 && vals[n-1].TokenType == css.IdentToken && strings.EqualFold(string(vals[n-1].Data), "important") {
		j := n - 2
		for j >= 0 && vals[j].TokenType == css.WhitespaceToken {
			j--
		}
		if j >= 0 && vals[j].TokenType == css.DelimToken && len(vals[j].Data) == 1 && vals[j].Data[0] == '!' {
			important = true
			n = j
		}
	}
	i := 0
	out = lexToks(vals[:n], &i, 0, false)
	return out, important
}

// lexToks reads toks from vals[*i:] until the end or, when inner, the
// closing parenthesis or bracket of the enclosing block.
func lexToks(vals []css.Token, i *int, depth int, inner bool) []tok {
	var out []tok
	ws := false
	for *i < len(vals) {
		v := vals[*i]
		*i++
		var t tok
		switch v.TokenType {
		case css.WhitespaceToken, css.CommentToken:
			ws = true
			continue
		case css.RightParenthesisToken, css.RightBracketToken:
			if inner {
				return out
			}
			continue
		case css.IdentToken:
			t.kind, t.s = tIdent, unescapeIdent(v.Data)
			t.k = lowerASCII(t.s)
		case css.NumberToken:
			t.kind, t.n = tNumber, parseNum(v.Data)
		case css.PercentageToken:
			t.kind, t.n = tPercent, parseNum(v.Data[:len(v.Data)-1])
		case css.DimensionToken:
			j := numLen(v.Data)
			t.kind, t.n, t.k = tDim, parseNum(v.Data[:j]), lowerASCII(unescapeIdent(v.Data[j:]))
		case css.StringToken, css.BadStringToken:
			t.kind, t.s = tString, unquote(v.Data)
		case css.HashToken:
			t.kind, t.s = tHash, unescapeIdent(v.Data[1:])
		case css.URLToken, css.BadURLToken:
			t.kind, t.s = tURL, urlOf(v.Data)
		case css.FunctionToken:
			name := lowerASCII(unescapeIdent(v.Data[:len(v.Data)-1]))
			if depth >= maxTokDepth {
				skipBlock(vals, i)
				continue
			}
			args := lexToks(vals, i, depth+1, true)
			if name == "url" || name == "src" {
				// url("…"): the string is the URL.
				u := ""
				if len(args) > 0 && args[0].kind == tString {
					u = args[0].s
				}
				t.kind, t.s = tURL, u
				break
			}
			t.kind, t.k, t.args = tFunc, name, args
		case css.LeftParenthesisToken, css.LeftBracketToken:
			if depth >= maxTokDepth {
				skipBlock(vals, i)
				continue
			}
			t.kind, t.s, t.args = tParen, string(v.Data), lexToks(vals, i, depth+1, true)
		case css.CommaToken:
			t.kind, t.s = tDelim, ","
		case css.ColonToken:
			t.kind, t.s = tDelim, ":"
		case css.SemicolonToken:
			t.kind, t.s = tDelim, ";"
		default:
			t.kind, t.s = tDelim, string(v.Data)
		}
		t.ws = ws
		ws = false
		out = append(out, t)
	}
	return out
}

// skipBlock skips to the end of the block whose opening token was just read.
func skipBlock(vals []css.Token, i *int) {
	depth := 1
	for *i < len(vals) && depth > 0 {
		switch vals[*i].TokenType {
		case css.FunctionToken, css.LeftParenthesisToken, css.LeftBracketToken:
			depth++
		case css.RightParenthesisToken, css.RightBracketToken:
			depth--
		}
		*i++
	}
}

// lexText lexes a value written as text (a custom property's value, a
// substituted var(), a presentational attribute).
func lexText(s string) []tok {
	l := css.NewLexer(parse.NewInputString(s))
	var vals []css.Token
	for len(vals) < 4096 {
		tt, data := l.Next()
		if tt == css.ErrorToken {
			break
		}
		vals = append(vals, css.Token{TokenType: tt, Data: data})
	}
	i := 0
	return lexToks(vals, &i, 0, false)
}

func numLen(b []byte) int {
	j := 0
	if j < len(b) && (b[j] == '+' || b[j] == '-') {
		j++
	}
	for j < len(b) && (b[j] >= '0' && b[j] <= '9' || b[j] == '.') {
		j++
	}
	if j+1 < len(b) && (b[j] == 'e' || b[j] == 'E') {
		k := j + 1
		if k < len(b) && (b[k] == '+' || b[k] == '-') {
			k++
		}
		if k < len(b) && b[k] >= '0' && b[k] <= '9' {
			for k < len(b) && b[k] >= '0' && b[k] <= '9' {
				k++
			}
			j = k
		}
	}
	return j
}

func parseNum(b []byte) float64 {
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f // ±Inf or 0: clamped later
		}
		return 0
	}
	return f
}

func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; c >= 'A' && c <= 'Z' {
					b[j] = c + 32
				}
			}
			return string(b)
		}
	}
	return s
}

// unescapeIdent resolves CSS escapes in an identifier.
func unescapeIdent(b []byte) string {
	for _, c := range b {
		if c == '\\' {
			return string(unescape(b))
		}
	}
	return string(b)
}

// unescape resolves backslash escapes (CSS Syntax 4.3.7).
func unescape(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++
		if i >= len(b) {
			break
		}
		if b[i] == '\n' {
			continue // escaped newline in a string: nothing
		}
		if isHex(b[i]) {
			r := rune(0)
			j := 0
			for j < 6 && i < len(b) && isHex(b[i]) {
				r = r*16 + rune(hexVal(b[i]))
				i++
				j++
			}
			if i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n') {
				// one whitespace after a hex escape belongs to it
			} else {
				i--
			}
			if r == 0 || r > utf8.MaxRune || (r >= 0xD800 && r <= 0xDFFF) {
				r = utf8.RuneError
			}
			out = utf8.AppendRune(out, r)
			continue
		}
		out = append(out, b[i])
	}
	return out
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return 0
}

// unquote removes a string token's quotes and resolves its escapes.
func unquote(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	q := b[0]
	if q != '"' && q != '\'' {
		return string(unescape(b))
	}
	b = b[1:]
	if len(b) > 0 && b[len(b)-1] == q {
		b = b[:len(b)-1]
	}
	for _, c := range b {
		if c == '\\' {
			return string(unescape(b))
		}
	}
	return string(b)
}

// urlOf returns the URL of a url(…) token.
func urlOf(b []byte) string {
	s := b
	if len(s) >= 4 && (s[0] == 'u' || s[0] == 'U') && s[3] == '(' {
		s = s[4:]
	}
	if len(s) > 0 && s[len(s)-1] == ')' {
		s = s[:len(s)-1]
	}
	st := strings.TrimSpace(string(s))
	if len(st) > 0 && (st[0] == '"' || st[0] == '\'') {
		return unquote([]byte(st))
	}
	return string(unescape([]byte(st)))
}

// tokText writes toks back as CSS text (for custom properties and
// diagnostics).
func tokText(b *strings.Builder, ts []tok) {
	for i := range ts {
		t := &ts[i]
		if t.ws && i > 0 {
			b.WriteByte(' ')
		}
		switch t.kind {
		case tIdent:
			b.WriteString(t.s)
		case tNumber:
			b.WriteString(strconv.FormatFloat(t.n, 'g', -1, 64))
		case tPercent:
			b.WriteString(strconv.FormatFloat(t.n, 'g', -1, 64))
			b.WriteByte('%')
		case tDim:
			b.WriteString(strconv.FormatFloat(t.n, 'g', -1, 64))
			b.WriteString(t.k)
		case tString:
			b.WriteString(strconv.Quote(t.s))
		case tHash:
			b.WriteByte('#')
			b.WriteString(t.s)
		case tURL:
			b.WriteString("url(")
			b.WriteString(strconv.Quote(t.s))
			b.WriteByte(')')
		case tFunc:
			b.WriteString(t.k)
			b.WriteByte('(')
			tokText(b, t.args)
			b.WriteByte(')')
		case tParen:
			b.WriteString(t.s)
			tokText(b, t.args)
			if t.s == "[" {
				b.WriteByte(']')
			} else {
				b.WriteByte(')')
			}
		case tDelim:
			b.WriteString(t.s)
		}
	}
}

// firstLayer returns the toks before the first comma.
func firstLayer(ts []tok) []tok {
	for i := range ts {
		if ts[i].isComma() {
			return ts[:i]
		}
	}
	return ts
}

// nextLayers returns what follows the comma after the first n toks, nil
// when there is no comma.
func nextLayers(ts []tok, n int) []tok {
	if n >= len(ts) {
		return nil
	}
	return ts[n+1:]
}

// splitCommas splits toks at top-level commas.
func splitCommas(ts []tok) [][]tok {
	var out [][]tok
	start := 0
	for i := range ts {
		if ts[i].isComma() {
			out = append(out, ts[start:i])
			start = i + 1
		}
	}
	return append(out, ts[start:])
}
