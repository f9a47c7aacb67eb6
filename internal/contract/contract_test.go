package contract

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

const spec = `
openapi: 3.1.0
info: {title: t, version: v1}
servers: [{url: /}]
paths:
  /v1/things/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200':
          description: a thing
          headers:
            Retry-After: {schema: {type: integer}}
          content:
            application/json:
              schema:
                allOf:
                  - $ref: '#/components/schemas/Envelope'
                  - properties:
                      data: {$ref: '#/components/schemas/Thing'}
        '404':
          description: none
          content:
            application/json:
              schema: {type: object, properties: {success: {const: false}}}
  /v1/plain:
    get:
      responses:
        '200':
          description: an envelope alone, which elsewhere is a part of an allOf
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Envelope'}
  /v1/things/{id}/file:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200':
          description: its file
          content:
            application/pdf: {schema: {type: string, format: binary}}
components:
  headers:
    X-Request-Id:
      x-platen-every-answer: true
      schema: {type: string}
  schemas:
    Envelope:
      type: object
      required: [success]
      properties:
        success: {type: boolean}
        data: {}
    Thing:
      type: object
      required: [id]
      properties:
        id: {type: string}
        size: {type: [integer, 'null']}
        tags: {type: array, items: {type: object, properties: {name: {type: string}}}}
`

func TestCheckJudgesEachPartOfAnAnswer(t *testing.T) {
	c, err := New([]byte(spec))
	if err != nil {
		t.Fatal(err)
	}
	json := http.Header{"Content-Type": {"application/json"}, "X-Request-Id": {"req_1"}}
	cases := []struct {
		name, method, path string
		status             int
		header             http.Header
		body               string
		fails              string // a part of the failure, or "" for a pass
	}{
		{"a documented answer", "GET", "/v1/things/a", 200, json, `{"success":true,"data":{"id":"a","size":null,"tags":[{"name":"x"}]}}`, ""},
		{"a required field missing", "GET", "/v1/things/a", 200, json, `{"success":true,"data":{"size":1}}`, "id"},
		{"a field the schema does not name", "GET", "/v1/things/a", 200, json, `{"success":true,"data":{"id":"a","colour":"red"}}`, "colour"},
		{"a field deep in an array item", "GET", "/v1/things/a", 200, json, `{"success":true,"data":{"id":"a","tags":[{"name":"x","secret":1}]}}`, "secret"},
		{"a field at the top of an allOf", "GET", "/v1/things/a", 200, json, `{"success":true,"extra":1,"data":{"id":"a"}}`, "extra"},
		{"a part of an allOf, used alone", "GET", "/v1/plain", 200, json, `{"success":true,"data":1}`, ""},
		{"a part of an allOf, used alone, with a field it does not name", "GET", "/v1/plain", 200, json, `{"success":true,"stray":1}`, "stray"},
		{"a wrong type", "GET", "/v1/things/a", 200, json, `{"success":true,"data":{"id":7}}`, "id"},
		{"a status not listed", "GET", "/v1/things/a", 409, json, `{"success":false}`, "status 409 is not listed"},
		{"a content type not declared", "GET", "/v1/things/a", 200, http.Header{"Content-Type": {"text/plain"}}, `hi`, "content type"},
		{"a header of Platen's not declared", "GET", "/v1/things/a", 404, http.Header{"Content-Type": {"application/json"}, "Retry-After": {"1"}}, `{"success":false}`, "Retry-After"},
		{"an X-Platen- header not declared", "GET", "/v1/things/a", 200, http.Header{"Content-Type": {"application/json"}, "X-Platen-Pages": {"2"}}, `{"success":true,"data":{"id":"a"}}`, "X-Platen-Pages"},
		{"a declared header", "GET", "/v1/things/a", 200, http.Header{"Content-Type": {"application/json"}, "Retry-After": {"1"}}, `{"success":true,"data":{"id":"a"}}`, ""},
		{"a file of its declared type", "GET", "/v1/things/a/file", 200, http.Header{"Content-Type": {"application/pdf"}}, "%PDF-1.7", ""},
		{"a file of another type", "GET", "/v1/things/a/file", 200, http.Header{"Content-Type": {"image/png"}}, "\x89PNG", "content type"},
		{"a path the document lacks, answered 404", "GET", "/v1/nothing", 404, json, `{}`, ""},
		{"a path the document lacks, answered 200", "GET", "/v1/nothing", 200, json, `{}`, "not in the document"},
		{"a method the document lacks, answered 405", "DELETE", "/v1/things/a", 405, json, `{}`, ""},
		{"outside the document", "GET", "/console/", 200, http.Header{"Content-Type": {"text/html"}}, "<html>", ""},
		{"dot segments", "GET", "/x/../v1/things/a", 404, json, `{}`, ""},
		{"HEAD of a documented GET", "HEAD", "/v1/things/a", 200, json, ``, ""},
		{"HEAD answered a status the GET does not list", "HEAD", "/v1/things/a", 409, json, ``, "status 409"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, tc.path, nil)
			req.URL.Host, req.Host = "", ""
			err := c.Check(req, tc.status, tc.header, []byte(tc.body))
			switch {
			case tc.fails == "" && err != nil:
				t.Errorf("failed: %v", err)
			case tc.fails != "" && err == nil:
				t.Errorf("passed; want a failure naming %q", tc.fails)
			case tc.fails != "" && !strings.Contains(err.Error(), tc.fails):
				t.Errorf("failed with %v; want it to name %q", err, tc.fails)
			}
		})
	}
}

func TestNewRefusesABrokenDocument(t *testing.T) {
	broken := strings.Replace(spec, "$ref: '#/components/schemas/Thing'", "$ref: '#/components/schemas/Nothing'", 1)
	if _, err := New([]byte(broken)); err == nil {
		t.Error("a document with a dangling $ref was accepted")
	}
}

func TestTheProxyRecordsWhatTheDocumentDoesNotDescribe(t *testing.T) {
	c, err := New([]byte(spec))
	if err != nil {
		t.Fatal(err)
	}
	node := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/v1/things/bad" {
			w.Write([]byte(`{"success":true,"data":{"id":"bad","extra":1}}`))
			return
		}
		w.Write([]byte(`{"success":true,"data":{"id":"good"}}`))
	}))
	defer node.Close()
	p, err := StartProxy(node.URL, c)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, id := range []string{"good", "bad", "bad"} {
		res, err := http.Get(p.URL + "/v1/things/" + id)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("the proxy answered %d", res.StatusCode)
		}
	}
	got := p.Problems()
	if len(got) != 1 || !strings.Contains(got[0], "extra") {
		t.Errorf("problems = %q; want the one undocumented field, once", got)
	}
	if n, ops := p.Seen(); n != 3 || len(ops) != 1 || ops[0] != "GET /v1/things/{id}" {
		t.Errorf("seen %d answers to %q; want 3 to GET /v1/things/{id}", n, ops)
	}
}
