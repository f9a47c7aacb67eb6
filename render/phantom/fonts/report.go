package fonts

import (
	"slices"
	"strings"
)

// Substitution is a family a document's text asked for first and the family
// it was set in instead: Helvetica Neue in Liberation Sans.
type Substitution struct {
	Requested, Used string
}

// Track starts recording the font lists this Shaper shapes text with, for
// Substitutions, and forgets what it recorded before: a worker calls it at
// the start of each document. Recording costs a pointer comparison per
// Shape, and a map insert when the list changes.
func (s *Shaper) Track() {
	if s.seen == nil {
		s.seen = make(map[*resolution]struct{})
	}
	clear(s.seen)
	s.last, s.tracking = nil, true
}

// track records a font list that text is shaped with.
func (s *Shaper) track(res *resolution) {
	if s.tracking && res != s.last {
		s.last = res
		s.seen[res] = struct{}{}
	}
}

// Substitutions lists, for the font lists shaped since Track, each first
// family the list names (a generic name is a choice, never a substitution)
// that the face its text was set in does not carry, with that face's
// family, sorted and each once. A family Blink maps to a metric-compatible
// one (Arial to Liberation Sans) is a substitution too: the PDF names the
// face it used.
func (s *Shaper) Substitutions() []Substitution {
	var out []Substitution
	for res := range s.seen {
		if len(res.query.Families) == 0 || res.primary == nil {
			continue
		}
		asked := strings.TrimSpace(res.query.Families[0])
		if asked == "" || !res.substitutes(asked) {
			continue
		}
		sub := Substitution{Requested: asked, Used: res.primary.Family}
		if !slices.Contains(out, sub) {
			out = append(out, sub)
		}
	}
	slices.SortFunc(out, func(a, b Substitution) int {
		if c := strings.Compare(a.Requested, b.Requested); c != 0 {
			return c
		}
		return strings.Compare(a.Used, b.Used)
	})
	return out
}

// isGeneric reports whether a family is a CSS generic name or Blink's
// standard font.
func isGeneric(family string) bool {
	f := strings.ToLower(family)
	if _, ok := genericFamilies[f]; ok {
		return true
	}
	switch f {
	case standardFamily, "ui-serif", "ui-sans-serif", "ui-monospace", "ui-rounded", "emoji", "math", "fangsong":
		return true
	}
	return false
}

// FamilyOf returns the family of the machine's face whose PostScript name
// is ps, as a PDF's BaseFont names it after its subset tag.
func (l *Library) FamilyOf(ps string) (string, bool) {
	l.psOnce.Do(func() {
		l.byPS = make(map[string]string, len(l.faces))
		for _, fc := range l.faces {
			name := fc.info.postScriptName
			if name == "" {
				name = strings.ReplaceAll(fc.info.families[0], " ", "")
			}
			if _, dup := l.byPS[name]; !dup {
				l.byPS[name] = fc.info.families[0]
			}
		}
	})
	f, ok := l.byPS[ps]
	return f, ok
}

// FirstFamily returns the family of the face Blink sets text in for a CSS
// font-family list (its primary font), and whether the list's first family
// is a named one that face does not carry: a substitution.
func (l *Library) FirstFamily(families []string) (used string, substituted bool) {
	res := l.resolve(normQuery(Query{Families: families}))
	used = res.primary.Family
	if len(families) == 0 {
		return used, false
	}
	return used, res.substitutes(families[0])
}

// substitutes is the one rule of a substitution, for Substitutions and
// FirstFamily: asked, the first family of res's list, is a named one (a
// generic name is a choice) that the face its text is set in does not
// carry.
func (res *resolution) substitutes(asked string) bool {
	return !isGeneric(asked) && res.primary.face != nil && !slices.Contains(res.primary.face.folded, foldFamily(asked))
}
