package fonts

// fallbackKey caches the system fallback for a character and a style.
type fallbackKey struct {
	r      rune
	weight int
	italic bool
}

// fallbackFor returns the face Chromium's platform fallback would pick for
// r (gfx::GetFallbackFontForChar: fontconfig's sorted list for a pattern
// holding only the character), styled for primary's query; nil when no
// face covers r.
func (l *Library) fallbackFor(r rune, primary *Resolved) *Resolved {
	k := fallbackKey{r: r}
	l.mu.Lock()
	fc, ok := l.fallback[k]
	l.mu.Unlock()
	if !ok {
		fc = l.findFallback(r)
		l.mu.Lock()
		l.fallback[k] = fc
		l.mu.Unlock()
	}
	if fc == nil {
		return nil
	}
	res := Resolved{Font: fc.font, Family: fc.info.families[0], face: fc}
	res.FakeBold = primary.FakeBold || (primary.face != nil && primary.face.weight >= 600 && fc.weight < 600)
	res.FakeItalic = primary.FakeItalic || (primary.face != nil && primary.face.slant != 0 && fc.slant == 0)
	return l.intern(res)
}

// intern returns the one *Resolved for res's face and synthesis, so that
// the shaper can tell faces apart by pointer.
func (l *Library) intern(res Resolved) *Resolved {
	k := internKey{res.face, res.FakeBold, res.FakeItalic}
	l.mu.Lock()
	defer l.mu.Unlock()
	if p, ok := l.interned[k]; ok {
		return p
	}
	p := &res
	l.interned[k] = p
	return p
}

type internKey struct {
	face                 *face
	fakeBold, fakeItalic bool
}

func (l *Library) findFallback(r rune) *face {
	fams := l.cfg.substitute("sans-serif")
	best, bestScore := (*face)(nil), score{}
	for _, fc := range l.faces {
		if !fc.covers(r) {
			continue
		}
		s := l.score(fc, fams, Query{Weight: 400, Stretch: 100})
		if best == nil || s.less(bestScore) {
			best, bestScore = fc, s
		}
	}
	return best
}

// covers reports whether the face maps r to a glyph.
func (fc *face) covers(r rune) bool {
	if fc.load() != nil {
		return false
	}
	_, ok := fc.ot.Cmap.Lookup(r)
	return ok
}
