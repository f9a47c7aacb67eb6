package style

// propID names a longhand property phantom implements. The order matters:
// a style applies its declarations in this order, so the font properties
// come before everything measured in em, color before currentColor, and
// direction before the logical properties.
type propID uint8

const (
	pNone propID = iota
	pFontFamily
	pFontSize
	pFontWeight
	pFontStyle
	pFontVariantCaps
	pFontVariantNumeric
	pFontFeatureSettings
	pFontStretch
	pLineHeight
	pColor
	pDirection
	pWritingMode

	pDisplay
	pPosition
	pTop
	pRight
	pBottom
	pLeft
	pInsetInlineStart
	pInsetInlineEnd
	pZIndex
	pFloat
	pClear
	pWidth
	pHeight
	pMinWidth
	pMinHeight
	pMaxWidth
	pMaxHeight
	pBoxSizing
	pMarginTop
	pMarginRight
	pMarginBottom
	pMarginLeft
	pMarginInlineStart
	pMarginInlineEnd
	pPaddingTop
	pPaddingRight
	pPaddingBottom
	pPaddingLeft
	pPaddingInlineStart
	pPaddingInlineEnd
	pBorderTopWidth
	pBorderRightWidth
	pBorderBottomWidth
	pBorderLeftWidth
	pBorderTopStyle
	pBorderRightStyle
	pBorderBottomStyle
	pBorderLeftStyle
	pBorderTopColor
	pBorderRightColor
	pBorderBottomColor
	pBorderLeftColor
	pBorderInlineStartWidth
	pBorderInlineEndWidth
	pBorderInlineStartStyle
	pBorderInlineEndStyle
	pBorderInlineStartColor
	pBorderInlineEndColor
	pBorderTopLeftRadius
	pBorderTopRightRadius
	pBorderBottomRightRadius
	pBorderBottomLeftRadius
	pOutlineWidth
	pOutlineStyle
	pOutlineColor
	pOutlineOffset
	pOverflowX
	pOverflowY
	pVisibility
	pOpacity
	pBackgroundColor
	pBackgroundImage
	pBackgroundRepeat
	pBackgroundPositionX
	pBackgroundPositionY
	pBackgroundSize
	pBackgroundClip
	pBackgroundOrigin
	pBackgroundAttachment
	pTextAlign
	pTextAlignLast
	pTextIndent
	pTextTransform
	pTextDecorationLine
	pTextDecorationStyle
	pTextDecorationColor
	pTextDecorationThickness
	pLetterSpacing
	pWordSpacing
	pWhiteSpaceCollapse
	pTextWrapMode
	pWordBreak
	pOverflowWrap
	pHyphens
	pVerticalAlign
	pUnicodeBidi
	pTabSize
	pListStyleType
	pListStylePosition
	pListStyleImage
	pCounterReset
	pCounterIncrement
	pCounterSet
	pContent
	pQuotes
	pTableLayout
	pBorderCollapse
	pBorderSpacing
	pCaptionSide
	pEmptyCells
	pBreakBefore
	pBreakAfter
	pBreakInside
	pOrphans
	pWidows
	pPage
	pObjectFit
	pObjectPosition
	pAspectRatio
	pBoxShadow
	pFlexDirection
	pFlexWrap
	pFlexGrow
	pFlexShrink
	pFlexBasis
	pOrder
	pJustifyContent
	pAlignItems
	pAlignSelf
	pAlignContent
	pRowGap
	pColumnGap
	pColumnCount
	pColumnWidth
	pColumnRuleWidth
	pColumnRuleStyle
	pColumnRuleColor
	pColumnSpan
	pColumnFill
	pGridTemplateColumns
	pGridTemplateRows
	pGridTemplateAreas
	pGridAutoColumns
	pGridAutoRows
	pGridAutoFlow
	pGridRowStart
	pGridRowEnd
	pGridColumnStart
	pGridColumnEnd
	pJustifyItems
	pJustifySelf
	pTextOverflow
	pTransform
	pTransformOrigin
	pSize // @page size
	numProps
)

// inheritedProps marks the inherited properties.
var inheritedProps = func() (m [numProps]bool) {
	for _, p := range []propID{pFontFamily, pFontSize, pFontWeight, pFontStyle, pFontVariantCaps, pFontVariantNumeric, pFontFeatureSettings,
		pFontStretch, pLineHeight, pColor, pDirection, pWritingMode, pVisibility, pTextAlign, pTextAlignLast, pTextIndent,
		pTextTransform, pLetterSpacing, pWordSpacing, pWhiteSpaceCollapse, pTextWrapMode, pWordBreak,
		pOverflowWrap, pHyphens, pTabSize, pListStyleType, pListStylePosition, pListStyleImage, pQuotes,
		pBorderCollapse, pBorderSpacing, pCaptionSide, pEmptyCells, pOrphans, pWidows} {
		m[p] = true
	}
	return m
}()

// longhands maps each implemented longhand's name to its ID. Aliases that
// mean the same longhand in a horizontal writing mode are here too (the
// block-axis logical properties: phantom lays out horizontal text only).
var longhands = map[string]propID{
	"font-family": pFontFamily, "font-size": pFontSize, "font-weight": pFontWeight, "font-style": pFontStyle,
	"font-variant-caps": pFontVariantCaps, "font-variant-numeric": pFontVariantNumeric,
	"font-feature-settings": pFontFeatureSettings, "-webkit-font-feature-settings": pFontFeatureSettings, "font-stretch": pFontStretch, "font-width": pFontStretch,
	"line-height": pLineHeight, "color": pColor, "direction": pDirection, "writing-mode": pWritingMode,
	"display": pDisplay, "position": pPosition, "top": pTop, "right": pRight, "bottom": pBottom, "left": pLeft,
	"inset-block-start": pTop, "inset-block-end": pBottom, "inset-inline-start": pInsetInlineStart,
	"inset-inline-end": pInsetInlineEnd, "z-index": pZIndex, "float": pFloat, "clear": pClear,
	"width": pWidth, "height": pHeight, "min-width": pMinWidth, "min-height": pMinHeight,
	"max-width": pMaxWidth, "max-height": pMaxHeight, "inline-size": pWidth, "block-size": pHeight,
	"min-inline-size": pMinWidth, "min-block-size": pMinHeight, "max-inline-size": pMaxWidth,
	"max-block-size": pMaxHeight, "box-sizing": pBoxSizing, "-webkit-box-sizing": pBoxSizing,
	"margin-top": pMarginTop, "margin-right": pMarginRight, "margin-bottom": pMarginBottom, "margin-left": pMarginLeft,
	"margin-block-start": pMarginTop, "margin-block-end": pMarginBottom,
	"margin-inline-start": pMarginInlineStart, "margin-inline-end": pMarginInlineEnd,
	"-webkit-margin-start": pMarginInlineStart, "-webkit-margin-end": pMarginInlineEnd,
	"-webkit-margin-before": pMarginTop, "-webkit-margin-after": pMarginBottom,
	"padding-top": pPaddingTop, "padding-right": pPaddingRight, "padding-bottom": pPaddingBottom, "padding-left": pPaddingLeft,
	"padding-block-start": pPaddingTop, "padding-block-end": pPaddingBottom,
	"padding-inline-start": pPaddingInlineStart, "padding-inline-end": pPaddingInlineEnd,
	"-webkit-padding-start": pPaddingInlineStart, "-webkit-padding-end": pPaddingInlineEnd,
	"border-top-width": pBorderTopWidth, "border-right-width": pBorderRightWidth,
	"border-bottom-width": pBorderBottomWidth, "border-left-width": pBorderLeftWidth,
	"border-top-style": pBorderTopStyle, "border-right-style": pBorderRightStyle,
	"border-bottom-style": pBorderBottomStyle, "border-left-style": pBorderLeftStyle,
	"border-top-color": pBorderTopColor, "border-right-color": pBorderRightColor,
	"border-bottom-color": pBorderBottomColor, "border-left-color": pBorderLeftColor,
	"border-block-start-width": pBorderTopWidth, "border-block-end-width": pBorderBottomWidth,
	"border-block-start-style": pBorderTopStyle, "border-block-end-style": pBorderBottomStyle,
	"border-block-start-color": pBorderTopColor, "border-block-end-color": pBorderBottomColor,
	"border-inline-start-width": pBorderInlineStartWidth, "border-inline-end-width": pBorderInlineEndWidth,
	"border-inline-start-style": pBorderInlineStartStyle, "border-inline-end-style": pBorderInlineEndStyle,
	"border-inline-start-color": pBorderInlineStartColor, "border-inline-end-color": pBorderInlineEndColor,
	"border-top-left-radius": pBorderTopLeftRadius, "border-top-right-radius": pBorderTopRightRadius,
	"border-bottom-right-radius": pBorderBottomRightRadius, "border-bottom-left-radius": pBorderBottomLeftRadius,
	"border-start-start-radius": pBorderTopLeftRadius, "border-start-end-radius": pBorderTopRightRadius,
	"border-end-end-radius": pBorderBottomRightRadius, "border-end-start-radius": pBorderBottomLeftRadius,
	"outline-width": pOutlineWidth, "outline-style": pOutlineStyle, "outline-color": pOutlineColor,
	"outline-offset": pOutlineOffset, "overflow-x": pOverflowX, "overflow-y": pOverflowY,
	"overflow-block": pOverflowY, "overflow-inline": pOverflowX,
	"visibility": pVisibility, "opacity": pOpacity,
	"background-color": pBackgroundColor, "background-image": pBackgroundImage,
	"background-repeat": pBackgroundRepeat, "background-position-x": pBackgroundPositionX,
	"background-position-y": pBackgroundPositionY, "background-size": pBackgroundSize,
	"background-clip": pBackgroundClip, "-webkit-background-clip": pBackgroundClip,
	"background-origin": pBackgroundOrigin, "background-attachment": pBackgroundAttachment,
	"text-align": pTextAlign, "text-align-last": pTextAlignLast, "text-indent": pTextIndent,
	"text-transform": pTextTransform, "text-decoration-line": pTextDecorationLine,
	"text-decoration-style": pTextDecorationStyle, "text-decoration-color": pTextDecorationColor,
	"text-decoration-thickness": pTextDecorationThickness, "letter-spacing": pLetterSpacing,
	"word-spacing": pWordSpacing, "white-space-collapse": pWhiteSpaceCollapse, "text-wrap-mode": pTextWrapMode,
	"word-break": pWordBreak, "overflow-wrap": pOverflowWrap, "word-wrap": pOverflowWrap,
	"hyphens": pHyphens, "-webkit-hyphens": pHyphens, "vertical-align": pVerticalAlign,
	"unicode-bidi": pUnicodeBidi, "tab-size": pTabSize, "-moz-tab-size": pTabSize,
	"list-style-type": pListStyleType, "list-style-position": pListStylePosition,
	"list-style-image": pListStyleImage, "counter-reset": pCounterReset,
	"counter-increment": pCounterIncrement, "counter-set": pCounterSet, "content": pContent,
	"quotes": pQuotes, "table-layout": pTableLayout, "border-collapse": pBorderCollapse,
	"border-spacing": pBorderSpacing, "caption-side": pCaptionSide, "empty-cells": pEmptyCells,
	"break-before": pBreakBefore, "break-after": pBreakAfter, "break-inside": pBreakInside,
	"orphans": pOrphans, "widows": pWidows, "page": pPage, "object-fit": pObjectFit,
	"aspect-ratio": pAspectRatio, "size": pSize,
	"box-shadow": pBoxShadow, "-webkit-box-shadow": pBoxShadow,
	"flex-direction": pFlexDirection, "-webkit-flex-direction": pFlexDirection,
	"flex-wrap": pFlexWrap, "-webkit-flex-wrap": pFlexWrap,
	"flex-grow": pFlexGrow, "-webkit-flex-grow": pFlexGrow,
	"flex-shrink": pFlexShrink, "-webkit-flex-shrink": pFlexShrink,
	"flex-basis": pFlexBasis, "-webkit-flex-basis": pFlexBasis,
	"order": pOrder, "-webkit-order": pOrder,
	"justify-content": pJustifyContent, "-webkit-justify-content": pJustifyContent,
	"align-items": pAlignItems, "-webkit-align-items": pAlignItems,
	"align-self": pAlignSelf, "-webkit-align-self": pAlignSelf,
	"align-content": pAlignContent, "-webkit-align-content": pAlignContent,
	"grid-template-columns": pGridTemplateColumns, "grid-template-rows": pGridTemplateRows,
	"grid-template-areas": pGridTemplateAreas, "grid-auto-columns": pGridAutoColumns, "grid-auto-rows": pGridAutoRows,
	"grid-auto-flow": pGridAutoFlow, "grid-row-start": pGridRowStart, "grid-row-end": pGridRowEnd,
	"grid-column-start": pGridColumnStart, "grid-column-end": pGridColumnEnd,
	"justify-items": pJustifyItems, "justify-self": pJustifySelf, "text-overflow": pTextOverflow,
	"object-position": pObjectPosition,
	"column-count":    pColumnCount, "-webkit-column-count": pColumnCount, "column-width": pColumnWidth,
	"-webkit-column-width": pColumnWidth, "column-rule-width": pColumnRuleWidth, "-webkit-column-rule-width": pColumnRuleWidth,
	"column-rule-style": pColumnRuleStyle, "-webkit-column-rule-style": pColumnRuleStyle,
	"column-rule-color": pColumnRuleColor, "-webkit-column-rule-color": pColumnRuleColor,
	"column-span": pColumnSpan, "-webkit-column-span": pColumnSpan, "column-fill": pColumnFill,
	"-webkit-column-gap": pColumnGap,
	"row-gap":            pRowGap, "grid-row-gap": pRowGap, "column-gap": pColumnGap, "grid-column-gap": pColumnGap,
	"transform": pTransform, "-webkit-transform": pTransform, "-ms-transform": pTransform,
	"transform-origin": pTransformOrigin, "-webkit-transform-origin": pTransformOrigin,
}

// propName is each longhand's canonical name, for diagnostics.
var propName = func() (m [numProps]string) {
	for name, id := range longhands {
		if m[id] == "" || len(name) < len(m[id]) && name[0] != '-' {
			m[id] = name
		}
	}
	m[pMarginInlineStart], m[pMarginInlineEnd] = "margin-inline-start", "margin-inline-end"
	m[pPaddingInlineStart], m[pPaddingInlineEnd] = "padding-inline-start", "padding-inline-end"
	m[pTop], m[pBottom], m[pWidth], m[pHeight] = "top", "bottom", "width", "height"
	m[pMinWidth], m[pMinHeight], m[pMaxWidth], m[pMaxHeight] = "min-width", "min-height", "max-width", "max-height"
	m[pMarginTop], m[pMarginBottom], m[pPaddingTop], m[pPaddingBottom] = "margin-top", "margin-bottom", "padding-top", "padding-bottom"
	m[pBorderTopWidth], m[pBorderBottomWidth] = "border-top-width", "border-bottom-width"
	m[pBorderTopStyle], m[pBorderBottomStyle] = "border-top-style", "border-bottom-style"
	m[pBorderTopColor], m[pBorderBottomColor] = "border-top-color", "border-bottom-color"
	m[pBorderTopLeftRadius], m[pBorderTopRightRadius] = "border-top-left-radius", "border-top-right-radius"
	m[pBorderBottomRightRadius], m[pBorderBottomLeftRadius] = "border-bottom-right-radius", "border-bottom-left-radius"
	m[pOverflowX], m[pOverflowY], m[pFontStretch] = "overflow-x", "overflow-y", "font-stretch"
	m[pOverflowWrap], m[pHyphens], m[pTabSize], m[pBoxSizing] = "overflow-wrap", "hyphens", "tab-size", "box-sizing"
	m[pBackgroundClip] = "background-clip"
	return m
}()

// silentProps are properties with no effect on a printed page (or none
// that phantom's output could show): they are ignored without a report.
var silentProps = map[string]bool{
	"cursor": true, "pointer-events": true, "user-select": true, "-webkit-user-select": true, "-moz-user-select": true,
	"-ms-user-select": true, "will-change": true, "caret-color": true, "resize": true, "touch-action": true,
	"-webkit-print-color-adjust": true, "print-color-adjust": true, "color-adjust": true,
	"-webkit-font-smoothing": true, "-moz-osx-font-smoothing": true, "font-smooth": true, "text-rendering": true,
	"-webkit-tap-highlight-color": true, "-webkit-touch-callout": true, "appearance": true, "-webkit-appearance": true,
	"-moz-appearance": true, "color-scheme": true, "accent-color": true, "forced-color-adjust": true,
	"image-rendering": true, "-webkit-text-size-adjust": true, "-moz-text-size-adjust": true,
	"-ms-text-size-adjust": true, "text-size-adjust": true, "speak": true, "content-visibility": true,
	"font-optical-sizing": true, "font-display": true, "isolation": true, "backface-visibility": true,
	"-webkit-backface-visibility": true, "transform-style": true, "transform-box": true,
	"perspective-origin": true, "overflow-anchor": true, "overflow-clip-margin": true, "interactivity": true,
	"view-transition-name": true, "view-transition-class": true, "anchor-name": true, "anchor-scope": true,
	"container": true, "container-name": true, "container-type": true, "outline-offset-auto": true,
	"-webkit-user-drag": true, "-webkit-user-modify": true, "-webkit-rtl-ordering": true,
	"ime-mode": true, "zoom-auto": true, "text-orientation": true, "unicode-range": true,
	"-webkit-locale": true, "page-orientation": true, "marks": true, "bleed": true,
	// Grid properties have no effect unless an element is a grid container
	// or item, and those are reported by their display; justify-items and
	// justify-self have none in flex layout.
	"justify-items": true, "justify-self": true, "grid": true, "grid-template": true,
	"grid-template-columns": true, "grid-template-rows": true, "grid-template-areas": true,
	"grid-auto-columns": true, "grid-auto-rows": true, "grid-auto-flow": true, "grid-area": true,
	"grid-row": true, "grid-column": true, "grid-row-start": true, "grid-row-end": true,
	"grid-column-start": true, "grid-column-end": true, "-webkit-box-orient": true, "-webkit-box-pack": true,
	"-webkit-box-align": true, "-webkit-box-flex": true, "-webkit-box-direction": true,
}

// silentPrefixes are families of properties ignored like silentProps.
var silentPrefixes = []string{"transition", "animation", "scroll-", "overscroll-", "-webkit-transition",
	"-webkit-animation", "-moz-transition", "-moz-animation", "-o-transition", "-ms-", "mso-", "-epub-",
	"contain-intrinsic", "-webkit-scroll", "-webkit-overflow-scrolling", "timeline", "view-timeline", "position-try", "position-area", "position-anchor", "position-visibility"}

// featureProps are unimplemented properties reported under a stable name
// of their own (rather than css:<property>) when they take effect.
var featureProps = map[string]string{
	"translate": "transform", "rotate": "transform",
	"scale": "transform", "perspective": "transform",
	"filter": "filter", "-webkit-filter": "filter", "backdrop-filter": "filter", "-webkit-backdrop-filter": "filter",
	"clip-path": "clip-path", "-webkit-clip-path": "clip-path",
	"mask": "mask", "mask-image": "mask", "-webkit-mask": "mask", "-webkit-mask-image": "mask",
	"mask-size": "", "mask-repeat": "", "mask-position": "", "mask-mode": "", "mask-origin": "", "mask-clip": "",
	"mask-composite": "", "mask-type": "", "-webkit-mask-size": "", "-webkit-mask-repeat": "", "-webkit-mask-position": "",
	"-webkit-mask-box-image": "mask", "mask-border": "mask",
}

// initialKeywords are values that leave an unimplemented property at (or
// equivalent to) its initial value: such a declaration is no use.
var initialKeywords = map[string]bool{
	"initial": true, "unset": true, "revert": true, "revert-layer": true, "none": true, "normal": true,
	"auto": true,
}

// initialValues are further per-property initial values of unimplemented
// properties, so that restating them is not a use.
var initialValues = map[string]map[string]bool{
	"text-shadow":                  {"none": true},
	"font-kerning":                 {"auto": true, "normal": true},
	"font-synthesis":               {"weight style small-caps": true, "weight style": true},
	"mix-blend-mode":               {"normal": true},
	"background-blend-mode":        {"normal": true},
	"text-decoration-skip-ink":     {"auto": true},
	"text-underline-offset":        {"auto": true},
	"text-underline-position":      {"auto": true},
	"text-wrap-style":              {"auto": true, "stable": true},
	"white-space-trim":             {"none": true},
	"-webkit-line-clamp":           {"none": true},
	"line-clamp":                   {"none": true},
	"contain":                      {"none": true},
	"zoom":                         {"1": true, "100%": true, "normal": true},
	"box-decoration-break":         {"slice": true},
	"-webkit-box-decoration-break": {"slice": true},
	"clip":                         {"auto": true},
	"shape-outside":                {"none": true},
	"text-emphasis":                {"none": true},
	"text-emphasis-style":          {"none": true},
	"hyphenate-character":          {"auto": true},
	"line-break":                   {"auto": true},
	"text-justify":                 {"auto": true},
	"border-image":                 {"none": true},
	"border-image-source":          {"none": true},
	"font-size-adjust":             {"none": true},
	"text-decoration-skip":         {"objects": true, "auto": true},
	"hanging-punctuation":          {"none": true},
	"text-autospace":               {"normal": true, "no-autospace": true},
	"text-spacing-trim":            {"normal": true},
	"initial-letter":               {"normal": true},
	"font-palette":                 {"normal": true},
	"math-style":                   {"normal": true},
	"ruby-position":                {"over": true, "alternate": true},
	"-webkit-text-stroke":          {"0": true, "0px": true},
	"-webkit-text-stroke-width":    {"0": true, "0px": true},
	"-webkit-text-fill-color":      {"currentcolor": true},
	"align-content":                {"normal": true, "start": true, "flex-start": true, "baseline": true},
}
