// The console's code editor: CodeMirror 6 over a textarea the page already
// has. The textarea stays the page's source of truth (its value follows
// every change, and an input event is fired on it), so the page reads and
// listens to it as before; the editor adds line numbers, HTML, CSS, JSON
// and Handlebars highlighting, wrapping, search (Ctrl-F or the Find
// button), bracket matching, and an error shown at its line.
//
// esbuild bundles this file into console/static/vendor/editor.js (make
// editor-bundle); the page imports that bundle and, when a node was built
// without it, keeps the plain textarea.
import { EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection,
  highlightSpecialChars, Decoration, MatchDecorator, ViewPlugin } from '@codemirror/view';
import { EditorState, StateEffect, StateField, Compartment } from '@codemirror/state';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { search, searchKeymap, highlightSelectionMatches, openSearchPanel } from '@codemirror/search';
import { syntaxHighlighting, HighlightStyle, bracketMatching, LRLanguage, LanguageSupport } from '@codemirror/language';
import { parser as htmlParser, configureNesting } from '@lezer/html';
import { parser as cssParser } from '@lezer/css';
import { json } from '@codemirror/lang-json';
import { tags as t } from '@lezer/highlight';

// The colours meet WCAG AA (4.5:1) on the editor's white background.
const style = HighlightStyle.define([
  { tag: [t.tagName, t.angleBracket], color: '#1d4ed8' },
  { tag: t.attributeName, color: '#7e22ce' },
  { tag: [t.attributeValue, t.string], color: '#166534' },
  { tag: [t.comment], color: '#57606a', fontStyle: 'italic' },
  { tag: [t.propertyName], color: '#9a3412' },
  { tag: [t.number, t.bool, t.null, t.atom], color: '#0e7490' },
  { tag: [t.keyword, t.modifier, t.operatorKeyword], color: '#b91c1c' },
  { tag: [t.className, t.labelName], color: '#a16207' },
  { tag: t.invalid, color: '#b91c1c', textDecoration: 'underline' },
]);

// HTML with CSS in <style> and style="…"; no JavaScript, which templates
// do not run on phantom (and leaving it out halves the bundle).
const htmlLang = LRLanguage.define({
  name: 'html',
  parser: htmlParser.configure({
    wrap: configureNesting([{ tag: 'style', parser: cssParser }], [{ name: 'style', parser: cssParser.configure({ top: 'Styles' }) }]),
  }),
  languageData: { commentTokens: { block: { open: '<!--', close: '-->' } } },
});

// Handlebars is marked over the HTML: {{#block}} and {{/block}} in one
// colour, every other {{…}} in another. The HTML parser sees them as text.
const hbs = new MatchDecorator({
  regexp: /\{\{\{?[#/^]?[^{}]*\}?\}\}/g,
  decoration: (m) => Decoration.mark({ class: /^\{\{\{?[#/^]|^\{\{else\b/.test(m[0]) ? 'cm-hbs cm-hbs-block' : 'cm-hbs' }),
});
const handlebars = ViewPlugin.define((view) => ({
  decorations: hbs.createDeco(view),
  update(u) { this.decorations = hbs.updateDeco(u, this.decorations); },
}), { decorations: (v) => v.decorations });

// An error is a marked line and a message under the editor; setError with
// no line clears it.
const setErrorLine = StateEffect.define();
const errorLine = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) {
      if (!e.is(setErrorLine)) continue;
      deco = e.value == null ? Decoration.none
        : Decoration.set([Decoration.line({ class: 'cm-error-line' }).range(tr.state.doc.line(e.value).from)]);
    }
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

const theme = EditorView.theme({
  '&': { fontSize: '13px', border: '1px solid var(--line, #d0d7de)', borderRadius: '6px', background: '#fff' },
  '&.cm-focused': { outline: '2px solid var(--focus, #1d4ed8)', outlineOffset: '1px' },
  '.cm-scroller': { fontFamily: 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace', lineHeight: '1.5' },
  '.cm-gutters': { background: '#f6f8fa', color: '#57606a', borderRight: '1px solid #d0d7de' },
  '.cm-activeLine': { background: '#f6f8fa80' },
  '.cm-activeLineGutter': { background: '#eaeef2', color: '#1f2328' },
  '.cm-hbs': { color: '#9a3412', background: '#fff7ed' },
  '.cm-hbs-block': { fontWeight: '600' },
  '.cm-error-line': { background: '#fee2e2', boxShadow: 'inset 3px 0 0 #b91c1c' },
  '.cm-panels': { background: '#f6f8fa', color: '#1f2328' },
  '.cm-panel.cm-search': { padding: '6px 8px', fontSize: '14px' },
  '.cm-panel.cm-search input, .cm-panel.cm-search button': { minHeight: '28px', fontSize: '14px' },
  '.cm-panel.cm-search label': { fontSize: '14px' },
});

// mount replaces textarea (hidden, kept in step) with an editor. opts:
// language 'html' or 'json', readOnly, labelledBy (the id of the label),
// describedBy (ids of hints and errors). It answers the editor's handle.
export function mount(textarea, opts = {}) {
  const lang = opts.language === 'json' ? json() : new LanguageSupport(htmlLang);
  const attrs = { 'aria-multiline': 'true', tabindex: '0' };
  if (opts.labelledBy) attrs['aria-labelledby'] = opts.labelledBy;
  if (opts.describedBy) attrs['aria-describedby'] = opts.describedBy;
  const attributes = new Compartment();
  const view = new EditorView({
    parent: textarea.parentElement,
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        lineNumbers(), highlightActiveLineGutter(), highlightSpecialChars(), history(), drawSelection(),
        bracketMatching(), highlightActiveLine(), highlightSelectionMatches(),
        search({ top: true }),
        // Tab is left to the page, so a keyboard can always leave the
        // editor; Ctrl-] and Ctrl-[ indent and outdent (defaultKeymap).
        keymap.of([...defaultKeymap, ...searchKeymap, ...historyKeymap]),
        lang, syntaxHighlighting(style), handlebars, errorLine, theme,
        EditorView.lineWrapping,
        EditorState.readOnly.of(!!opts.readOnly),
        attributes.of(EditorView.contentAttributes.of(attrs)),
        EditorView.editorAttributes.of({ class: 'code-editor', 'data-for': textarea.id }),
        EditorView.updateListener.of((u) => {
          if (!u.docChanged) return;
          textarea.value = u.state.doc.toString();
          textarea.dispatchEvent(new Event('input', { bubbles: true }));
        }),
      ],
    }),
  });
  textarea.after(view.dom);
  textarea.hidden = true;
  return {
    view,
    // setValue replaces the whole text, as loading another version does.
    setValue(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    // setError marks line (1-based) and puts the cursor at its column;
    // setError(null) clears the mark.
    setError(line, column) {
      if (line == null || line < 1) { view.dispatch({ effects: setErrorLine.of(null) }); return; }
      const l = view.state.doc.line(Math.min(line, view.state.doc.lines));
      const at = Math.min(l.from + Math.max(0, (column || 1) - 1), l.to);
      view.dispatch({ effects: [setErrorLine.of(l.number), EditorView.scrollIntoView(at, { y: 'center' })] });
    },
    // goTo moves the cursor to a line and column and focuses the editor.
    goTo(line, column) {
      const l = view.state.doc.line(Math.min(Math.max(1, line), view.state.doc.lines));
      const at = Math.min(l.from + Math.max(0, (column || 1) - 1), l.to);
      view.dispatch({ selection: { anchor: at }, effects: EditorView.scrollIntoView(at, { y: 'center' }) });
      view.focus();
    },
    setDescribedBy(ids) {
      view.dispatch({ effects: attributes.reconfigure(EditorView.contentAttributes.of({ ...attrs, 'aria-describedby': ids })) });
    },
    find() { openSearchPanel(view); },
    focus() { view.focus(); },
  };
}
