// Package layout lays out an HTML document for print as Chromium's
// LayoutNG does, and paints it into phantom's display list (draw).
//
// The pipeline, one file each:
//
//   - build.go, anonymous.go, counters.go: the box tree (box.go) from the
//     DOM and the computed style: anonymous blocks and table boxes,
//     generated content, list markers, counters.
//   - block.go: block layout (widths, margin collapsing, heights);
//     position.go: absolute and fixed positioning; intrinsic.go: min- and
//     max-content widths.
//   - paragraph.go, inline.go, marker.go: inline layout: white space,
//     break opportunities, shaping, line breaking, line boxes and
//     vertical alignment.
//   - table*.go: tables (the table engineer's; table.go's header says what
//     they build on).
//   - paginate.go: pages cut out of the single flow layout produces.
//   - paint.go: stacking order, backgrounds, borders, text, images, links.
//
// Invariants: lengths are CSS px rounded as Chromium's LayoutUnit (1/64
// px) where Chromium rounds; nothing that input controls recurses without
// a bound (Options.MaxDepth), the box count is bounded (MaxBoxes), the
// page count too (MaxPages), and the context is checked every few hundred
// boxes and at each page. A layouter is one goroutine's.
package layout
