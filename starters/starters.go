// Package starters is the starter library: complete written templates, each
// with schema and sample data, that an organisation copies and generates from
// at once (spec "What the service does"). Each starter is a template folder
// (see Load) embedded in the binary.
package starters

import (
	"embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"mime"
	"path"
	"sort"
	"strings"

	"github.com/platen/platen/render"
)

// Starter is one template of the library.
type Starter struct {
	Slug        string         `json:"slug"`
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Category    string         `json:"category,omitempty"`
	Version     render.Version `json:"-"`
}

// A template folder holds:
//
//	template.html   the Handlebars markup (required)
//	manifest.json   the manifest
//	content.json    static content (optional)
//	sample.json     sample data
//	meta.json       {"name", "description", "category"} (starters)
//	assets/         images and fonts, made into data URIs by extension
func Load(fsys fs.FS, slug string) (Starter, error) {
	s := Starter{Slug: slug}
	html, err := fs.ReadFile(fsys, "template.html")
	if err != nil {
		return s, fmt.Errorf("template folder: %w", err)
	}
	s.Version.HTML = string(html)
	for name, dst := range map[string]*json.RawMessage{"manifest.json": &s.Version.Manifest, "content.json": &s.Version.Content, "sample.json": &s.Version.SampleData} {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			continue
		}
		if !json.Valid(b) {
			return s, fmt.Errorf("template folder: %s is not valid JSON", name)
		}
		*dst = b
	}
	if b, err := fs.ReadFile(fsys, "meta.json"); err == nil {
		if err := json.Unmarshal(b, &s); err != nil {
			return s, fmt.Errorf("template folder: meta.json: %w", err)
		}
		s.Slug = slug
	}
	entries, _ := fs.ReadDir(fsys, "assets")
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := fs.ReadFile(fsys, path.Join("assets", e.Name()))
		if err != nil {
			return s, err
		}
		typ := mime.TypeByExtension(path.Ext(e.Name()))
		if i := strings.IndexByte(typ, ';'); i >= 0 {
			typ = typ[:i]
		}
		if typ == "" {
			return s, fmt.Errorf("template folder: unknown type of asset %s", e.Name())
		}
		if s.Version.Assets == nil {
			s.Version.Assets = map[string]string{}
		}
		s.Version.Assets[e.Name()] = "data:" + typ + ";base64," + base64.StdEncoding.EncodeToString(b)
	}
	return s, nil
}

//go:embed all:library
var library embed.FS

// All returns every starter, in slug order.
func All() ([]Starter, error) {
	entries, err := fs.ReadDir(library, "library")
	if err != nil {
		return nil, err
	}
	var out []Starter
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		sub, _ := fs.Sub(library, "library/"+e.Name())
		s, err := Load(sub, e.Name())
		if err != nil {
			return nil, fmt.Errorf("starter %s: %w", e.Name(), err)
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Slug < out[j].Slug })
	return out, nil
}

// Find returns the starter with slug.
func Find(slug string) (Starter, bool) {
	all, err := All()
	if err != nil {
		return Starter{}, false
	}
	for _, s := range all {
		if s.Slug == slug {
			return s, true
		}
	}
	return Starter{}, false
}
