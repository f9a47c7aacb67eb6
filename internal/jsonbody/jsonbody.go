// Package jsonbody reads the JSON bodies of requests, whichever way in they
// came (REST, a realtime frame, the dashboard), by one rule: one object,
// no unknown fields, and a refusal that names the field at fault.
package jsonbody

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/platen/platen/internal/fault"
)

// Decode reads one JSON object into v, refusing unknown fields and anything
// after the object with fault.ErrInvalid. An empty body is an empty object.
func Decode(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeError(err)
	}
	if rest := bytes.TrimSpace(body[dec.InputOffset():]); len(rest) > 0 {
		return fmt.Errorf("%w: the body holds more than one JSON value", fault.ErrInvalid)
	}
	return nil
}

// decodeError turns a JSON decoding failure into an ErrInvalid refusal that
// names the field when it can.
func decodeError(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("%w: malformed JSON at byte %d: %v", fault.ErrInvalid, syn.Offset, syn)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			return fmt.Errorf("%w: the body must be a JSON object", fault.ErrInvalid)
		}
		return fault.Invalid(field, "must be %s, not %s", jsonKind(typ.Type.Kind().String()), typ.Value)
	default:
		if f, ok := unknownField(err); ok {
			return fault.Invalid(f, "is not a field of this request")
		}
		return fmt.Errorf("%w: malformed JSON: %v", fault.ErrInvalid, err)
	}
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "slice", "array":
		return "an array"
	case "map", "struct":
		return "an object"
	default:
		return "a number"
	}
}

// unknownField extracts the name from encoding/json's unknown-field error.
func unknownField(err error) (string, bool) {
	var name string
	if _, scanErr := fmt.Sscanf(err.Error(), "json: unknown field %q", &name); scanErr == nil {
		return name, true
	}
	return "", false
}
