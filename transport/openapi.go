package transport

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"

	"gopkg.in/yaml.v3"
)

// openapiYAML is the API reference, kept true by TestOpenAPIMatchesRoutes.
//
//go:embed openapi.yaml
var openapiYAML []byte

// openapiJSON is openapiYAML as JSON, made once.
var openapiJSON = func() []byte {
	var doc any
	if err := yaml.Unmarshal(openapiYAML, &doc); err != nil {
		panic(fmt.Sprintf("transport: openapi.yaml: %v", err))
	}
	out, err := json.Marshal(doc)
	if err != nil {
		panic(fmt.Sprintf("transport: openapi.yaml as JSON: %v", err))
	}
	return out
}()

func (s *Server) openapi(r *request) error {
	r.SetStatusCode(http.StatusOK)
	r.SetContentType("application/json; charset=utf-8")
	r.SetBody(openapiJSON)
	return nil
}

// OpenAPI is the API reference as GET /v1/openapi.json serves it: the
// test harness checks every answer against it (internal/contract).
func OpenAPI() []byte { return openapiJSON }
