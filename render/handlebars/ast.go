package handlebars

// The tree Parse builds. A template is a program: a list of statements, of
// which blocks hold programs of their own. Nodes are never changed after
// Parse returns, so one tree serves concurrent fills.

// program is a list of statements; a block's body or its {{else}} part.
type program struct {
	body   []statement
	params []string // block parameters: as |item index|
	// chained says this program is an {{else if …}}: it holds one block.
	chained bool
	// strip is the whitespace control of the {{else}} that opens it.
	strip *strip
}

// statement is one of *text, *comment, *mustache, *block.
type statement interface{ statementLine() int }

// text is markup outside any mustache. value is what it prints after the
// whitespace rules; original is the markup as written.
type text struct {
	line            int
	value, original string
	leftStripped    bool // its end was trimmed
	rightStripped   bool // its start was trimmed
}

// comment is {{! … }} or {{!-- … --}}; it prints nothing.
type comment struct {
	line  int
	strip *strip
}

// mustache is {{expr}}, or {{{expr}}} and {{& expr}} when raw.
type mustache struct {
	line  int
	expr  *expr
	raw   bool
	strip *strip
}

// block is {{#expr}}…{{else}}…{{/expr}}, {{^expr}}…{{/expr}}, or a raw
// block {{{{expr}}}}…{{{{/expr}}}} (whose strips are nil).
type block struct {
	line                            int
	pos                             int // byte offset of its opening {{, for the column
	expr                            *expr
	prog, inverse                   *program
	openStrip, closeStrip, invStrip *strip
}

func (n *text) statementLine() int     { return n.line }
func (n *comment) statementLine() int  { return n.line }
func (n *mustache) statementLine() int { return n.line }
func (n *block) statementLine() int    { return n.line }

// strip is the whitespace control of a tag: a ~ on its open or close side,
// and, as the whitespace pass computes them, whether the tag stands alone
// on its line.
type strip struct {
	open, close                                       bool
	openStandalone, closeStandalone, inlineStandalone bool
}

// stripOf reads the ~ of a tag's opening and closing delimiters: "{{~#" and
// "~}}".
func stripOf(open, close string) *strip {
	return &strip{
		open:  len(open) > 2 && open[2] == '~',
		close: len(close) > 2 && close[len(close)-3] == '~',
	}
}

// expr is a helper call or a value: its head, then positional parameters
// and hash arguments.
type expr struct {
	line   int
	head   operand
	params []operand
	hash   []hashArg
}

type hashArg struct {
	key string
	val operand
}

// operand is one of *path, *literal, *subexpr.
type operand interface{ source() string }

// path is a.b.c, ../x, this, @index, @root.x or [a b].
type path struct {
	data     bool     // starts with @
	parts    []string // the named segments, [literal] ones with brackets
	depth    int      // how many ../
	scoped   bool     // has this, . or ../
	original string   // as written, for messages and block closing
}

// literal is a string, number or boolean written in the template.
type literal struct {
	value any    // string, bool, int or float64
	canon string // as a helper name or field name reads it
}

// subexpr is (helper args…).
type subexpr struct{ expr *expr }

func (p *path) source() string {
	if p.data {
		return "@" + p.original
	}
	return p.original
}
func (l *literal) source() string { return l.canon }
func (s *subexpr) source() string { return "(" + s.expr.head.source() + " …)" }

// helperName is the name an expression calls when a helper of that name
// exists: a simple one-segment path, not data, not scoped.
func (e *expr) helperName() string {
	p, ok := e.head.(*path)
	if !ok || p.data || len(p.parts) != 1 || p.depth > 0 || p.scoped {
		return ""
	}
	return p.parts[0]
}

// closingName is the name a block's {{/name}} must repeat: a path as
// written without enclosing brackets, or a literal's canonical form.
func closingName(o operand) string {
	if p, ok := o.(*path); ok {
		return unbracket(p.original)
	}
	if l, ok := o.(*literal); ok {
		return l.canon
	}
	return ""
}

// unbracket removes the brackets of a segment literal: [a b] is a b.
func unbracket(s string) string {
	if len(s) >= 2 && s[0] == '[' && s[len(s)-1] == ']' {
		return s[1 : len(s)-1]
	}
	return s
}

// Call is an expression that certainly calls a helper: a name with
// parameters or hash arguments, or a subexpression's head.
type Call struct {
	Name string
	Line int
}

// Calls lists the template's helper calls in the order they are written,
// for a linter to check the names against the helpers there are.
func (t *Template) Calls() []Call {
	var out []Call
	var inExpr func(e *expr, sub bool)
	var inProgram func(p *program)
	inExpr = func(e *expr, sub bool) {
		if name := e.helperName(); name != "" && (sub || len(e.params) > 0 || len(e.hash) > 0) {
			out = append(out, Call{Name: name, Line: e.line})
		}
		for _, o := range e.params {
			if s, ok := o.(*subexpr); ok {
				inExpr(s.expr, true)
			}
		}
		for _, a := range e.hash {
			if s, ok := a.val.(*subexpr); ok {
				inExpr(s.expr, true)
			}
		}
	}
	inProgram = func(p *program) {
		if p == nil {
			return
		}
		for _, s := range p.body {
			switch s := s.(type) {
			case *mustache:
				inExpr(s.expr, false)
			case *block:
				inExpr(s.expr, false)
				inProgram(s.prog)
				inProgram(s.inverse)
			}
		}
	}
	inProgram(t.root)
	return out
}
