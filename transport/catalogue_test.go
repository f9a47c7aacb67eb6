package transport

import (
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/platen/platen/actors"
	platen "github.com/platen/platen/client"
	"github.com/platen/platen/internal/fault"
)

// TestTheErrorCatalogue holds everything that names error codes to the
// catalogue: statusOf, the OpenAPI document, docs/api.md's table, and the
// codes of both clients.
func TestTheErrorCatalogue(t *testing.T) {
	var codes, apiCodes []string
	for _, c := range catalogue {
		if c.Status < 400 || c.When == "" || c.Retry == "" {
			t.Errorf("%s: an entry needs a 4xx or 5xx status, when and retry: %+v", c.Code, c)
		}
		codes = append(codes, c.Code)
		if !c.Console {
			apiCodes = append(apiCodes, c.Code)
		}
	}
	if len(byCode) != len(catalogue) {
		t.Errorf("the catalogue names a code twice")
	}

	t.Run("statusOf answers only catalogued codes", func(t *testing.T) {
		for _, err := range []error{errUnauthenticated, errForbidden, errTooLarge, errRateLimited, errMethod, errCSRF, errors.New("x")} {
			p := statusOf(err)
			c, ok := byCode[p.Code]
			if !ok || c.Status != p.Status {
				t.Errorf("statusOf(%v) = %d %s, not the catalogue's", err, p.Status, p.Code)
			}
		}
	})

	t.Run("the OpenAPI document's codes", func(t *testing.T) {
		var doc struct {
			Components struct {
				Schemas map[string]json.RawMessage
			}
		}
		if err := json.Unmarshal(openapiJSON, &doc); err != nil {
			t.Fatal(err)
		}
		var errSchema struct {
			Properties struct {
				Error struct {
					Properties struct {
						Code struct{ Enum []string }
					}
				}
			}
		}
		json.Unmarshal(doc.Components.Schemas["Error"], &errSchema)
		if got := errSchema.Properties.Error.Properties.Code.Enum; !sameSet(got, codes) {
			t.Errorf("Error.code's enum is %v; the catalogue's codes are %v", got, codes)
		}
		var docSchema struct {
			Properties struct {
				ErrorCode struct{ Enum []string }
			}
		}
		json.Unmarshal(doc.Components.Schemas["Document"], &docSchema)
		failures := actors.FailureCodes
		if got := docSchema.Properties.ErrorCode.Enum; !sameSet(got, failures) {
			t.Errorf("Document.errorCode's enum is %v; a document fails with %v", got, failures)
		}
	})

	t.Run("docs/api.md's table", func(t *testing.T) {
		const path = "../docs/api.md"
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile(`(?s)(<!-- error-catalogue:[^\n]*-->\n)(.*?)(<!-- /error-catalogue -->)`)
		m := re.FindSubmatch(raw)
		if m == nil {
			t.Fatalf("%s has no error-catalogue markers", path)
		}
		want := catalogueTable()
		if string(m[2]) == want {
			return
		}
		if os.Getenv("PLATEN_WRITE_DOCS") == "1" {
			out := re.ReplaceAll(raw, []byte("${1}"+strings.ReplaceAll(want, "$", "$$")+"${3}"))
			if err := os.WriteFile(path, out, 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("docs/api.md's error table is not the catalogue's; PLATEN_WRITE_DOCS=1 go test -run TestTheErrorCatalogue ./transport writes it:\n%s", want)
	})

	t.Run("the Go client's codes", func(t *testing.T) {
		got := goStringConsts(t, "../client/errors.go", "Code")
		for _, c := range apiCodes {
			if !slices.Contains(got, c) {
				t.Errorf("client/errors.go has no constant for %s", c)
			}
			if s := platen.StatusOfCode(c); s != byCode[c].Status {
				t.Errorf("client.StatusOfCode(%s) = %d; the API answers %d", c, s, byCode[c].Status)
			}
		}
		for _, c := range actors.FailureCodes {
			if !slices.Contains(got, c) {
				t.Errorf("client/errors.go has no constant for the document failure %s", c)
			}
		}
		for _, c := range got {
			if _, ok := byCode[c]; !ok && !slices.Contains(actors.FailureCodes, c) {
				t.Errorf("client/errors.go names %s, which no refusal or document failure carries", c)
			}
		}
	})

	t.Run("the TypeScript client's codes", func(t *testing.T) {
		raw, err := os.ReadFile("../client/typescript/src/errors.ts")
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`(?s)export type ErrorCode =(.*?);`).FindSubmatch(raw)
		if m == nil {
			t.Fatal("client/typescript/src/errors.ts has no ErrorCode type")
		}
		var got []string
		for _, q := range regexp.MustCompile(`"([A-Z_]+)"`).FindAllSubmatch(m[1], -1) {
			got = append(got, string(q[1]))
		}
		if !sameSet(got, apiCodes) {
			t.Errorf("the TypeScript ErrorCode is %v; the API's codes are %v", got, apiCodes)
		}
	})
}

// goStringConsts are the string constants of a Go file whose names start
// with prefix.
func goStringConsts(t *testing.T, path, prefix string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok {
			return true
		}
		for i, name := range vs.Names {
			if !strings.HasPrefix(name.Name, prefix) || i >= len(vs.Values) {
				continue
			}
			if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				s, _ := strconv.Unquote(lit.Value)
				out = append(out, s)
			}
		}
		return true
	})
	return out
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestEveryViolationIsScreenedForInternals: a violation's words carrying
// internal detail withhold the whole list, whichever violation it is.
func TestEveryViolationIsScreenedForInternals(t *testing.T) {
	err := fault.Violations{
		{Kind: fault.ErrPayload, Field: "a", Msg: "is required"},
		{Kind: fault.ErrPayload, Field: "b", Msg: "open /var/lib/platen/state/000123.sst: no such file"},
	}
	p := statusOf(err)
	if p.Status != 422 || p.Withheld == "" || len(p.Violations) != 0 || strings.Contains(p.Message, "/var/lib") {
		t.Errorf("statusOf = %+v; want the list withheld", p)
	}
	ok := statusOf(fault.Violations{{Kind: fault.ErrPayload, Field: "a", Msg: "is required"}, {Kind: fault.ErrPayload, Field: "b", Msg: "must be a number"}})
	if ok.Withheld != "" || len(ok.Violations) != 2 || ok.Field != "a" {
		t.Errorf("statusOf = %+v; want both violations, the first in field", ok)
	}
}
