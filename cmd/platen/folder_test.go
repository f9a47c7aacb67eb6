package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/platen/platen/starters"
)

// TestFolderRoundTrip: every starter, written as a folder and read back,
// is the same source, and its schema is in schema.json on its own.
func TestFolderRoundTrip(t *testing.T) {
	all, err := starters.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range all {
		t.Run(st.Slug, func(t *testing.T) {
			src := source{HTML: st.Version.HTML, Manifest: st.Version.Manifest, Content: st.Version.Content,
				SampleData: st.Version.SampleData, Assets: st.Version.Assets}
			f, types, err := sourceFiles(src)
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(t.TempDir(), st.Slug)
			if err := writeFolder(dir, f, folderMeta{Slug: st.Slug, Version: 1, AssetTypes: types}); err != nil {
				t.Fatal(err)
			}
			got, meta, err := readFolder(dir)
			if err != nil {
				t.Fatal(err)
			}
			if meta.Slug != st.Slug || meta.Version != 1 {
				t.Fatalf("platen.json: %+v", meta)
			}
			if c := changes(f, got); len(c) != 0 {
				t.Fatalf("written and read back, the files differ: %+v", c)
			}
			back, err := folderSource(got, meta.AssetTypes)
			if err != nil {
				t.Fatal(err)
			}
			if back.HTML != src.HTML || !sameJSON(t, back.Manifest, src.Manifest) || !sameJSON(t, back.SampleData, src.SampleData) ||
				!sameJSON(t, back.Content, src.Content) || len(back.Assets) != len(src.Assets) {
				t.Fatalf("the source read back differs")
			}
			for name, uri := range src.Assets {
				if back.Assets[name] != uri {
					t.Fatalf("asset %s differs", name)
				}
			}
			if strings.Contains(string(src.Manifest), "dataSchema") {
				if _, ok := got[schemaFile]; !ok || bytes.Contains(got[manifestFile], []byte("dataSchema")) {
					t.Fatalf("the schema is not in %s alone", schemaFile)
				}
			}
		})
	}
}

func sameJSON(t *testing.T, a, b json.RawMessage) bool {
	t.Helper()
	if emptyJSON(a) || emptyJSON(b) {
		return emptyJSON(a) == emptyJSON(b)
	}
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		t.Fatalf("not JSON: %s / %s", a, b)
	}
	ja, _ := json.Marshal(va)
	jb, _ := json.Marshal(vb)
	return bytes.Equal(ja, jb)
}

func TestFolderRefusals(t *testing.T) {
	for _, c := range []struct {
		files files
		want  string
	}{
		{files{manifestFile: []byte("{}")}, "template.html is missing"},
		{files{markupFile: []byte("x"), manifestFile: []byte("{\n  \"pageSize\": \"A4\",\n  oops\n}")}, "manifest.json: line 3"},
		{files{markupFile: []byte("x"), manifestFile: []byte(`{"dataSchema": {}}`), schemaFile: []byte("{}")}, "keep the schema in one of them"},
	} {
		if _, err := folderSource(c.files, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %q", c.files, err, c.want)
		}
	}
	for field, want := range map[string]string{
		"html":                           "template.html",
		"manifest.pageSize":              "manifest.json (pageSize)",
		"manifest.dataSchema.total.type": "schema.json (total.type)",
		"sampleData.items[0].price":      "sample.json (items[0].price)",
		"assets.logo.png":                "assets/logo.png",
	} {
		if got := fieldFile(field); got != want {
			t.Errorf("fieldFile(%q) = %q, want %q", field, got, want)
		}
	}
	// writeFolder removes an asset gone from the version, and leaves
	// files that are not the template's.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("mine"), 0o644)
	writeFolder(dir, files{markupFile: []byte("a"), "assets/x.png": []byte("png")}, folderMeta{Slug: "s"})
	writeFolder(dir, files{markupFile: []byte("b")}, folderMeta{Slug: "s"})
	if _, err := os.Stat(filepath.Join(dir, "assets", "x.png")); err == nil {
		t.Fatal("the removed asset is still there")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "README.md")); string(b) != "mine" {
		t.Fatal("README.md was touched")
	}
}

func TestUnescapeHTML(t *testing.T) {
	in := `{"a":"x \u0026 y \u003cb\u003e","b":"\\u0026 stays","c":"\"\u0026\""}`
	want := `{"a":"x & y <b>","b":"\\u0026 stays","c":"\"&\""}`
	got := unescapeHTML([]byte(in))
	if string(got) != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	var a, b any
	json.Unmarshal([]byte(in), &a)
	json.Unmarshal(got, &b)
	if !sameJSON(t, []byte(in), got) {
		t.Fatalf("not the same JSON: %v / %v", a, b)
	}
}
