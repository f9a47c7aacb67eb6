package corpus

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/platen/platen/render"
	"github.com/platen/platen/starters"
)

// Document is one document of the corpus, filled and wrapped as production
// prints it.
type Document struct {
	// Name is "starter/<slug>" for a starter, else the file or folder name
	// under testdata without extension.
	Name string
	// Job is what an engine prints: the markup wrapped by render.Document,
	// the page geometry, and the filled header and footer.
	Job render.Job
	// Checked is the template version the document was filled from, with
	// its manifest, content and sample data decoded (not run through
	// Version.Check: see fromVersion).
	Checked *render.Checked
	// HandOff marks a document that uses what phantom does not implement:
	// the platform default must choose Chromium for it.
	HandOff bool
}

// HandOffPrefix starts the name of a document that must be handed to Chromium.
const HandOffPrefix = "handoff-"

// FillTime is the "now" of every fill, so a document's dates do not change
// between runs.
var FillTime = time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)

// A4 is the manifest of a bare .html document: A4, no page margin (a
// document sets its own with @page).
const A4 = `{"pageSize":"A4"}`

// Load returns the corpus: every starter of the library filled with its
// sample data, then the documents under dir (a folder of .html files and
// template folders), in name order.
func Load(dir string) ([]Document, error) {
	all, err := starters.All()
	if err != nil {
		return nil, err
	}
	var srcs []source
	for _, st := range all {
		srcs = append(srcs, source{"starter/" + st.Slug, st.Version})
	}
	docs, err := fill(srcs)
	if err != nil {
		return nil, err
	}
	mine, err := LoadDir(os.DirFS(dir))
	if err != nil {
		return nil, err
	}
	return append(docs, mine...), nil
}

// LoadDir reads the documents of a corpus folder: each NAME.html is a
// document on A4 with no page margin, and each folder NAME/ a template
// folder as starters.Load reads it (template.html, manifest.json,
// sample.json, assets/), filled with its sample data. They come in name
// order.
func LoadDir(fsys fs.FS) ([]Document, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	var srcs []source
	for _, e := range entries {
		name := e.Name()
		switch {
		case e.IsDir():
			sub, _ := fs.Sub(fsys, name)
			st, err := starters.Load(sub, name)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			srcs = append(srcs, source{name, st.Version})
		case path.Ext(name) == ".html":
			raw, err := fs.ReadFile(fsys, name)
			if err != nil {
				return nil, err
			}
			srcs = append(srcs, source{strings.TrimSuffix(name, ".html"), render.Version{HTML: string(raw), Manifest: []byte(A4)}})
		}
	}
	docs, err := fill(srcs)
	if err != nil {
		return nil, err
	}
	sort.Slice(docs, func(i, j int) bool { return docs[i].Name < docs[j].Name })
	return docs, nil
}

// source is a document before it is filled.
type source struct {
	name string
	v    render.Version
}

// fill fills the sources on every core: Handlebars' lexer is the slow part
// of loading the corpus (seconds under the race detector).
func fill(srcs []source) ([]Document, error) {
	docs := make([]Document, len(srcs))
	errs := make([]error, len(srcs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				docs[i], errs[i] = fromVersion(srcs[i].name, srcs[i].v)
			}
		}()
	}
	for i := range srcs {
		next <- i
	}
	close(next)
	wg.Wait()
	return docs, errors.Join(errs...)
}

// fromVersion fills and wraps a version as render.Renderer does. It does
// not run Version.Check, which parses the markup twice more (seconds under
// the race detector for the starters): the starters' own test checks them,
// and TestCorpusContents checks the corpus's folders.
func fromVersion(name string, v render.Version) (Document, error) {
	m, err := render.ParseManifest(v.Manifest, "manifest")
	if err != nil {
		return Document{}, fmt.Errorf("%s: %w", name, err)
	}
	c := &render.Checked{Version: v, Manifest: m, Content: map[string]any{}, Sample: map[string]any{}}
	for _, part := range []struct {
		raw []byte
		dst *map[string]any
	}{{v.Content, &c.Content}, {v.SampleData, &c.Sample}} {
		if len(part.raw) > 0 {
			if err := json.Unmarshal(part.raw, part.dst); err != nil {
				return Document{}, fmt.Errorf("%s: %w", name, err)
			}
		}
	}
	opt := render.FillOptions{Now: FillTime}
	filled, err := render.Fill(c, c.Sample, opt)
	if err != nil {
		return Document{}, fmt.Errorf("%s: %w", name, err)
	}
	header, footer, err := render.FillHeaderFooter(c, c.Sample, opt)
	if err != nil {
		return Document{}, fmt.Errorf("%s: %w", name, err)
	}
	g := c.Manifest.Geometry()
	return Document{
		Name:    name,
		Checked: c,
		Job:     render.Job{HTML: render.Document(filled, g, ""), Geometry: g, Tagged: c.Manifest.TaggedPDF, Header: header, Footer: footer},
		HandOff: strings.HasPrefix(path.Base(name), HandOffPrefix),
	}, nil
}
