package handlebars

import (
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"
)

// Run is what one Exec gets besides the context.
type Run struct {
	// Data are the @-variables every part of the template sees (@now).
	Data map[string]any
	// Limits bound the fill.
	Limits Limits
	// Spent, when set, receives what the fill spent, added to what it
	// holds: a caller can measure several fills into one.
	Spent *Spent
}

// Spent is what fills spent of their Limits.
type Spent struct {
	Steps, Bytes int64
}

// ErrHelper is a helper call that failed: wrong arguments, an error it
// returned, or a panic. The message names the helper and the line.
var ErrHelper = errors.New("a helper failed")

// HelperError is a failed helper call.
type HelperError struct {
	Helper string
	Line   int
	Msg    string
}

func (e *HelperError) Error() string {
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}
func (e *HelperError) Is(target error) bool { return target == ErrHelper }

// abort unwinds a fill from where it is to Exec with the error that stops
// it; nothing else panics through the evaluator.
type abort struct{ err error }

// fill is the state of one Exec: its context stack, @-variables, block
// parameters, the blocks it is inside, its output and what it has spent.
type fill struct {
	tpl    *Template
	ctx    []any // contexts; the last is the current one ({{this}})
	frame  *frame
	params []map[string]any // block parameters, innermost last
	blocks []*block         // blocks being run, innermost last
	line   int              // line of the statement being run

	out     *strings.Builder
	lim     Limits
	steps   int64
	bytes   int64
	stopped atomic.Bool // set when the time is up
}

// frame is a level of @-variables: the run's (vars), then one per pass of
// a loop (@index, @key, @first, @last), which a loop over many items makes
// without a map each.
type frame struct {
	parent      *frame
	vars        map[string]any
	loop        bool
	index       int
	key         any
	first, last bool
}

// lookup finds an @-variable in fr or the frames it was made from.
func (fr *frame) lookup(name string) (any, bool) {
	for ; fr != nil; fr = fr.parent {
		if !fr.loop {
			if v, ok := fr.vars[name]; ok {
				return v, true
			}
			continue
		}
		switch name {
		case "index":
			return fr.index, true
		case "key":
			return fr.key, true
		case "first":
			return fr.first, true
		case "last":
			return fr.last, true
		}
	}
	return nil, false
}

// Exec fills the template with ctx as its root context. It runs on the
// caller's goroutine and returns when the fill ends or passes a limit
// (*LimitError); a helper's failure or panic is a *HelperError.
func (t *Template) Exec(ctx any, run Run) (out string, err error) {
	var b strings.Builder
	f := &fill{tpl: t, frame: &frame{vars: run.Data}, out: &b, lim: run.Limits}
	if ctx != nil {
		f.ctx = []any{ctx}
	}
	if run.Spent != nil {
		defer func() { run.Spent.Steps += f.steps; run.Spent.Bytes += f.bytes }()
	}
	if run.Limits.Time > 0 {
		timer := time.AfterFunc(run.Limits.Time, func() { f.stopped.Store(true) })
		defer timer.Stop()
	}
	defer func() {
		if v := recover(); v != nil {
			a, ok := v.(abort)
			if !ok {
				slog.Error("handlebars: the fill failed", "panic", v, "stack", string(debug.Stack()))
				a = abort{fmt.Errorf("%w: line %d: the template could not be filled", ErrHelper, f.line)}
			}
			out, err = "", a.err
		}
	}()
	f.program(t.root)
	return b.String(), nil
}

// step spends one step and checks the time.
func (f *fill) step() { f.spend(1) }

func (f *fill) spend(n int64) {
	f.steps += n
	if f.lim.Steps > 0 && f.steps > f.lim.Steps {
		f.stop(&LimitError{Limit: LimitSteps, Steps: f.lim.Steps})
	}
	if f.stopped.Load() {
		f.stop(&LimitError{Limit: LimitTime, Time: f.lim.Time})
	}
}

// stop aborts the fill with a limit error that says where it was.
func (f *fill) stop(e *LimitError) {
	e.Line = f.line
	e.Where = f.where()
	panic(abort{e})
}

// where names the innermost block being run, as written (the loop that
// repeats, for a loop), or the line.
func (f *fill) where() string {
	if len(f.blocks) == 0 {
		return fmt.Sprintf("at line %d", f.line)
	}
	b := f.blocks[len(f.blocks)-1]
	tag := closingName(b.expr.head)
	if p, ok := b.expr.head.(*path); ok && p.data {
		tag = "@" + tag // a section over @root.items, as written
	}
	if len(b.expr.params) > 0 {
		tag += " " + b.expr.params[0].source()
	}
	return fmt.Sprintf("in the {{#%s}} at line %d", tag, b.line)
}

// write adds to the output within the byte limit.
func (f *fill) write(s string) {
	f.bytes += int64(len(s))
	if f.lim.Bytes > 0 && f.bytes > f.lim.Bytes {
		f.stop(&LimitError{Limit: LimitBytes, Bytes: f.lim.Bytes})
	}
	f.out.WriteString(s)
}

func (f *fill) program(p *program) {
	for _, s := range p.body {
		f.line = s.statementLine()
		f.step()
		switch s := s.(type) {
		case *text:
			f.write(s.value)
		case *mustache:
			v := f.expr(s.expr, nil)
			if _, safe := v.(SafeString); safe || s.raw {
				f.write(Str(v))
			} else {
				f.write(Escape(Str(v)))
			}
		case *block:
			f.block(s)
		}
	}
}

// body runs a block's program with ctx as its context (none: the current
// one stays), fr as its @-variables (nil: the current ones) and key as the
// second block parameter.
func (f *fill) body(p *program, ctx any, fr *frame, key any) {
	var params map[string]any
	if len(p.params) > 0 {
		params = map[string]any{p.params[0]: ctx}
		if len(p.params) > 1 && key != nil {
			params[p.params[1]] = key
		}
		f.params = append(f.params, params)
	}
	if ctx != nil {
		f.ctx = append(f.ctx, ctx)
	}
	saved := f.frame
	if fr != nil {
		f.frame = fr
	}
	f.program(p)
	f.frame = saved
	if ctx != nil {
		f.ctx = f.ctx[:len(f.ctx)-1]
	}
	if params != nil {
		f.params = f.params[:len(f.params)-1]
	}
}

// block runs {{#x}}: a helper when x names one, else x's value decides: a
// list repeats the body per item, another true value is its context, a
// false one runs the {{else}} part.
func (f *fill) block(b *block) {
	f.blocks = append(f.blocks, b)
	defer func() { f.blocks = f.blocks[:len(f.blocks)-1] }()
	if h := f.helper(b.expr); h != nil {
		f.write(Str(f.call(h, b.expr, b)))
		return
	}
	v := f.expr(b.expr, b)
	if !IsTrue(v) {
		if b.inverse != nil {
			f.program(b.inverse)
		}
		return
	}
	if b.prog == nil {
		return
	}
	if items, ok := listOf(v); ok {
		f.loop(b.prog, items)
		return
	}
	f.body(b.prog, v, nil, nil)
}

// loop runs p once per item, with @index, @first, @last (and @key, null).
func (f *fill) loop(p *program, items []any) {
	fr := &frame{parent: f.frame, loop: true}
	for i, item := range items {
		f.step()
		f.body(p, item, fr.pass(len(items), i, nil), i)
	}
}

// pass sets a loop's frame to its i-th pass of n. One frame serves every
// pass: nothing keeps a frame past its pass.
func (fr *frame) pass(n, i int, key any) *frame {
	fr.index, fr.key, fr.first, fr.last = i, key, i == 0, i == n-1
	return fr
}

// helper returns the helper e calls, if any.
func (f *fill) helper(e *expr) *helper {
	name := e.helperName()
	if name == "" {
		return nil
	}
	if h, ok := builtins[name]; ok {
		return h
	}
	return f.tpl.helpers[name]
}

// expr evaluates an expression: a helper call, or the value of its path or
// literal. b is the block it heads, if any.
func (f *fill) expr(e *expr, b *block) any {
	if h := f.helper(e); h != nil {
		return f.call(h, e, b)
	}
	switch head := e.head.(type) {
	case *literal:
		// A literal alone reads the field of that name, as in raymond.
		if v, ok := field(f.current(), head.canon); ok {
			return v
		}
		return nil
	case *path:
		return f.path(head)
	}
	return nil
}

// operand evaluates a parameter.
func (f *fill) operand(o operand) any {
	switch o := o.(type) {
	case *literal:
		return o.value
	case *path:
		return f.path(o)
	case *subexpr:
		return f.expr(o.expr, nil)
	}
	return nil
}

func (f *fill) current() any { v, _ := f.ancestor(0); return v }

// ancestor returns the context depth levels above the current one.
func (f *fill) ancestor(depth int) (any, bool) {
	i := len(f.ctx) - 1 - depth
	if i < 0 {
		return nil, false
	}
	return f.ctx[i], true
}

// path resolves a path as Handlebars (raymond) does: a block parameter
// first; @root from the root context; other @-names from the @-variables,
// then as plain names; plain names from the current context and, when its
// first segment is missing there, from each enclosing one in turn.
func (f *fill) path(p *path) any {
	if len(p.parts) > 0 {
		if v := f.blockParam(p.parts[0]); v != nil {
			f.ctx = append(f.ctx, map[string]any{p.parts[0]: v})
			r := f.contextPath(p)
			f.ctx = f.ctx[:len(f.ctx)-1]
			return r
		}
	}
	var r any
	root := p.data && len(p.parts) > 0 && p.parts[0] == "root"
	if root {
		r = f.contextPath(p)
	}
	if r == nil && p.data {
		r = f.dataPath(p)
	}
	if r == nil && !root {
		r = f.contextPath(p)
	}
	return r
}

func (f *fill) blockParam(name string) any {
	for i := len(f.params) - 1; i >= 0; i-- {
		if v, ok := f.params[i][name]; ok {
			return v
		}
	}
	return nil
}

func (f *fill) dataPath(p *path) any {
	fr := f.frame
	for range p.depth {
		if fr.parent == nil {
			return nil
		}
		fr = fr.parent
	}
	if len(p.parts) == 0 {
		return nil
	}
	v, ok := fr.lookup(p.parts[0])
	if !ok {
		return nil
	}
	v, valid, _ := walk(v, p.parts[1:])
	if !valid {
		return nil
	}
	return v
}

func (f *fill) contextPath(p *path) any {
	if p.data && len(p.parts) > 0 && p.parts[0] == "root" {
		root, ok := f.ancestor(len(f.ctx) - 1)
		if !ok {
			return nil
		}
		v, _ := f.on(root, p.parts[1:])
		return v
	}
	depth := p.depth
	ctx, ok := f.ancestor(depth)
	var r any
	resolved := false
	for r == nil && ok && depth <= len(f.ctx) && !resolved {
		r, resolved = f.on(ctx, p.parts)
		if !resolved && r == nil {
			depth++
			ctx, ok = f.ancestor(depth)
		}
	}
	return r
}

// on reads parts from ctx; a list context gives the list of what each of
// its items has there (a step per item).
func (f *fill) on(ctx any, parts []string) (any, bool) {
	if items, ok := listOf(ctx); ok {
		f.spend(int64(len(items)))
		out := []any{}
		for _, it := range items {
			if v, valid, _ := walk(it, parts); valid {
				out = append(out, v)
			}
		}
		return out, false
	}
	v, valid, resolved := walk(ctx, parts)
	if !valid {
		return nil, resolved
	}
	return v, resolved
}

// walk reads segments from v. valid says every segment was found;
// resolved that at least one was.
func walk(v any, parts []string) (_ any, valid, resolved bool) {
	for _, part := range parts {
		x, ok := field(v, unbracket(part))
		if !ok {
			return nil, false, resolved
		}
		v, resolved = x, true
	}
	return v, true, resolved
}
