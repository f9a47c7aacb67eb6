package chromium

import (
	"html"
	"regexp"
	"slices"
	"strings"

	"github.com/platen/platen/render"
)

// A printed document's report (render.Findings), read from what Chromium
// did rather than guessed:
//   - failed assets: the requests the page made and was refused (anything
//     but a data: URI: the template's assets are inlined as data: URIs), and
//     the images whose decode() was rejected although their data was there;
//   - fonts used: the PDF's font dictionaries, whose BaseFont is the face's
//     PostScript name after a subset tag ("AAAAAA+LiberationSans"), named by
//     the face's family on this machine;
//   - substitutions: each CSS font-family list of the document (declarations
//     and the font shorthand, in style sheets and style attributes) whose
//     first family is named and is not a web font the document carries as a
//     data: URI, resolved on this machine's fonts as Blink resolves it
//     (Config.Fonts: phantom's font system, which is tested against this
//     Chromium's PDFs): when the face Blink picks does not carry that
//     family, the list's first family was substituted by the face's.

// find fills f for a document printed from job.
func find(f *render.Findings, job render.Job, pdf []byte, refused, broken []string, names FontNames) {
	for _, u := range refused {
		f.AddFailedAsset(u, render.ReasonNotFetched)
	}
	for _, u := range broken {
		if isData(u) {
			f.AddFailedAsset(u, render.ReasonUndecodable+": the browser could not decode it")
		} else if !slices.Contains(refused, u) {
			f.AddFailedAsset(u, render.ReasonNotFetched)
		}
	}
	f.Fonts = render.Fonts{Used: usedFonts(pdf, names), Substituted: []render.Substitution{}}
	if names == nil {
		return
	}
	// Entities unescaped: a style attribute may quote a family as &quot;.
	css := html.UnescapeString(job.HTML + job.Header + job.Footer)
	web := webFonts(css)
	for _, list := range fontLists(css) {
		// A generic first family is never a substitution: FirstFamily says so.
		first := list[0]
		if web[strings.ToLower(first)] {
			continue
		}
		used, substituted := names.FirstFamily(list)
		if !substituted {
			continue
		}
		s := render.Substitution{Requested: first, Used: used}
		if !slices.Contains(f.Fonts.Substituted, s) && len(f.Fonts.Substituted) < 50 {
			f.Fonts.Substituted = append(f.Fonts.Substituted, s)
		}
	}
	slices.SortFunc(f.Fonts.Substituted, func(a, b render.Substitution) int {
		if c := strings.Compare(a.Requested, b.Requested); c != 0 {
			return c
		}
		return strings.Compare(a.Used, b.Used)
	})
}

func isData(u string) bool { return len(u) >= 5 && strings.EqualFold(u[:5], "data:") }

// baseFontRE finds a font dictionary's BaseFont: an optional subset tag of
// six capitals and '+', then the name.
var baseFontRE = regexp.MustCompile(`/BaseFont\s*/(?:[A-Z]{6}\+)?([^\s/<>\[\]()%{}]+)`)

// usedFonts is the families of the fonts a PDF embeds, sorted, each once: a
// face of this machine by its family, a web font by its PostScript name.
func usedFonts(pdf []byte, names FontNames) []string {
	out := []string{}
	for _, m := range baseFontRE.FindAllSubmatch(pdf, -1) {
		name := unescapeName(string(m[1]))
		if names != nil {
			if fam, ok := names.FamilyOf(name); ok {
				name = fam
			}
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// unescapeName decodes a PDF name's #xx escapes.
func unescapeName(s string) string {
	if !strings.Contains(s, "#") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '#' && i+2 < len(s) {
			if v, ok := hexByte(s[i+1], s[i+2]); ok {
				b.WriteByte(v)
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func hexByte(a, b byte) (byte, bool) {
	h := func(c byte) (byte, bool) {
		switch {
		case c >= '0' && c <= '9':
			return c - '0', true
		case c >= 'a' && c <= 'f':
			return c - 'a' + 10, true
		case c >= 'A' && c <= 'F':
			return c - 'A' + 10, true
		}
		return 0, false
	}
	x, ok1 := h(a)
	y, ok2 := h(b)
	return x<<4 | y, ok1 && ok2
}

var (
	fontFaceRE   = regexp.MustCompile(`(?is)@font-face\s*\{[^}]*\}`)
	familyDeclRE = regexp.MustCompile(`(?i)font-family\s*:\s*([^;{}<>]+)`)
	fontDeclRE   = regexp.MustCompile(`(?i)(?:^|[\s;{"'])font\s*:\s*([^;{}<>]+)`)
	// shorthandSizeRE finds the font shorthand's size (and line height):
	// the families follow it.
	shorthandSizeRE = regexp.MustCompile(`(?i)(?:^|\s)(?:xx-small|x-small|small|medium|large|x-large|xx-large|smaller|larger|[\d.]+(?:px|pt|pc|em|rem|ex|ch|%|mm|cm|in|q|vw|vh)?)(?:\s*/\s*\S+)?\s+`)
)

// webFonts is the families the document's @font-face rules give with a
// data: URI source (lower case): Chromium loads those and no others.
func webFonts(css string) map[string]bool {
	out := map[string]bool{}
	for _, block := range fontFaceRE.FindAllString(css, -1) {
		if !strings.Contains(strings.ToLower(block), "data:") {
			continue
		}
		if m := familyDeclRE.FindStringSubmatch(block); m != nil {
			if l := splitFamilies(m[1]); len(l) > 0 {
				out[strings.ToLower(l[0])] = true
			}
		}
	}
	return out
}

// fontLists is the document's CSS font-family lists outside @font-face
// rules, each once, at most 200.
func fontLists(css string) [][]string {
	css = fontFaceRE.ReplaceAllString(css, "")
	var out [][]string
	seen := map[string]bool{}
	add := func(l []string) {
		key := strings.Join(l, ",")
		if len(l) == 0 || seen[key] || len(out) >= 200 {
			return
		}
		seen[key] = true
		out = append(out, l)
	}
	for _, m := range familyDeclRE.FindAllStringSubmatch(css, -1) {
		add(splitFamilies(m[1]))
	}
	for _, m := range fontDeclRE.FindAllStringSubmatch(css, -1) {
		v := m[1]
		if loc := shorthandSizeRE.FindStringIndex(v); loc != nil {
			add(splitFamilies(v[loc[1]:]))
		}
	}
	return out
}

// splitFamilies splits a font-family value into its families, unquoted:
// "'Helvetica Neue', Arial, sans-serif". Keywords that are not families
// (inherit, initial, unset) give none.
func splitFamilies(v string) []string {
	v = html.UnescapeString(v)
	v = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "!important"))
	var out []string
	for _, part := range strings.Split(v, ",") {
		f := strings.Trim(strings.TrimSpace(part), `"'`)
		f = strings.TrimSpace(strings.TrimRight(f, `"'`))
		if f == "" {
			continue
		}
		switch strings.ToLower(f) {
		case "inherit", "initial", "unset", "revert", "revert-layer":
			return nil
		}
		out = append(out, f)
	}
	return out
}
