package render

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/platen/platen/render/handlebars"
	"github.com/platen/platen/schema"
)

// env is what a template's helpers know beyond their arguments.
type env struct {
	assets   map[string]string // filename → data URI
	locale   string
	currency string
}

// HelperNames lists the helpers Platen gives every template, documented in
// docs/templates.md; a test checks that each is registered and documented.
var HelperNames = []string{
	"asset", "formatNumber", "formatCurrency", "formatDate",
	"add", "subtract", "multiply", "divide", "round", "sum", "length", "inc",
	"eq", "ne", "lt", "lte", "gt", "gte", "and", "or", "not",
	"json", "default", "upper", "lower",
}

// callOptions is what Platen's helpers read of a call beyond their
// parameters. The engine's *handlebars.Options provides it, and so does
// raymond's *raymond.Options, which the differential tests fill with as an
// oracle of the same helpers.
type callOptions interface {
	HashStr(name string) string
	HashProp(name string) any
	Data(name string) any
}

// helpers returns the helpers for one template version.
func (e env) helpers() map[string]any {
	loc := func(o callOptions) locale {
		if l := o.HashStr("locale"); l != "" {
			return findLocale(l)
		}
		return findLocale(e.locale)
	}
	decimals := func(o callOptions, def int) int {
		if v := o.HashProp("decimals"); v != nil {
			if n, ok := toNumber(v); ok {
				return int(n)
			}
		}
		return def
	}
	return map[string]any{
		// asset returns a data URI of one of the version's assets.
		"asset": func(name string) handlebars.SafeString {
			uri, ok := e.assets[name]
			if !ok {
				panic(fmt.Errorf("asset %q is not one of this template's assets", name))
			}
			return handlebars.SafeString(uri)
		},
		"formatNumber": func(v any, o callOptions) string {
			n, ok := toNumber(v)
			if !ok {
				return ""
			}
			return formatNumber(n, decimals(o, 2), loc(o))
		},
		"formatCurrency": func(v any, o callOptions) string {
			n, ok := toNumber(v)
			if !ok {
				return ""
			}
			code := o.HashStr("currency")
			if code == "" {
				code = e.currency
			}
			if code == "" {
				code = "USD"
			}
			return formatCurrency(n, code, decimals(o, -1), loc(o))
		},
		"formatDate": func(v any, o callOptions) string {
			t, ok := toTime(v, o)
			if !ok {
				return fmt.Sprint(v)
			}
			return formatDate(t, o.HashStr("format"), loc(o))
		},
		"add":      arith(func(a, b float64) float64 { return a + b }),
		"subtract": arith(func(a, b float64) float64 { return a - b }),
		"multiply": arith(func(a, b float64) float64 { return a * b }),
		"divide": arith(func(a, b float64) float64 {
			if b == 0 {
				return 0
			}
			return a / b
		}),
		"round": func(v any, o callOptions) float64 {
			n, _ := toNumber(v)
			scale := math.Pow(10, float64(decimals(o, 0)))
			return math.Round(n*scale) / scale
		},
		// sum adds a field over an array of objects, or the array's numbers
		// when field is empty.
		"sum": func(list any, field string) float64 {
			var total float64
			for _, el := range toList(list) {
				if field != "" {
					if m, ok := el.(map[string]any); ok {
						el = m[field]
					}
				}
				if n, ok := toNumber(el); ok {
					total += n
				}
			}
			return total
		},
		// length counts an array's items, or a text's characters.
		"length": func(v any) int {
			if s, ok := v.(string); ok {
				return len([]rune(s))
			}
			return len(toList(v))
		},
		"inc": func(v any) float64 {
			n, _ := toNumber(v)
			return n + 1
		},
		"eq":  func(a, b any) bool { return compare(a, b) == 0 },
		"ne":  func(a, b any) bool { return compare(a, b) != 0 },
		"lt":  func(a, b any) bool { return compare(a, b) < 0 },
		"lte": func(a, b any) bool { return compare(a, b) <= 0 },
		"gt":  func(a, b any) bool { return compare(a, b) > 0 },
		"gte": func(a, b any) bool { return compare(a, b) >= 0 },
		"and": func(a, b any) bool { return truthy(a) && truthy(b) },
		"or":  func(a, b any) bool { return truthy(a) || truthy(b) },
		"not": func(a any) bool { return !truthy(a) },
		"json": func(v any) string {
			b, err := json.Marshal(v)
			if err != nil {
				return ""
			}
			return string(b)
		},
		"default": func(v, fallback any) any {
			if truthy(v) {
				return v
			}
			return fallback
		},
		"upper": func(s string) string { return strings.ToUpper(s) },
		"lower": func(s string) string { return strings.ToLower(s) },
	}
}

func arith(op func(a, b float64) float64) func(a, b any) float64 {
	return func(a, b any) float64 {
		x, _ := toNumber(a)
		y, _ := toNumber(b)
		r := op(x, y)
		if math.IsNaN(r) || math.IsInf(r, 0) {
			return 0
		}
		return r
	}
}

// toNumber reads numbers and numeric strings.
func toNumber(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(n), 64)
		return f, err == nil
	}
	return 0, false
}

// toTime reads a date: a time, an ISO 8601 string, or "now", the time of the
// render (also available to templates as @now).
func toTime(v any, o callOptions) (time.Time, bool) {
	switch t := v.(type) {
	case time.Time:
		return t, true
	case string:
		if t == "now" {
			now, ok := o.Data("now").(time.Time)
			return now, ok
		}
		return schema.ParseDate(t)
	}
	return time.Time{}, false
}

func toList(v any) []any {
	if l, ok := v.([]any); ok {
		return l
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice {
		return nil
	}
	out := make([]any, rv.Len())
	for i := range out {
		out[i] = rv.Index(i).Interface()
	}
	return out
}

// compare orders two values: numerically when both are numbers, else as text.
func compare(a, b any) int {
	x, okA := toNumber(a)
	y, okB := toNumber(b)
	if okA && okB {
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	}
	return strings.Compare(fmt.Sprint(a), fmt.Sprint(b))
}

// truthy follows Handlebars: false, 0, "", null and empty arrays are false.
func truthy(v any) bool {
	switch t := v.(type) {
	case nil:
		return false
	case bool:
		return t
	case string:
		return t != ""
	case float64:
		return t != 0
	case int:
		return t != 0
	case []any:
		return len(t) > 0
	}
	return true
}
