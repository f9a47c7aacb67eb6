package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/platen/platen/einvoice"
	"github.com/platen/platen/internal/fault"
)

// EInvoice is a manifest's e-invoice (docs/einvoices.md): the profile the
// document's XML follows, and where the invoice is in the data, in the
// JSON model of package einvoice.
type EInvoice struct {
	Profile string `json:"profile"`
	// Data is the path of the invoice in the data, dotted ("invoice",
	// "order.invoice"); empty when the data is the invoice.
	Data string `json:"data,omitempty"`
}

// check validates the e-invoice's fields and sets the PDF/A level it
// implies: PDF/A-3b unless the manifest names 3u (PDF/A-2 cannot embed the
// XML).
func (e *EInvoice) check(m *Manifest, at string) error {
	p, err := einvoice.ParseProfile(e.Profile)
	if err != nil {
		return fault.Invalid(at+".einvoice.profile", "%v", err)
	}
	e.Profile = p.String()
	if e.Data != "" {
		for _, k := range strings.Split(e.Data, ".") {
			if strings.TrimSpace(k) == "" {
				return fault.Invalid(at+".einvoice.data", "must be a dotted path of keys such as invoice or order.invoice, or empty for the whole data")
			}
		}
	}
	switch m.PDFA {
	case "":
		m.PDFA = "3b"
	case "3b", "3u":
	default:
		return fault.Invalid(at+".pdfa", "is %s, but an e-invoice embeds its XML, which PDF/A-2 cannot: use 3b or 3u, or leave pdfa out", m.PDFA)
	}
	return nil
}

// profile is the parsed profile of a checked manifest.
func (e *EInvoice) profile() einvoice.Profile {
	p, _ := einvoice.ParseProfile(e.Profile)
	return p
}

// field is the request field of a path inside the invoice.
func (e *EInvoice) field(sub string) string {
	f := "data"
	if e.Data != "" {
		f += "." + e.Data
	}
	if sub != "" {
		f += "." + sub
	}
	return f
}

// Invoice reads the invoice from the data, completes it and checks it.
// A violation is refused as ErrPayload (422) at the field of the request
// that holds it, naming the rule and the business term; when there are
// several, the message says how many more.
func (e *EInvoice) Invoice(data map[string]any) (*einvoice.Invoice, error) {
	var v any = data
	if e.Data != "" {
		for _, k := range strings.Split(e.Data, ".") {
			m, ok := v.(map[string]any)
			if !ok {
				return nil, fault.Payload(e.field(""), "must be an object holding the invoice (the template's einvoice.data names it)")
			}
			v = m[k]
		}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fault.Payload(e.field(""), "must be an object holding the invoice (the template's einvoice.data names it)")
	}
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, fault.Payload(e.field(""), "cannot be read as an invoice")
	}
	var inv einvoice.Invoice
	if err := json.Unmarshal(raw, &inv); err != nil {
		return nil, decodeError(e, err)
	}
	p := e.profile()
	vs := einvoice.Prepare(&inv, p)
	if len(vs) == 0 {
		return &inv, nil
	}
	msg := vs[0].Error()
	if len(vs) > 1 {
		msg += fmt.Sprintf(" (and %d more: %s)", len(vs)-1, more(vs[1:]))
	}
	return nil, fault.Payload(e.field(vs[0].Field), "%s", msg)
}

// more names further violations briefly: rule (or term) and field.
func more(vs []einvoice.Violation) string {
	var parts []string
	for i, v := range vs {
		if i == 5 {
			parts = append(parts, "…")
			break
		}
		id := v.Rule
		if id == "" {
			id = v.Term
		}
		parts = append(parts, id+" at "+v.Field)
	}
	return strings.Join(parts, ", ")
}

// decodeError names the field of a value of the wrong kind.
func decodeError(e *EInvoice, err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fault.Payload(e.field(te.Field), "must be %s, not a JSON %s", kindName(te.Type.Kind().String()), te.Value)
	}
	return fault.Payload(e.field(""), "cannot be read as an invoice: %s", strings.TrimPrefix(err.Error(), "json: "))
}

func kindName(k string) string {
	switch k {
	case "string":
		return "a string"
	case "slice":
		return "an array"
	case "struct", "ptr":
		return "an object"
	}
	return "a " + k
}

// eInvoiceJob completes the invoice in the data (so that the template
// prints the amounts the XML carries: the line amounts, the VAT breakdown
// and the totals Platen computed) and returns the data to fill, the XML to
// embed, and the PDF's metadata for it.
func eInvoiceJob(e *EInvoice, data map[string]any) (map[string]any, []Attachment, string, error) {
	inv, err := e.Invoice(data)
	if err != nil {
		return nil, nil, "", err
	}
	p := e.profile()
	xml := einvoice.XML(inv, p)
	raw, err := json.Marshal(inv)
	if err != nil {
		return nil, nil, "", err
	}
	var done map[string]any
	if err := json.Unmarshal(raw, &done); err != nil {
		return nil, nil, "", err
	}
	out := withPath(data, e.Data, done)
	att := Attachment{Name: p.FileName(), MIME: "text/xml", Relationship: p.Relationship(),
		Description: "Factur-X invoice, profile " + p.String(), Data: xml}
	if p == einvoice.XRechnung {
		att.Description = "XRechnung invoice (CII)"
	}
	return out, []Attachment{att}, p.XMP(), nil
}

// withPath is data with the object at the dotted path (the whole data
// for an empty path) overlaid with v's keys: what the model computed
// replaces what the data gave, and the data's other keys stay for the
// template. The maps along the path are copied, so the caller's data is
// not changed.
func withPath(data map[string]any, path string, v map[string]any) map[string]any {
	out := make(map[string]any, len(data)+len(v))
	for key, val := range data {
		out[key] = val
	}
	if path == "" {
		for key, val := range v {
			out[key] = val
		}
		return out
	}
	k, rest, _ := strings.Cut(path, ".")
	inner, _ := data[k].(map[string]any)
	out[k] = withPath(inner, rest, v)
	return out
}

// Attachment is a file the PDF embeds as an associated file (PDF/A-3).
type Attachment struct {
	Name, Description, MIME, Relationship string
	Data                                  []byte
}
