// Package style is phantom's CSS: it parses a document's style sheets,
// matches selectors, cascades and inherits, and leaves for every element a
// Computed style with lengths in pixels where CSS computes them so. Layout
// reads Computed and never parses CSS.
//
// The reference is Chromium printing the same document. The user-agent
// sheet is Chromium's html.css (ua.go); the cascade, font-size keywords,
// the monospace font-size quirk, border-width snapping, presentational
// attributes and :empty follow Chromium where it differs from the specs,
// and chromium_test.go compares the results with Chromium's
// getComputedStyle. The document is styled for print: @media print and all
// apply, screen does not; media features are evaluated against
// Options.PageWidth and PageHeight.
//
// What a document uses that phantom does not lay out is collected while
// cascading and returned by Result.Unsupported, for the support check that
// hands such documents to Chromium. A feature is reported only when it
// takes effect on a displayed element: a flex rule that matches nothing, a
// float inside display: none, box-shadow: none are not uses. Properties
// without effect in print (cursor, transitions, user-select, ...) are
// ignored silently; grid item and container properties are covered by the
// display they need. font-feature-settings is laid out for the numeric
// features font-variant-numeric also names, and reported for any other.
//
// Parts of Computed that layout must know about:
//   - Styles are shared: elements styled from the same parent style, rules,
//     presentational hints and style attribute get the same *Computed.
//     Never modify a Computed.
//   - Length percentages may carry an offset (calc(100% - 20px)): resolve
//     them with Length.Resolve.
//   - Decoration is the element's own text-decoration (not inherited);
//     layout propagates it to descendant text as CSS specifies.
//   - Quotes nil means auto (the language's quotes), an empty slice none.
//   - The ::marker style exists for list items with a marker; ContentNone
//     there means the marker text comes from ListStyleType.
//   - ol start and reversed, li value, col span and the like are read from
//     the elements' attributes.
//
// Invariants: Compute never panics on any input and its work is bounded
// (tree depth, number of rules and declarations, value nesting, var()
// substitution depth and length); a Result is read-only once returned and
// safe for concurrent readers; parsed style sheets, presentational hints
// and custom property sets are shared between documents through bounded,
// concurrency-safe, process-wide caches and never mutated.
package style
