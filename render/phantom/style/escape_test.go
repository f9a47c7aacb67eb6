package style

import "testing"

// TestEscapedClassSelectors: class names with escaped characters, as
// Tailwind writes .w-2\.5, .w-1\/2 and .sm\:grid, match the elements that
// carry them, as the subject and as an ancestor (a rule is filed under a
// class of its own, never a piece of an escaped one).
func TestEscapedClassSelectors(t *testing.T) {
	for _, c := range []struct{ sel, class, parent string }{
		{`.a\.b`, "a.b", ""}, {`.w-2\.5`, "w-2.5", ""}, {`.py-1\.5.x`, "py-1.5 x", ""}, {`.w-2\:x`, "w-2:x", ""},
		{`.x-2\/3`, "x-2/3", ""}, {`.p\.q span`, "z", "p.q"}, {`.p\.q > .w-2\.5`, "w-2.5", "p.q"},
	} {
		s := styleOf(t, `<!DOCTYPE html><html><head><style>`+c.sel+` { width: 10px }</style></head><body><div class="`+c.parent+`"><span id=x class="`+c.class+`">x</span></div></body></html>`, "x")
		if s.Width.Unit != Px || s.Width.V != 10 {
			t.Errorf("%s does not match class %q (parent %q): width %+v", c.sel, c.class, c.parent, s.Width)
		}
	}
	s := styleOf(t, `<!DOCTYPE html><html><head><style>.a\.b { width: 10px }</style></head><body><span id=x class="b">x</span></body></html>`, "x")
	if s.Width.Unit == Px {
		t.Error(`.a\.b matched class b`)
	}
}
