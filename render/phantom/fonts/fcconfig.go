package fonts

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// This file is the part of fontconfig that decides what a family name
// means: its configuration (fonts.conf and conf.d) read as fontconfig
// reads it, and its pattern substitution (FcConfigSubstitute) for the
// family list. Chromium asks fontconfig per family; emulating the same
// rules here makes phantom follow whatever fonts and configuration the
// machine has, as Chromium does, without calling fontconfig per render.
//
// Only what decides a family is interpreted: <alias> (prefer, accept,
// default, binding), and <match target="pattern"> rules whose tests and
// edits are on the family. Rules that test anything else (lang, spacing,
// color) never match a pattern phantom builds, as they never match the
// patterns Chromium builds for Latin text.

// fcConfig is the parsed configuration.
type fcConfig struct {
	// dirs are the font directories the configuration names.
	dirs []string
	// rules are the pattern rules in the order fontconfig applies them.
	rules []fcRule
}

// fcFamily is one value of a pattern's family list.
type fcFamily struct {
	name   string
	fold   string // foldFamily(name)
	strong bool
}

type fcRule struct {
	tests []fcTest
	edits []fcEdit
}

type fcTest struct {
	family bool   // a test of the family; others never match
	all    bool   // qual="all" (else any)
	notEq  bool   // compare="not_eq" (else eq)
	value  string // folded
}

type fcEdit struct {
	mode    string // assign, assign_replace, prepend, prepend_first, append, append_last, delete, delete_all
	binding string // weak, strong, same
	values  []string
}

// maxConfFiles and maxConfBytes bound what a broken or hostile
// configuration can make the scan read.
const (
	maxConfFiles = 512
	maxConfBytes = 4 << 20
)

// loadFcConfig reads root/fonts.conf and what it includes. A missing
// configuration leaves only Debian's default directories.
func loadFcConfig(root string) *fcConfig {
	return loadFcConfigFile(filepath.Join(root, "fonts.conf"))
}

// loadFcConfigFile reads a fonts.conf and what it includes (its conf.d
// when the file is missing).
func loadFcConfigFile(name string) *fcConfig {
	c := &fcConfig{}
	ld := confLoader{cfg: c, seen: make(map[string]bool)}
	if !ld.file(name) {
		ld.dir(filepath.Join(filepath.Dir(name), "conf.d"))
	}
	return c
}

type confLoader struct {
	cfg   *fcConfig
	seen  map[string]bool
	files int
}

func (ld *confLoader) dir(d string) {
	names, _ := filepath.Glob(filepath.Join(d, "*.conf"))
	sort.Strings(names)
	for _, n := range names {
		ld.file(n)
	}
}

// file loads one configuration file; false when it cannot be read.
func (ld *confLoader) file(name string) bool {
	if ld.seen[name] || ld.files >= maxConfFiles {
		return ld.seen[name]
	}
	ld.seen[name] = true
	ld.files++
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	b, err := io.ReadAll(io.LimitReader(f, maxConfBytes))
	f.Close()
	if err != nil {
		return false
	}
	root, err := parseXML(b)
	if err != nil {
		return true
	}
	base := filepath.Dir(name)
	for _, e := range root.kids {
		ld.element(e, base)
	}
	return true
}

func (ld *confLoader) element(e *xnode, base string) {
	switch e.name {
	case "dir":
		if d := expandDir(e.text(), e.attr("prefix"), base); d != "" {
			ld.cfg.dirs = append(ld.cfg.dirs, d)
		}
	case "include":
		p := expandDir(e.text(), e.attr("prefix"), base)
		if p == "" {
			return
		}
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			ld.dir(p)
		} else {
			ld.file(p)
		}
	case "alias":
		ld.alias(e)
	case "match":
		if t := e.attr("target"); t == "" || t == "pattern" {
			ld.match(e)
		}
	}
}

// expandDir resolves a <dir> or <include> path as fontconfig does.
func expandDir(p, prefix, base string) string {
	p = strings.TrimSpace(p)
	if p == "" {
		return ""
	}
	home, _ := os.UserHomeDir()
	switch {
	case prefix == "xdg":
		data := os.Getenv("XDG_DATA_HOME")
		if data == "" {
			if home == "" {
				return ""
			}
			data = filepath.Join(home, ".local", "share")
		}
		return filepath.Join(data, p)
	case strings.HasPrefix(p, "~"):
		if home == "" {
			return ""
		}
		return filepath.Join(home, p[1:])
	case prefix == "relative" || !filepath.IsAbs(p):
		return filepath.Join(base, p)
	}
	return p
}

// alias is <alias>: a rule testing the family, prepending the preferred
// families before it, appending the accepted ones after it and the
// defaults at the end.
func (ld *confLoader) alias(e *xnode) {
	binding := e.attr("binding")
	if binding == "" {
		binding = "weak"
	}
	var fams []string
	var prefer, accept, def []string
	for _, k := range e.kids {
		switch k.name {
		case "family":
			fams = append(fams, k.text())
		case "prefer":
			prefer = append(prefer, k.familyTexts()...)
		case "accept":
			accept = append(accept, k.familyTexts()...)
		case "default":
			def = append(def, k.familyTexts()...)
		}
	}
	for _, f := range fams {
		r := fcRule{tests: []fcTest{{family: true, value: foldFamily(f)}}}
		if len(prefer) > 0 {
			r.edits = append(r.edits, fcEdit{mode: "prepend", binding: binding, values: prefer})
		}
		if len(accept) > 0 {
			r.edits = append(r.edits, fcEdit{mode: "append", binding: binding, values: accept})
		}
		if len(def) > 0 {
			r.edits = append(r.edits, fcEdit{mode: "append_last", binding: binding, values: def})
		}
		if len(r.edits) > 0 {
			ld.cfg.rules = append(ld.cfg.rules, r)
		}
	}
}

// match is <match target="pattern">, kept when it edits the family.
func (ld *confLoader) match(e *xnode) {
	var r fcRule
	editsFamily := false
	for _, k := range e.kids {
		switch k.name {
		case "test":
			if k.attr("target") == "font" {
				return
			}
			t := fcTest{family: k.attr("name") == "family", all: k.attr("qual") == "all"}
			switch k.attr("compare") {
			case "", "eq":
			case "not_eq":
				t.notEq = true
			default:
				t.family = false
			}
			if strs := k.childTexts("string"); len(strs) == 1 {
				t.value = foldFamily(strs[0])
			} else {
				t.family = false
			}
			r.tests = append(r.tests, t)
		case "edit":
			if k.attr("name") != "family" {
				continue
			}
			editsFamily = true
			mode := k.attr("mode")
			if mode == "" {
				mode = "assign"
			}
			binding := k.attr("binding")
			if binding == "" {
				binding = "weak"
			}
			r.edits = append(r.edits, fcEdit{mode: mode, binding: binding, values: k.childTexts("string")})
		}
	}
	if editsFamily {
		ld.cfg.rules = append(ld.cfg.rules, r)
	}
}

// substitute is FcConfigSubstitute for the family list of a pattern that
// names one family (or none, for the per-character fallback).
func (c *fcConfig) substitute(family string) []fcFamily {
	var list []fcFamily
	if family != "" {
		list = append(list, fcFamily{name: family, fold: foldFamily(family), strong: true})
	}
	for i := range c.rules {
		list = c.rules[i].apply(list)
	}
	return list
}

// apply runs one rule over the family list.
func (r *fcRule) apply(list []fcFamily) []fcFamily {
	pos := -1
	for _, t := range r.tests {
		if !t.family {
			// Only a negated test of something the pattern lacks holds.
			if !t.notEq {
				return list
			}
			continue
		}
		if t.all {
			for _, v := range list {
				if (v.fold == t.value) == t.notEq {
					return list
				}
			}
			continue
		}
		found := -1
		for i, v := range list {
			if (v.fold == t.value) != t.notEq {
				found = i
				break
			}
		}
		if found < 0 {
			return list
		}
		pos = found
	}
	for _, e := range r.edits {
		strong := false
		switch e.binding {
		case "strong":
			strong = true
		case "same":
			// FcConfigAdd: "same" takes the binding of the value the
			// edit is placed against; at the ends of the list it is weak.
			switch e.mode {
			case "assign", "prepend", "append", "delete":
				strong = pos >= 0 && pos < len(list) && list[pos].strong
			}
		}
		vals := make([]fcFamily, len(e.values))
		for i, v := range e.values {
			vals[i] = fcFamily{name: v, fold: foldFamily(v), strong: strong}
		}
		switch e.mode {
		case "assign":
			if pos >= 0 && pos < len(list) {
				list = splice(list, pos, pos+1, vals)
				if len(vals) == 0 {
					pos = -1
				}
			} else {
				list = vals
			}
		case "assign_replace":
			list, pos = vals, -1
		case "prepend":
			if pos >= 0 && pos < len(list) {
				list = splice(list, pos, pos, vals)
				pos += len(vals)
			} else {
				list = splice(list, 0, 0, vals)
			}
		case "prepend_first":
			list = splice(list, 0, 0, vals)
			if pos >= 0 {
				pos += len(vals)
			}
		case "append":
			if pos >= 0 && pos < len(list) {
				list = splice(list, pos+1, pos+1, vals)
			} else {
				list = append(list, vals...)
			}
		case "append_last":
			list = append(list, vals...)
		case "delete":
			if pos >= 0 && pos < len(list) {
				list = splice(list, pos, pos+1, nil)
				pos = -1
			}
		case "delete_all":
			list, pos = nil, -1
		}
	}
	return list
}

func splice(list []fcFamily, i, j int, vals []fcFamily) []fcFamily {
	out := make([]fcFamily, 0, len(list)-(j-i)+len(vals))
	out = append(out, list[:i]...)
	out = append(out, vals...)
	return append(out, list[j:]...)
}

// xnode is a parsed XML element: enough of a DOM for fontconfig's files.
type xnode struct {
	name  string
	attrs []xattr
	kids  []*xnode
	chars []byte
}

type xattr struct{ name, value string }

func (n *xnode) attr(name string) string {
	for _, a := range n.attrs {
		if a.name == name {
			return a.value
		}
	}
	return ""
}

func (n *xnode) text() string { return strings.TrimSpace(string(n.chars)) }

func (n *xnode) familyTexts() []string { return n.childTexts("family") }

func (n *xnode) childTexts(name string) []string {
	var out []string
	for _, k := range n.kids {
		if k.name == name {
			out = append(out, k.text())
		}
	}
	return out
}

// maxXMLDepth bounds nesting in a configuration file.
const maxXMLDepth = 64

// parseXML reads a fontconfig file into a tree: elements, attributes and
// text, skipping the prolog, comments and processing instructions. It is
// a small tokenizer of its own because encoding/xml took most of the
// library's start-up; malformed input ends the parse, never panics.
func parseXML(b []byte) (*xnode, error) {
	root := &xnode{}
	stack := []*xnode{root}
	for i := 0; i < len(b); {
		top := stack[len(stack)-1]
		if b[i] != '<' {
			j := bytes.IndexByte(b[i:], '<')
			if j < 0 {
				j = len(b) - i
			}
			top.chars = append(top.chars, unescapeXML(b[i:i+j])...)
			i += j
			continue
		}
		switch {
		case bytes.HasPrefix(b[i:], []byte("<!--")):
			j := bytes.Index(b[i+4:], []byte("-->"))
			if j < 0 {
				return root.document(), nil
			}
			i += 4 + j + 3
		case bytes.HasPrefix(b[i:], []byte("<![CDATA[")):
			j := bytes.Index(b[i+9:], []byte("]]>"))
			if j < 0 {
				return root.document(), nil
			}
			top.chars = append(top.chars, b[i+9:i+9+j]...)
			i += 9 + j + 3
		case i+1 < len(b) && (b[i+1] == '?' || b[i+1] == '!'):
			j := bytes.IndexByte(b[i:], '>')
			if j < 0 {
				return root.document(), nil
			}
			i += j + 1
		case i+1 < len(b) && b[i+1] == '/':
			j := bytes.IndexByte(b[i:], '>')
			if j < 0 {
				return root.document(), nil
			}
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
			i += j + 1
		default:
			n, end, selfClosing, ok := parseTag(b, i+1)
			if !ok {
				return root.document(), nil
			}
			top.kids = append(top.kids, n)
			if !selfClosing && len(stack) < maxXMLDepth {
				stack = append(stack, n)
			}
			i = end
		}
	}
	return root.document(), nil
}

// parseTag reads a start tag's name and attributes from b[i:], returning
// the element, the index after '>', and whether it closed itself.
func parseTag(b []byte, i int) (*xnode, int, bool, bool) {
	j := i
	for j < len(b) && !isXMLSpace(b[j]) && b[j] != '>' && b[j] != '/' {
		j++
	}
	n := &xnode{name: string(b[i:j])}
	for j < len(b) {
		for j < len(b) && isXMLSpace(b[j]) {
			j++
		}
		if j >= len(b) {
			return nil, 0, false, false
		}
		switch b[j] {
		case '>':
			return n, j + 1, false, true
		case '/':
			if j+1 < len(b) && b[j+1] == '>' {
				return n, j + 2, true, true
			}
			j++
			continue
		}
		k := j
		for k < len(b) && b[k] != '=' && b[k] != '>' && !isXMLSpace(b[k]) {
			k++
		}
		name := string(b[j:k])
		for k < len(b) && isXMLSpace(b[k]) {
			k++
		}
		if k >= len(b) || b[k] != '=' {
			j = k
			continue
		}
		k++
		for k < len(b) && isXMLSpace(b[k]) {
			k++
		}
		if k >= len(b) || (b[k] != '"' && b[k] != '\'') {
			return nil, 0, false, false
		}
		q := b[k]
		e := bytes.IndexByte(b[k+1:], q)
		if e < 0 {
			return nil, 0, false, false
		}
		n.attrs = append(n.attrs, xattr{name, string(unescapeXML(b[k+1 : k+1+e]))})
		j = k + 1 + e + 1
	}
	return nil, 0, false, false
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

var xmlEntities = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'")

func unescapeXML(b []byte) []byte {
	if bytes.IndexByte(b, '&') < 0 {
		return b
	}
	return []byte(xmlEntities.Replace(string(b)))
}

// document returns the document element (<fontconfig>), which holds the
// rules.
func (n *xnode) document() *xnode {
	for _, k := range n.kids {
		if k.name == "fontconfig" {
			return k
		}
	}
	return n
}
