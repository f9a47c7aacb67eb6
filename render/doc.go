// Package render turns a written template version and a caller's data into a
// printable HTML document, and defines the engines that print it to PDF.
//
// The steps, each a pure function of its inputs:
//   - ParseManifest and Version.Check validate what a user saves (spec
//     "Template version", "Manifest"; docs/design.md "Manifest").
//   - Fill executes the Handlebars markup (render/handlebars, Platen's own
//     engine) with the data, the version's static content, its assets and,
//     when the manifest declares pagination, the pages array (spec
//     "Pagination in markup"). Execution spends a budget of steps, bytes and
//     time (FillLimits) and stops when it is spent, and a helper's panic is
//     recovered, so a runaway template or a panicking helper fails one
//     render, stops there, and never harms the node.
//   - Document wraps the result with the sheet rules of the page size (spec
//     "Sheets"): one .sheet is one page in every engine.
//
// Engines (Engine) print a Document to PDF; the chromium engine is in
// render/chromium. This package holds no state but a bounded cache of parsed
// templates, keyed by immutable version identity.
package render
