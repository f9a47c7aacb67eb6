package handlebars

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// The values a template reads are what JSON decodes to (map[string]any,
// []any, string, float64, bool, nil), the numbers and booleans written in
// it, what helpers return, and any other map with string keys or slice,
// read by reflection.

// SafeString is text a helper returns that is already HTML: {{x}} prints it
// without escaping.
type SafeString string

// Str is how a value prints: text as is, numbers in the shortest form that
// reads back, true and false, nothing for null, and the items of a list one
// after the other.
func Str(v any) string {
	var b strings.Builder
	writeStr(&b, v)
	return b.String()
}

func writeStr(b *strings.Builder, v any) {
	switch t := v.(type) {
	case nil:
	case string:
		b.WriteString(t)
	case SafeString:
		b.WriteString(string(t))
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case float64:
		b.WriteString(strconv.FormatFloat(t, 'f', -1, 64))
	case int:
		b.WriteString(strconv.Itoa(t))
	case []any:
		for _, x := range t {
			writeStr(b, x)
		}
	case fmt.Stringer, error:
		fmt.Fprintf(b, "%s", t)
	default:
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.Pointer:
			if rv.IsNil() {
				return
			}
			writeStr(b, rv.Elem().Interface())
		case reflect.Slice, reflect.Array:
			for i := range rv.Len() {
				writeStr(b, rv.Index(i).Interface())
			}
		case reflect.Float32, reflect.Float64:
			b.WriteString(strconv.FormatFloat(rv.Float(), 'f', -1, 64))
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			fmt.Fprintf(b, "%d", v)
		case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		default:
			fmt.Fprintf(b, "%s", v)
		}
	}
}

// IsTrue is Handlebars' truth: false, 0, "", null and empty lists and
// objects are false; everything else is true.
func IsTrue(v any) bool {
	switch t := v.(type) {
	case nil:
		return false
	case bool:
		return t
	case string:
		return t != ""
	case SafeString:
		return t != ""
	case float64:
		return t != 0
	case int:
		return t != 0
	case []any:
		return len(t) > 0
	case map[string]any:
		return len(t) > 0
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Array, reflect.Slice, reflect.Map, reflect.String:
		return rv.Len() > 0
	case reflect.Bool:
		return rv.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int() != 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return rv.Uint() != 0
	case reflect.Float32, reflect.Float64:
		return rv.Float() != 0
	case reflect.Complex64, reflect.Complex128:
		return rv.Complex() != 0
	case reflect.Pointer, reflect.Interface, reflect.Func, reflect.Chan:
		return !rv.IsNil()
	}
	return true
}

// field reads one segment of a path from v: an object's key, or a list's
// index. found says the segment exists, even when its value is null.
func field(v any, name string) (_ any, found bool) {
	switch t := v.(type) {
	case map[string]any:
		x, ok := t[name]
		return x, ok
	case []any:
		i, err := strconv.Atoi(name)
		if err != nil || i < 0 || i >= len(t) {
			return nil, false
		}
		return t[i], true
	case nil:
		return nil, false
	}
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	switch rv.Kind() {
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return nil, false
		}
		x := rv.MapIndex(reflect.ValueOf(name).Convert(rv.Type().Key()))
		if !x.IsValid() {
			return nil, false
		}
		return x.Interface(), true
	case reflect.Slice, reflect.Array:
		i, err := strconv.Atoi(name)
		if err != nil || i < 0 || i >= rv.Len() {
			return nil, false
		}
		return rv.Index(i).Interface(), true
	}
	return nil, false
}

// listOf returns v's items when v is a list.
func listOf(v any) ([]any, bool) {
	switch t := v.(type) {
	case []any:
		return t, true
	case nil, string, map[string]any:
		return nil, false
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		return nil, false
	}
	out := make([]any, rv.Len())
	for i := range out {
		out[i] = rv.Index(i).Interface()
	}
	return out, true
}

// entry is one key of an object and its value.
type entry struct {
	key string
	val any
}

// entriesOf returns v's keys and values in sorted key order when v is an
// object, so that {{#each}} over it prints the same every time.
func entriesOf(v any) ([]entry, bool) {
	var out []entry
	switch t := v.(type) {
	case map[string]any:
		out = make([]entry, 0, len(t))
		for k, x := range t {
			out = append(out, entry{k, x})
		}
	default:
		rv := reflect.ValueOf(v)
		if rv.Kind() != reflect.Map {
			return nil, false
		}
		it := rv.MapRange()
		for it.Next() {
			out = append(out, entry{fmt.Sprint(it.Key().Interface()), it.Value().Interface()})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out, true
}

// Escape writes s with the characters HTML gives meaning to as entities:
// & ' < > ", as Handlebars escapes them.
func Escape(s string) string { return escaper.Replace(s) }

var escaper = strings.NewReplacer("&", "&amp;", "'", "&apos;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
