package testnode

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseDataReadsTheEnvelopesData(t *testing.T) {
	r := Response{Status: 200, Body: []byte(`{"success":true,"data":{"items":[{"id":"doc_1","status":"completed","pageCount":2}],"nextCursor":null},"message":"1 documents"}`)}
	l, err := ParseData[List[Document]](r)
	if err != nil || len(l.Items) != 1 || l.Items[0].ID != "doc_1" || l.Items[0].PageCount != 2 || l.NextCursor != nil {
		t.Fatalf("%+v, %v", l, err)
	}
	if r.Message() != "1 documents" {
		t.Fatalf("message %q", r.Message())
	}
}

// A field the type does not know, as after a rename on either side, and an
// answer without data are errors, not zero values.
func TestParseDataRefusesWhatDoesNotFit(t *testing.T) {
	doc := func(r Response) error { _, err := ParseData[Document](r); return err }
	list := func(r Response) error { _, err := ParseData[List[Document]](r); return err }
	cases := []struct {
		body  string
		parse func(Response) error
		want  string // "" when it fits
	}{
		{`{"success":true,"data":{"id":"doc_1","report":{"fields":[]},"metadata":{"a":1}}}`, doc, ""},
		{`{"success":true,"data":{"id":"doc_1","pages":2}}`, doc, `unknown field "pages"`},
		{`{"success":true,"data":{"id":"doc_1","pageCount":"two"}}`, doc, "cannot unmarshal"},
		{`{"success":false,"error":{"code":"NOT_FOUND","message":"no"},"message":"no"}`, doc, "no data"},
		{`{"success":true,"data":null}`, doc, "no data"},
		{`<html>`, doc, "not a JSON envelope"},
		{`{"success":true,"data":{"items":[{"id":"doc_1"}],"nextCursor":"x"}}`, list, ""},
		{`{"success":true,"data":{"items":[{"id":"doc_1","templateVersio":1}]}}`, list, `unknown field "templateVersio"`},
		{`{"success":true,"data":{"items":[],"total":1}}`, list, `unknown field "total"`},
	}
	for _, c := range cases {
		err := c.parse(Response{Body: []byte(c.body)})
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: error %v, want %q", c.body, err, c.want)
		}
	}
}

func TestProblemReadsTheErrorEnvelope(t *testing.T) {
	r := Response{Status: 400, Body: []byte(`{"success":false,"error":{"code":"INVALID_REQUEST","message":"bad","field":"url"},"message":"bad"}`)}
	if p := r.Problem(); !reflect.DeepEqual(p, Problem{Code: "INVALID_REQUEST", Message: "bad", Field: "url"}) || r.Code() != "INVALID_REQUEST" || r.Field() != "url" || r.Message() != "bad" {
		t.Fatalf("%+v", p)
	}
	if p := (Response{Body: []byte(`{"success":true,"data":{}}`)}).Problem(); !reflect.DeepEqual(p, Problem{}) {
		t.Fatalf("a success has a problem: %+v", p)
	}
}
