// Package pdfstruct reads a tagged PDF's structure tree for tests, with
// tools that do not share Platen's code: qpdf's JSON (qpdf --json=2) for the
// elements and their attributes, and poppler's pdfinfo -struct-text for the
// text each element reads. A browser-free reader's view of the document.
package pdfstruct

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// Elem is one structure element.
type Elem struct {
	Role    string
	Alt     *string // nil when absent
	Lang    string
	Scope   string
	Headers []string
	Kids    []*Elem
	// MCIDs counts the marked-content references among its kids, and
	// Annots the annotations (OBJR).
	MCIDs, Annots int
}

// Doc is what a tagged PDF says of itself.
type Doc struct {
	Root *Elem
	// Marked is the catalog's MarkInfo /Marked; Lang its /Lang;
	// DisplayDocTitle its viewer preference; Title the Info dictionary's.
	Marked          bool
	Lang            string
	DisplayDocTitle bool
	// PagesWithStructParents counts pages that have /StructParents, of
	// Pages; LinksTagged counts link annotations with /StructParent, of
	// Links.
	Pages, PagesWithStructParents int
	Links, LinksTagged            int
	// ParentTreeKeys is the number of entries of the parent tree;
	// NextKey its ParentTreeNextKey.
	ParentTreeKeys, NextKey int
}

// Read runs qpdf --json=2 on file and walks the structure tree.
func Read(file []byte) (*Doc, error) {
	dir, err := os.MkdirTemp("", "pdfstruct")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "in.pdf")
	if err := os.WriteFile(path, file, 0o600); err != nil {
		return nil, err
	}
	out, err := exec.Command("qpdf", "--json=2", "--json-stream-data=none", path).Output()
	if err != nil {
		return nil, fmt.Errorf("qpdf: %v", err)
	}
	var top struct {
		QPDF []json.RawMessage `json:"qpdf"`
	}
	if err := json.Unmarshal(out, &top); err != nil || len(top.QPDF) < 2 {
		return nil, fmt.Errorf("qpdf json: %v", err)
	}
	var objs map[string]struct {
		Value  any `json:"value"`
		Stream *struct {
			Dict map[string]any `json:"dict"`
		} `json:"stream"`
	}
	if err := json.Unmarshal(top.QPDF[1], &objs); err != nil {
		return nil, err
	}
	get := func(ref any) map[string]any {
		s, ok := ref.(string)
		if !ok {
			m, _ := ref.(map[string]any)
			return m
		}
		o, ok := objs["obj:"+s]
		if !ok {
			return nil
		}
		if o.Stream != nil {
			return o.Stream.Dict
		}
		m, _ := o.Value.(map[string]any)
		return m
	}
	trailer := objs["trailer"]
	td, _ := trailer.Value.(map[string]any)
	if trailer.Stream != nil {
		td = trailer.Stream.Dict
	}
	cat := get(td["/Root"])
	if cat == nil {
		return nil, fmt.Errorf("no catalog")
	}
	d := &Doc{Lang: text(cat["/Lang"])}
	if mi := get(cat["/MarkInfo"]); mi != nil {
		d.Marked, _ = mi["/Marked"].(bool)
	}
	if vp := get(cat["/ViewerPreferences"]); vp != nil {
		d.DisplayDocTitle, _ = vp["/DisplayDocTitle"].(bool)
	}
	for _, o := range objs {
		m, _ := o.Value.(map[string]any)
		switch {
		case m == nil:
		case m["/Type"] == "/Page":
			d.Pages++
			if _, ok := m["/StructParents"]; ok {
				d.PagesWithStructParents++
			}
		case m["/Subtype"] == "/Link":
			d.Links++
			if _, ok := m["/StructParent"]; ok {
				d.LinksTagged++
			}
		}
	}
	str := get(cat["/StructTreeRoot"])
	if str == nil {
		return d, nil
	}
	if n, ok := str["/ParentTreeNextKey"].(float64); ok {
		d.NextKey = int(n)
	}
	if pt := get(str["/ParentTree"]); pt != nil {
		nums, _ := pt["/Nums"].([]any)
		d.ParentTreeKeys = len(nums) / 2
	}
	var walk func(ref any, depth int) *Elem
	walk = func(ref any, depth int) *Elem {
		m := get(ref)
		if m == nil || depth > 200 {
			return nil
		}
		e := &Elem{Role: strings.TrimPrefix(fmt.Sprint(m["/S"]), "/"), Lang: text(m["/Lang"])}
		if a, ok := m["/Alt"]; ok {
			s := text(a)
			e.Alt = &s
		}
		if a := get(m["/A"]); a != nil {
			e.Scope = strings.TrimPrefix(fmt.Sprint(a["/Scope"]), "/")
			if e.Scope == "<nil>" {
				e.Scope = ""
			}
			hs, _ := a["/Headers"].([]any)
			for _, h := range hs {
				e.Headers = append(e.Headers, text(h))
			}
		}
		kids, ok := m["/K"].([]any)
		if !ok {
			kids = []any{m["/K"]}
		}
		for _, k := range kids {
			switch k := k.(type) {
			case float64:
				e.MCIDs++
			case map[string]any:
				if k["/Type"] == "/MCR" {
					e.MCIDs++
				} else if k["/Type"] == "/OBJR" {
					e.Annots++
				}
			case string:
				if c := walk(k, depth+1); c != nil {
					e.Kids = append(e.Kids, c)
				}
			}
		}
		return e
	}
	d.Root = walk(str["/K"], 0)
	return d, nil
}

// text reads a qpdf JSON string: "u:…" text, "b:…" hex bytes, "/Name".
func text(v any) string {
	s, _ := v.(string)
	switch {
	case strings.HasPrefix(s, "u:"):
		return s[2:]
	case strings.HasPrefix(s, "b:"):
		var b []byte
		for i := 2; i+1 < len(s); i += 2 {
			n, _ := strconv.ParseUint(s[i:i+2], 16, 8)
			b = append(b, byte(n))
		}
		return string(b)
	}
	return strings.TrimPrefix(s, "/")
}

// Walk calls f for every element under e, depth first, in reading order.
func (e *Elem) Walk(f func(e *Elem, depth int)) {
	var walk func(e *Elem, d int)
	walk = func(e *Elem, d int) {
		f(e, d)
		for _, k := range e.Kids {
			walk(k, d+1)
		}
	}
	walk(e, 0)
}

// Outline is the structure tree as poppler reads it: each element's role,
// and the text of its content in reading order, one line each, indented by
// depth (pdfinfo -struct-text, with its attribute lines and inline/block
// notes left out).
func Outline(file []byte) (string, error) {
	dir, err := os.MkdirTemp("", "pdfstruct")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "in.pdf")
	if err := os.WriteFile(path, file, 0o600); err != nil {
		return "", err
	}
	out, err := exec.Command("pdfinfo", "-struct-text", path).Output()
	if err != nil {
		return "", fmt.Errorf("pdfinfo -struct-text: %v", err)
	}
	var b strings.Builder
	for _, line := range strings.Split(string(out), "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "/") || strings.HasPrefix(t, "Object ") {
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		t = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(t, " (block)"), " (inline)"), ":")
		b.WriteString(strings.Repeat(" ", indent) + t + "\n")
	}
	return b.String(), nil
}
