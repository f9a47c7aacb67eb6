package style

import (
	"fmt"
	"testing"
)

// TestFlexValues reads the flex properties as CSS Flexbox 1 and Box
// Alignment 3 give them: the flex and flex-flow shorthands with their
// omitted parts, gap, place-*, the -webkit- aliases, and blockified items;
// an invalid value is dropped and the earlier declaration stands.
func TestFlexValues(t *testing.T) {
	show := func(c *Computed) string {
		return fmt.Sprintf("grow %g shrink %g basis %v/%g order %d self %d", c.FlexGrow, c.FlexShrink, c.FlexBasis.Unit, c.FlexBasis.V, c.Order, c.AlignSelf)
	}
	earlier := "flex: 7 7 7px; order: 7; align-self: center; "
	for _, tc := range []struct{ css, want string }{
		{"", "grow 7 shrink 7 basis 0/7 order 7 self 11"},
		{"flex: 1", "grow 1 shrink 1 basis 1/0 order 7 self 11"},
		{"flex: 2 3", "grow 2 shrink 3 basis 1/0 order 7 self 11"},
		{"flex: 0 0 120px", "grow 0 shrink 0 basis 0/120 order 7 self 11"},
		{"flex: 30%", "grow 1 shrink 1 basis 1/30 order 7 self 11"},
		{"flex: 10px 2", "grow 2 shrink 1 basis 0/10 order 7 self 11"},
		{"flex: 1 0", "grow 1 shrink 0 basis 1/0 order 7 self 11"},
		{"flex: 1 1 0", "grow 1 shrink 1 basis 0/0 order 7 self 11"},
		{"flex: none", "grow 0 shrink 0 basis 2/0 order 7 self 11"},
		{"flex: auto", "grow 1 shrink 1 basis 2/0 order 7 self 11"},
		{"flex: initial", "grow 0 shrink 1 basis 2/0 order 7 self 11"},
		{"flex: 1 1 content", "grow 1 shrink 1 basis 6/0 order 7 self 11"},
		{"-webkit-flex: 3", "grow 3 shrink 1 basis 1/0 order 7 self 11"},
		{"flex-grow: 2.5; -webkit-flex-shrink: 0", "grow 2.5 shrink 0 basis 0/7 order 7 self 11"},
		{"order: -2; align-self: flex-end", "grow 7 shrink 7 basis 0/7 order -2 self 4"},
		{"align-self: last baseline", "grow 7 shrink 7 basis 0/7 order 7 self 16"},
		{"align-self: safe center", "grow 7 shrink 7 basis 0/7 order 7 self 11"},
		{"place-self: end start", "grow 7 shrink 7 basis 0/7 order 7 self 6"},
		{"align-self: auto", "grow 7 shrink 7 basis 0/7 order 7 self 1"},
		// Invalid: the earlier declarations stand.
		{"flex: 1 2 3", "grow 7 shrink 7 basis 0/7 order 7 self 11"},
		{"flex: -1", "grow 7 shrink 7 basis 0/7 order 7 self 11"},
		{"flex: 1px 2px", "grow 7 shrink 7 basis 0/7 order 7 self 11"},
		{"flex: 1 10px 2", "grow 7 shrink 7 basis 0/7 order 7 self 11"},
		{"order: 1.5", "grow 7 shrink 7 basis 0/7 order 7 self 11"},
		{"align-self: safe stretch", "grow 7 shrink 7 basis 0/7 order 7 self 11"},
		{"align-self: space-between", "grow 7 shrink 7 basis 0/7 order 7 self 11"},
	} {
		r, root := compute(t, `<!DOCTYPE html><html><body><div style="display: flex"><span style="`+earlier+tc.css+`">x</span></div></body></html>`)
		span := root.FirstChild.NextSibling.LastChild.FirstChild.FirstChild
		s := r.Style(span)
		if got := show(s); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.css, got, tc.want)
		}
		if s.Display != DisplayBlock {
			t.Errorf("%s: a flex item's span is not blockified", tc.css)
		}
	}

	for _, tc := range []struct{ css, want string }{
		{"", "dir 0 wrap 0 justify 0 items 0 content 0 gaps 4/0 4/0"},
		{"flex-flow: column wrap", "dir 2 wrap 1 justify 0 items 0 content 0 gaps 4/0 4/0"},
		{"flex-flow: wrap-reverse", "dir 0 wrap 2 justify 0 items 0 content 0 gaps 4/0 4/0"},
		{"-webkit-flex-direction: row-reverse; flex-wrap: wrap", "dir 1 wrap 1 justify 0 items 0 content 0 gaps 4/0 4/0"},
		{"justify-content: space-between; align-items: center", "dir 0 wrap 0 justify 12 items 11 content 0 gaps 4/0 4/0"},
		{"-webkit-justify-content: flex-end; -webkit-align-items: baseline", "dir 0 wrap 0 justify 4 items 15 content 0 gaps 4/0 4/0"},
		{"place-content: center space-evenly", "dir 0 wrap 0 justify 14 items 0 content 11 gaps 4/0 4/0"},
		{"place-content: stretch", "dir 0 wrap 0 justify 2 items 0 content 2 gaps 4/0 4/0"},
		{"place-items: center", "dir 0 wrap 0 justify 0 items 11 content 0 gaps 4/0 4/0"},
		{"gap: 10px", "dir 0 wrap 0 justify 0 items 0 content 0 gaps 0/10 0/10"},
		{"gap: 1em 5%", "dir 0 wrap 0 justify 0 items 0 content 0 gaps 0/16 1/5"},
		{"grid-gap: 2px 3px; row-gap: normal", "dir 0 wrap 0 justify 0 items 0 content 0 gaps 4/0 0/3"},
		// Invalid.
		{"flex-flow: row column", "dir 0 wrap 0 justify 0 items 0 content 0 gaps 4/0 4/0"},
		{"justify-content: baseline center", "dir 0 wrap 0 justify 0 items 0 content 0 gaps 4/0 4/0"},
		{"gap: -1px", "dir 0 wrap 0 justify 0 items 0 content 0 gaps 4/0 4/0"},
	} {
		r, root := compute(t, `<!DOCTYPE html><html><body><div style="display: flex; `+tc.css+`">x</div></body></html>`)
		div := root.FirstChild.NextSibling.LastChild.FirstChild
		c := r.Style(div)
		got := fmt.Sprintf("dir %d wrap %d justify %d items %d content %d gaps %v/%g %v/%g", c.FlexDirection, c.FlexWrap,
			c.JustifyContent, c.AlignItems, c.AlignContent, c.RowGap.Unit, c.RowGap.V, c.ColumnGap.Unit, c.ColumnGap.V)
		if got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.css, got, tc.want)
		}
	}
}

// TestNumericVariant reads font-variant-numeric and font-variant's numeric
// values: at most one of each group, in any order, inherited; an invalid
// value is dropped and the earlier declaration stands.
func TestNumericVariant(t *testing.T) {
	for _, tc := range []struct {
		css  string
		want NumericVariant
	}{
		{"", NumSlashedZero},
		{"font-variant-numeric: normal", 0},
		{"font-variant-numeric: tabular-nums", NumTabular},
		{"font-variant-numeric: slashed-zero lining-nums tabular-nums diagonal-fractions ordinal", NumSlashedZero | NumLining | NumTabular | NumDiagonalFractions | NumOrdinal},
		{"font-variant: oldstyle-nums proportional-nums small-caps", NumOldstyle | NumProportional},
		{"font-variant: normal", 0},
		{"font-variant-numeric: inherit", NumStackedFractions},
		// Invalid: the earlier slashed-zero stands.
		{"font-variant-numeric: tabular-nums proportional-nums", NumSlashedZero},
		{"font-variant-numeric: lining-nums lining-nums", NumSlashedZero},
		{"font-variant-numeric: normal tabular-nums", NumSlashedZero},
	} {
		r, root := compute(t, `<!DOCTYPE html><html><body style="font-variant-numeric: stacked-fractions"><div style="font-variant-numeric: slashed-zero; `+tc.css+`"><span>1</span></div></body></html>`)
		span := root.FirstChild.NextSibling.LastChild.FirstChild.FirstChild
		if got := r.Style(span).Numeric; got != tc.want {
			t.Errorf("%s: got %08b, want %08b", tc.css, got, tc.want)
		}
	}
}
