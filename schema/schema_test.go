package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/platen/platen/internal/fault"
)

const invoiceSchema = `{
  "number":   {"type": "string", "required": true, "min": 3, "max": 12},
  "email":    {"type": "email"},
  "issued":   {"type": "date", "required": true, "min": "2020-01-01", "max": "2030-12-31"},
  "paid":     {"type": "boolean"},
  "currency": {"type": "string", "allowedValues": ["EUR", "USD"]},
  "discount": {"type": "number", "min": 0, "max": 50},
  "customer": {"type": "object", "required": true, "fields": {"name": {"type": "string", "required": true}}},
  "extra":    {"type": "any"},
  "items":    {"type": "array", "required": true, "min": 1, "max": 300, "items": {
      "description": {"type": "string", "required": true},
      "quantity":    {"type": "number", "min": 1, "allowedValues": [1, 2, 3, 5, 10, 20, 50, 100]},
      "price":       {"type": "number", "required": true, "min": 0}}}
}`

func mustParse(t testing.TB, raw string) Schema {
	t.Helper()
	s, err := Parse([]byte(raw), "manifest.dataSchema")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func valid() map[string]any {
	var m map[string]any
	json.Unmarshal([]byte(`{"number":"INV-1","email":"a@b.co","issued":"2026-11-21","paid":false,"currency":"EUR",
	  "discount":5,"customer":{"name":"Acme"},"extra":[1,{"x":2}],
	  "items":[{"description":"Widget","quantity":2,"price":9.5},{"description":"Gadget","price":0}]}`), &m)
	return m
}

func TestValidate(t *testing.T) {
	s := mustParse(t, invoiceSchema)
	if err := s.Validate(valid()); err != nil {
		t.Fatalf("valid data refused: %v", err)
	}
	cases := []struct {
		name  string
		edit  func(m map[string]any)
		field string
	}{
		{"required missing", func(m map[string]any) { delete(m, "number") }, "number"},
		{"required null", func(m map[string]any) { m["number"] = nil }, "number"},
		{"string type", func(m map[string]any) { m["number"] = 12345 }, "number"},
		{"string too short", func(m map[string]any) { m["number"] = "ab" }, "number"},
		{"string too long", func(m map[string]any) { m["number"] = "abcdefghijklm" }, "number"},
		{"string length in characters", func(m map[string]any) { m["number"] = "ééé" }, ""},
		{"email", func(m map[string]any) { m["email"] = "not-an-email" }, "email"},
		{"email with name", func(m map[string]any) { m["email"] = "Bob <bob@example.com>" }, "email"},
		{"date format", func(m map[string]any) { m["issued"] = "21/11/2026" }, "issued"},
		{"date before min", func(m map[string]any) { m["issued"] = "2019-12-31" }, "issued"},
		{"date after max", func(m map[string]any) { m["issued"] = "2031-01-01T00:00:00Z" }, "issued"},
		{"date with time", func(m map[string]any) { m["issued"] = "2026-11-21T09:30:00+01:00" }, ""},
		{"boolean", func(m map[string]any) { m["paid"] = "yes" }, "paid"},
		{"allowed values", func(m map[string]any) { m["currency"] = "GBP" }, "currency"},
		{"number type", func(m map[string]any) { m["discount"] = "5" }, "discount"},
		{"number below min", func(m map[string]any) { m["discount"] = -1.0 }, "discount"},
		{"number above max", func(m map[string]any) { m["discount"] = 50.5 }, "discount"},
		{"object type", func(m map[string]any) { m["customer"] = "Acme" }, "customer"},
		{"nested object field", func(m map[string]any) { m["customer"] = map[string]any{} }, "customer.name"},
		{"array type", func(m map[string]any) { m["items"] = "none" }, "items"},
		{"array below min", func(m map[string]any) { m["items"] = []any{} }, "items"},
		{"array element not an object", func(m map[string]any) { m["items"] = []any{"x"} }, "items[0]"},
		{"array element field", func(m map[string]any) {
			m["items"].([]any)[1].(map[string]any)["price"] = -3.0
		}, "items[1].price"},
		{"array element required", func(m map[string]any) {
			delete(m["items"].([]any)[0].(map[string]any), "description")
		}, "items[0].description"},
		{"array element allowed number", func(m map[string]any) {
			m["items"].([]any)[0].(map[string]any)["quantity"] = 4.0
		}, "items[0].quantity"},
		{"any accepts anything", func(m map[string]any) { m["extra"] = "text" }, ""},
		{"unknown fields are allowed", func(m map[string]any) { m["note"] = "hi" }, ""},
		{"optional missing", func(m map[string]any) { delete(m, "email") }, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := valid()
			c.edit(m)
			err := s.Validate(m)
			if c.field == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var fe *fault.FieldError
			if !errors.As(err, &fe) || !errors.Is(err, fault.ErrPayload) || fe.Field != c.field {
				t.Fatalf("got %v, want a payload refusal of %s", err, c.field)
			}
		})
	}
}

func TestArrayMaxAndFirstErrorIsStable(t *testing.T) {
	s := mustParse(t, `{"rows":{"type":"array","max":2},"a":{"type":"number"},"b":{"type":"number"}}`)
	err := s.Validate(map[string]any{"rows": []any{1.0, 2.0, 3.0}})
	var fe *fault.FieldError
	if !errors.As(err, &fe) || fe.Field != "rows" {
		t.Fatalf("max items: %v", err)
	}
	for i := 0; i < 20; i++ {
		err := s.Validate(map[string]any{"a": "x", "b": "y"})
		if !errors.As(err, &fe) || fe.Field != "a" {
			t.Fatalf("first bad field is %v, want a every time", err)
		}
	}
}

func TestParseRefusesBadSchemas(t *testing.T) {
	cases := map[string]string{
		`{"a":{"type":"text"}}`:                                   "manifest.dataSchema.a.type",
		`{"a":{"type":"number","min":"x"}}`:                       "manifest.dataSchema.a.min",
		`{"a":{"type":"string","min":-1}}`:                        "manifest.dataSchema.a.min",
		`{"a":{"type":"string","min":1.5}}`:                       "manifest.dataSchema.a.min",
		`{"a":{"type":"date","max":"yesterday"}}`:                 "manifest.dataSchema.a.max",
		`{"a":{"type":"boolean","min":1}}`:                        "manifest.dataSchema.a.min",
		`{"a":{"type":"number","min":5,"max":1}}`:                 "manifest.dataSchema.a.min",
		`{"a":{"type":"string","items":{}}}`:                      "",
		`{"a":{"type":"string","items":{"b":{"type":"string"}}}}`: "manifest.dataSchema.a.items",
		`{"a":{"type":"array","items":{"b":{"type":"nope"}}}}`:    "manifest.dataSchema.a.items.b.type",
		`{"a":{"type":"number","allowedValues":["x"]}}`:           "manifest.dataSchema.a.allowedValues[0]",
		`{"a.b":{"type":"string"}}`:                               "manifest.dataSchema.a.b",
		`{"a":null}`:                                              "manifest.dataSchema.a",
		`[1]`:                                                     "manifest.dataSchema",
	}
	for raw, field := range cases {
		_, err := Parse([]byte(raw), "manifest.dataSchema")
		if field == "" {
			if err != nil {
				t.Errorf("%s refused: %v", raw, err)
			}
			continue
		}
		var fe *fault.FieldError
		if !errors.As(err, &fe) || fe.Field != field || !errors.Is(err, fault.ErrInvalid) {
			t.Errorf("%s: got %v, want refusal of %s", raw, err, field)
		}
	}
}

func TestDeepNestingIsRefused(t *testing.T) {
	raw := `{"type":"any"}`
	for i := 0; i < 40; i++ {
		raw = fmt.Sprintf(`{"type":"object","fields":{"x":%s}}`, raw)
	}
	if _, err := Parse([]byte(`{"x":`+raw+`}`), "s"); err == nil {
		t.Fatal("40 levels of nesting accepted")
	}
}

func TestStoredSchemaKeepsBounds(t *testing.T) {
	s := mustParse(t, invoiceSchema)
	raw, _ := json.Marshal(s)
	var back Schema
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	m := valid()
	m["discount"] = 99.0
	if err := back.Validate(m); err == nil {
		t.Fatal("bounds lost when the schema was stored and read back")
	}
}

// FuzzValidate feeds arbitrary schemas and data: Parse and Validate must
// never panic, and a verdict must not change when asked twice.
func FuzzValidate(f *testing.F) {
	f.Add([]byte(invoiceSchema), []byte(`{"number":"INV-1","items":[{"price":1}]}`))
	f.Add([]byte(`{"a":{"type":"date","min":"2020-01-01"}}`), []byte(`{"a":"2019-01-01"}`))
	f.Add([]byte(`{"a":{"type":"array","items":{"b":{"type":"email","required":true}}}}`), []byte(`{"a":[{"b":"x@y.z"},{}]}`))
	f.Fuzz(func(t *testing.T, rawSchema, rawData []byte) {
		s, err := Parse(rawSchema, "s")
		if err != nil {
			return
		}
		var data map[string]any
		if json.Unmarshal(rawData, &data) != nil {
			return
		}
		e1, e2 := s.Validate(data), s.Validate(data)
		if (e1 == nil) != (e2 == nil) || (e1 != nil && e1.Error() != e2.Error()) {
			t.Fatalf("verdicts differ: %v / %v", e1, e2)
		}
		if e1 != nil && !errors.Is(e1, fault.ErrPayload) {
			t.Fatalf("refusal of another kind: %v", e1)
		}
	})
}

// BenchmarkValidateInvoice200 validates a 200-row invoice.
func BenchmarkValidateInvoice200(b *testing.B) {
	s := mustParse(b, invoiceSchema)
	m := valid()
	var items []any
	for i := 0; i < 200; i++ {
		items = append(items, map[string]any{"description": fmt.Sprintf("Line %d", i), "quantity": 2.0, "price": 9.99})
	}
	m["items"] = items
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := s.Validate(m); err != nil {
			b.Fatal(err)
		}
	}
}

func TestEveryViolationIsAnswered(t *testing.T) {
	s := mustParse(t, `{
		"total": {"type": "number", "required": true},
		"customer": {"type": "object", "fields": {"email": {"type": "email"}, "name": {"type": "string", "required": true}}},
		"items": {"type": "array", "items": {"price": {"type": "number", "min": 0}}},
		"status": {"type": "string", "allowedValues": ["open", "paid"]}
	}`)
	err := s.Validate(map[string]any{
		"customer": map[string]any{"email": "nope"},
		"items":    []any{map[string]any{"price": 1.0}, map[string]any{"price": -1.0}, "x"},
		"status":   "late",
	})
	var vs fault.Violations
	if !errors.As(err, &vs) {
		t.Fatalf("Validate = %v; want violations", err)
	}
	var got []string
	for _, v := range vs {
		got = append(got, v.Field+": "+v.Msg)
	}
	want := []string{
		"customer.email: must be an email address like name@example.com",
		"customer.name: is required",
		"items[1].price: must be at least 0",
		"items[2]: must be an object, not a string",
		"status: must be one of \"open\", \"paid\"",
		"total: is required",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var fe *fault.FieldError
	if !errors.As(err, &fe) || fe.Field != "customer.email" || !errors.Is(err, fault.ErrPayload) {
		t.Errorf("the first violation is %v; want customer.email, a payload refusal", fe)
	}
}

func TestViolationsStopAtTheCap(t *testing.T) {
	s := mustParse(t, `{"rows": {"type": "array", "items": {"n": {"type": "number"}}}}`)
	rows := make([]any, 500)
	for i := range rows {
		rows[i] = map[string]any{"n": "x"}
	}
	var vs fault.Violations
	if err := s.Validate(map[string]any{"rows": rows}); !errors.As(err, &vs) || len(vs) != fault.MaxViolations {
		t.Fatalf("kept %d of 500; want %d", len(vs), fault.MaxViolations)
	}
}

// TestTheFirstViolationIsTheOneASingleRefusalNamed: what a value holds is
// checked before its allowed values, as before violations were collected.
func TestTheFirstViolationIsTheOneASingleRefusalNamed(t *testing.T) {
	s := mustParse(t, `{
		"o": {"type": "object", "fields": {"a": {"type": "number"}}, "allowedValues": [{"a": 1}]},
		"arr": {"type": "array", "items": {"a": {"type": "number", "required": true}}, "allowedValues": [[{"a": 1}]]}
	}`)
	for _, c := range []struct {
		data  map[string]any
		field string
	}{
		{map[string]any{"o": map[string]any{"a": "x"}}, "o.a"},
		{map[string]any{"o": map[string]any{"a": 2.0}}, "o"},
		{map[string]any{"arr": []any{map[string]any{}}}, "arr[0].a"},
		{map[string]any{"arr": []any{map[string]any{"a": 2.0}}}, "arr"},
	} {
		var fe *fault.FieldError
		if err := s.Validate(c.data); !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("Validate(%v) = %v; want the first at %s", c.data, err, c.field)
		}
	}
}
