// Package phantom is the fast print engine (docs/templates.md "Engines"): a
// pure-Go HTML and CSS layout engine that prints business documents in
// process, with no browser, no network and no file access (a document's
// images are data: URIs). It implements render.Engine, and render.Judge: the
// platform default asks it what a document uses that it does not lay out,
// and hands such documents to chromium.
//
// The work is split by concern, each in its own package:
//
//   - style: CSS parsing, selectors, the cascade and computed values;
//   - fonts: the machine's fonts resolved as Chromium resolves them, shaping
//     and metrics;
//   - images: data: URI images, and SVG drawn as vectors;
//   - layout: the box tree, block, inline and table layout, positioning,
//     pagination, and painting into the display list;
//   - draw: the display list, the one contract between layout and writer;
//   - pdfw: the PDF writer.
//
// The corpus package holds the golden documents that keep phantom's output
// indistinguishable from Chromium's, and the comparison that measures it.
//
// Invariants: an Engine is safe for concurrent use; each worker owns its
// font shaper; a document cannot run away (depth, page and time limits);
// the same job gives the same bytes.
package phantom
