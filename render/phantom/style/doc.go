// Package style is phantom's CSS: it parses a document's style sheets,
// matches selectors, cascades and inherits, and leaves for every element a
// Computed style with lengths in pixels where CSS computes them so. Layout
// reads Computed and never parses CSS.
//
// The user-agent sheet is Chromium's html.css for print, so a document
// styles here as it does in the browser that is phantom's reference. What a
// document uses that phantom does not lay out (flex, grid, floats,
// transforms, web fonts, properties without an implementation) is collected
// while cascading and returned by Result.Unsupported, for the support check
// that hands such documents to Chromium.
//
// Invariants: Compute never panics on any input and its work is bounded
// (tree depth, number of rules and declarations, value nesting); a Result is
// read-only once returned; parsed style sheets are shared between documents
// through a bounded process-wide cache and never mutated.
package style
