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

// TestPullWritesOnlyInsideTheFolder: an asset name from the server that
// would lead out of assets/ is refused, and a folder whose assets/ is a
// symlink out of it gets nothing written through it.
func TestPullWritesOnlyInsideTheFolder(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "tpl")
	png := "data:image/png;base64,iVBORw0KGgo="
	for _, name := range []string{"../../escaped.png", "../escaped.png", "..", ".", "a/b.png", `..\x.png`, ".hidden", ""} {
		if _, _, err := sourceFiles(source{HTML: "<p>x</p>", Assets: map[string]string{name: png}}); err == nil {
			t.Errorf("asset %q: sourceFiles took it", name)
		}
	}
	// Even files that came in some other way stay inside the folder.
	if err := writeFolder(dir, files{markupFile: []byte("x"), "assets/../../escaped.png": []byte("x")}, folderMeta{Slug: "tpl"}); err == nil {
		t.Error("writeFolder wrote a path out of the folder")
	}
	if _, err := os.Stat(filepath.Join(base, "escaped.png")); err == nil {
		t.Fatal("a file was written out of the folder")
	}
	outside := filepath.Join(base, "outside")
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "keep.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(base, "linked")
	if err := os.MkdirAll(linked, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(linked, assetsDir)); err != nil {
		t.Fatal(err)
	}
	err := writeFolder(linked, files{markupFile: []byte("x"), "assets/logo.png": []byte("png")}, folderMeta{Slug: "tpl"})
	if err == nil {
		t.Error("writeFolder wrote through a symlink out of the folder")
	}
	if _, err := os.Stat(filepath.Join(outside, "logo.png")); err == nil {
		t.Error("logo.png was written out of the folder")
	}
	if b, err := os.ReadFile(filepath.Join(outside, "keep.txt")); err != nil || string(b) != "mine" {
		t.Errorf("a file out of the folder was removed or changed: %q, %v", b, err)
	}
}

// TestPushReadsOnlyInsideTheFolder: a template file or asset that is a
// symlink out of the folder is refused, not read and sent to the server; a
// symlink inside the folder is followed.
func TestPushReadsOnlyInsideTheFolder(t *testing.T) {
	base := t.TempDir()
	secret := filepath.Join(base, "id_ed25519")
	if err := os.WriteFile(secret, []byte("PRIVATE KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, link := range []string{markupFile, sampleFile, "assets/logo.png"} {
		t.Run(link, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "tpl")
			if err := os.MkdirAll(filepath.Join(dir, assetsDir), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, markupFile), []byte("<p>x</p>"), 0o644); err != nil {
				t.Fatal(err)
			}
			os.Remove(filepath.Join(dir, filepath.FromSlash(link)))
			if err := os.Symlink(secret, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
				t.Fatal(err)
			}
			f, _, err := readFolder(dir)
			if err == nil {
				t.Fatalf("readFolder followed %s out of the folder: %q", link, f[link])
			}
			if strings.Contains(err.Error(), "PRIVATE KEY") {
				t.Fatal("the error quotes the file")
			}
		})
	}
	dir := filepath.Join(t.TempDir(), "tpl")
	if err := os.MkdirAll(filepath.Join(dir, assetsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "shared.html"), []byte("<p>x</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("shared.html", filepath.Join(dir, markupFile)); err != nil {
		t.Fatal(err)
	}
	f, _, err := readFolder(dir)
	if err != nil || string(f[markupFile]) != "<p>x</p>" {
		t.Fatalf("a symlink inside the folder: %q, %v", f[markupFile], err)
	}
}

// TestPullLeavesOtherFilesAlone: a pull into a folder that is not yet
// the template's (no platen.json, or another template's) removes none of
// its files, as docs/cli.md promises; a pull into the template's own
// folder removes the assets the version no longer has.
func TestPullLeavesOtherFilesAlone(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, assetsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	mine := filepath.Join(dir, assetsDir, "site.css")
	if err := os.WriteFile(mine, []byte("body{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeFolder(dir, files{markupFile: []byte("a"), "assets/logo.png": []byte("png")}, folderMeta{Slug: "s"}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(mine); err != nil || string(b) != "body{}" {
		t.Fatalf("a pull into a project's folder removed its own file: %q, %v", b, err)
	}
	// Now the folder is s's: a pull of a version without logo.png removes it.
	if err := writeFolder(dir, files{markupFile: []byte("b"), "assets/site.css": []byte("body{}")}, folderMeta{Slug: "s"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, assetsDir, "logo.png")); err == nil {
		t.Fatal("the asset the version no longer has is still there")
	}
}
