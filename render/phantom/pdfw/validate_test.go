package pdfw

import (
	"bytes"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
)

func init() { api.DisableConfigDir() }

// validate checks the file with pdfcpu in strict mode (ISO 32000-1).
func validate(t testing.TB, pdf []byte) {
	t.Helper()
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationStrict
	if err := api.Validate(bytes.NewReader(pdf), conf); err != nil {
		t.Errorf("pdfcpu strict validation: %v", err)
	}
}
