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
//   - paragraph.go, inline.go, bidi.go, marker.go: inline layout: white
//     space, break opportunities (Blink's own table for ASCII, UAX #14
//     beside other characters), shaping, greedy line breaking, bidi
//     reordering, line boxes and vertical alignment, list markers.
//   - table*.go: tables (the table engineer's; table.go's header says what
//     they build on).
//   - paginate.go: pages cut out of the single flow layout produces (its
//     header describes the model and the hook tables use to repeat their
//     header and footer).
//   - paint.go, images.go: stacking order, backgrounds, borders, text and
//     its decorations, images, links, anchors, the outline.
//   - margins.go, headerfooter.go: @page margin boxes, and Chromium's
//     displayHeaderFooter templates (Options.Header, Options.Footer).
//
// Geometry follows Chromium's print path as measured against Chromium 156:
// the page area is placed at whole pixels and laid out rounded up (its
// viewport, for positioned boxes, rounded down), text is painted at its
// offset in a line box snapped to whole pixels, a document wider than the
// page is shrunk to fit, and quirks mode (no doctype) keeps the line height
// quirk and the quirky margins.
//
// Invariants: lengths are CSS px rounded as Chromium's LayoutUnit (1/64
// px) where Chromium rounds; nothing that input controls recurses without
// a bound (Options.MaxDepth), the box count is bounded (MaxBoxes), the
// page count too (MaxPages), and the context is checked every few hundred
// boxes and at each page. A layouter is one goroutine's.
package layout
