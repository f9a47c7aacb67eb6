package handlebars

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/aymerick/raymond/lexer"
)

// MaxNesting bounds how deep blocks, {{else if}} chains and subexpressions
// nest. Templates written by people nest a handful deep; the bound keeps
// every recursion over the tree (parse, whitespace, fill) shallow, so no
// template can overflow the stack.
const MaxNesting = 64

// ErrSyntax is markup that is not Handlebars Platen accepts. A *SyntaxError
// says where and why, and matches it with errors.Is.
var ErrSyntax = errors.New("the template is not valid Handlebars")

// SyntaxError is a parse refusal: the line and column to fix (where a block
// that is never closed opened) and what was expected, in words. Column
// counts characters from 1.
type SyntaxError struct {
	Line, Column int
	Msg          string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}
func (e *SyntaxError) Is(target error) bool { return target == ErrSyntax }

// Template is parsed markup with its helpers. It holds no state of a fill,
// so one Template serves concurrent Exec calls.
type Template struct {
	root    *program
	helpers map[string]*helper
}

// Parse reads markup into a Template whose helpers are the built-ins and
// the given ones (name → Go func; see Options for how they are called). It
// refuses markup that is not Handlebars, partials, and nesting deeper than
// MaxNesting, with a *SyntaxError.
func Parse(src string, helpers map[string]any) (_ *Template, err error) {
	hs, err := checkHelpers(helpers)
	if err != nil {
		return nil, err
	}
	p := &parser{lex: lexer.Scan(src), src: src}
	defer p.drain()
	defer func() {
		if v := recover(); v != nil {
			se, ok := v.(*SyntaxError)
			if !ok {
				panic(v)
			}
			err = se
		}
	}()
	root := p.program()
	if t := p.shift(); t.Kind != lexer.TokenEOF {
		p.unexpected(t, tokenWords[lexer.TokenEOF])
	}
	stripWhitespace(root)
	return &Template{root: root, helpers: hs}, nil
}

// parser reads tokens from the lexer as it needs them, with a lookahead of
// two. The lexer runs in a goroutine of its own that ends only when its last
// token (end of input or an error) is read: drain reads to it.
type parser struct {
	src   string
	lex   *lexer.Lexer
	ahead []lexer.Token
	over  bool // the lexer's last token has been read
	depth int  // blocks, chains and subexpressions open
	open  []*block
}

// drain reads the lexer to its last token so that its goroutine ends; Parse
// defers it on every path out.
func (p *parser) drain() {
	for !p.over {
		p.read()
	}
}

func (p *parser) read() {
	t := p.lex.NextToken()
	if t.Kind == lexer.TokenEOF || t.Kind == lexer.TokenError {
		p.over = true
	}
	p.ahead = append(p.ahead, t)
}

// peek returns the i-th token ahead; past the last one it repeats it.
func (p *parser) peek(i int) lexer.Token {
	for len(p.ahead) <= i && !p.over {
		p.read()
	}
	if i >= len(p.ahead) {
		i = len(p.ahead) - 1
	}
	return p.ahead[i]
}

func (p *parser) is(k lexer.TokenKind) bool { return p.peek(0).Kind == k }

// shift takes the next token; a lexer error is a syntax error.
func (p *parser) shift() lexer.Token {
	t := p.peek(0)
	if t.Kind == lexer.TokenError {
		p.fail(at(t), "%s", lexerWords(t.Val))
	}
	if len(p.ahead) > 1 || t.Kind != lexer.TokenEOF {
		p.ahead = p.ahead[1:]
	}
	return t
}

// where is a place in the source: its line and byte offset.
type where struct{ line, pos int }

func at(t lexer.Token) where { return where{t.Line, t.Pos} }

// col is the column of byte offset pos, in characters from 1.
func (p *parser) col(pos int) int {
	pos = min(max(pos, 0), len(p.src))
	return utf8.RuneCountInString(p.src[strings.LastIndexByte(p.src[:pos], '\n')+1:pos]) + 1
}

func (p *parser) fail(w where, format string, args ...any) {
	panic(&SyntaxError{Line: w.line, Column: p.col(w.pos), Msg: fmt.Sprintf(format, args...)})
}

// expect takes the next token, which must be of kind k.
func (p *parser) expect(k lexer.TokenKind) lexer.Token {
	t := p.shift()
	if t.Kind != k {
		p.unexpected(t, tokenWords[k])
	}
	return t
}

// unexpected refuses token t where want was expected. At the end of the
// template inside a block, the block that is not closed is named with its
// line: that is the line to fix.
func (p *parser) unexpected(t lexer.Token, want string) {
	if t.Kind == lexer.TokenEOF && len(p.open) > 0 {
		b := p.open[len(p.open)-1]
		name := closingName(b.expr.head)
		p.fail(where{b.line, b.pos}, "{{#%s}} is never closed: expected {{/%s}} before the end of the template", name, name)
	}
	p.fail(at(t), "expected %s, found %s", want, found(t))
}

// enter counts one more level of nesting and refuses past MaxNesting.
func (p *parser) enter(w where) {
	p.depth++
	if p.depth > MaxNesting {
		p.fail(w, "blocks, {{else if}} chains and subexpressions nest more than %d deep", MaxNesting)
	}
}

func (p *parser) leave() { p.depth-- }

// program reads statements up to the first token that cannot start one.
func (p *parser) program() *program {
	prog := &program{}
	for {
		t := p.peek(0)
		var s statement
		switch t.Kind {
		case lexer.TokenContent:
			p.shift()
			s = &text{line: t.Line, value: t.Val, original: t.Val}
		case lexer.TokenComment:
			p.shift()
			s = &comment{line: t.Line, strip: stripOf(t.Val, t.Val)}
		case lexer.TokenOpen, lexer.TokenOpenUnescaped:
			s = p.mustache()
		case lexer.TokenOpenBlock:
			s = p.block()
		case lexer.TokenOpenInverse:
			s = p.inverseBlock()
		case lexer.TokenOpenRawBlock:
			s = p.rawBlock()
		case lexer.TokenOpenPartial:
			p.fail(at(t), "partials ({{> …}}) are not supported; put the markup in the template")
		default:
			return prog
		}
		prog.body = append(prog.body, s)
	}
}

var openAmp = regexp.MustCompile(`^\{\{~?&`)

func (p *parser) mustache() *mustache {
	open := p.shift()
	closing := lexer.TokenClose
	if open.Kind == lexer.TokenOpenUnescaped {
		closing = lexer.TokenCloseUnescaped
	}
	m := &mustache{line: open.Line, raw: open.Kind == lexer.TokenOpenUnescaped || openAmp.MatchString(open.Val)}
	m.expr = p.expr(open.Line)
	end := p.expect(closing)
	m.strip = stripOf(open.Val, end.Val)
	return m
}

// openTag reads {{#expr as |a b|}} (or {{^…}}, {{else …}}) after its
// opening token.
func (p *parser) openTag() (*block, []string) {
	open := p.shift()
	b := &block{line: open.Line, pos: open.Pos, expr: p.expr(open.Line)}
	var params []string
	if p.is(lexer.TokenOpenBlockParams) {
		p.shift()
		for p.is(lexer.TokenID) {
			params = append(params, p.shift().Val)
		}
		if len(params) == 0 {
			p.unexpected(p.peek(0), "a name for the block parameter")
		}
		p.expect(lexer.TokenCloseBlockParams)
	}
	end := p.expect(lexer.TokenClose)
	b.openStrip = stripOf(open.Val, end.Val)
	return b, params
}

// block reads {{#expr}} … [{{else}} … | {{else if …}} …] {{/expr}}.
func (p *parser) block() *block {
	p.enter(at(p.peek(0)))
	defer p.leave()
	b, params := p.openTag()
	p.open = append(p.open, b)
	defer func() { p.open = p.open[:len(p.open)-1] }()
	b.prog = p.program()
	b.prog.params = params
	if p.is(lexer.TokenOpenInverseChain) || p.is(lexer.TokenInverse) {
		b.inverse = p.elseChain()
	}
	p.closeTag(b)
	return b
}

// inverseBlock reads {{^expr}} … [{{else}} …] {{/expr}}: its first part
// prints when the value is false.
func (p *parser) inverseBlock() *block {
	p.enter(at(p.peek(0)))
	defer p.leave()
	b, params := p.openTag()
	p.open = append(p.open, b)
	defer func() { p.open = p.open[:len(p.open)-1] }()
	b.inverse = p.program()
	b.inverse.params = params
	if p.is(lexer.TokenInverse) {
		b.prog = p.elseProgram()
	}
	p.closeTag(b)
	return b
}

// elseProgram reads {{else}} (or {{^}}) and the program after it.
func (p *parser) elseProgram() *program {
	t := p.shift()
	prog := p.program()
	prog.strip = stripOf(t.Val, t.Val)
	return prog
}

// elseChain reads what follows a block's body: a plain {{else}} part, or an
// {{else if …}}, which is a block of its own inside a chained program, that
// may be followed by more. The chain is read in a loop, not by recursion,
// and each link counts as a level of nesting.
func (p *parser) elseChain() *program {
	if p.is(lexer.TokenInverse) {
		return p.elseProgram()
	}
	first := &program{chained: true}
	holder := first
	var links []*block
	defer func() { p.depth -= len(links) }()
	for {
		p.enter(at(p.peek(0)))
		b, params := p.openTag()
		links = append(links, b)
		b.prog = p.program()
		b.prog.params = params
		holder.body = []statement{b}
		switch {
		case p.is(lexer.TokenOpenInverseChain):
			holder = &program{chained: true}
			b.inverse = holder
			continue
		case p.is(lexer.TokenInverse):
			b.inverse = p.elseProgram()
		}
		for i := len(links) - 1; i >= 0; i-- {
			setInverseStrip(links[i])
		}
		return first
	}
}

// setInverseStrip gives a block the strip of its {{else}}, and the first
// link of an {{else if}} chain the strip of the block's close tag, as
// Handlebars does.
func setInverseStrip(b *block) {
	if b.inverse == nil {
		return
	}
	if b.inverse.chained {
		b.inverse.body[0].(*block).closeStrip = b.closeStrip
	}
	b.invStrip = b.inverse.strip
}

// closeTag reads {{/name}}, which must repeat the block's name.
func (p *parser) closeTag(b *block) {
	t := p.peek(0)
	if t.Kind != lexer.TokenOpenEndBlock {
		name := closingName(b.expr.head)
		if t.Kind == lexer.TokenEOF || t.Kind == lexer.TokenError {
			p.unexpected(p.shift(), "{{/"+name+"}}")
		}
		p.fail(at(t), "expected {{/%s}} to close the {{#%s}} of line %d, column %d, found %s", name, name, b.line, p.col(b.pos), found(t))
	}
	open := p.shift()
	end := p.name()
	if got, want := closingName(end), closingName(b.expr.head); got != want {
		p.fail(at(open), "{{/%s}} does not close the {{#%s}} of line %d, column %d", got, want, b.line, p.col(b.pos))
	}
	last := p.expect(lexer.TokenClose)
	b.closeStrip = stripOf(open.Val, last.Val)
	setInverseStrip(b)
}

// rawBlock reads {{{{name}}}}text{{{{/name}}}}: the text is printed as
// written, through the helper name.
func (p *parser) rawBlock() *block {
	open := p.shift()
	b := &block{line: open.Line, pos: open.Pos, expr: p.expr(open.Line)}
	p.expect(lexer.TokenCloseRawBlock)
	t := p.expect(lexer.TokenContent)
	b.prog = &program{body: []statement{&text{line: t.Line, value: t.Val, original: t.Val}}}
	p.expect(lexer.TokenOpenEndRawBlock)
	end := p.name()
	if got, want := closingName(end), closingName(b.expr.head); got != want {
		p.fail(at(open), "{{{{/%s}}}} does not close the {{{{%s}}}} of line %d, column %d", got, want, b.line, p.col(b.pos))
	}
	p.expect(lexer.TokenCloseRawBlock)
	return b
}

// expr reads a head, its parameters and its hash arguments.
func (p *parser) expr(line int) *expr {
	e := &expr{line: line, head: p.name()}
	for p.isParam() {
		e.params = append(e.params, p.operand())
	}
	for p.isHashArg() {
		key := p.shift().Val
		p.shift()
		e.hash = append(e.hash, hashArg{key: key, val: p.operand()})
	}
	return e
}

func (p *parser) isHashArg() bool {
	return p.peek(0).Kind == lexer.TokenID && p.peek(1).Kind == lexer.TokenEquals
}

func (p *parser) isParam() bool {
	switch p.peek(0).Kind {
	case lexer.TokenOpenSexpr, lexer.TokenBoolean, lexer.TokenNumber, lexer.TokenString, lexer.TokenData, lexer.TokenID:
		return !p.isHashArg()
	}
	return false
}

// operand reads a parameter: a subexpression or a name.
func (p *parser) operand() operand {
	if !p.is(lexer.TokenOpenSexpr) {
		return p.name()
	}
	open := p.shift()
	p.enter(at(open))
	defer p.leave()
	s := &subexpr{expr: p.expr(open.Line)}
	p.expect(lexer.TokenCloseSexpr)
	return s
}

// name reads a literal or a path.
func (p *parser) name() operand {
	t := p.peek(0)
	switch t.Kind {
	case lexer.TokenBoolean:
		p.shift()
		return &literal{value: t.Val == "true", canon: t.Val}
	case lexer.TokenString:
		p.shift()
		return &literal{value: t.Val, canon: t.Val}
	case lexer.TokenNumber:
		p.shift()
		if n, err := strconv.Atoi(t.Val); err == nil {
			return &literal{value: n, canon: strconv.Itoa(n)}
		}
		f, err := strconv.ParseFloat(t.Val, 64)
		if err != nil {
			p.fail(at(t), "%s is not a number", t.Val)
		}
		return &literal{value: f, canon: strconv.FormatFloat(f, 'f', -1, 64)}
	case lexer.TokenData:
		p.shift()
		return p.path(true)
	}
	return p.path(false)
}

// path reads segments separated by . or /; this, . and .. may only lead.
func (p *parser) path(data bool) *path {
	t := p.expect(lexer.TokenID)
	x := &path{data: data}
	x.segment(t.Val)
	for p.is(lexer.TokenSep) {
		x.original += p.shift().Val
		t = p.expect(lexer.TokenID)
		x.segment(t.Val)
		if len(x.parts) > 0 && (t.Val == ".." || t.Val == "." || t.Val == "this") {
			p.fail(at(t), "%q is not a valid path: this, . and .. may only begin one", x.original)
		}
	}
	return x
}

func (x *path) segment(s string) {
	x.original += s
	switch s {
	case "..":
		x.depth++
		x.scoped = true
	case ".", "this":
		x.scoped = true
	default:
		x.parts = append(x.parts, s)
	}
}

// tokenWords names what a token kind is, for "expected …".
var tokenWords = map[lexer.TokenKind]string{
	lexer.TokenEOF:              "the end of the template",
	lexer.TokenClose:            "}}",
	lexer.TokenCloseUnescaped:   "}}}",
	lexer.TokenCloseRawBlock:    "}}}}",
	lexer.TokenOpenEndRawBlock:  "{{{{/",
	lexer.TokenCloseSexpr:       "a closing parenthesis",
	lexer.TokenCloseBlockParams: "| to end the block parameters",
	lexer.TokenID:               "a name",
	lexer.TokenContent:          "text",
	lexer.TokenOpenEndBlock:     "{{/",
}

// found describes the token met where another was expected.
func found(t lexer.Token) string {
	switch t.Kind {
	case lexer.TokenEOF:
		return "the end of the template"
	case lexer.TokenContent:
		return "text"
	case lexer.TokenOpenInverseChain, lexer.TokenInverse:
		return "an {{else}} outside any block"
	case lexer.TokenOpenEndBlock:
		return "a {{/…}} that closes no block"
	}
	v := t.Val
	if len(v) > 40 {
		v = v[:40] + "…"
	}
	return strconv.Quote(v)
}

// lexerWords turns the lexer's messages into the project's words.
func lexerWords(msg string) string {
	for _, w := range []struct{ prefix, words string }{
		{"Unclosed raw block", "a {{{{raw}}}} block is never closed"},
		{"Unclosed expression", "a {{ is never closed with }}"},
		{"Unclosed comment", "a comment {{! is never closed"},
		{"Unterminated string", "a quoted string is never closed"},
		{"Unterminated path literal", "a [segment] is never closed with ]"},
		{"Unexpected character in expression", "unexpected character in {{…}}" + strings.TrimPrefix(msg, "Unexpected character in expression")},
		{"bad number syntax", "not a number" + strings.TrimPrefix(msg, "bad number syntax")},
	} {
		if strings.HasPrefix(msg, w.prefix) {
			return w.words
		}
	}
	return msg
}
