package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/render"
)

// A template folder is a written template version as files a person edits
// and keeps under version control (docs/cli.md "Template folders"):
//
//	platen.json     which template the folder is, and the version it was pulled
//	                or last pushed as (written by pull and push)
//	template.html   the Handlebars markup ("html")
//	manifest.json   the manifest without its data schema ("manifest")
//	schema.json     the manifest's dataSchema, on its own ("manifest.dataSchema")
//	sample.json     the sample data ("sampleData")
//	content.json    the static content ("content")
//	assets/NAME     each asset, decoded ("assets")
//
// It is also a folder `platen render` renders, and the starters' folders
// (manifest.json holding dataSchema, no schema.json) read the same way.

// Names of a folder's files.
const (
	metaFile     = "platen.json"
	markupFile   = "template.html"
	manifestFile = "manifest.json"
	schemaFile   = "schema.json"
	sampleFile   = "sample.json"
	contentFile  = "content.json"
	assetsDir    = "assets"
)

// source is a written version's source as the API carries it.
type source struct {
	HTML       string
	Manifest   json.RawMessage
	Content    json.RawMessage
	SampleData json.RawMessage
	Assets     map[string]string // data URIs
}

// folderMeta is platen.json.
type folderMeta struct {
	Slug        string `json:"slug"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	// Version is the version the files were pulled as or last pushed as:
	// the one a push compares them with.
	Version int `json:"version,omitempty"`
	// AssetTypes are the assets' media types, where a name's extension
	// would not say the same.
	AssetTypes map[string]string `json:"assetTypes,omitempty"`
}

// files are a folder's template files by slash path, as written.
type files map[string][]byte

// sourceFiles is src as a folder's files, and the media types of assets
// whose names do not give them.
func sourceFiles(src source) (files, map[string]string, error) {
	out := files{markupFile: []byte(src.HTML)}
	if !emptyJSON(src.Manifest) {
		members, err := objectMembers(src.Manifest)
		if err != nil {
			return nil, nil, fmt.Errorf("the version's manifest: %w", err)
		}
		var rest []member
		for _, m := range members {
			if m.key == "dataSchema" {
				if !emptyJSON(m.raw) {
					out[schemaFile] = indentJSON(m.raw)
				}
				continue
			}
			rest = append(rest, m)
		}
		out[manifestFile] = indentJSON(joinMembers(rest))
	}
	if !emptyJSON(src.SampleData) {
		out[sampleFile] = indentJSON(src.SampleData)
	}
	if !emptyJSON(src.Content) {
		out[contentFile] = indentJSON(src.Content)
	}
	types := map[string]string{}
	for name, uri := range src.Assets {
		if !assetFileName(name) {
			return nil, nil, fmt.Errorf("asset %q: not a plain file name; it is not written", name)
		}
		typ, data, err := render.DecodeDataURI(uri)
		if err != nil {
			return nil, nil, fmt.Errorf("asset %s: %w", name, err)
		}
		out[assetsDir+"/"+name] = data
		if typeByName(name) != typ {
			types[name] = typ
		}
	}
	return out, types, nil
}

// assetFileName reports whether an asset's name, as the server gives it,
// is a plain file name that assets/NAME keeps inside the folder: no
// separator, not "." or "..", not hidden (readFolder skips those). The API
// allows less (render's assetNameRE); this guards against a server that
// sends more.
func assetFileName(name string) bool {
	return name != "" && !strings.ContainsAny(name, `/\`+"\x00") && !strings.HasPrefix(name, ".") && filepath.IsLocal(name)
}

// folderSource is the source the files make, with asset types from
// platen.json where a name's extension does not give one.
func folderSource(f files, assetTypes map[string]string) (source, error) {
	var src source
	html, ok := f[markupFile]
	if !ok {
		return src, fmt.Errorf("%s is missing: the template's markup", markupFile)
	}
	src.HTML = string(html)
	for _, name := range []string{manifestFile, schemaFile, sampleFile, contentFile} {
		if b, ok := f[name]; ok {
			if err := checkJSON(name, b); err != nil {
				return src, err
			}
		}
	}
	manifest, hasManifest := f[manifestFile]
	schema, hasSchema := f[schemaFile]
	switch {
	case hasManifest && hasSchema:
		members, err := objectMembers(manifest)
		if err != nil {
			return src, fmt.Errorf("%s: %w", manifestFile, err)
		}
		for _, m := range members {
			if m.key == "dataSchema" {
				return src, fmt.Errorf("%s has a dataSchema and %s is there too: keep the schema in one of them", manifestFile, schemaFile)
			}
		}
		src.Manifest = joinMembers(append(members, member{"dataSchema", bytes.TrimSpace(schema)}))
	case hasManifest:
		src.Manifest = bytes.TrimSpace(manifest)
	case hasSchema:
		src.Manifest = joinMembers([]member{{"dataSchema", bytes.TrimSpace(schema)}})
	}
	if b, ok := f[sampleFile]; ok {
		src.SampleData = bytes.TrimSpace(b)
	}
	if b, ok := f[contentFile]; ok {
		src.Content = bytes.TrimSpace(b)
	}
	for p, data := range f {
		name, ok := strings.CutPrefix(p, assetsDir+"/")
		if !ok {
			continue
		}
		typ := assetTypes[name]
		if typ == "" {
			typ = typeByName(name)
		}
		if typ == "" {
			typ = http.DetectContentType(data)
			if i := strings.IndexByte(typ, ';'); i >= 0 {
				typ = typ[:i]
			}
		}
		if src.Assets == nil {
			src.Assets = map[string]string{}
		}
		src.Assets[name] = "data:" + typ + ";base64," + base64.StdEncoding.EncodeToString(data)
	}
	return src, nil
}

// readFolder reads a template folder's files and its platen.json (zero
// when absent). Files other than the template's are left alone. Every read
// stays inside dir (os.Root): a symlink that leads out of the folder is
// refused, so that a push cannot send a file from elsewhere on the machine
// (a checkout's assets/logo.png -> ~/.ssh/id_ed25519) to the server.
func readFolder(dir string) (files, folderMeta, error) {
	var meta folderMeta
	if st, err := os.Stat(dir); err != nil {
		return nil, meta, err
	} else if !st.IsDir() {
		return nil, meta, fmt.Errorf("%s is not a folder", dir)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, meta, err
	}
	defer root.Close()
	read := func(name string) ([]byte, error) {
		b, err := root.ReadFile(name)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: %w (a template folder's files must be inside it)", filepath.Join(dir, filepath.FromSlash(name)), err)
		}
		return b, err
	}
	f := files{}
	if b, err := read(metaFile); err == nil {
		if err := checkJSON(metaFile, b); err != nil {
			return nil, meta, err
		}
		if err := json.Unmarshal(b, &meta); err != nil {
			return nil, meta, fmt.Errorf("%s: %v", metaFile, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, meta, err
	}
	if meta.Slug == "" {
		// A starter's folder names itself in meta.json.
		if b, err := read("meta.json"); err == nil {
			json.Unmarshal(b, &meta)
		}
	}
	for _, name := range []string{markupFile, manifestFile, schemaFile, sampleFile, contentFile} {
		b, err := read(name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, meta, err
		}
		f[name] = b
	}
	entries, err := fs.ReadDir(root.FS(), assetsDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, meta, fmt.Errorf("%s: %w (a template folder's files must be inside it)", filepath.Join(dir, assetsDir), err)
	}
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		b, err := read(assetsDir + "/" + e.Name())
		if err != nil {
			return nil, meta, err
		}
		f[assetsDir+"/"+e.Name()] = b
	}
	return f, meta, nil
}

// writeFolder writes f and meta into dir, removing template files of dir
// that f does not hold (an asset removed since) when dir already is this
// template's folder (its platen.json names meta's slug), and leaving other
// files: a pull into a folder that is not yet a template's (a project with
// an assets/ folder of its own) removes none of its files. Every write
// stays inside dir (os.Root), whatever symlinks the folder holds.
func writeFolder(dir string, f files, meta folderMeta) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	old, oldMeta, err := readFolder(dir)
	if err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	_, statErr := root.Stat(metaFile)
	ours := statErr == nil && oldMeta.Slug == meta.Slug
	for p := range old {
		if _, ok := f[p]; !ok && ours {
			if err := root.Remove(p); err != nil {
				return err
			}
		}
	}
	for p, b := range f {
		if !filepath.IsLocal(filepath.FromSlash(p)) {
			return fmt.Errorf("%s: not a file name inside the folder", p)
		}
		if d := path.Dir(p); d != "." {
			if err := root.MkdirAll(d, 0o755); err != nil {
				return err
			}
		}
		if err := root.WriteFile(p, b, 0o644); err != nil {
			return fmt.Errorf("%s: %w", filepath.Join(dir, filepath.FromSlash(p)), err)
		}
	}
	raw, err := json.MarshalIndent(meta, "", "  ")
	if err != nil {
		return err
	}
	return root.WriteFile(metaFile, append(raw, '\n'), 0o644)
}

// fileChange is how one file of a folder differs from a version's.
type fileChange struct {
	Path string `json:"path"`
	// Change is "added", "removed" or "changed".
	Change string `json:"change"`
	// Diff is the unified diff of a text file.
	Diff string `json:"diff,omitempty"`
	// Bytes is an asset's size before and after.
	Bytes [2]int `json:"bytes,omitzero"`
}

// changes lists how now differs from before, file by file in path order.
func changes(before, now files) []fileChange {
	paths := map[string]bool{}
	for p := range before {
		paths[p] = true
	}
	for p := range now {
		paths[p] = true
	}
	sorted := make([]string, 0, len(paths))
	for p := range paths {
		sorted = append(sorted, p)
	}
	sort.Strings(sorted)
	var out []fileChange
	for _, p := range sorted {
		b, inB := before[p]
		n, inN := now[p]
		if inB && inN && bytes.Equal(b, n) {
			continue
		}
		c := fileChange{Path: p}
		switch {
		case !inB:
			c.Change = "added"
		case !inN:
			c.Change = "removed"
		default:
			c.Change = "changed"
		}
		if strings.HasPrefix(p, assetsDir+"/") {
			c.Bytes = [2]int{len(b), len(n)}
		} else {
			c.Diff = unified("a/"+p, "b/"+p, string(b), string(n))
		}
		out = append(out, c)
	}
	return out
}

// fieldFile names the file of a folder that holds an API field of a
// version (html, manifest.pageSize, sampleData.items[0].price, assets.x.png).
func fieldFile(field string) string {
	switch {
	case field == "html":
		return markupFile
	case field == "manifest.dataSchema" || strings.HasPrefix(field, "manifest.dataSchema."):
		if rest := strings.TrimPrefix(field, "manifest.dataSchema"); rest != "" {
			return schemaFile + " (" + rest[1:] + ")"
		}
		return schemaFile
	case field == "manifest" || strings.HasPrefix(field, "manifest."):
		if rest := strings.TrimPrefix(field, "manifest"); rest != "" {
			return manifestFile + " (" + rest[1:] + ")"
		}
		return manifestFile
	case field == "sampleData" || strings.HasPrefix(field, "sampleData."):
		if rest := strings.TrimPrefix(field, "sampleData"); rest != "" {
			return sampleFile + " (" + rest[1:] + ")"
		}
		return sampleFile
	case field == "content" || strings.HasPrefix(field, "content."):
		return contentFile
	case strings.HasPrefix(field, "assets."):
		return assetsDir + "/" + strings.TrimPrefix(field, "assets.")
	case field == "assets":
		return assetsDir + "/"
	}
	return field
}

// member is one key of a JSON object and its raw value, in document order.
type member struct {
	key string
	raw json.RawMessage
}

// objectMembers are the members of a JSON object in the order written.
func objectMembers(raw []byte) ([]member, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, errors.New("must be a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.Token() // {
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, member{key, v})
	}
	return out, nil
}

// joinMembers is the JSON object of members, in their order.
func joinMembers(ms []member) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.raw)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// indentJSON is raw indented by two spaces, with a final newline, and
// &, < and > as themselves where Go's encoder wrote \u0026, \u003c and
// \u003e (the API answers so): raw must be valid.
func indentJSON(raw []byte) []byte {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return append(bytes.TrimSpace(raw), '\n')
	}
	b.WriteByte('\n')
	return unescapeHTML(b.Bytes())
}

// unescapeHTML replaces the escapes \u0026, \u003c and \u003e inside the
// strings of valid JSON by the characters they stand for, which is the
// same JSON.
func unescapeHTML(j []byte) []byte {
	if !bytes.Contains(j, []byte(`\u00`)) {
		return j
	}
	out := make([]byte, 0, len(j))
	for i := 0; i < len(j); i++ {
		if j[i] != '\\' || i+1 >= len(j) {
			out = append(out, j[i])
			continue
		}
		// An escape: \uXXXX or a two-byte one, copied unless it is one of ours.
		if j[i+1] == 'u' && i+6 <= len(j) {
			switch strings.ToLower(string(j[i+2 : i+6])) {
			case "0026":
				out = append(out, '&')
				i += 5
				continue
			case "003c":
				out = append(out, '<')
				i += 5
				continue
			case "003e":
				out = append(out, '>')
				i += 5
				continue
			}
		}
		out = append(out, j[i], j[i+1])
		i++
	}
	return out
}

func emptyJSON(raw []byte) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}

// checkJSON refuses a file that is not valid JSON, naming its line.
func checkJSON(name string, b []byte) error {
	var v any
	err := json.Unmarshal(b, &v)
	var se *json.SyntaxError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &se):
		line := 1 + bytes.Count(b[:min(int(se.Offset), len(b))], []byte("\n"))
		return fmt.Errorf("%s: line %d: %v", name, line, se)
	default:
		return fmt.Errorf("%s: %v", name, err)
	}
}

// typeByName is the media type a file name's extension gives, without
// parameters, or "".
func typeByName(name string) string {
	typ := mime.TypeByExtension(path.Ext(name))
	if i := strings.IndexByte(typ, ';'); i >= 0 {
		typ = typ[:i]
	}
	return typ
}

// inFolder words a refusal of field (a version's field, as the API and
// render.Version.Check name it) by the folder's file that holds it:
// "template.html: does not compile: Parse error on line 3 …".
func inFolder(field, msg string) error {
	msg = strings.TrimPrefix(msg, field+": ")
	return fmt.Errorf("%s: %s", fieldFile(field), msg)
}

// refusalInFolder is inFolder for a local check's error.
func refusalInFolder(err error) error {
	var fe *fault.FieldError
	if errors.As(err, &fe) {
		return inFolder(fe.Field, fe.Msg)
	}
	return err
}
