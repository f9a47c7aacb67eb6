// Package images turns the src of an <img> or a CSS url() into something the
// display list can paint: a raster (draw.Image) or an SVG drawn as vectors
// (draw ops).
//
// Only data: URIs are loaded (Load), since phantom, like production
// Chromium, lets a document reach nothing outside itself; any other URL is
// an error that the engine records as a failed asset (Chromium would show
// nothing). InlineSVG takes an <svg> of the document itself, as markup.
//
// Rasters: PNG (any kind: palette, gray, 16-bit, interlaced, with alpha),
// GIF (its first frame on its logical screen) and WebP become 8-bit RGB or
// Gray with a straight alpha plane, dropped when opaque. JPEG is passed
// through untouched, with its components and Adobe CMYK inversion read from
// its markers; one with an EXIF orientation is turned upright (Chromium
// applies image-orientation: from-image) and encoded again as a JPEG.
//
// SVG is parsed into a tree (encoding/xml, with limits) and converted once
// into ops in its own user space: shapes, paths (arcs as cubics), <style>
// rules of type, class and id selectors, presentation attributes and style
// attributes, transforms, opacity, dashes, <use>, <symbol>, nested <svg>,
// clip-path, and data: <image>s. svgreader supplies the matrix arithmetic;
// its document model drops what phantom must report, so the tree is
// phantom's own. What cannot be drawn (text, gradients, patterns, filters,
// masks, markers, ...) is listed in SVG.Dropped, and the engine's support
// check hands such documents to Chromium; the rest is still drawn, a
// gradient as the mean of its stops.
//
// Invariants:
//   - The same bytes give the same *Image for the life of the process (while
//     cached): the PDF writer embeds an image once per document by pointer, and
//     templates put the same logo in every document. The cache is keyed by the
//     SHA-256 of the decoded bytes, reached on a hit through the SHA-256 of
//     the src string, and bounded in entries and bytes.
//   - An *Image and everything it points to is read-only once returned: it is
//     shared by every goroutine. SVG.Draw returns a fresh slice of shared ops.
//   - Limits are checked before pixels are decoded (DecodeConfig or the JPEG
//     markers): at most MaxPixels pixels and MaxBytes bytes of payload. An SVG
//     is bounded in nesting, elements, elements drawn (through <use>), ops,
//     path segments and selector matching. Bad input is an error, never a
//     panic.
//   - Raster types are sniffed from the bytes as Chromium's decoders do,
//     whatever the declared media type; SVG is recognised only when declared
//     image/svg+xml and rooted in the SVG namespace, as in Chromium.
package images
