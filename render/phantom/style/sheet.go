package style

import (
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/andybalholm/cascadia"
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/css"
)

// Limits that keep a hostile style sheet bounded. A real template has a
// few hundred rules; these are far above that.
const (
	maxRules        = 20000 // style rules per sheet (each selector of a group counts)
	maxDecls        = 50000 // declarations per sheet
	maxNesting      = 32    // at-rules and nested style rules
	maxParseSteps   = 1 << 20
	maxGroupSize    = 256 // selectors one nested rule may expand into
	maxSheetBytes   = 4 << 20
	cacheBytesLimit = 32 << 20
)

// pseudoKind is the pseudo-element a rule styles.
type pseudoKind uint8

const (
	pseNone pseudoKind = iota
	pseBefore
	pseAfter
	pseMarker
	pseFirstLine
	pseFirstLetter
	pseOther // ::selection, ::placeholder and the like: no effect in print
)

// decl is one longhand declaration, after shorthand expansion.
type decl struct {
	prop propID
	imp  bool
	v    []tok
	// name is a custom property's name (prop pCustom) or an unimplemented
	// property's (pOther), or for a pending declaration the property as
	// written.
	name string
	// raw is set on a declaration whose value holds var(): the value's text,
	// substituted and parsed when the element's style is computed.
	raw string
	// last caches the latest substitution of raw (an immutable
	// *pendingResult): elements sharing their custom properties, as most
	// of a document and every document of a template do, substitute once.
	last atomic.Pointer[pendingResult]
}

// pendingResult is a declaration's value after var() substitution for
// one set of custom properties.
type pendingResult struct {
	cs *customSet
	v  []tok
}

// Special propIDs beyond the implemented longhands.
const (
	pCustom propID = numProps + 1 + iota
	pOther
)

// rule is one selector of a style rule with the rule's declarations.
type rule struct {
	sel    cascadia.Sel
	spec   uint32 // packed specificity
	pseudo pseudoKind
	decls  []decl
	text   string  // the selector as written
	conds  []int32 // media conditions (indexes into sheet.media) that must all hold
	// anc are hashes of simple selectors some ancestor must match (from
	// compounds left of a descendant or child combinator): a quick reject
	// before cascadia walks the ancestors.
	anc  [4]uint32
	nanc uint8
	// empty is set when the subject must be :empty, checked by phantom:
	// cascadia's :empty ignores whitespace, Chromium's does not.
	empty bool
	// simple is the selector compiled for phantom's own matcher when it
	// is made of tags, ids and classes joined by descendant and child
	// combinators (most author rules); nil to use cascadia.
	simple *simpleSel
}

// sheet is one parsed style sheet. It is immutable once parsed and shared
// between documents through the sheet cache.
type sheet struct {
	rules     []rule
	byID      map[string][]int32
	byClass   map[string][]int32
	byTag     map[string][]int32
	universal []int32
	media     []mediaList
	pages     []pageRule
	fontFaces []fontFace
	// feats are uses of unsupported features that do not depend on which
	// elements match (@import, selectors phantom cannot parse).
	feats []Feature
}

// fontFace is an @font-face rule whose src may load: its family
// (lower-case), its sources that may load (data: URIs, and local() names,
// which load if the machine has the font) in order, and its descriptors.
type fontFace struct {
	family string
	srcs   []fontSource
	conds  []int32 // media conditions that must all hold
	// WebFont's descriptors (Family as written).
	desc WebFont
}

// fontSource is one source of an @font-face src that may load: a data:
// URI, or a local() name.
type fontSource struct {
	data, local string
}

// WebFont is an @font-face rule whose font is given as a data: URI, for
// the engine to load (Result.WebFonts).
type WebFont struct {
	Family string
	// Data is the first data: URI of its src (the font as written in the
	// URI: decoded by the engine).
	Data string
	// WeightMin and WeightMax are font-weight's range (400 400 when not
	// given; one value gives both).
	WeightMin, WeightMax int
	Style                FontStyle
	// Ranges is unicode-range (nil for every character).
	Ranges [][2]rune
}

// pageRule is an @page rule.
type pageRule struct {
	name                      string
	first, left, right, blank bool
	spec                      uint32
	decls                     []decl
	boxes                     map[string][]decl
	conds                     []int32
	order                     int
}

// packSpec packs a specificity for ordering: a, b and c of at most 1023.
func packSpec(s cascadia.Specificity) uint32 {
	c := func(v int) uint32 {
		if v > 1023 {
			return 1023
		}
		if v < 0 {
			return 0
		}
		return uint32(v)
	}
	return c(s[0])<<20 | c(s[1])<<10 | c(s[2])
}

// sheetCache holds parsed style sheets by their text: templates repeat the
// same <style> in every document, so each distinct text is parsed once.
// It is bounded by the total length of the texts it holds; when full, it
// is emptied (a template's sheets are parsed again on their next use).
var sheetCache = struct {
	sync.RWMutex // guards m and bytes
	m            map[string]*sheet
	bytes        int
}{m: make(map[string]*sheet)}

// cachedSheet returns the parsed sheet of text, parsing it at most once
// while it stays in the cache. inline selects a style attribute's
// declaration list.
func cachedSheet(text string, inline bool) *sheet {
	key := text
	if inline {
		key = "\x00" + text
	}
	sheetCache.RLock()
	s := sheetCache.m[key]
	sheetCache.RUnlock()
	if s != nil {
		return s
	}
	if inline {
		s = parseInline(text)
	} else {
		s = parseSheet(text)
	}
	if len(key) <= cacheBytesLimit/8 {
		sheetCache.Lock()
		if sheetCache.bytes+len(key) > cacheBytesLimit {
			sheetCache.m = make(map[string]*sheet)
			sheetCache.bytes = 0
		}
		if _, ok := sheetCache.m[key]; !ok {
			sheetCache.m[key] = s
			sheetCache.bytes += len(key)
		}
		sheetCache.Unlock()
	}
	return s
}

// parseInline parses a style attribute: one rule without a selector.
func parseInline(text string) *sheet {
	if len(text) > maxSheetBytes {
		text = text[:maxSheetBytes]
	}
	s := &sheet{}
	p := css.NewParser(parse.NewInputString(text), true)
	var ds []decl
	for steps := 0; steps < maxParseSteps && len(ds) < maxDecls; steps++ {
		gt, _, data := p.Next()
		switch gt {
		case css.ErrorGrammar:
			if p.Err() == io.EOF {
				steps = maxParseSteps
			}
		case css.DeclarationGrammar:
			v, imp := lexValue(p.Values())
			ds = expandDecl(string(data), v, imp, ds)
		case css.CustomPropertyGrammar:
			ds = appendCustom(ds, string(data), p.Values())
		}
	}
	s.rules = []rule{{decls: ds}}
	return s
}

// frame is one open block while parsing a sheet.
type frame struct {
	kind  frameKind
	sels  []string // a style rule's selectors (nesting resolved)
	decls []decl   // declarations not yet flushed into rules
	conds []int32  // media conditions in force
	page  *pageRule
	box   string          // a margin box's name
	text  strings.Builder // a margin box's declarations as text
}

type frameKind uint8

const (
	fRule frameKind = iota
	fMedia
	fSkip // rules that do not apply: @keyframes, a false @supports, unknown at-rules
	fPage
	fBox
	fFontFace
	fGroup // @layer, @supports that holds, @document: rules apply as written
)

// parseSheet parses a style sheet's text.
func parseSheet(text string) *sheet {
	if len(text) > maxSheetBytes {
		text = text[:maxSheetBytes]
	}
	s := &sheet{byID: map[string][]int32{}, byClass: map[string][]int32{}, byTag: map[string][]int32{}}
	p := css.NewParser(parse.NewInputString(text), false)
	stack := make([]*frame, 0, 8)
	top := func() *frame {
		if len(stack) == 0 {
			return nil
		}
		return stack[len(stack)-1]
	}
	condsNow := func() []int32 {
		if f := top(); f != nil {
			return f.conds
		}
		return nil
	}
	skipping := func() bool {
		for _, f := range stack {
			if f.kind == fSkip {
				return true
			}
		}
		return false
	}
	nDecls := 0
	fontFamily := ""
	// fontSrcs are the @font-face being read's sources that may load a
	// font, fontDesc its descriptors, fontConds its media conditions.
	var fontSrcs []fontSource
	var fontDesc WebFont
	var fontConds []int32
	for steps := 0; steps < maxParseSteps; steps++ {
		gt, _, data := p.Next()
		switch gt {
		case css.ErrorGrammar:
			if p.Err() == io.EOF {
				steps = maxParseSteps
			}
		case css.AtRuleGrammar:
			name := lowerASCII(string(data))
			if name == "@import" && !skipping() && importLoads(p.Values()) {
				s.feats = append(s.feats, Feature{"@import", strings.TrimSpace(valuesText(p.Values()))})
			}
		case css.BeginAtRuleGrammar:
			name := lowerASCII(string(data))
			f := &frame{kind: fSkip, conds: condsNow()}
			if len(stack) >= maxNesting || skipping() {
				stack = append(stack, f)
				continue
			}
			parent := top()
			switch {
			case parent != nil && parent.kind == fPage:
				f.kind, f.page, f.box = fBox, parent.page, strings.TrimPrefix(name, "@")
				if !marginBoxNames[f.box] {
					f.kind = fSkip
				}
			case parent != nil && parent.kind == fRule:
				// An at-rule nested in a style rule (@media inside a rule):
				// phantom does not apply it.
				s.feats = append(s.feats, Feature{"css:nested-at-rule", name})
			case name == "@media":
				ml := parseMediaList(p.Values())
				s.media = append(s.media, ml)
				f.kind = fMedia
				f.conds = append(append([]int32(nil), f.conds...), int32(len(s.media)-1))
			case name == "@supports":
				holds, known := evalSupports(p.Values())
				if !known {
					s.feats = append(s.feats, Feature{"@supports", strings.TrimSpace(valuesText(p.Values()))})
				}
				if holds {
					f.kind = fGroup
				}
			case name == "@page":
				pr := parsePageSelector(p.Values())
				if pr != nil {
					pr.conds = f.conds
					pr.order = len(s.pages)
					f.kind, f.page = fPage, pr
				}
			case name == "@font-face":
				f.kind = fFontFace
				fontFamily, fontSrcs = "", nil
				fontDesc = WebFont{WeightMin: 400, WeightMax: 400}
				fontConds = f.conds
			case name == "@layer":
				s.feats = append(s.feats, Feature{"@layer", strings.TrimSpace(valuesText(p.Values()))})
				f.kind = fGroup
			case name == "@container", name == "@scope", name == "@starting-style":
				if name != "@starting-style" {
					s.feats = append(s.feats, Feature{name, strings.TrimSpace(valuesText(p.Values()))})
				}
			}
			stack = append(stack, f)
		case css.EndAtRuleGrammar:
			if f := top(); f != nil {
				switch f.kind {
				case fBox:
					ds := parseInline(f.text.String()).rules[0].decls
					if f.page.boxes == nil {
						f.page.boxes = map[string][]decl{}
					}
					f.page.boxes[f.box] = append(f.page.boxes[f.box], ds...)
				case fPage:
					s.pages = append(s.pages, *f.page)
				case fFontFace:
					if fontFamily != "" && len(fontSrcs) > 0 && len(s.fontFaces) < maxFontFaces {
						s.fontFaces = append(s.fontFaces, fontFace{family: strings.ToLower(fontFamily), srcs: fontSrcs, conds: fontConds, desc: fontDesc})
						s.fontFaces[len(s.fontFaces)-1].desc.Family = fontFamily
					}
				}
				stack = stack[:len(stack)-1]
			}
		case css.BeginRulesetGrammar:
			f := &frame{kind: fRule, conds: condsNow()}
			parent := top()
			if len(stack) >= maxNesting || skipping() {
				f.kind = fSkip
				stack = append(stack, f)
				continue
			}
			sel := valuesText(p.Values())
			if parent != nil && parent.kind == fRule {
				s.flush(parent)
				f.sels = nestSelectors(parent.sels, sel)
			} else if parent != nil && (parent.kind == fPage || parent.kind == fBox || parent.kind == fFontFace) {
				f.kind = fSkip
			} else {
				f.sels = splitSelectors(sel)
			}
			stack = append(stack, f)
		case css.EndRulesetGrammar:
			if f := top(); f != nil {
				if f.kind == fRule {
					s.flush(f)
				}
				stack = stack[:len(stack)-1]
			}
		case css.DeclarationGrammar, css.CustomPropertyGrammar:
			f := top()
			if f == nil || nDecls >= maxDecls {
				continue
			}
			nDecls++
			switch f.kind {
			case fRule, fPage:
				target := &f.decls
				if f.kind == fPage {
					target = &f.page.decls
				}
				if gt == css.CustomPropertyGrammar {
					*target = appendCustom(*target, string(data), p.Values())
					continue
				}
				v, imp := lexValue(p.Values())
				*target = expandDecl(string(data), v, imp, *target)
			case fFontFace:
				switch string(data) {
				case "font-family":
					v, _ := lexValue(p.Values())
					if fam := parseFamilies(v); len(fam) == 1 {
						fontFamily = fam[0]
					}
				case "src":
					v, _ := lexValue(p.Values())
					fontSrcs = fontSrc(v)
				case "font-weight":
					v, _ := lexValue(p.Values())
					if lo, hi, ok := faceWeight(v); ok {
						fontDesc.WeightMin, fontDesc.WeightMax = lo, hi
					}
				case "font-style":
					v, _ := lexValue(p.Values())
					switch kw1(v[:min(len(v), 1)]) {
					case "normal":
						fontDesc.Style = FontNormal
					case "italic":
						fontDesc.Style = FontItalic
					case "oblique":
						fontDesc.Style = FontOblique
					}
				case "unicode-range":
					v, _ := lexValue(p.Values())
					fontDesc.Ranges = unicodeRanges(p.Values(), v)
				}
			}
		case css.TokenGrammar:
			if f := top(); f != nil && f.kind == fBox && f.text.Len() < 1<<16 {
				f.text.Write(data)
			}
		}
	}
	// Unclosed blocks at the end of the text close implicitly.
	for i := len(stack) - 1; i >= 0; i-- {
		f := stack[i]
		switch f.kind {
		case fRule:
			s.flush(f)
		case fPage:
			s.pages = append(s.pages, *f.page)
		}
	}
	return s
}

// Engines fetch nothing but data: URIs (render/chromium fails every other
// request; phantom has no network), so a style sheet or font at any other
// URL never loads. In Chromium a face that fails to load is as if its
// @font-face rule were not there (measured: the family's installed font,
// if any, is used, else the next family of the list), and a style sheet
// that fails to load applies nothing; phantom ignores both alike, and only
// what does load is reported.

// importLoads reports whether an @import's URL can load: a data: URI.
func importLoads(vals []css.Token) bool {
	v, _ := lexValue(vals)
	if len(v) > 0 && (v[0].kind == tURL || v[0].kind == tString) {
		return isDataURL(v[0].s)
	}
	return false
}

// maxFontFaces bounds the @font-face rules one sheet keeps.
const maxFontFaces = 64

// fontSrc reads an @font-face src for the sources that can load a font, in
// order: data: URIs (url() or a url function with a string), and local()
// faces, which the machine may have (the names they give, a string or
// identifiers).
func fontSrc(v []tok) (out []fontSource) {
	for _, t := range v {
		if len(out) >= 16 {
			break
		}
		switch {
		case t.kind == tURL && isDataURL(t.s):
			out = append(out, fontSource{data: t.s})
		case t.kind == tFunc && t.k == "url" && len(t.args) > 0 && t.args[0].kind == tString && isDataURL(t.args[0].s):
			out = append(out, fontSource{data: t.args[0].s})
		case t.kind == tFunc && t.k == "local":
			var words []string
			for _, a := range t.args {
				if a.kind == tString || a.kind == tIdent {
					words = append(words, a.s)
				}
			}
			if name := strings.Join(words, " "); name != "" {
				out = append(out, fontSource{local: name})
			}
		}
	}
	return out
}

// faceWeight reads an @font-face font-weight: one weight or a range, each
// a number from 1 to 1000 or normal or bold.
func faceWeight(v []tok) (lo, hi int, ok bool) {
	var ws []int
	for _, t := range v {
		switch {
		case t.kind == tNumber && t.n >= 1 && t.n <= 1000:
			ws = append(ws, int(math.Round(t.n)))
		case t.isIdent("normal"):
			ws = append(ws, 400)
		case t.isIdent("bold"):
			ws = append(ws, 700)
		default:
			return 0, 0, false
		}
	}
	switch len(ws) {
	case 1:
		return ws[0], ws[0], true
	case 2:
		return min(ws[0], ws[1]), max(ws[0], ws[1]), true
	}
	return 0, 0, false
}

// unicodeRanges reads unicode-range (U+0-7F, U+0100-024F, U+4??): from the
// raw tokens, since the value lexer does not keep them as written.
func unicodeRanges(raw []css.Token, _ []tok) [][2]rune {
	var b strings.Builder
	for _, t := range raw {
		b.Write(t.Data)
	}
	var out [][2]rune
	for _, part := range strings.Split(b.String(), ",") {
		part = strings.TrimSpace(part)
		if len(part) < 3 || (part[0] != 'U' && part[0] != 'u') || part[1] != '+' {
			return nil
		}
		part = part[2:]
		lo, hi := part, part
		if i := strings.IndexByte(part, '-'); i >= 0 {
			lo, hi = part[:i], part[i+1:]
		} else if strings.Contains(part, "?") {
			lo, hi = strings.ReplaceAll(part, "?", "0"), strings.ReplaceAll(part, "?", "F")
		}
		a, err1 := strconv.ParseUint(lo, 16, 32)
		z, err2 := strconv.ParseUint(hi, 16, 32)
		if err1 != nil || err2 != nil || a > z || z > 0x10FFFF {
			return nil
		}
		if len(out) < 256 {
			out = append(out, [2]rune{rune(a), rune(z)})
		}
	}
	return out
}

func isDataURL(u string) bool {
	u = strings.TrimSpace(u)
	return len(u) >= 5 && strings.EqualFold(u[:5], "data:")
}

// flush turns a style rule's pending declarations into one rule per
// selector.
func (s *sheet) flush(f *frame) {
	if len(f.decls) == 0 {
		return
	}
	ds := f.decls
	f.decls = nil
	for _, text := range f.sels {
		if len(s.rules) >= maxRules {
			return
		}
		s.addRule(text, ds, f.conds)
	}
}

// addRule compiles one selector and indexes the rule by the rightmost
// compound's most specific simple selector.
func (s *sheet) addRule(text string, ds []decl, conds []int32) {
	src := rewriteSelector(text)
	if src == "" {
		return // never matches in print (a user-action pseudo-class)
	}
	alts, ok := expandIs(src, 0)
	if !ok {
		if !ignorableSelector(text) {
			s.feats = append(s.feats, Feature{"selector", text})
		}
		return
	}
	for _, alt := range alts {
		if len(s.rules) >= maxRules {
			return
		}
		if !s.addSelector(text, alt.sel, alt.adj, ds, conds) {
			if !ignorableSelector(text) {
				s.feats = append(s.feats, Feature{"selector", text})
			}
			return
		}
	}
}

// addSelector compiles one selector (after :is() expansion) with a
// specificity adjustment and indexes it.
func (s *sheet) addSelector(text, src string, adj [3]int, ds []decl, conds []int32) bool {
	src, empty := takeEmpty(src)
	g, err := cascadia.ParseGroupWithPseudoElements(src)
	if err != nil || len(g) != 1 {
		return false
	}
	sel := g[0]
	spec := sel.Specificity()
	if empty {
		spec[1]++
	}
	for i := range spec {
		spec[i] += adj[i]
	}
	r := rule{sel: sel, spec: packSpec(spec), decls: ds, text: text, conds: conds, empty: empty, simple: compileSimple(src)}
	for _, h := range ancestorHashes(src) {
		if r.nanc < uint8(len(r.anc)) {
			r.anc[r.nanc] = h
			r.nanc++
		}
	}
	switch sel.PseudoElement() {
	case "":
	case "before":
		r.pseudo = pseBefore
	case "after":
		r.pseudo = pseAfter
	case "marker":
		r.pseudo = pseMarker
	case "first-line":
		r.pseudo = pseFirstLine
	case "first-letter":
		r.pseudo = pseFirstLetter
	default:
		return true // ::selection, ::placeholder and the like print nothing
	}
	i := int32(len(s.rules))
	s.rules = append(s.rules, r)
	kind, key := rightmostKey(src)
	switch kind {
	case '#':
		s.byID[key] = append(s.byID[key], i)
	case '.':
		s.byClass[key] = append(s.byClass[key], i)
	case 't':
		s.byTag[key] = append(s.byTag[key], i)
	default:
		s.universal = append(s.universal, i)
	}
	return true
}

// isAlt is one selector of an :is() expansion and the specificity to add
// to cascadia's so that it counts as the :is() or :where() did.
type isAlt struct {
	sel string
	adj [3]int
}

// maxIsExpansion bounds the selectors one rule's :is() and :where() lists
// expand into.
const maxIsExpansion = 64

// expandIs rewrites :is(), :where(), :matches() and :-webkit-any(), which
// cascadia lacks, into one selector per argument: "article :is(h1, h2)"
// becomes "article h1" and "article h2", each counting the specificity of
// the most specific argument (:is) or none (:where). An argument with a
// combinator is expanded only where the :is() is a whole compound. ok is
// false for what cannot be expanded.
func expandIs(sel string, depth int) ([]isAlt, bool) {
	lower := strings.ToLower(sel)
	start, name := -1, ""
	for _, fn := range []string{":is(", ":where(", ":matches(", ":-webkit-any(", ":any("} {
		if i := strings.Index(lower, fn); i >= 0 && (start < 0 || i < start) {
			start, name = i, fn
		}
	}
	if start < 0 {
		return []isAlt{{sel: sel}}, true
	}
	if depth > 4 {
		return nil, false
	}
	// Only at the top level: inside :not() or :has() cascadia fails anyway.
	d := 0
	for i := 0; i < start; i++ {
		switch sel[i] {
		case '(':
			d++
		case ')':
			d--
		}
	}
	if d != 0 {
		return nil, false
	}
	open := start + len(name)
	end := open
	for d = 1; end < len(sel) && d > 0; end++ {
		switch sel[end] {
		case '(':
			d++
		case ')':
			d--
		}
	}
	if d != 0 {
		return nil, false
	}
	args := splitSelectors(sel[open : end-1])
	prefix, suffix := sel[:start], sel[end:]
	wholeCompound := (start == 0 || strings.ContainsRune(" >+~", rune(sel[start-1]))) &&
		(end == len(sel) || strings.ContainsRune(" >+~", rune(sel[end])))
	var max [3]int
	specs := make([][3]int, len(args))
	for i, a := range args {
		sp, ok := selectorSpecificity(a)
		if !ok {
			continue // an invalid argument is dropped (forgiving list)
		}
		specs[i] = sp
		if sp[0] > max[0] || sp[0] == max[0] && (sp[1] > max[1] || sp[1] == max[1] && sp[2] > max[2]) {
			max = sp
		}
	}
	if name == ":where(" {
		max = [3]int{}
	}
	var out []isAlt
	for i, a := range args {
		if _, ok := selectorSpecificity(a); !ok {
			continue
		}
		if !wholeCompound && strings.ContainsAny(strings.TrimSpace(a), " >+~") {
			return nil, false
		}
		x := a
		if !wholeCompound && prefix != "" && !strings.ContainsRune(" >+~", rune(prefix[len(prefix)-1])) && isNameByte(a[0]) {
			// "p:is(div)" cannot become "pdiv": a type selector goes first.
			x = ""
			j := 0
			for j < len(a) && isNameByte(a[j]) {
				j++
			}
			k := len(prefix)
			for k > 0 && !strings.ContainsRune(" >+~", rune(prefix[k-1])) {
				k--
			}
			if k < len(prefix) && isNameByte(prefix[k]) {
				return nil, false // two type selectors in one compound
			}
			prefix2 := prefix[:k] + a[:j] + prefix[k:]
			sub, ok := expandIs(prefix2+a[j:]+suffix, depth+1)
			if !ok {
				return nil, false
			}
			for _, alt := range sub {
				out = append(out, adjusted(alt, max, specs[i]))
			}
			continue
		}
		sub, ok := expandIs(prefix+x+suffix, depth+1)
		if !ok {
			return nil, false
		}
		for _, alt := range sub {
			out = append(out, adjusted(alt, max, specs[i]))
		}
		if len(out) > maxIsExpansion {
			return nil, false
		}
	}
	if len(out) == 0 {
		return nil, false
	}
	return out, true
}

func adjusted(alt isAlt, want, have [3]int) isAlt {
	for k := range alt.adj {
		alt.adj[k] += want[k] - have[k]
	}
	return alt
}

// selectorSpecificity is cascadia's specificity of one selector.
func selectorSpecificity(sel string) ([3]int, bool) {
	if strings.Contains(strings.ToLower(sel), ":is(") || strings.Contains(strings.ToLower(sel), ":where(") {
		alts, ok := expandIs(sel, 3)
		if !ok || len(alts) == 0 {
			return [3]int{}, false
		}
		sp, ok := selectorSpecificity(alts[0].sel)
		for k := range sp {
			sp[k] += alts[0].adj[k]
		}
		return sp, ok
	}
	s, err := cascadia.ParseWithPseudoElement(strings.TrimSpace(sel))
	if err != nil {
		return [3]int{}, false
	}
	sp := s.Specificity()
	return [3]int{sp[0], sp[1], sp[2]}, true
}

// takeEmpty removes :empty from a selector's rightmost compound (outside
// parentheses), for phantom to check itself.
func takeEmpty(sel string) (string, bool) {
	i := strings.LastIndex(sel, ":empty")
	if i < 0 {
		return sel, false
	}
	end := i + len(":empty")
	if end < len(sel) && isNameByte(sel[end]) {
		return sel, false
	}
	// Nothing after it but the rest of its compound.
	depth := 0
	for j := 0; j < i; j++ {
		switch sel[j] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		}
	}
	if depth != 0 {
		return sel, false
	}
	for j := end; j < len(sel); j++ {
		switch sel[j] {
		case ' ', '>', '+', '~', '\t', '\n', ',':
			return sel, false
		}
	}
	out := sel[:i] + sel[end:]
	// A compound left empty becomes the universal selector.
	if out == "" || strings.ContainsRune(" >+~\t\n", rune(out[len(out)-1])) && end == len(sel) {
		out += "*"
	} else if i > 0 && strings.ContainsRune(" >+~\t\n", rune(sel[i-1])) && (end == len(sel) || sel[end] == ':' || sel[end] == '[' || sel[end] == '.' || sel[end] == '#') {
		out = sel[:i] + "*" + sel[end:]
	} else if i == 0 {
		out = "*" + sel[end:]
	}
	return out, true
}

// valuesText writes a prelude's tokens back as text.
func valuesText(vals []css.Token) string {
	var b strings.Builder
	for i, v := range vals {
		// The parser drops the whitespace inside an attribute selector,
		// which leaves [dir=rtl i] as [dir=rtli]: two identifiers in a row
		// were apart in the source.
		if i > 0 && v.TokenType == css.IdentToken && (vals[i-1].TokenType == css.IdentToken || vals[i-1].TokenType == css.StringToken) {
			b.WriteByte(' ')
		}
		b.Write(v.Data)
	}
	return b.String()
}

// splitSelectors splits a selector list at top-level commas.
func splitSelectors(text string) []string {
	var out []string
	start := 0
	scanTop(text, 0, 0, true, func(i int, c byte, depth int) bool {
		if c == ',' && depth == 0 {
			if t := strings.TrimSpace(text[start:i]); t != "" {
				out = append(out, t)
			}
			start = i + 1
		}
		return false
	})
	if t := strings.TrimSpace(text[start:]); t != "" {
		out = append(out, t)
	}
	if len(out) > maxGroupSize {
		out = out[:maxGroupSize]
	}
	return out
}

// nestSelectors resolves a nested rule's selectors against its parent's
// (CSS Nesting): & stands for the parent, and a selector without & is a
// descendant of it.
func nestSelectors(parents []string, text string) []string {
	var out []string
	for _, c := range splitSelectors(text) {
		for _, p := range parents {
			if len(out) >= maxGroupSize {
				return out
			}
			if strings.Contains(c, "&") {
				out = append(out, strings.ReplaceAll(c, "&", p))
			} else {
				out = append(out, p+" "+c)
			}
		}
	}
	return out
}

// rewriteSelector adapts a selector to what cascadia parses: the legacy
// one-colon pseudo-elements, :any-link. It returns "" for a selector that
// never matches when printed (:hover, :focus, ...).
func rewriteSelector(text string) string {
	if !strings.ContainsRune(text, ':') {
		return text
	}
	lower := strings.ToLower(text)
	for _, p := range []string{":hover", ":focus", ":active", ":visited", ":target", ":focus-visible", ":focus-within", ":-webkit-autofill", ":autofill", ":popover-open", ":modal", ":fullscreen", ":open"} {
		if i := strings.Index(lower, p); i >= 0 {
			end := i + len(p)
			if end == len(lower) || !isNameByte(lower[end]) {
				if !strings.Contains(lower[:i], ":not(") {
					return ""
				}
			}
		}
	}
	r := strings.NewReplacer(":-webkit-any-link", ":link", ":any-link", ":link")
	text = r.Replace(text)
	return text
}

func isNameByte(c byte) bool {
	return c == '-' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// ignorableSelector reports whether a selector phantom cannot parse styles
// nothing a printed page shows (vendor pseudo-elements of scrollbars and
// form parts).
func ignorableSelector(text string) bool {
	lower := strings.ToLower(text)
	for _, p := range []string{"::-webkit-", "::-moz-", ":-moz-", "::-ms-", ":-ms-", "::-o-", ":-o-", "::selection", "::placeholder", "::backdrop", "::cue", "::file-selector-button", "::scrollbar", "::highlight", "::spelling-error", "::grammar-error", "::view-transition", "::target-text", "::search-text", "::picker", "::checkmark", "::picker-icon", "::details-content", "::part(", "::slotted(", ":host", "::column", "::scroll-"} {
		if strings.Contains(lower, p) {
			return true
		}
	}
	return false
}

// rightmostKey finds the key a selector is indexed under: the rightmost
// compound's id, else its first class, else its tag, else universal (0).
func rightmostKey(sel string) (kind byte, key string) {
	// Find the start of the rightmost compound: after the last top-level
	// combinator or whitespace.
	start := 0
	scanTop(sel, 0, 0, true, func(i int, c byte, depth int) bool {
		if depth == 0 && (c == ' ' || c == '>' || c == '+' || c == '~' || c == '\t' || c == '\n') {
			start = i + 1
		}
		return false
	})
	comp := sel[start:]
	// Scan the compound's simple selectors outside brackets and parentheses.
	var tag, class, id string
	depth := 0
	for i := 0; i < len(comp); {
		c := comp[i]
		switch {
		case c == '(' || c == '[':
			depth++
			i++
		case c == ')' || c == ']':
			depth--
			i++
		case depth > 0:
			if c == '\\' {
				i++
			}
			i++
		case c == '#' || c == '.':
			j, escaped := nameEnd(comp, i+1)
			name := comp[i+1 : j]
			if escaped {
				name = "" // escaped names: leave to the universal bucket
			}
			if c == '#' && id == "" {
				id = name
			} else if c == '.' && class == "" {
				class = name
			}
			i = j
		case c == ':':
			// skip the pseudo's name; its arguments are skipped as a block
			j := i + 1
			for j < len(comp) && (comp[j] == ':' || isNameByte(comp[j])) {
				j++
			}
			i = j
		case i == 0 && isNameByte(c):
			j := i
			for j < len(comp) && isNameByte(comp[j]) {
				j++
			}
			if j < len(comp) && comp[j] == '|' || j < len(comp) && comp[j] == '\\' {
				i = j
				continue
			}
			tag = strings.ToLower(comp[i:j])
			i = j
		default:
			i++
		}
	}
	switch {
	case id != "":
		return '#', id
	case class != "":
		return '.', class
	case tag != "":
		return 't', tag
	}
	return 0, ""
}

// appendCustom appends a custom property declaration.
func appendCustom(ds []decl, name string, vals []css.Token) []decl {
	raw := ""
	if len(vals) > 0 {
		raw = string(vals[0].Data)
	}
	raw = strings.TrimSpace(raw)
	imp := false
	if i := strings.LastIndexByte(raw, '!'); i >= 0 && strings.EqualFold(strings.TrimSpace(raw[i+1:]), "important") {
		imp = true
		raw = strings.TrimSpace(raw[:i])
	}
	if len(raw) > 1<<16 {
		return ds
	}
	return append(ds, decl{prop: pCustom, name: name, raw: raw, imp: imp})
}

// marginBoxNames are the 16 page-margin boxes.
var marginBoxNames = map[string]bool{
	"top-left-corner": true, "top-left": true, "top-center": true, "top-right": true, "top-right-corner": true,
	"right-top": true, "right-middle": true, "right-bottom": true,
	"bottom-right-corner": true, "bottom-right": true, "bottom-center": true, "bottom-left": true, "bottom-left-corner": true,
	"left-bottom": true, "left-middle": true, "left-top": true,
}

// parsePageSelector parses an @page prelude: "name:first", ":left" and
// the like. It returns nil for a selector list phantom does not apply
// (more than one selector, unknown pseudo-classes).
func parsePageSelector(vals []css.Token) *pageRule {
	pr := &pageRule{}
	var f, g, h uint32
	sawColon := false
	for _, v := range vals {
		switch v.TokenType {
		case css.WhitespaceToken, css.CommentToken:
		case css.IdentToken:
			name := string(unescape(v.Data))
			if sawColon {
				switch strings.ToLower(name) {
				case "first":
					pr.first = true
					g++
				case "blank":
					pr.blank = true
					g++
				case "left":
					pr.left = true
					h++
				case "right":
					pr.right = true
					h++
				default:
					return nil
				}
				sawColon = false
			} else {
				if pr.name != "" {
					return nil
				}
				pr.name = name
				f++
			}
		case css.ColonToken:
			sawColon = true
		default:
			return nil // a list of page selectors: rare, not applied
		}
	}
	pr.spec = f<<20 | g<<10 | h
	return pr
}

// ancestorHashes returns the hashes of the tags, ids and classes that the
// ancestors of a matching element must have: those of every compound
// followed by a descendant or child combinator. Compounds inside
// parentheses (:not(), :has()) and those followed by a sibling combinator
// are left out.
func ancestorHashes(sel string) []uint32 {
	type part struct {
		text string
		comb byte // the combinator after this compound
	}
	var parts []part
	depth := 0
	start := 0
	var quote byte
	flush := func(end int, comb byte) {
		t := strings.TrimSpace(sel[start:end])
		if t != "" {
			parts = append(parts, part{text: t})
		}
		if len(parts) > 0 && comb != 0 {
			if last := &parts[len(parts)-1]; last.comb == 0 || last.comb == ' ' {
				last.comb = comb
			}
		}
	}
	for i := 0; i < len(sel); i++ {
		c := sel[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '\\':
			i++
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth--
		case depth == 0 && (c == ' ' || c == '\t' || c == '\n' || c == '>' || c == '+' || c == '~'):
			comb := c
			if c == '\t' || c == '\n' {
				comb = ' '
			}
			flush(i, comb)
			start = i + 1
		}
	}
	flush(len(sel), 0)
	var out []uint32
	for i := 0; i+1 < len(parts) && len(out) < 4; i++ {
		if parts[i].comb != ' ' && parts[i].comb != '>' {
			continue
		}
		out = appendCompoundHashes(out, parts[i].text)
	}
	return out
}

// appendCompoundHashes appends the hashes of a compound's tag, id and
// classes (outside brackets and parentheses; escaped names skipped).
func appendCompoundHashes(out []uint32, comp string) []uint32 {
	depth := 0
	for i := 0; i < len(comp) && len(out) < 4; {
		c := comp[i]
		switch {
		case c == '(' || c == '[':
			depth++
			i++
		case c == ')' || c == ']':
			depth--
			i++
		case depth > 0:
			i++
		case c == '#' || c == '.' || i == 0 && isNameByte(c) && c != '-':
			j := i
			if c == '#' || c == '.' {
				j++
			}
			k, escaped := nameEnd(comp, j)
			if k > j && !escaped && (k == len(comp) || comp[k] != '|') {
				prefix := byte('t')
				name := comp[j:k]
				if c == '#' || c == '.' {
					prefix = c
				} else {
					name = strings.ToLower(name)
				}
				out = append(out, selHash(prefix, name))
			}
			i = k
			if k == j {
				i++
			}
		case c == ':':
			j := i + 1
			for j < len(comp) && (comp[j] == ':' || isNameByte(comp[j])) {
				j++
			}
			i = j
		default:
			i++
		}
	}
	return out
}

// nameEnd is the end of the name that starts at i in a selector, escapes
// included, and whether it had one.
func nameEnd(s string, i int) (int, bool) {
	escaped := false
	for i < len(s) {
		switch {
		case isNameByte(s[i]):
			i++
		case s[i] == '\\' && i+1 < len(s):
			escaped = true
			i += 2
		default:
			return i, escaped
		}
	}
	return i, escaped
}

// selHash hashes a simple selector (FNV-1a over the kind and the name).
func selHash(kind byte, name string) uint32 {
	h := uint32(2166136261)
	h = (h ^ uint32(kind)) * 16777619
	for i := 0; i < len(name); i++ {
		h = (h ^ uint32(name[i])) * 16777619
	}
	return h
}

// ancestorFilter is a counting Bloom filter of the tags, ids and classes
// of the element being styled's ancestors (Blink's SelectorFilter).
type ancestorFilter [1 << 12]uint16

func (f *ancestorFilter) add(h uint32, d int) {
	for _, i := range [2]uint32{h & 0xfff, h >> 20 & 0xfff} {
		if d > 0 {
			if f[i] < 0xffff {
				f[i]++
			}
		} else if f[i] > 0 && f[i] < 0xffff {
			f[i]--
		}
	}
}

func (f *ancestorFilter) mayHave(h uint32) bool {
	return f[h&0xfff] != 0 && f[h>>20&0xfff] != 0
}

// simpleSel is a selector of compounds of a tag, an id, classes and
// structural pseudo-classes (:first-child, :nth-child(2n+1), :last-of-type
// and the like), joined by descendant (' ') and child ('>') combinators.
type simpleSel struct {
	parts []simpleCompound // the last is the subject
	combs []byte           // combs[i] joins parts[i] and parts[i+1]
}

type simpleCompound struct {
	tag     string // "" for any
	id      string
	classes []string
	nth     []nthCond
}

// nthCond is one structural pseudo-class: the element's 1-based position
// among its element siblings (of its type when ofType; counted from the
// end when last) is a·k + b for some k ≥ 0.
type nthCond struct {
	a, b         int
	last, ofType bool
}

// structural maps the argument-less structural pseudo-classes to their
// conditions (:only-child is first and last).
var structural = map[string][]nthCond{
	"first-child": {{b: 1}}, "last-child": {{b: 1, last: true}}, "only-child": {{b: 1}, {b: 1, last: true}},
	"first-of-type": {{b: 1, ofType: true}}, "last-of-type": {{b: 1, last: true, ofType: true}},
	"only-of-type": {{b: 1, ofType: true}, {b: 1, last: true, ofType: true}},
}

// nthFunctions are the structural pseudo-classes with an An+B argument.
var nthFunctions = map[string]nthCond{
	"nth-child": {}, "nth-last-child": {last: true}, "nth-of-type": {ofType: true}, "nth-last-of-type": {last: true, ofType: true},
}

// parseAnB reads An+B (CSS Syntax 3 §6): odd, even, an integer, or
// a·n + b with optional signs, spaces around the sign.
func parseAnB(s string) (a, b int, ok bool) {
	s = strings.ToLower(strings.Join(strings.Fields(s), ""))
	switch s {
	case "odd":
		return 2, 1, true
	case "even":
		return 2, 0, true
	case "":
		return 0, 0, false
	}
	num := func(t string) (int, bool) {
		if t == "" || len(t) > 9 {
			return 0, false
		}
		if t[0] == '+' || t[0] == '-' {
			if len(t) == 1 {
				return 0, false
			}
		}
		v, err := strconv.Atoi(t)
		return v, err == nil
	}
	i := strings.IndexByte(s, 'n')
	if i < 0 {
		v, ok := num(s)
		return 0, v, ok
	}
	switch s[:i] {
	case "", "+":
		a = 1
	case "-":
		a = -1
	default:
		v, ok := num(s[:i])
		if !ok {
			return 0, 0, false
		}
		a = v
	}
	rest := s[i+1:]
	if rest == "" {
		return a, 0, true
	}
	if rest[0] != '+' && rest[0] != '-' {
		return 0, 0, false
	}
	v, ok := num(rest)
	return a, v, ok
}

// matches reports whether position pos (1-based) fits a·k + b, k ≥ 0.
func (c nthCond) matches(pos int) bool {
	d := pos - c.b
	if c.a == 0 {
		return d == 0
	}
	return d%c.a == 0 && d/c.a >= 0
}

// compileSimple compiles sel for phantom's matcher, or returns nil when it
// uses anything else (attributes, pseudo-classes, sibling combinators,
// escapes). A pseudo-element at the end is allowed: it does not change
// which element matches.
func compileSimple(sel string) *simpleSel {
	sel = strings.TrimSpace(sel)
	if i := strings.Index(sel, "::"); i >= 0 {
		sel = sel[:i]
	} else {
		for _, pe := range []string{":before", ":after", ":first-line", ":first-letter"} {
			if strings.HasSuffix(strings.ToLower(sel), pe) {
				sel = sel[:len(sel)-len(pe)]
				break
			}
		}
	}
	if sel == "" || strings.ContainsAny(sel, "[]~\\|,\"'") {
		return nil
	}
	s := &simpleSel{}
	i := 0
	for i < len(sel) {
		// One compound.
		var c simpleCompound
		start := i
		if sel[i] == '*' {
			i++
		} else if isNameByte(sel[i]) && sel[i] != '-' || sel[i] == '-' && i+1 < len(sel) && isNameByte(sel[i+1]) {
			j := i
			for j < len(sel) && isNameByte(sel[j]) {
				j++
			}
			c.tag = strings.ToLower(sel[i:j])
			i = j
		}
		for i < len(sel) && (sel[i] == '#' || sel[i] == '.') {
			kind := sel[i]
			j := i + 1
			for j < len(sel) && isNameByte(sel[j]) {
				j++
			}
			if j == i+1 {
				return nil
			}
			if kind == '#' {
				if c.id != "" {
					return nil
				}
				c.id = sel[i+1 : j]
			} else {
				c.classes = append(c.classes, sel[i+1:j])
			}
			i = j
		}
		for i < len(sel) && sel[i] == ':' {
			// A structural pseudo-class.
			j := i + 1
			for j < len(sel) && isNameByte(sel[j]) {
				j++
			}
			name := strings.ToLower(sel[i+1 : j])
			if conds, ok := structural[name]; ok && (j == len(sel) || sel[j] != '(') {
				c.nth = append(c.nth, conds...)
				i = j
				continue
			}
			cond, ok := nthFunctions[name]
			if !ok || j >= len(sel) || sel[j] != '(' {
				return nil
			}
			k := strings.IndexByte(sel[j:], ')')
			if k < 0 {
				return nil
			}
			arg := sel[j+1 : j+k]
			if strings.Contains(strings.ToLower(arg), " of ") {
				return nil // :nth-child(An+B of S)
			}
			a, b, ok := parseAnB(arg)
			if !ok {
				return nil
			}
			cond.a, cond.b = a, b
			c.nth = append(c.nth, cond)
			i = j + k + 1
		}
		if i == start {
			return nil
		}
		s.parts = append(s.parts, c)
		// The combinator.
		comb := byte(0)
		for i < len(sel) && (sel[i] == ' ' || sel[i] == '\t' || sel[i] == '\n' || sel[i] == '>') {
			if sel[i] == '>' {
				if comb == '>' {
					return nil
				}
				comb = '>'
			} else if comb == 0 {
				comb = ' '
			}
			i++
		}
		if comb != 0 {
			if i == len(sel) {
				return nil
			}
			s.combs = append(s.combs, comb)
		} else if i < len(sel) {
			return nil
		}
	}
	if len(s.parts) == 0 || len(s.parts) > 8 || len(s.combs) != len(s.parts)-1 {
		return nil
	}
	return s
}
