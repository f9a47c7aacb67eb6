package pdf

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// PDFUARules are the PDF/UA-1 rules (ISO 14289-1) Platen checks on a
// finished file, by their veraPDF ids (clause-test), of veraPDF's 106. The
// rest are about what Platen never writes (forms, XFA, media, Note and
// Formula tags, optional content, encryption, reference XObjects), about
// fonts in more depth than is checked here, or about what a machine cannot
// judge (that alt text describes its figure).
var PDFUARules = []Rule{
	{"5-1", "the XMP metadata has the PDF/UA identification schema"},
	{"5-2", "pdfuaid:part is 1"},
	{"6.2-1", "the catalog's MarkInfo has Marked true"},
	{"7.1-1", "no artifact inside tagged content"},
	{"7.1-2", "no tagged content inside an artifact"},
	{"7.1-3", "all content is tagged or marked as an artifact"},
	{"7.1-4", "MarkInfo Suspects is not true"},
	{"7.1-5", "every structure type is a standard one (Platen maps none)"},
	{"7.1-8", "the catalog has a Metadata stream"},
	{"7.1-9", "the XMP metadata has a dc:title"},
	{"7.1-10", "ViewerPreferences DisplayDocTitle is true"},
	{"7.1-11", "the catalog has a StructTreeRoot"},
	{"7.1-12", "every structure element has its parent (P)"},
	{"7.2-3", "a Table holds only TR, THead, TBody, TFoot and Caption"},
	{"7.2-4", "a TR is in a Table, THead, TBody or TFoot"},
	{"7.2-8", "a TH is in a TR"},
	{"7.2-9", "a TD is in a TR"},
	{"7.2-10", "a TR holds only TH and TD"},
	{"7.2-17", "an LI is in an L"},
	{"7.2-18", "an LBody is in an LI"},
	{"7.2-19", "an L holds only L, LI and Caption"},
	{"7.2-20", "an LI holds only Lbl and LBody"},
	{"7.2-29", "every Lang is a language tag"},
	{"7.2-34", "the natural language of page content is determinable (the catalog's Lang)"},
	{"7.3-1", "every Figure has Alt or ActualText"},
	{"7.4.2-1", "headings start at H1 and skip no level"},
	{"7.5-1", "every TH has a Scope, or the table's cells name their Headers"},
	{"7.18.3-1", "a page with annotations has Tabs S"},
	{"7.18.5-1", "every link annotation is tagged (StructParent)"},
	{"7.18.5-2", "every link annotation has Contents"},
	{"7.21.4.1-1", "every font is embedded"},
	{"7.21.7-1", "every font maps its codes to Unicode"},
}

// Rule is a rule Platen checks, by id, with what it asks.
type Rule struct{ ID, What string }

var standardRoles = map[string]bool{}

func init() {
	for _, r := range strings.Fields(`Document Part Art Sect Div BlockQuote Caption TOC TOCI Index NonStruct Private P H H1 H2 H3 H4 H5 H6
		L LI Lbl LBody Table TR TH TD THead TBody TFoot Span Quote Note Reference BibEntry Code Link Annot Ruby RB RT RP Warichu WT WP
		Figure Formula Form`) {
		standardRoles[r] = true
	}
}

var langTag = regexp.MustCompile(`^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$`)

// CheckPDFUA checks a finished PDF against PDFUARules. Like CheckPDFA it is
// not veraPDF: it says which of the rules it checks passed. An error is a
// file that cannot be read.
func CheckPDFUA(file []byte) ([]Check, error) {
	if encrypted(file) {
		return nil, fmt.Errorf("pdf: the file is encrypted")
	}
	ctx, err := api.ReadContext(bytes.NewReader(file), config())
	if err != nil {
		return nil, fmt.Errorf("pdf: read for the PDF/UA checks: %w", err)
	}
	if err := ctx.EnsurePageCount(); err != nil {
		return nil, fmt.Errorf("pdf: read for the PDF/UA checks: %w", err)
	}
	c := &uaChecker{ctx: ctx, fails: map[string]string{}}
	c.catalog()
	c.structure()
	c.pages()
	var out []Check
	for _, r := range PDFUARules {
		d, failed := c.fails[r.ID]
		out = append(out, Check{ID: r.ID, Passed: !failed, Detail: d})
	}
	return out, nil
}

type uaChecker struct {
	ctx   *model.Context
	fails map[string]string
	// headings are the heading levels in reading order.
	headings []int
	// headersNamed is set when some TD names its Headers.
	headersNamed bool
	scopeless    int
}

func (c *uaChecker) fail(id, format string, args ...any) {
	if _, ok := c.fails[id]; !ok {
		c.fails[id] = fmt.Sprintf(format, args...)
	}
}

func (c *uaChecker) dict(o types.Object) types.Dict {
	d, _ := c.ctx.DereferenceDict(o)
	return d
}

func (c *uaChecker) catalog() {
	root := c.ctx.RootDict
	mi := c.dict(root["MarkInfo"])
	if b, ok := mi["Marked"].(types.Boolean); !ok || !b.Value() {
		c.fail("6.2-1", "the catalog has no MarkInfo with Marked true")
	}
	if b, ok := mi["Suspects"].(types.Boolean); ok && b.Value() {
		c.fail("7.1-4", "MarkInfo Suspects is true")
	}
	vp := c.dict(root["ViewerPreferences"])
	if b, ok := vp["DisplayDocTitle"].(types.Boolean); !ok || !b.Value() {
		c.fail("7.1-10", "ViewerPreferences has no DisplayDocTitle true")
	}
	lang := textOf(c.ctx, root["Lang"])
	if lang == "" {
		c.fail("7.2-34", "the catalog has no Lang, and the text's language is not determinable")
	} else if !langTag.MatchString(lang) {
		c.fail("7.2-29", "the catalog's Lang %q is not a language tag", lang)
	}
	sd, _, err := c.ctx.DereferenceStreamDict(root["Metadata"])
	if err != nil || sd == nil {
		c.fail("7.1-8", "the catalog has no Metadata stream")
		c.fail("5-1", "there is no XMP metadata")
		c.fail("7.1-9", "there is no XMP metadata")
		return
	}
	if err := sd.Decode(); err != nil {
		c.fail("7.1-8", "the Metadata stream cannot be decoded")
		return
	}
	meta := sd.Content
	if !bytes.Contains(meta, []byte("http://www.aiim.org/pdfua/ns/id/")) {
		c.fail("5-1", "the XMP metadata has no PDF/UA identification schema")
	}
	if m := regexp.MustCompile(`<pdfuaid:part>\s*(\d+)\s*</pdfuaid:part>`).FindSubmatch(meta); m == nil || string(m[1]) != "1" {
		c.fail("5-2", "pdfuaid:part is not 1")
	}
	if !bytes.Contains(meta, []byte("<dc:title>")) {
		c.fail("7.1-9", "the XMP metadata has no dc:title")
	}
}

// containment says which parent roles each role may sit in, and which kid
// roles each role may hold, with the rule each breaks.
var (
	mustBeIn = map[string]struct {
		parents []string
		rule    string
	}{
		"TR":    {[]string{"Table", "THead", "TBody", "TFoot"}, "7.2-4"},
		"TH":    {[]string{"TR"}, "7.2-8"},
		"TD":    {[]string{"TR"}, "7.2-9"},
		"LI":    {[]string{"L"}, "7.2-17"},
		"LBody": {[]string{"LI"}, "7.2-18"},
	}
	mayHold = map[string]struct {
		kids []string
		rule string
	}{
		"Table": {[]string{"TR", "THead", "TBody", "TFoot", "Caption"}, "7.2-3"},
		"TR":    {[]string{"TH", "TD"}, "7.2-10"},
		"L":     {[]string{"L", "LI", "Caption"}, "7.2-19"},
		"LI":    {[]string{"Lbl", "LBody"}, "7.2-20"},
	}
)

func (c *uaChecker) structure() {
	root := c.dict(c.ctx.RootDict["StructTreeRoot"])
	if root == nil {
		c.fail("7.1-11", "the catalog has no StructTreeRoot")
		return
	}
	if rm := c.dict(root["RoleMap"]); len(rm) > 0 {
		c.fail("7.1-5", "the structure tree maps %d roles", len(rm))
	}
	seen := map[int]bool{}
	var walk func(o types.Object, parentRole string, depth int)
	walk = func(o types.Object, parentRole string, depth int) {
		if depth > 512 {
			return
		}
		if ref, ok := o.(types.IndirectRef); ok {
			if seen[ref.ObjectNumber.Value()] {
				return
			}
			seen[ref.ObjectNumber.Value()] = true
		}
		d := c.dict(o)
		if d == nil {
			return
		}
		if t := d.Type(); t != nil && *t != "StructElem" {
			return // a marked-content or object reference
		}
		role := ""
		if n, ok := d["S"].(types.Name); ok {
			role = n.Value()
		}
		if !standardRoles[role] {
			c.fail("7.1-5", "the structure type %q is not a standard one", role)
		}
		if _, ok := d["P"]; !ok {
			c.fail("7.1-12", "a %s element has no P", role)
		}
		if r, ok := mustBeIn[role]; ok && !contains(r.parents, parentRole) {
			c.fail(r.rule, "a %s is in a %s", role, parentRole)
		}
		if l := textOf(c.ctx, d["Lang"]); l != "" && !langTag.MatchString(l) {
			c.fail("7.2-29", "a %s element's Lang %q is not a language tag", role, l)
		}
		switch role {
		case "Figure":
			if _, ok := d["Alt"]; !ok {
				if _, ok := d["ActualText"]; !ok {
					c.fail("7.3-1", "a Figure has neither Alt nor ActualText")
				}
			}
		case "H1", "H2", "H3", "H4", "H5", "H6":
			c.headings = append(c.headings, int(role[1]-'0'))
		case "TH", "TD":
			a := c.dict(d["A"])
			if role == "TH" && a["Scope"] == nil {
				c.scopeless++
			}
			if role == "TD" && a["Headers"] != nil {
				c.headersNamed = true
			}
		}
		kids, ok := d["K"].(types.Array)
		if !ok {
			if k, ok := d["K"]; ok {
				kids = types.Array{k}
			}
		}
		for _, k := range kids {
			if kd := c.dict(k); kd != nil && (kd.Type() == nil || *kd.Type() == "StructElem") {
				if n, ok := kd["S"].(types.Name); ok {
					if r, ok := mayHold[role]; ok && !contains(r.kids, n.Value()) {
						c.fail(r.rule, "a %s holds a %s", role, n.Value())
					}
				}
				walk(k, role, depth+1)
			}
		}
	}
	k, ok := root["K"].(types.Array)
	if !ok {
		k = types.Array{root["K"]}
	}
	for _, o := range k {
		walk(o, "", 0)
	}
	prev := 0
	for i, h := range c.headings {
		if i == 0 && h != 1 {
			c.fail("7.4.2-1", "the first heading is H%d, not H1", h)
		}
		if i > 0 && h > prev+1 {
			c.fail("7.4.2-1", "an H%d follows an H%d", h, prev)
		}
		prev = h
	}
	if c.scopeless > 0 && !c.headersNamed {
		c.fail("7.5-1", "%d TH elements have no Scope and no TD names its Headers", c.scopeless)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// pages checks each page's annotations and fonts, and that its content is
// all marked.
func (c *uaChecker) pages() {
	fonts := map[int]bool{}
	for i := 1; i <= c.ctx.PageCount; i++ {
		pd, _, _, err := c.ctx.PageDict(i, false)
		if err != nil || pd == nil {
			continue
		}
		annots, _ := c.ctx.DereferenceArray(pd["Annots"])
		if len(annots) > 0 {
			if n, ok := pd["Tabs"].(types.Name); !ok || n.Value() != "S" {
				c.fail("7.18.3-1", "page %d has annotations and no Tabs S", i)
			}
		}
		for _, a := range annots {
			ad := c.dict(a)
			if st, ok := ad["Subtype"].(types.Name); !ok || st.Value() != "Link" {
				continue
			}
			if _, ok := ad["StructParent"]; !ok {
				c.fail("7.18.5-1", "a link on page %d is not tagged", i)
			}
			if textOf(c.ctx, ad["Contents"]) == "" {
				c.fail("7.18.5-2", "a link on page %d has no Contents", i)
			}
		}
		content, err := c.ctx.PageContent(pd, i)
		if err == nil {
			c.content(content, i)
		}
		res := c.dict(pd["Resources"])
		if res == nil {
			if pages := c.dict(c.ctx.RootDict["Pages"]); pages != nil {
				res = c.dict(pages["Resources"])
			}
		}
		for _, f := range c.dict(res["Font"]) {
			ref, ok := f.(types.IndirectRef)
			if !ok || fonts[ref.ObjectNumber.Value()] {
				continue
			}
			fonts[ref.ObjectNumber.Value()] = true
			c.font(c.dict(f))
		}
	}
}

func (c *uaChecker) font(fd types.Dict) {
	if fd == nil {
		return
	}
	name := ""
	if n, ok := fd["BaseFont"].(types.Name); ok {
		name = n.Value()
	}
	if _, ok := fd["ToUnicode"]; !ok {
		c.fail("7.21.7-1", "the font %s has no ToUnicode map", name)
	}
	if st, ok := fd["Subtype"].(types.Name); ok && st.Value() == "Type3" {
		return // its glyphs are in the file
	}
	desc := fd
	if st, ok := fd["Subtype"].(types.Name); ok && st.Value() == "Type0" {
		df, _ := c.ctx.DereferenceArray(fd["DescendantFonts"])
		if len(df) == 0 {
			c.fail("7.21.4.1-1", "the font %s has no descendant font", name)
			return
		}
		desc = c.dict(df[0])
	}
	d := c.dict(desc["FontDescriptor"])
	if d["FontFile"] == nil && d["FontFile2"] == nil && d["FontFile3"] == nil {
		c.fail("7.21.4.1-1", "the font %s is not embedded", name)
	}
}

// content reads a page's content stream's marked-content operators: every
// painting operator must be inside a marked-content sequence (7.1-3), and
// artifacts and tagged content must not nest in each other (7.1-1, 7.1-2).
func (c *uaChecker) content(b []byte, page int) {
	type mark struct{ artifact, tagged bool }
	var stack []mark
	inArtifact := func() bool {
		for _, m := range stack {
			if m.artifact {
				return true
			}
		}
		return false
	}
	inTagged := func() bool {
		for _, m := range stack {
			if m.tagged {
				return true
			}
		}
		return false
	}
	var operands []string
	for _, tok := range contentTokens(b) {
		if tok == "" || !isOperator(tok) {
			operands = append(operands, tok)
			continue
		}
		switch tok {
		case "BMC", "BDC":
			tag := ""
			for _, o := range operands {
				if strings.HasPrefix(o, "/") {
					tag = o[1:]
					break
				}
			}
			m := mark{artifact: tag == "Artifact"}
			m.tagged = !m.artifact && tok == "BDC" && strings.Contains(strings.Join(operands, " "), "/MCID")
			if m.artifact && inTagged() {
				c.fail("7.1-1", "page %d: an artifact inside tagged content", page)
			}
			if m.tagged && inArtifact() {
				c.fail("7.1-2", "page %d: tagged content inside an artifact", page)
			}
			stack = append(stack, m)
		case "EMC":
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case "Tj", "TJ", "'", "\"", "f", "F", "f*", "S", "s", "B", "B*", "b", "b*", "Do", "sh", "EI":
			if !inArtifact() && !inTagged() {
				c.fail("7.1-3", "page %d: content (%s) is neither tagged nor an artifact", page, tok)
			}
		}
		operands = operands[:0]
	}
}

func isOperator(tok string) bool {
	c := tok[0]
	return (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '\'' || c == '"') && tok != "true" && tok != "false" && tok != "null"
}

// contentTokens splits a content stream into tokens: operators, and
// operands kept whole (names, numbers, strings, arrays and dictionaries as
// their source). Inline image data is skipped.
func contentTokens(b []byte) []string {
	var out []string
	for i := 0; i < len(b); {
		ch := b[i]
		switch {
		case ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t' || ch == '\f' || ch == 0:
			i++
		case ch == '%':
			for i < len(b) && b[i] != '\n' && b[i] != '\r' {
				i++
			}
		case ch == '(':
			j := stringEnd(b, i)
			out = append(out, string(b[i:j]))
			i = j
		case ch == '<' && i+1 < len(b) && b[i+1] == '<', ch == '[':
			// A dictionary or an array: kept whole, strings inside it
			// skipped as above.
			open, close := byte('['), byte(']')
			if ch == '<' {
				open, close = '<', '>'
			}
			j, depth := i, 0
			for j < len(b) {
				switch b[j] {
				case '(':
					j = stringEnd(b, j)
					continue
				case open:
					depth++
				case close:
					depth--
				}
				j++
				if depth == 0 && (open == '[' || j < len(b) && b[j-1] == '>' && b[j-2] == '>') {
					break
				}
			}
			out = append(out, string(b[i:min(j, len(b))]))
			i = j
		case ch == '<':
			j := bytes.IndexByte(b[i:], '>')
			if j < 0 {
				return out
			}
			out = append(out, string(b[i:i+j+1]))
			i += j + 1
		default:
			j := i + 1
			for j < len(b) && !strings.ContainsRune(" \n\r\t\f\x00()<>[]/%", rune(b[j])) {
				j++
			}
			if ch == '/' {
				j = i + 1
				for j < len(b) && !strings.ContainsRune(" \n\r\t\f\x00()<>[]/%", rune(b[j])) {
					j++
				}
			}
			tok := string(b[i:j])
			out = append(out, tok)
			i = j
			if tok == "ID" {
				// Inline image data runs to EI.
				k := bytes.Index(b[i:], []byte("EI"))
				if k < 0 {
					return out
				}
				i += k
			}
		}
	}
	return out
}

// stringEnd is the index after the literal string that starts at b[i]
// ('('), its nested parentheses and escapes counted; len(b) when it does
// not end.
func stringEnd(b []byte, i int) int {
	j, depth := i+1, 1
	for j < len(b) && depth > 0 {
		switch b[j] {
		case '\\':
			j++
		case '(':
			depth++
		case ')':
			depth--
		}
		j++
	}
	return min(j, len(b))
}

// textOf reads a text string, or "".
func textOf(ctx *model.Context, o types.Object) string {
	o, _ = ctx.Dereference(o)
	switch s := o.(type) {
	case types.StringLiteral:
		t, err := types.StringLiteralToString(s)
		if err == nil {
			return t
		}
		return s.Value()
	case types.HexLiteral:
		t, err := types.HexLiteralToString(s)
		if err == nil {
			return t
		}
		return s.Value()
	}
	return ""
}
