package style

import (
	"sort"
	"strings"
	"sync"
)

// Limits on custom properties: substitution depth, and the length of a
// substituted value (a chain of var()s doubling at each step would
// otherwise grow without bound).
const (
	maxVarDepth = 16
	maxVarBytes = 1 << 16
)

// customSet is an element's custom properties, values substituted. It is
// shared by the descendants that declare none of their own, and never
// changed once built; its pointer identifies it in substitution caches.
type customSet struct{ m map[string]string }

// resolveCustoms returns the custom properties of an element: its
// parent's, overridden by the winning declarations in ws (in cascade
// order), each with its var() references substituted.
func resolveCustoms(parentSet *customSet, ws []winner) *customSet {
	var parent map[string]string
	if parentSet != nil {
		parent = parentSet.m
	}
	out := make(map[string]string, len(parent)+len(ws))
	for k, v := range parent {
		out[k] = v
	}
	raw := make(map[string]string, len(ws))
	for _, w := range ws {
		d := w.d
		switch strings.ToLower(strings.TrimSpace(d.raw)) {
		case "inherit", "unset", "revert", "revert-layer":
			delete(raw, d.name)
			if v, ok := parent[d.name]; ok {
				out[d.name] = v
			} else {
				delete(out, d.name)
			}
			continue
		case "initial":
			delete(raw, d.name)
			delete(out, d.name)
			continue
		}
		raw[d.name] = d.raw
	}
	// Resolve this element's own declarations, detecting cycles.
	state := make(map[string]uint8, len(raw)) // 1 visiting, 2 done
	var resolve func(name string, depth int) (string, bool)
	resolve = func(name string, depth int) (string, bool) {
		r, own := raw[name]
		if !own {
			v, ok := out[name]
			return v, ok
		}
		switch state[name] {
		case 1:
			return "", false // a cycle: invalid at computed-value time
		case 2:
			v, ok := out[name]
			return v, ok
		}
		state[name] = 1
		v, ok := substituteWith(r, depth, func(n string) (string, bool) { return resolve(n, depth+1) })
		state[name] = 2
		if !ok {
			delete(out, name)
			return "", false
		}
		out[name] = v
		return v, true
	}
	for name := range raw {
		resolve(name, 0)
	}
	return internCustoms(out)
}

// customSets interns custom property sets by content, so that every
// document of a template shares its root's set (and the substitutions
// cached against it). Bounded: emptied when full.
var customSets = struct {
	sync.Mutex // guards m
	m          map[string]*customSet
}{m: map[string]*customSet{}}

func internCustoms(m map[string]string) *customSet {
	keys := make([]string, 0, len(m))
	n := 0
	for k, v := range m {
		keys = append(keys, k)
		n += len(k) + len(v) + 2
	}
	if n > 1<<16 {
		return &customSet{m: m}
	}
	sort.Strings(keys)
	var b strings.Builder
	b.Grow(n)
	for _, k := range keys {
		b.WriteString(k)
		b.WriteByte(0)
		b.WriteString(m[k])
		b.WriteByte(0)
	}
	key := b.String()
	customSets.Lock()
	defer customSets.Unlock()
	if cs := customSets.m[key]; cs != nil {
		return cs
	}
	if len(customSets.m) >= 1024 {
		customSets.m = map[string]*customSet{}
	}
	cs := &customSet{m: m}
	customSets.m[key] = cs
	return cs
}

// substitute replaces var() references in text by the custom properties'
// values (or the fallbacks). ok is false when a reference has neither.
func substitute(text string, custom *customSet, depth int) (string, bool) {
	return substituteWith(text, depth, func(n string) (string, bool) {
		if custom == nil {
			return "", false
		}
		v, ok := custom.m[n]
		return v, ok
	})
}

func substituteWith(text string, depth int, lookup func(string) (string, bool)) (string, bool) {
	if depth > maxVarDepth {
		return "", false
	}
	if !strings.Contains(text, "var(") && !strings.Contains(text, "env(") {
		return text, true
	}
	var b strings.Builder
	i := 0
	for i < len(text) {
		j := indexFunc(text, i)
		if j < 0 {
			b.WriteString(text[i:])
			break
		}
		b.WriteString(text[i:j])
		isEnv := strings.HasPrefix(text[j:], "env(")
		open := j + 4
		end := matchParen(text, open)
		if end < 0 {
			return "", false
		}
		args := text[open:end]
		name, fallback, hasFallback := args, "", false
		if k := topComma(args); k >= 0 {
			name, fallback, hasFallback = args[:k], args[k+1:], true
		}
		name = strings.TrimSpace(name)
		var val string
		ok := false
		if !isEnv {
			val, ok = lookup(name)
		}
		if !ok {
			if !hasFallback {
				return "", false
			}
			val, ok = substituteWith(fallback, depth+1, lookup)
			if !ok {
				return "", false
			}
		}
		b.WriteString(val)
		if b.Len() > maxVarBytes {
			return "", false
		}
		i = end + 1
	}
	return b.String(), true
}

// indexFunc finds the next "var(" or "env(" at or after i outside strings.
func indexFunc(s string, i int) int {
	var quote byte
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case (c == 'v' || c == 'e') && i+4 <= len(s) && (s[i:i+4] == "var(" || s[i:i+4] == "env(") && (i == 0 || !isNameByte(s[i-1])):
			return i
		}
	}
	return -1
}

// matchParen returns the index of the ')' closing a '(' just before i.
func matchParen(s string, i int) int {
	return scanTop(s, i, 1, false, func(_ int, c byte, depth int) bool { return c == ')' && depth == 0 })
}

// topComma finds the first comma outside parentheses and strings.
func topComma(s string) int {
	return scanTop(s, 0, 0, false, func(_ int, c byte, depth int) bool { return c == ',' && depth == 0 })
}
