package style

import "sync"

// uaCSS is the user-agent style sheet: Chromium's html.css
// (third_party/blink/renderer/core/html/resources/html.css, Chromium 156)
// for the elements a printed document uses, written with physical block
// margins (phantom lays out horizontal text only), :is() lists expanded
// (cascadia has no :is), and form controls left out (they are reported).
// Where Chromium differs from older browsers it is followed: h1 inside
// article, aside, nav and section keeps 2em (Chromium 156 dropped the
// smaller sizes), table borders default to currentColor. li has no
// text-align: match-parent: Chromium 156 aligns a list item's start and end
// by its own direction, as if inherited (measured: an li dir=rtl in a
// left-to-right list, and under text-align: end or start on the list).
const uaCSS = `
html, address, blockquote, body, center, div, figure, figcaption, footer, form, header, hr,
legend, listing, main, p, plaintext, pre, search, xmp, article, aside, h1, h2, h3, h4, h5, h6,
hgroup, nav, section, dir, dd, dl, dt, menu, ol, ul, details, summary, fieldset, optgroup,
frameset, frame { display: block }

area, base, basefont, datalist, head, link, meta, noembed, noframes, param, rp, script, style,
template, title, noscript, dialog:not([open]) { display: none }
[hidden]:not([hidden=until-found i]) { display: none }
[hidden=until-found i] { content-visibility: hidden }
audio:not([controls]) { display: none !important }
[popover] { display: none }
slot { display: contents }

body { margin: 8px }
p { margin-top: 1em; margin-bottom: 1em }
blockquote { margin: 1em 40px }
figure { margin: 1em 40px }
center { text-align: -webkit-center }
hr { overflow: hidden; margin: 0.5em auto; border-style: inset; border-width: 1px; color: gray }
video { object-fit: contain }
iframe { border: 2px inset }
marquee { display: inline-block; width: -webkit-fill-available }
q::before { content: open-quote }
q::after { content: close-quote }

h1 { font-size: 2em; margin-top: 0.67em; margin-bottom: 0.67em; font-weight: bold }
h2 { font-size: 1.5em; margin-top: 0.83em; margin-bottom: 0.83em; font-weight: bold }
h3 { font-size: 1.17em; margin-top: 1em; margin-bottom: 1em; font-weight: bold }
h4 { margin-top: 1.33em; margin-bottom: 1.33em; font-weight: bold }
h5 { font-size: 0.83em; margin-top: 1.67em; margin-bottom: 1.67em; font-weight: bold }
h6 { font-size: 0.67em; margin-top: 2.33em; margin-bottom: 2.33em; font-weight: bold }

table { display: table; box-sizing: border-box; border-spacing: 2px; border-collapse: separate; text-indent: initial }
thead { display: table-header-group; vertical-align: middle; border-color: inherit; break-inside: avoid }
tbody { display: table-row-group; vertical-align: middle; border-color: inherit }
tfoot { display: table-footer-group; vertical-align: middle; border-color: inherit; break-inside: avoid }
table > tr { vertical-align: middle }
col { display: table-column }
colgroup { display: table-column-group }
tr { display: table-row; vertical-align: inherit; border-color: inherit }
td, th { display: table-cell; vertical-align: inherit }
td:not(table td), th:not(table th) { padding: 1px }
th { font-weight: bold; text-align: -internal-center }
caption { display: table-caption; text-align: -webkit-center }

ul, menu, dir { list-style-type: disc; margin-top: 1em; margin-bottom: 1em; padding-inline-start: 40px }
ol { list-style-type: decimal; margin-top: 1em; margin-bottom: 1em; padding-inline-start: 40px }
li { display: list-item }
dir dir, dl dir, menu dir, ol dir, ul dir,
dir dl, dl dl, menu dl, ol dl, ul dl,
dir menu, dl menu, menu menu, ol menu, ul menu,
dir ol, dl ol, menu ol, ol ol, ul ol,
dir ul, dl ul, menu ul, ol ul, ul ul { margin-top: 0; margin-bottom: 0 }
dir dir, menu dir, ol dir, ul dir,
dir menu, menu menu, ol menu, ul menu,
dir ul, menu ul, ol ul, ul ul { list-style-type: circle }
dir dir dir, dir menu dir, dir ol dir, dir ul dir, menu dir dir, menu menu dir, menu ol dir, menu ul dir,
ol dir dir, ol menu dir, ol ol dir, ol ul dir, ul dir dir, ul menu dir, ul ol dir, ul ul dir,
dir dir menu, dir menu menu, dir ol menu, dir ul menu, menu dir menu, menu menu menu, menu ol menu, menu ul menu,
ol dir menu, ol menu menu, ol ol menu, ol ul menu, ul dir menu, ul menu menu, ul ol menu, ul ul menu,
dir dir ul, dir menu ul, dir ol ul, dir ul ul, menu dir ul, menu menu ul, menu ol ul, menu ul ul,
ol dir ul, ol menu ul, ol ol ul, ol ul ul, ul dir ul, ul menu ul, ul ol ul, ul ul ul { list-style-type: square }

dd { margin-inline-start: 40px }
dl { margin-top: 1em; margin-bottom: 1em }

form { margin-top: 0 }
fieldset { margin-inline-start: 2px; margin-inline-end: 2px; border: groove 2px ThreeDFace;
  padding: 0.35em 0.75em 0.625em; min-width: min-content }
legend { padding-inline-start: 2px; padding-inline-end: 2px }
optgroup { font-weight: bolder }

u, ins { text-decoration: underline }
abbr[title], acronym[title] { text-decoration: dotted underline }
strong, b { font-weight: bolder }
i, cite, em, var, address, dfn { font-style: italic }
tt, code, kbd, samp { font-family: monospace }
pre, xmp, plaintext, listing { font-family: monospace; white-space: pre; margin-top: 1em; margin-bottom: 1em }
mark { background-color: Mark; color: MarkText }
big { font-size: larger }
small { font-size: smaller }
s, strike, del { text-decoration: line-through }
sub { vertical-align: sub; font-size: smaller }
sup { vertical-align: super; font-size: smaller }
nobr { white-space: nowrap }
a:link { color: -webkit-link; text-decoration: underline }

ruby, rt { text-indent: 0 }
ruby { display: ruby }
rt { line-height: normal }
ruby > rt { display: ruby-text; font-size: 50%; text-align: start }

details > summary:first-of-type { display: list-item; counter-increment: list-item 0; list-style: disclosure-closed inside }
details[open] > summary:first-of-type { list-style-type: disclosure-open }

address, blockquote, center, div, figure, figcaption, footer, form, header, hr,
legend, listing, main, p, plaintext, pre, summary, xmp, article, aside, h1, h2,
h3, h4, h5, h6, hgroup, nav, section, search, table, caption, colgroup, col,
thead, tbody, tfoot, tr, td, th, dir, dd, dl, dt, menu, ol, ul, li, bdi,
output, [dir=ltr i], [dir=rtl i], [dir=auto i] { unicode-bidi: isolate }
bdo, bdo[dir] { unicode-bidi: isolate-override }
textarea[dir=auto i], pre[dir=auto i] { unicode-bidi: plaintext }

dialog[open] { display: block; position: absolute; left: 0; right: 0; width: fit-content; height: fit-content;
  margin: auto; border: solid; padding: 1em; background-color: Canvas; color: CanvasText }
`

var (
	uaOnce   sync.Once
	uaParsed *sheet
)

// uaSheet returns the parsed user-agent sheet.
func uaSheet() *sheet {
	uaOnce.Do(func() { uaParsed = parseSheet(uaCSS) })
	return uaParsed
}

// quirksCSS is what Chromium's quirks.css adds to the user-agent sheet in
// quirks mode (form controls left out, as above; a table's color is
// inherited in every mode).
const quirksCSS = `
img[align=left i] { margin-right: 3px }
img[align=right i] { margin-left: 3px }
table { white-space: normal; line-height: normal; font-weight: normal; font-size: medium;
  font-variant: normal; font-style: normal; text-align: start }
form { margin-bottom: 1em }
`

var (
	quirksOnce   sync.Once
	quirksParsed *sheet
)

// quirksSheet returns the parsed quirks-mode additions to the user-agent
// sheet.
func quirksSheet() *sheet {
	quirksOnce.Do(func() { quirksParsed = parseSheet(quirksCSS) })
	return quirksParsed
}

// uaPageCSS is html.css's @page block: the margin boxes' alignment.
const uaPageCSS = `
top-left-corner { text-align: right; vertical-align: middle }
top-left { text-align: left; vertical-align: middle }
top-center { text-align: center; vertical-align: middle }
top-right { text-align: right; vertical-align: middle }
top-right-corner { text-align: left; vertical-align: middle }
right-top { text-align: center; vertical-align: top }
right-middle { text-align: center; vertical-align: middle }
right-bottom { text-align: center; vertical-align: bottom }
bottom-right-corner { text-align: left; vertical-align: middle }
bottom-right { text-align: right; vertical-align: middle }
bottom-center { text-align: center; vertical-align: middle }
bottom-left { text-align: left; vertical-align: middle }
bottom-left-corner { text-align: right; vertical-align: middle }
left-bottom { text-align: center; vertical-align: bottom }
left-middle { text-align: center; vertical-align: middle }
left-top { text-align: center; vertical-align: top }
`
