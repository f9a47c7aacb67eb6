package render

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/render/handlebars"
)

// Limits on a version (spec "Template version", "Limits").
const (
	MaxAssetBytes       = 1 << 20 // each, decoded
	MaxAssetsTotalBytes = 4 << 20
	MaxHTMLBytes        = 2 << 20
	maxAssets           = 64
)

// Version is the source of a written template version as a user saves it.
type Version struct {
	HTML       string            `json:"html"`
	Content    json.RawMessage   `json:"content,omitempty"`
	Manifest   json.RawMessage   `json:"manifest,omitempty"`
	SampleData json.RawMessage   `json:"sampleData,omitempty"`
	Assets     map[string]string `json:"assets,omitempty"`
}

// Checked is a version that passed Check, with its parts decoded.
type Checked struct {
	Version
	Manifest Manifest
	Content  map[string]any
	Sample   map[string]any
	// PDF, when set, is a version of a template made from an uploaded
	// PDF; the rest is empty.
	PDF *PDFTemplate
	// parsed is the markup as Check compiled it, which fills reuse: a
	// version that is checked and rendered once (a draft preview) parses
	// its markup once for both. It holds its source, since a fill of a
	// Checked whose HTML changed since must not use it.
	parsed *parsedHTML
}

// parsedHTML is markup and its compiled template, helpers registered.
type parsedHTML struct {
	src string
	tpl *handlebars.Template
}

var assetNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)

// assetTypes are the media types an asset may have: images, and fonts for
// templates that embed their own.
var assetTypes = []string{"image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml",
	"font/woff2", "font/woff", "font/ttf", "font/otf", "application/font-woff", "application/x-font-ttf"}

// Check validates a version at save time: its manifest, that its markup
// compiles and fills with its sample data, that the sample data satisfies its
// own schema, and its assets. Refusals name the field.
func (v Version) Check() (*Checked, error) {
	c := &Checked{Version: v}
	if strings.TrimSpace(v.HTML) == "" {
		return nil, fault.Invalid("html", "is required: the template's markup")
	}
	if len(v.HTML) > MaxHTMLBytes {
		return nil, fault.Invalid("html", "is %d bytes; the limit is %d", len(v.HTML), MaxHTMLBytes)
	}
	var err error
	if c.Manifest, err = ParseManifest(v.Manifest, "manifest"); err != nil {
		return nil, err
	}
	if c.Content, err = objectOf(v.Content, "content"); err != nil {
		return nil, err
	}
	if c.Sample, err = objectOf(v.SampleData, "sampleData"); err != nil {
		return nil, err
	}
	if err := checkAssets(v.Assets); err != nil {
		return nil, err
	}
	tpl, err := parse(c)
	if err != nil {
		return nil, fault.Invalid("html", "does not compile: %v", err)
	}
	c.parsed = &parsedHTML{src: v.HTML, tpl: tpl}
	if err := lintCalls(tpl); err != nil {
		return nil, fault.Invalid("html", "%v", err)
	}
	if err := c.Manifest.DataSchema.Validate(c.Sample); err != nil {
		var fe *fault.FieldError
		if errorsAs(err, &fe) {
			return nil, fault.Invalid("sampleData."+fe.Field, "%s (the sample data must satisfy the template's own schema)", fe.Msg)
		}
		return nil, err
	}
	filled, err := Fill(c, c.Sample, FillOptions{})
	if err != nil {
		return nil, fault.Invalid("html", "cannot be filled with the sample data: %v", err)
	}
	if err := checkPageRules(filled); err != nil {
		return nil, fault.Invalid("html", "%v", err)
	}
	return c, nil
}

func objectOf(raw json.RawMessage, field string) (map[string]any, error) {
	out := map[string]any{}
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		return out, nil
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fault.Invalid(field, "must be a JSON object")
	}
	return out, nil
}

func checkAssets(assets map[string]string) error {
	if len(assets) > maxAssets {
		return fault.Invalid("assets", "holds %d assets; the limit is %d", len(assets), maxAssets)
	}
	names := make([]string, 0, len(assets))
	for n := range assets {
		names = append(names, n)
	}
	sort.Strings(names)
	total := 0
	for _, name := range names {
		field := "assets." + name
		if !assetNameRE.MatchString(name) {
			return fault.Invalid(field, "a file name is letters, digits, '.', '_' and '-', at most 100 characters")
		}
		mediaType, data, err := DecodeDataURI(assets[name])
		if err != nil {
			return fault.Invalid(field, "must be a base64 data URI such as data:image/png;base64,…: %v", err)
		}
		if !slices.Contains(assetTypes, mediaType) {
			return fault.Invalid(field, "has type %s; assets may be %s", mediaType, strings.Join(assetTypes, ", "))
		}
		if len(data) > MaxAssetBytes {
			return fault.Invalid(field, "is %d bytes; an asset may be at most %d (1 MB)", len(data), MaxAssetBytes)
		}
		total += len(data)
	}
	if total > MaxAssetsTotalBytes {
		return fault.Invalid("assets", "total %d bytes; the limit is %d (4 MB)", total, MaxAssetsTotalBytes)
	}
	return nil
}

// DecodeDataURI reads a base64 data URI.
func DecodeDataURI(uri string) (mediaType string, data []byte, err error) {
	rest, ok := strings.CutPrefix(uri, "data:")
	if !ok {
		return "", nil, fmt.Errorf("not a data URI")
	}
	meta, payload, ok := strings.Cut(rest, ",")
	if !ok {
		return "", nil, fmt.Errorf("no comma after the media type")
	}
	mediaType, isBase64 := strings.CutSuffix(meta, ";base64")
	if !isBase64 {
		return "", nil, fmt.Errorf("not base64")
	}
	mediaType, _, _ = strings.Cut(mediaType, ";")
	data, err = base64.StdEncoding.DecodeString(payload)
	if err != nil {
		return "", nil, fmt.Errorf("bad base64: %v", err)
	}
	return strings.ToLower(mediaType), data, nil
}

// CMYKAssets names the assets that are CMYK JPEGs, which a PDF/A file
// cannot hold under its sRGB output intent, so that a refusal can point at
// them.
func CMYKAssets(assets map[string]string) []string {
	var out []string
	for name, uri := range assets {
		mediaType, data, err := DecodeDataURI(uri)
		if err == nil && mediaType == "image/jpeg" && jpegComponents(data) == 4 {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// jpegComponents reads the number of colour components from a JPEG's
// frame header, or 0.
func jpegComponents(b []byte) int {
	if len(b) < 4 || b[0] != 0xFF || b[1] != 0xD8 {
		return 0
	}
	for i := 2; i+4 <= len(b); {
		if b[i] != 0xFF {
			return 0
		}
		m := b[i+1]
		if m == 0xFF { // fill byte
			i++
			continue
		}
		n := int(b[i+2])<<8 | int(b[i+3])
		switch {
		case m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC:
			if i+9 < len(b) {
				return int(b[i+9])
			}
			return 0
		case m == 0xDA || m == 0xD9:
			return 0
		}
		i += 2 + n
	}
	return 0
}
