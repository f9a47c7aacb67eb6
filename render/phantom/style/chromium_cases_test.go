package style

import (
	"os"
	"path/filepath"
	"testing"
)

var uaProps = []string{"display", "margin-top", "margin-right", "margin-bottom", "margin-left", "padding-top",
	"padding-left", "padding-right", "color", "text-decoration-line", "font-weight", "font-style", "font-family",
	"font-size", "list-style-type", "list-style-position", "white-space", "unicode-bidi", "text-align",
	"vertical-align", "border-top-style", "border-top-width", "border-top-color", "border-left-width",
	"box-sizing", "border-spacing", "border-collapse", "background-color", "caption-side", "direction"}

// uaDefaultsCase compares the user-agent styles of the elements a
// business document uses with Chromium's.
func uaDefaultsCase() chromiumCase {
	doc := `<!DOCTYPE html><html id=html lang=en><head id=head><title id=title>x</title><style id=style></style><meta id=meta><link id=link></head><body id=body>
<div hidden id=hid>x</div><span hidden id=hid2 style="display:block">x</span><template id=tpl></template><script id=scr></script>
<area id=area><base id=base><param id=param><rp id=rp></rp><img id=img><br id=br><wbr id=wbr>
<a href="x" id=a1>l</a><a id=a2>n</a><abbr title=x id=abbr>a</abbr><u id=u>u</u><s id=s>s</s><ins id=ins>i</ins><del id=del>d</del><mark id=mark>m</mark><q id=q>q</q><bdo id=bdo dir=rtl>b</bdo><nobr id=nobr>n</nobr><bdi id=bdi>x</bdi>
<hr id=hr><center id=center>c</center><address id=address>a</address><details id=details><summary id=summary>s</summary></details><main id=main></main><figure id=fig><figcaption id=figc></figcaption></figure><blockquote id=bq></blockquote><dl id=dl2><dt id=dt></dt><dd id=dd></dd></dl>
<menu id=menu><li id=mli></li></menu><ul id=ul1><li id=li1><ul id=ul2><li id=li2><ol id=ol3><li id=li3><ul id=ul4><li id=li4></li></ul></li></ol></li></ul></li></ul><ol id=ol1><li id=oli></li></ol><dl id=dl3><dd><ul id=uldl></ul></dd></dl>
<pre id=pre></pre><table id=tbl><caption id=cap></caption><colgroup id=cg><col id=col></colgroup><thead id=th1><tr id=tr0><th id=th>h</th></tr></thead><tbody id=tb><tr id=tr><td id=td>d</td></tr></tbody><tfoot id=tf><tr><td id=td2></td></tr></tfoot></table>
<table><tr id=trd><td id=tdd></td></tr></table><td id=loose>x</td>
<label id=label>l</label><form id=form></form><output id=output></output><map id=map></map><slot id=slot></slot><search id=search></search><hgroup id=hgroup></hgroup><xmp id=xmp></xmp><listing id=listing></listing>
<kbd id=kbd></kbd><samp id=samp></samp><tt id=tt></tt><var id=var></var><dfn id=dfn></dfn><cite id=cite></cite><em id=em></em><i id=i></i><b id=b></b><strong id=strong></strong><font id=font></font><span id=span></span><small id=small>s</small><big id=big>b</big><sub id=sub>s</sub><sup id=sup>s</sup>
<h1 id=h1>x</h1><h2 id=h2>x</h2><h3 id=h3>x</h3><h4 id=h4>x</h4><h5 id=h5>x</h5><h6 id=h6>x</h6><section><h1 id=sh1>x</h1></section><article><section><h1 id=ash1>x</h1></section></article>
<p id=p>p</p><article id=article></article><aside id=aside></aside><nav id=nav></nav><header id=header></header><footer id=footer></footer><section id=section></section>
<b><b id=bb>x</b></b><strong style="font-weight:300"><b id=b300>x</b></strong><th id=looseth>x</th>
<div dir=rtl id=rtl><p id=rtlp>x</p><ul id=rtlul><li id=rtlli>x</li></ul></div>
</body></html>`
	return chromiumCase{name: "ua-defaults", doc: doc, props: uaProps}
}

// fontSizesCase compares font sizes: keywords, em, smaller and
// larger, and Chromium's monospace quirk (13px for a monospace-only family
// at a keyword size, scaled by 13/16 for em-derived sizes).
func fontSizesCase() chromiumCase {
	doc := `<!DOCTYPE html><html><body>
<p>x<code id=a>code</code></p><pre id=b>pre</pre><div style="font-size:20px"><code id=c>c</code><span style="font-family:monospace;font-size:1em" id=d>d</span><span style="font-family:monospace;font-size:100%" id=e>d</span><code style="font-size:smaller" id=f>d</code></div>
<h1 id=g style="font-family:monospace">x</h1>
<code id=a1 style="font-size:smaller">x</code>
<code id=a2 style="font-size:2em">x</code>
<span id=a3 style="font-family:monospace"><span id=a4 style="font-family:serif">x</span></span>
<div id=a5 style="font-size:large"><code id=a6>x</code><code id=a7 style="font-size:150%">x</code></div>
<code id=a8 style="font-size:small">x</code>
<code id=a9 style="font-size:larger">x</code>
<div id=b1 style="font-size:1.5em"><code id=b2>x</code><span id=b3 style="font-size:smaller"><code id=b4>x</code></span></div>
<div id=b5 style="font-size:xx-small"><span id=b6 style="font-size:larger">x</span><code id=b7>x</code></div>
<div id=b8 style="font-size:x-large"><code id=b9>x</code></div>
<div style="font-size:xx-large"><code id=c1>x</code></div>
<div style="font-size:xxx-large"><code id=c2>x</code></div>
<div style="font-size:x-small"><code id=c3>x</code></div>
<div style="font-size:xx-small"><code id=c4>x</code></div>
<div style="font-size:medium"><code id=c5>x</code></div>
<div style="font-size:calc(1em + 0px)"><code id=c6>x</code></div>
<div style="font-size:1rem"><code id=c7>x</code></div>
<code style="font-size:1rem" id=c8>x</code>
<pre><span id=d1 style="font-size:2em">x</span><span id=d2 style="font-family:serif">x</span><span id=d3 style="font-family:monospace, monospace">x</span></pre>
<div style="font-family: monospace, monospace" id=d4>x<code id=d5>x</code></div>
<div style="font-size:12pt"><pre id=d6>x</pre><small id=d7>x</small></div>
<div style="font: italic small-caps bold condensed 13px/1.5 'Liberation Sans', sans-serif" id=f1><span id=f2 style="font-size:150%">x</span><span id=f3 style="font-weight:lighter">x</span><span id=f4 style="font-weight:bolder">x</span></div>
<div style="font:12px monospace" id=f5></div><div style="font:x-large serif" id=f6><code id=f7></code></div>
<div style="font-size:10px"><span style="font-size:2rem" id=r1></span><span style="font-size:1.2em;line-height:2" id=r2><span id=r3 style="font-size:20px"></span></span><span style="line-height:150%" id=r4><span id=r5 style="font-size:20px"></span></span></div>
</body></html>`
	return chromiumCase{name: "font-sizes", doc: doc, props: []string{"font-size", "font-family", "font-weight", "font-style", "font-variant-caps", "font-stretch", "line-height"}}
}

var valueProps = []string{"display", "position", "float", "clear", "z-index", "top", "right", "bottom", "left",
	"width", "height", "min-width", "max-width", "min-height", "max-height", "box-sizing",
	"margin-top", "margin-right", "margin-bottom", "margin-left", "padding-top", "padding-right", "padding-bottom", "padding-left",
	"border-top-width", "border-right-width", "border-bottom-width", "border-left-width",
	"border-top-style", "border-right-style", "border-bottom-style", "border-left-style",
	"border-top-color", "border-right-color", "border-bottom-color", "border-left-color",
	"border-top-left-radius", "border-top-right-radius", "border-bottom-right-radius", "border-bottom-left-radius",
	"outline-width", "outline-style", "outline-color", "outline-offset", "visibility", "opacity", "color",
	"background-color", "background-image", "background-repeat", "background-size", "background-position-x",
	"background-position-y", "background-clip", "background-origin", "text-align", "text-indent", "text-transform",
	"text-decoration-line", "text-decoration-style", "text-decoration-color", "letter-spacing", "word-spacing",
	"white-space", "word-break", "overflow-wrap", "hyphens", "vertical-align", "direction", "list-style-type",
	"list-style-position", "table-layout", "border-collapse", "border-spacing", "caption-side", "empty-cells",
	"break-before", "break-after", "break-inside", "orphans", "widows", "object-fit", "content", "font-size",
	"line-height", "font-weight", "font-family"}

// valuesCase compares values, shorthands and the cascade on
// elements inside display: none (where getComputedStyle reports computed,
// not used, values).
func valuesCase() chromiumCase {
	doc := `<!DOCTYPE html><html><head><style>
:root { --accent: #1E5B5A; --pad: 3px 4px; --w: 10px; --chain: var(--w); --cyc: var(--cyc2); --cyc2: var(--cyc); }
.hide { display: none; font-size: 10px }
#u1 { width: 10mm; height: 2in; min-width: 3pt; max-width: 1pc; min-height: 4q; max-height: 2cm }
#u2 { width: 2em; height: 3rem; min-width: 1ex; max-width: 2ch; min-height: 10q; max-height: 10pc }
#u3 { width: calc(100% - 20px); height: calc(2em + 3px); min-width: min(10px, 2em); max-width: max(10px, 2em); min-height: clamp(5px, 1em, 20px); max-height: 50% }
#u4 { width: auto; height: min-content; max-width: none; max-height: fit-content; min-width: max-content; margin: 1px 2px 3px 4px; padding: 5% 6px }
#u5 { margin: 1px 2px; padding: 1px 2px 3px; inset: 1px 2px 3px; position: absolute; z-index: 3 }
#u6 { margin: auto; padding: 0; inset: 10%; position: relative; z-index: -2; float: left; clear: both }
#b1 { border: 3px solid red; border-left: thin dashed; border-right-style: double; border-bottom-color: #0f08 }
#b2 { border-width: 1px 2px 3px 4px; border-style: solid dotted; border-color: rgb(1 2 3) hsl(120 50% 50%) rgba(4,5,6,.5) currentColor; color: blue }
#b3 { border: medium groove; border-top-width: thick; outline: 2px dashed green; outline-offset: -3px }
#b4 { border: 0.5px solid; border-top-width: 1.7px; border-bottom-width: 2.99px; border-left-width: 0.1px; outline: 1.5px solid }
#b5 { border-radius: 10px; } #b6 { border-radius: 1px 2px 3px 4px / 5px 6px } #b7 { border-radius: 10% 3em }
#b8 { border: 2px none red; outline: 3px none; border-top: 4px hidden }
#c1 { color: rgb(10.4, 20.6, 30); background-color: rgba(0, 0, 0, 0.25) } #c2 { color: #abc; background-color: #12345678 }
#c3 { color: hsla(240, 100%, 25%, 0.5); background-color: transparent } #c4 { color: RebeccaPurple; background-color: currentColor }
#c5 { color: hwb(30 20% 10%); background: lightgoldenrodyellow } #c6 { color: oklch(0.6 0.15 30); background-color: lab(50 20 30) }
#c7 { color: var(--accent); background-color: var(--nope, #ff0) } #c8 { color: var(--nope) }
#g1 { background: url("a.png") no-repeat right 10px bottom / 50% auto padding-box content-box #eee }
#g2 { background: #fff url(b.png) repeat-x center; background-size: cover } #g3 { background-image: url(x.png); background-position: 10px 20%; background-repeat: repeat no-repeat; background-size: 3em }
#g4 { background: red; background-clip: content-box } #g5 { background-position: left 5px top; background-repeat: no-repeat repeat }
#t1 { text-align: right; text-indent: 2em; text-transform: uppercase; text-decoration: underline dotted red; letter-spacing: 0.1em; word-spacing: 3px }
#t2 { text-align: justify; text-decoration: line-through overline; white-space: pre-wrap; word-break: break-all; overflow-wrap: anywhere; hyphens: auto }
#t3 { white-space: nowrap; vertical-align: -2px; direction: rtl; text-align: end } #t4 { white-space: pre-line; vertical-align: 10%; text-align: start; word-wrap: break-word }
#t5 { white-space: break-spaces; vertical-align: text-top; letter-spacing: normal; text-decoration: none } #t6 { text-wrap: nowrap } #t7 { white-space: pre; text-wrap-mode: wrap }
#l1 { list-style: square inside } #l2 { list-style: none } #l3 { list-style: lower-roman url(m.png) } #l4 { list-style-type: "- " }
#k1 { table-layout: fixed; border-collapse: collapse; border-spacing: 3px 4px; caption-side: bottom; empty-cells: hide }
#k2 { page-break-before: always; page-break-after: avoid; page-break-inside: avoid; orphans: 3; widows: 4 }
#k3 { break-before: left; break-after: page; break-inside: avoid-page; object-fit: cover }
#v1 { padding: var(--pad); margin: var(--chain) var(--w); width: var(--cyc, 7px); height: var(--cyc) }
#v2 { margin: 1px !important; margin: 2px } #v2 { margin-top: 3px }
.sp.sp { color: red } #sp { color: green } .sp { color: blue }
div#sp2 { color: red } #sp2 { color: blue } body div .sp3 { color: olive } .sp3.x { color: teal }
#i1 { padding: 2px; border: 1px solid; color: red } #i1 > span { padding: inherit; border-style: inherit; color: initial; font-size: unset; margin: unset; border-width: inherit }
#i2 { line-height: 1.5; font-size: 10px } #i2 > span { font-size: 20px } #i3 { line-height: 150%; font-size: 10px } #i3 > span { font-size: 20px }
#i4 { line-height: 2em; font-size: 10px } #i4 > span { font-size: 20px; line-height: inherit }
#o1 { opacity: 0.5; visibility: hidden } #o2 { opacity: 150%; visibility: collapse } #o3 { opacity: -1 }
#w1 { width: 10px; width: foo; height: 20px; height: -5px; margin-left: 1px; margin-left: calc(1px +); padding-top: 2px; padding-top: -1px }
#d1 { display: inline-block } #d2 { display: list-item } #d3 { display: table-cell; position: absolute } #d4 { display: inline; float: right }
#d5 { display: flow-root } #d6 { display: inline-table; float: left } #d7 { display: contents } #d8 { display: inline flow-root }
#e1::before { content: "a" counter(x) " " counters(y, ".") open-quote; color: red } #e1::after { content: "z"; display: block }
#e2::before { content: none } #e3::after { content: "" } #e4::before { content: attr(data-x) }
#m1 { display: list-item; list-style-type: upper-alpha } #m1::marker { color: red; font-size: 20px }
</style></head><body>
<div class=hide>
<div id=u1></div><div id=u2></div><div id=u3></div><div id=u4></div><div id=u5></div><div id=u6></div>
<div id=b1></div><div id=b2></div><div id=b3></div><div id=b4></div><div id=b5></div><div id=b6></div><div id=b7></div><div id=b8></div>
<div id=c1></div><div id=c2></div><div id=c3></div><div id=c4></div><div id=c5></div><div id=c6></div><div id=c7></div><div id=c8></div>
<div id=g1></div><div id=g2></div><div id=g3></div><div id=g4></div><div id=g5></div>
<div id=t1></div><div id=t2></div><div id=t3></div><div id=t4></div><div id=t5></div><div id=t6></div><div id=t7></div>
<ul><li id=l1></li><li id=l2></li><li id=l3></li><li id=l4></li></ul>
<div id=k1></div><div id=k2></div><div id=k3></div><div id=v1></div><div id=v2></div>
<div id=sp class=sp></div><div id=sp2></div><div><div class="sp3 x" id=sp3></div></div>
<div id=i1><span id=i1s>x</span></div><div id=i2><span id=i2s>x</span></div><div id=i3><span id=i3s>x</span></div><div id=i4><span id=i4s>x</span></div>
<div id=o1></div><div id=o2></div><div id=o3></div><div id=w1></div>
<div id=d1></div><div id=d2></div><div id=d3></div><div id=d4></div><div id=d5></div><div id=d6></div><div id=d7></div><div id=d8></div>
</div>
<div id=e1>x</div><div id=e2>x</div><div id=e3>x</div><div id=e4 data-x="hello">x</div>
<div id=m1>x</div>
</body></html>`
	return chromiumCase{name: "values", doc: doc, props: valueProps}
}

// hintsCase compares the presentational attributes Chromium maps
// into style.
func hintsCase() chromiumCase {
	doc := `<!DOCTYPE html><html><body id=body bgcolor="#fafafa" text=navy>
<div style="display:none">
<table id=t1 border=2 cellpadding=5 cellspacing=0 width=80% height=100 bgcolor=yellow align=center><tr id=t1r bgcolor=red align=right valign=top><td id=t1d width=50 height=20 bgcolor=blue nowrap>x</td><th id=t1h align=left valign=bottom>h</th></tr></table>
<table id=t2 border><tr><td id=t2d>x</td></tr></table>
<table id=t3 rules=all frame=box><tr><td id=t3d>x</td></tr></table>
<table id=t4 rules=rows><tbody id=t4b valign=bottom><tr><td id=t4d>x</td></tr></tbody></table>
<table id=t5><colgroup id=t5cg width=100><col id=t5c width=50%></colgroup><tr><td id=t5d align=center>x</td><td id=t5e align=justify>y</td><td id=t5f width=0 height=0>z</td></tr></table>
<table id=t6 border=1 bordercolor=red cellspacing=7><tr><td id=t6d>x</td></tr></table>
<img id=i1 width=100 height=50% border=2 align=left><img id=i2 align=middle><img id=i3 width="120px" height="abc">
<font id=f1 color=red size=5 face="Arial, Helvetica">x</font><font id=f2 size=+1>x</font><font id=f3 size=-2 color="#0f0">x</font><font id=f4 size=9 color=chucknorris>x</font>
<hr id=h1 size=5 width=50% noshade align=left><hr id=h2 color=red size=1><hr id=h3 width=0 align=right>
<div id=d1 align=center>x</div><p id=p1 align=right>x</p><h2 id=h2a align=justify>x</h2><div id=d2 align=middle>x</div>
<ul id=u1 type=square><li id=u1l type=circle>x</li></ul><ol id=o1 type=A><li id=o1l>x</li></ol><ol id=o2 type=i></ol>
<div id=r1 dir=rtl><span id=r2>x</span><div id=r3 dir=ltr>x</div><div id=r4 dir=auto>שלום</div><div id=r5 dir=auto>abc</div></div>
<br id=br1 clear=all><pre id=pre1 wrap>x</pre><caption id=cap1 align=bottom>c</caption>
</div>
</body></html>`
	return chromiumCase{name: "hints", doc: doc, props: []string{"width", "height", "margin-left", "margin-right", "margin-top", "margin-bottom",
		"padding-top", "padding-left", "border-top-width", "border-top-style", "border-top-color", "border-left-style",
		"border-bottom-width", "border-bottom-style", "border-spacing", "border-collapse", "background-color", "color",
		"text-align", "vertical-align", "white-space", "float", "font-size", "font-family", "list-style-type",
		"direction", "unicode-bidi", "clear", "caption-side"}}
}

// commonCase compares patterns business documents use.
func commonCase() chromiumCase {
	doc := `<!DOCTYPE html><html><head><style>
* { box-sizing: border-box }
body { margin: 0; font: 12px/1.4 Arial, Helvetica, sans-serif; color: #222 }
table { width: 100%; border-collapse: collapse; text-align: right }
tr.top { vertical-align: top } td.mid { vertical-align: middle }
th.l { text-align: left }
a { color: inherit; text-decoration: none }
q::before { content: "\201C" } .quote::after { content: '\'' attr(data-who) }
.v { --gap: 6px; padding: var(--gap) calc(var(--gap) * 2); margin: var(--none, 3px) }
.b { border: 1px solid transparent; border-bottom-color: currentcolor; background: rgba(0, 0, 0, .05) }
.n { margin: -5px -2em; line-height: 0; opacity: .5; visibility: hidden }
.cell { display: table-cell; white-space: pre-line; word-break: break-word }
ol.alpha { list-style: lower-alpha inside }
.up { text-transform: uppercase; letter-spacing: .1em; font-size: 1.2em }
.up .in { font-size: 80%; font-weight: 600 }
h2 { font: bold 14pt Georgia, serif; margin: 0 0 .5em }
.big { font-size: 2em } .big .em { margin-left: 1em; padding-top: 1rem }
.avoid { page-break-inside: avoid; break-after: always }
.clear::after { content: ""; display: table; clear: both }
</style></head><body>
<table id=t><tr class=top id=tr><th id=th>h</th><th class=l id=thl>h</th><td id=td>d</td><td class=mid id=tdm>m</td></tr></table>
<p>Text <a href="#x" id=a>link</a> <q id=q>q</q> <span class=quote data-who="Ann" id=qu>x</span></p>
<div class=v id=v>v</div><div class=b id=b>b</div><div class=n id=n>n</div><div class=cell id=cell>c</div>
<ol class=alpha id=ol><li id=li>x</li></ol><div class=up id=up>Up <span class=in id=in>in</span></div>
<h2 id=h2>Heading</h2><div class=big><span class=em id=em>x</span></div><div class="avoid clear" id=av>x</div>
</body></html>`
	return chromiumCase{name: "common", doc: doc, props: valueProps}
}

// starterCases compare every element of the starter templates (unfilled).
func starterCases(t *testing.T) []chromiumCase {
	files, err := filepath.Glob("../../../starters/library/*/template.html")
	if err != nil || len(files) == 0 {
		t.Fatalf("no starter templates: %v", err)
	}
	var props []string
	for _, p := range valueProps {
		switch p {
		case "width", "height", "min-width", "min-height", "max-width", "max-height", "top", "right", "bottom", "left":
			continue // used values in Chromium
		}
		props = append(props, p)
	}
	var cases []chromiumCase
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, chromiumCase{name: "starter-" + filepath.Base(filepath.Dir(f)), doc: string(b), props: props, allElements: true})
	}
	return cases
}

// TestChromium compares phantom's computed styles with Chromium's on the
// documents above: the user-agent defaults, font sizes, values and
// shorthands, presentational attributes, and the starter templates.
func TestChromium(t *testing.T) {
	cases := []chromiumCase{uaDefaultsCase(), fontSizesCase(), valuesCase(), hintsCase(), commonCase()}
	compareWithChromium(t, append(cases, starterCases(t)...))
}
