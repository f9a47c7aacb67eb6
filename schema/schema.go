package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/mail"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/platen/platen/internal/fault"
)

// Types a field can have.
const (
	TypeString  = "string"
	TypeNumber  = "number"
	TypeBoolean = "boolean"
	TypeEmail   = "email"
	TypeDate    = "date"
	TypeArray   = "array"
	TypeObject  = "object"
	TypeAny     = "any"
)

var types = []string{TypeString, TypeNumber, TypeBoolean, TypeEmail, TypeDate, TypeArray, TypeObject, TypeAny}

// Field is one field's specification.
type Field struct {
	Type     string `json:"type"`
	Required bool   `json:"required,omitempty"`
	// Min and Max are numbers, or ISO 8601 dates for type date.
	Min           json.RawMessage `json:"min,omitempty"`
	Max           json.RawMessage `json:"max,omitempty"`
	AllowedValues []any           `json:"allowedValues,omitempty"`
	Example       any             `json:"example,omitempty"`
	Description   string          `json:"description,omitempty"`
	// Items specifies each element of an array (each element is an object).
	Items Schema `json:"items,omitempty"`
	// Fields specifies the fields of an object.
	Fields Schema `json:"fields,omitempty"`

	// Bounds, parsed by Parse.
	min, max         *float64
	minDate, maxDate *time.Time
}

// Schema maps field names to their specifications.
type Schema map[string]*Field

// maxDepth bounds nesting, in schemas and in data, so that neither can
// exhaust the stack.
const maxDepth = 32

// Parse reads and checks a schema. Errors are fault.ErrInvalid refusals whose
// field is the schema path, prefixed with at.
func Parse(raw []byte, at string) (Schema, error) {
	var s Schema
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return Schema{}, nil
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fault.Invalid(at, "must be an object of field specifications: %v", err)
	}
	if err := s.check(at, 0); err != nil {
		return nil, err
	}
	return s, nil
}

// UnmarshalJSON keeps the bounds parsed when a stored schema is read back.
func (f *Field) UnmarshalJSON(b []byte) error {
	type plain Field
	if err := json.Unmarshal(b, (*plain)(f)); err != nil {
		return err
	}
	_ = f.parseBounds("")
	return nil
}

// check validates the schema and parses its bounds.
func (s Schema) check(at string, depth int) error {
	if depth > maxDepth {
		return fault.Invalid(at, "is nested more than %d levels deep", maxDepth)
	}
	for _, name := range s.names() {
		f := s[name]
		path := join(at, name)
		if f == nil {
			return fault.Invalid(path, "must be a field specification")
		}
		if name == "" || strings.ContainsAny(name, ".[]") {
			return fault.Invalid(path, "field names must be non-empty and contain no '.', '[' or ']'")
		}
		if !slices.Contains(types, f.Type) {
			return fault.Invalid(path+".type", "unknown type %q; types are %s", f.Type, strings.Join(types, ", "))
		}
		if err := f.parseBounds(path); err != nil {
			return err
		}
		if len(f.Items) > 0 && f.Type != TypeArray {
			return fault.Invalid(path+".items", "only an array field has items")
		}
		if len(f.Fields) > 0 && f.Type != TypeObject {
			return fault.Invalid(path+".fields", "only an object field has fields")
		}
		for i, v := range f.AllowedValues {
			if err := f.checkOne(v, fmt.Sprintf("%s.allowedValues[%d]", path, i), depth); err != nil {
				return fault.Invalid(fmt.Sprintf("%s.allowedValues[%d]", path, i), "is not a valid %s", f.Type)
			}
		}
		if err := f.Items.check(path+".items", depth+1); err != nil {
			return err
		}
		if err := f.Fields.check(path+".fields", depth+1); err != nil {
			return err
		}
	}
	return nil
}

func (f *Field) parseBounds(path string) error {
	for _, b := range []struct {
		raw  json.RawMessage
		name string
		num  **float64
		date **time.Time
	}{{f.Min, "min", &f.min, &f.minDate}, {f.Max, "max", &f.max, &f.maxDate}} {
		if len(b.raw) == 0 || string(b.raw) == "null" {
			continue
		}
		switch f.Type {
		case TypeDate:
			var s string
			if err := json.Unmarshal(b.raw, &s); err != nil {
				return fault.Invalid(path+"."+b.name, "must be an ISO 8601 date for a date field")
			}
			t, ok := parseDate(s)
			if !ok {
				return fault.Invalid(path+"."+b.name, "must be an ISO 8601 date for a date field")
			}
			*b.date = &t
		case TypeString, TypeEmail, TypeNumber, TypeArray:
			var n float64
			if err := json.Unmarshal(b.raw, &n); err != nil {
				return fault.Invalid(path+"."+b.name, "must be a number")
			}
			if f.Type != TypeNumber && (n < 0 || n != math.Trunc(n)) {
				return fault.Invalid(path+"."+b.name, "must be a whole number of at least 0")
			}
			*b.num = &n
		default:
			return fault.Invalid(path+"."+b.name, "a %s field has no %s", f.Type, b.name)
		}
	}
	if f.min != nil && f.max != nil && *f.min > *f.max || f.minDate != nil && f.maxDate != nil && f.minDate.After(*f.maxDate) {
		return fault.Invalid(path+".min", "is greater than max")
	}
	return nil
}

// Validate checks data against the schema. It answers every violation (up to
// fault.MaxViolations, in the schema's order) as a fault.Violations, whose
// first names the field a single refusal would.
func (s Schema) Validate(data map[string]any) error {
	var c fault.Collect
	s.validate(data, "", 0, &c)
	return c.Err()
}

func (s Schema) validate(data map[string]any, at string, depth int, c *fault.Collect) {
	for _, name := range s.names() {
		if c.Full() {
			return
		}
		f := s[name]
		path := join(at, name)
		v, present := data[name]
		if !present || v == nil {
			if f.Required {
				c.Add(fault.Payload(path, "is required"))
			}
			continue
		}
		f.checkValue(v, path, depth, c)
	}
}

// checkValue checks one present value, and the schemas nested in it: its
// type and bounds, then what it holds, then (when what it holds passed) its
// allowed values, in the order a single refusal named them.
func (f *Field) checkValue(v any, path string, depth int, c *fault.Collect) {
	if err := f.checkOne(v, path, depth); err != nil {
		c.Add(err)
		return
	}
	before := c.Len()
	f.checkNested(v, path, depth, c)
	if c.Len() == before && len(f.AllowedValues) > 0 {
		if err := f.checkAllowed(v, path); err != nil {
			c.Add(err)
		}
	}
}

// checkNested checks the fields and items a value of the right type holds.
func (f *Field) checkNested(v any, path string, depth int, c *fault.Collect) {
	switch f.Type {
	case TypeArray:
		if len(f.Items) == 0 {
			return
		}
		for i, el := range v.([]any) {
			if c.Full() {
				return
			}
			elPath := fmt.Sprintf("%s[%d]", path, i)
			obj, ok := el.(map[string]any)
			if !ok {
				c.Add(fault.Payload(elPath, "must be an object, not %s", kind(el)))
				continue
			}
			f.Items.validate(obj, elPath, depth+1, c)
		}
	case TypeObject:
		if len(f.Fields) > 0 {
			f.Fields.validate(v.(map[string]any), path, depth+1, c)
		}
	}
}

// checkOne checks a value itself: its type and bounds, not what is nested
// in it nor its allowed values.
func (f *Field) checkOne(v any, path string, depth int) error {
	if depth > maxDepth {
		return fault.Payload(path, "is nested more than %d levels deep", maxDepth)
	}
	switch f.Type {
	case TypeString:
		s, ok := v.(string)
		if !ok {
			return fault.Payload(path, "must be a string, not %s", kind(v))
		}
		if err := f.checkLen(float64(utf8.RuneCountInString(s)), path, "characters"); err != nil {
			return err
		}
	case TypeEmail:
		s, ok := v.(string)
		if !ok {
			return fault.Payload(path, "must be an email address, not %s", kind(v))
		}
		if !isEmail(s) {
			return fault.Payload(path, "must be an email address like name@example.com")
		}
		if err := f.checkLen(float64(utf8.RuneCountInString(s)), path, "characters"); err != nil {
			return err
		}
	case TypeNumber:
		n, ok := number(v)
		if !ok {
			return fault.Payload(path, "must be a number, not %s", kind(v))
		}
		if f.min != nil && n < *f.min {
			return fault.Payload(path, "must be at least %s", fmtNum(*f.min))
		}
		if f.max != nil && n > *f.max {
			return fault.Payload(path, "must be at most %s", fmtNum(*f.max))
		}
	case TypeBoolean:
		if _, ok := v.(bool); !ok {
			return fault.Payload(path, "must be true or false, not %s", kind(v))
		}
	case TypeDate:
		s, ok := v.(string)
		if !ok {
			return fault.Payload(path, "must be an ISO 8601 date string, not %s", kind(v))
		}
		t, ok := parseDate(s)
		if !ok {
			return fault.Payload(path, "must be an ISO 8601 date such as 2026-11-21 or 2026-11-21T09:30:00Z")
		}
		if f.minDate != nil && t.Before(*f.minDate) {
			return fault.Payload(path, "must be on or after %s", f.minDate.Format("2006-01-02"))
		}
		if f.maxDate != nil && t.After(*f.maxDate) {
			return fault.Payload(path, "must be on or before %s", f.maxDate.Format("2006-01-02"))
		}
	case TypeArray:
		arr, ok := v.([]any)
		if !ok {
			return fault.Payload(path, "must be an array, not %s", kind(v))
		}
		if err := f.checkLen(float64(len(arr)), path, "items"); err != nil {
			return err
		}
	case TypeObject:
		if _, ok := v.(map[string]any); !ok {
			return fault.Payload(path, "must be an object, not %s", kind(v))
		}
	case TypeAny:
	}
	return nil
}

// checkAllowed refuses a value not among the field's allowed values.
func (f *Field) checkAllowed(v any, path string) error {
	if len(f.AllowedValues) == 0 {
		return nil
	}
	for _, a := range f.AllowedValues {
		if equal(a, v) {
			return nil
		}
	}
	return fault.Payload(path, "must be one of %s", listValues(f.AllowedValues))
}

func (f *Field) checkLen(n float64, path, unit string) error {
	if f.min != nil && n < *f.min {
		return fault.Payload(path, "must have at least %s %s", fmtNum(*f.min), unit)
	}
	if f.max != nil && n > *f.max {
		return fault.Payload(path, "must have at most %s %s", fmtNum(*f.max), unit)
	}
	return nil
}

func (s Schema) names() []string {
	out := make([]string, 0, len(s))
	for n := range s {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Example builds data from the schema's examples, for previews of templates
// saved without sample data.
func (s Schema) Example() map[string]any {
	out := map[string]any{}
	for name, f := range s {
		if f.Example != nil {
			out[name] = f.Example
		}
	}
	return out
}

func join(at, name string) string {
	if at == "" {
		return name
	}
	return at + "." + name
}

// parseDate accepts the ISO 8601 forms people send: a date, or a date and
// time with a zone.
func parseDate(s string) (time.Time, bool) {
	for _, layout := range []string{"2006-01-02", time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// ParseDate is parseDate for the template helpers.
func ParseDate(s string) (time.Time, bool) { return parseDate(s) }

func isEmail(s string) bool {
	if len(s) > 254 || strings.ContainsAny(s, " <>\"") {
		return false
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || a.Name != "" {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	return at > 0 && strings.Contains(s[at+1:], ".")
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	}
	return 0, false
}

func kind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "true or false"
	case float64, json.Number, int, int64:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

func equal(a, b any) bool {
	if x, ok := number(a); ok {
		y, ok := number(b)
		return ok && x == y
	}
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

func listValues(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		b, _ := json.Marshal(v)
		parts[i] = string(b)
	}
	return strings.Join(parts, ", ")
}

func fmtNum(n float64) string { return strconv.FormatFloat(n, 'f', -1, 64) }
