package handlebars

import (
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"runtime"
	"strings"
)

// A helper is a Go func that Parse is given by name. It is called with the
// expression's parameters, converted to its parameter types (any takes a
// value as is; a string parameter takes any value as it prints; a bool one
// its truth), and, when it declares one more parameter that *Options is
// assignable to, the call's Options. It returns one value, printed as Str
// prints it (escaped in {{x}} unless a SafeString), or a value and an error.
// A call with the wrong number of parameters is an error; a call with a
// missing (null) parameter the helper cannot take prints nothing.
type helper struct {
	name string
	fn   reflect.Value
	// native is a built-in, called with the call's Options; its
	// parameter count is arity.
	native func(o *Options) any
	arity  int
}

// Options is what a helper knows of its call beyond its parameters: the
// hash arguments, the @-variables and, for a helper that heads a block, the
// block's parts.
type Options struct {
	f      *fill
	name   string
	line   int
	blk    *block // nil unless the helper heads a block
	params []any
	hash   map[string]any
}

// Params returns the positional parameters.
func (o *Options) Params() []any { return o.params }

// Param returns the i-th parameter, or nil.
func (o *Options) Param(i int) any {
	if i < len(o.params) {
		return o.params[i]
	}
	return nil
}

// Hash returns the hash arguments (name=value).
func (o *Options) Hash() map[string]any { return o.hash }

// HashProp returns one hash argument, or nil.
func (o *Options) HashProp(name string) any { return o.hash[name] }

// HashStr returns one hash argument as it prints.
func (o *Options) HashStr(name string) string { return Str(o.hash[name]) }

// Data returns an @-variable, such as "now".
func (o *Options) Data(name string) any {
	v, _ := o.f.frame.lookup(name)
	return v
}

// Fn returns the block's body filled with the current context.
func (o *Options) Fn() string { return o.FnWith(nil) }

// FnWith returns the block's body filled with ctx as its context.
func (o *Options) FnWith(ctx any) string {
	if o.blk == nil || o.blk.prog == nil {
		return ""
	}
	return o.capture(func() { o.f.body(o.blk.prog, ctx, nil, nil) })
}

// Inverse returns the block's {{else}} part filled.
func (o *Options) Inverse() string {
	if o.blk == nil || o.blk.inverse == nil {
		return ""
	}
	return o.capture(func() { o.f.program(o.blk.inverse) })
}

// capture runs fn into an output of its own and returns it. The bytes
// count towards the limit both there and where the helper's result is
// written: a helper cannot grow output beyond twice the limit.
func (o *Options) capture(fn func()) string {
	var b strings.Builder
	saved := o.f.out
	o.f.out = &b
	defer func() { o.f.out = saved }()
	fn()
	return b.String()
}

var (
	optionsType = reflect.TypeFor[*Options]()
	errorType   = reflect.TypeFor[error]()
	stringType  = reflect.TypeFor[string]()
	boolType    = reflect.TypeFor[bool]()
)

// checkHelpers refuses helpers that cannot be called: not funcs, variadic,
// returning other than a value or a value and an error, or named as a
// built-in.
func checkHelpers(in map[string]any) (map[string]*helper, error) {
	out := make(map[string]*helper, len(in))
	for name, fn := range in {
		v := reflect.ValueOf(fn)
		t := v.Type()
		switch {
		case builtins[name] != nil:
			return nil, fmt.Errorf("helper %q: a built-in has that name", name)
		case t.Kind() != reflect.Func || t.IsVariadic():
			return nil, fmt.Errorf("helper %q: not a func of fixed parameters", name)
		case t.NumOut() != 1 && !(t.NumOut() == 2 && t.Out(1) == errorType):
			return nil, fmt.Errorf("helper %q: must return a value, or a value and an error", name)
		}
		out[name] = &helper{name: name, fn: v}
	}
	return out, nil
}

// call evaluates e's parameters and hash and calls h; b is the block h
// heads, if any. A step is spent per call.
func (f *fill) call(h *helper, e *expr, b *block) any {
	f.step()
	o := &Options{f: f, name: h.name, line: e.line, blk: b}
	for _, p := range e.params {
		o.params = append(o.params, f.operand(p))
	}
	if len(e.hash) > 0 {
		o.hash = make(map[string]any, len(e.hash))
	}
	for _, a := range e.hash {
		if v := f.operand(a.val); v != nil {
			o.hash[a.key] = v
		}
	}
	if h.native != nil {
		if len(o.params) != h.arity {
			f.fail(o, " takes %s, not %d", count(h.arity), len(o.params))
		}
		return h.native(o)
	}
	return f.callFunc(h, o)
}

// callFunc calls a Go helper by reflection, recovering its panic.
func (f *fill) callFunc(h *helper, o *Options) (result any) {
	t := h.fn.Type()
	n := t.NumIn()
	withOptions := n == len(o.params)+1 && optionsType.AssignableTo(t.In(n-1))
	if !withOptions && n != len(o.params) {
		f.fail(o, " takes %s, not %d", count(n-boolInt(n > 0 && optionsType.AssignableTo(t.In(n-1)))), len(o.params))
	}
	args := make([]reflect.Value, n)
	for i, p := range o.params {
		want := t.In(i)
		if p == nil {
			switch want.Kind() {
			case reflect.Interface, reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan:
				args[i] = reflect.Zero(want)
				continue
			case reflect.String:
				args[i] = reflect.ValueOf("").Convert(want)
				continue
			}
			return ""
		}
		v := reflect.ValueOf(p)
		switch {
		case v.Type().AssignableTo(want):
		case stringType.AssignableTo(want):
			v = reflect.ValueOf(Str(p))
		case boolType.AssignableTo(want):
			v = reflect.ValueOf(IsTrue(p))
		default:
			f.fail(o, " cannot take %s as its parameter %d", describe(p), i+1)
		}
		args[i] = v
	}
	if withOptions {
		args[n-1] = reflect.ValueOf(o)
	}
	defer func() {
		if v := recover(); v != nil {
			if a, ok := v.(abort); ok {
				panic(a)
			}
			f.panicked(o, v)
		}
	}()
	out := h.fn.Call(args)
	if len(out) == 2 && !out[1].IsNil() {
		f.fail(o, ": %v", out[1].Interface())
	}
	return out[0].Interface()
}

// panicked turns a helper's panic into its fill's error. A panic with an
// error is the helper's way to refuse (its words are kept); any other is a
// defect, whose detail goes to the log only.
func (f *fill) panicked(o *Options, v any) {
	var re runtime.Error
	if err, ok := v.(error); ok && !errors.As(err, &re) {
		f.fail(o, ": %v", err)
	}
	slog.Error("handlebars: a helper panicked", "helper", o.name, "line", o.line, "panic", v)
	f.fail(o, " failed")
}

// fail stops the fill with a *HelperError about o's call: `helper "x"`
// followed by format's words.
func (f *fill) fail(o *Options, format string, args ...any) {
	panic(abort{&HelperError{Helper: o.name, Line: o.line, Msg: fmt.Sprintf("helper %q", o.name) + fmt.Sprintf(format, args...)}})
}

func count(n int) string {
	if n == 1 {
		return "1 parameter"
	}
	return fmt.Sprintf("%d parameters", n)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func describe(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	case float64, int:
		return "a number"
	}
	return fmt.Sprintf("a %T", v)
}

// builtins are the helpers every template has, as Handlebars defines them.
var builtins map[string]*helper

func init() {
	builtins = map[string]*helper{}
	for _, b := range []struct {
		name  string
		arity int
		fn    func(o *Options) any
	}{
		{"if", 1, builtinIf},
		{"unless", 1, builtinUnless},
		{"with", 1, builtinWith},
		{"each", 1, builtinEach},
		{"lookup", 2, builtinLookup},
		{"log", 1, builtinLog},
		{"equal", 2, builtinEqual},
	} {
		builtins[b.name] = &helper{name: b.name, native: b.fn, arity: b.arity}
	}
}

// BuiltinNames lists the built-in helpers.
func BuiltinNames() []string {
	return []string{"if", "unless", "with", "each", "lookup", "log", "equal"}
}

// includeZero is {{#if 0 includeZero=true}}: a literal 0 counts as true.
func (o *Options) includeZero() bool {
	z, _ := o.hash["includeZero"].(bool)
	n, isInt := o.params[0].(int)
	return z && isInt && n == 0
}

// The block built-ins write the part they choose straight to the fill's
// output, and return nothing: a loop's items are not concatenated.

func builtinIf(o *Options) any {
	if o.includeZero() || IsTrue(o.params[0]) {
		o.runBody(nil, nil, nil)
	} else {
		o.runInverse()
	}
	return nil
}

func builtinUnless(o *Options) any {
	if o.includeZero() || IsTrue(o.params[0]) {
		o.runInverse()
	} else {
		o.runBody(nil, nil, nil)
	}
	return nil
}

func builtinWith(o *Options) any {
	if IsTrue(o.params[0]) {
		o.runBody(o.params[0], nil, nil)
	} else {
		o.runInverse()
	}
	return nil
}

// builtinEach repeats the body per item of a list, or per key of an
// object in sorted key order, with @index, @key, @first and @last.
func builtinEach(o *Options) any {
	v := o.params[0]
	if !IsTrue(v) {
		o.runInverse()
		return nil
	}
	if o.blk == nil || o.blk.prog == nil {
		return nil
	}
	f := o.f
	fr := &frame{parent: f.frame, loop: true}
	if items, ok := listOf(v); ok {
		for i, it := range items {
			f.step()
			o.runBody(it, fr.pass(len(items), i, nil), i)
		}
		return nil
	}
	if entries, ok := entriesOf(v); ok {
		for i, e := range entries {
			f.step()
			o.runBody(e.val, fr.pass(len(entries), i, e.key), e.key)
		}
	}
	return nil
}

func builtinLookup(o *Options) any {
	name := Str(o.params[1])
	if o.params[0] == nil || name == "" {
		return ""
	}
	v, _ := field(o.params[0], name)
	return Str(v)
}

func builtinLog(o *Options) any {
	slog.Debug("template log", "line", o.line, "message", Str(o.params[0]))
	return ""
}

func builtinEqual(o *Options) any {
	if Str(o.params[0]) == Str(o.params[1]) {
		o.runBody(nil, nil, nil)
	}
	return nil
}

// runBody fills the block's body into the output.
func (o *Options) runBody(ctx any, fr *frame, key any) {
	if o.blk != nil && o.blk.prog != nil {
		o.f.body(o.blk.prog, ctx, fr, key)
	}
}

func (o *Options) runInverse() {
	if o.blk != nil && o.blk.inverse != nil {
		o.f.program(o.blk.inverse)
	}
}
