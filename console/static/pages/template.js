// A template: for a written one, the editor — its parts as code, beside a
// live preview drawn by the server from the unsaved draft as you type —,
// saving a new version, the version history with a diff between any two,
// and activating a version. A template made from an uploaded PDF is handed
// to the PDF editor (pages/pdftemplate.js).
//
// The console checks nothing the server checks: every part goes to the
// draft preview as it is, and the server's refusal is shown at the part it
// names. The only thing read here is JSON, since a draft is sent as JSON.
import { h, fill, api, table, badge, link, can, pageHeader, announce, confirmDialog, fmtBytes, icon, when } from '../lib.js';
import { diffLines, collapse } from '../diff.js';

// The parts of a written version, in the order of the tabs. The data schema
// lives in the manifest (manifest.dataSchema) but is edited on its own.
const parts = [
  { key: 'html', label: 'Markup', hint: 'Handlebars and HTML: the whole page, styles inline.' },
  { key: 'manifest', label: 'Manifest', hint: 'JSON: page size, orientation, margins, engine, locale, currency, pagination.', json: true },
  { key: 'schema', label: 'Data schema', hint: 'JSON: each data field and what it must be (the manifest\'s dataSchema).', json: true },
  { key: 'sample', label: 'Sample data', hint: 'JSON: the data previews use; it must satisfy the schema.', json: true },
  { key: 'content', label: 'Content', hint: 'JSON: static copy the markup reads as {{content.…}}. Optional.', json: true },
  { key: 'assets', label: 'Assets' },
];

// debounceMs is how long typing must pause before the preview is drawn.
const debounceMs = 400;
// wide is the width from which the preview sits beside the code.
const wide = window.matchMedia('(min-width: 1100px)');

export async function render(main, params) {
  const id = params.id;
  const t = await api('GET', `/v1/templates/${encodeURIComponent(id)}`);
  if (t.kind === 'pdf') {
    let m = null;
    try { m = await import('./pdftemplate.js'); } catch { /* not written yet */ }
    if (m?.renderEditor) return m.renderEditor(main, t);
    fill(main, pageHeader(t.name, link('/templates', 'All templates')),
      h('p', { class: 'notice' }, 'This template is made from an uploaded PDF. Its editor is not available in this console yet; its versions can be made with the API (docs: pdf-templates.md).'));
    return undefined;
  }
  return writtenEditor(main, t);
}

// split turns a saved version into the editor's texts.
function split(v) {
  const manifest = { ...(v?.manifest || {}) };
  const schema = manifest.dataSchema;
  delete manifest.dataSchema;
  const pretty = (x) => x === undefined || x === null ? '' : JSON.stringify(x, null, 2);
  return {
    html: v?.html || '',
    manifest: pretty(manifest),
    schema: pretty(schema),
    sample: pretty(v?.sampleData),
    content: pretty(v?.content),
    assets: { ...(v?.assets || {}) },
  };
}

// partOf names the part a refusal's field belongs to: the draft preview
// says draft.manifest.dataSchema.total.type, saving manifest.dataSchema….
export function partOf(field) {
  const f = (field || '').replace(/^draft\./, '');
  const top = f.split(/[.[]/)[0];
  if (f.startsWith('manifest.dataSchema')) return 'schema';
  return { html: 'html', manifest: 'manifest', sampleData: 'sample', content: 'content', assets: 'assets' }[top] || null;
}

async function writtenEditor(main, t) {
  const tid = encodeURIComponent(t.id);
  const writer = can('templates.write');
  let base = t.latestVersion ? await api('GET', `/v1/templates/${tid}/versions/${t.latestVersion}`) : null;
  let texts = split(base);
  const areas = {}; // part key -> textarea
  const panels = {}; // part key -> panel element
  const tabs = {}; // part key -> tab button

  // ---- the parts, as tabs -------------------------------------------------
  let selected = 'html';
  let narrowChoice = null; // the tab a phone chose, while a laptop width hides it
  const tablist = h('div', { role: 'tablist', 'aria-label': 'Parts of the template', class: 'tabs' });
  const allTabs = [...parts.map(p => p.key), 'preview'];
  for (const key of allTabs) {
    const label = key === 'preview' ? 'Preview' : parts.find(p => p.key === key).label;
    tabs[key] = h('button', { type: 'button', role: 'tab', id: `tab-${key}`, 'aria-controls': `panel-${key}`,
      class: key === 'preview' ? 'tab tab-preview' : 'tab', onclick: () => { narrowChoice = null; select(key, true); }, onkeydown: tabKeys }, h('span', {}, label));
    tablist.append(tabs[key]);
  }
  function select(key, focus) {
    if (key === 'preview' && wide.matches) key = 'html';
    selected = key;
    for (const k of allTabs) {
      const on = k === key;
      tabs[k].setAttribute('aria-selected', String(on));
      tabs[k].tabIndex = on ? 0 : -1;
      // The preview's panel is shown beside the code on a laptop whichever
      // tab is chosen, so a class (undone there by app.css), not hidden.
      if (k === 'preview') panels[k].classList.toggle('off', !on);
      else panels[k].hidden = !on;
    }
    if (focus) tabs[key].focus();
  }
  function tabKeys(e) {
    const shown = allTabs.filter(k => getComputedStyle(tabs[k]).display !== 'none');
    const i = shown.indexOf(selected);
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: shown.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    select(shown[(to + shown.length) % shown.length], true);
  }

  const editors = {}; // part key -> code editor, when the node has its bundle
  for (const p of parts) {
    if (p.key === 'assets') { panels.assets = assetsPanel(); continue; }
    const ta = h('textarea', { id: `part-${p.key}`, class: 'code', name: p.key, spellcheck: 'false', autocomplete: 'off',
      autocapitalize: 'off', 'aria-describedby': `part-${p.key}-hint`, readonly: writer ? null : true, rows: 24 });
    ta.value = texts[p.key];
    ta.addEventListener('input', edited);
    areas[p.key] = ta;
    const find = h('button', { type: 'button', class: 'btn small', hidden: true, 'aria-label': `Find in ${p.label.toLowerCase()}`,
      onclick: () => editors[p.key]?.find() }, icon('search'), 'Find');
    panels[p.key] = h('div', { role: 'tabpanel', id: `panel-${p.key}`, 'aria-labelledby': `tab-${p.key}`, class: 'panel field' },
      h('div', { class: 'part-head' }, h('label', { for: ta.id, id: `part-${p.key}-label` }, p.label), find),
      h('p', { class: 'hint', id: `part-${p.key}-hint` }, p.hint), ta);
  }
  // The code editor (line numbers, highlighting, search) is a bundle of its
  // own, loaded after the page is drawn; a node built without it (go build
  // without make) keeps the textareas.
  const editorReady = import('../vendor/editor.js').then((m) => {
    for (const p of parts) {
      if (!areas[p.key]) continue;
      editors[p.key] = m.mount(areas[p.key], { language: p.json ? 'json' : 'html', readOnly: !writer,
        labelledBy: `part-${p.key}-label`, describedBy: `part-${p.key}-hint` });
      panels[p.key].querySelector('.part-head button').hidden = false;
    }
    main.dataset.editor = 'code';
  }, () => { main.dataset.editor = 'plain'; });

  // ---- assets -------------------------------------------------------------
  function assetsPanel() {
    const list = h('div', { class: 'asset-list' });
    const input = h('input', { type: 'file', id: 'asset-file', accept: 'image/*,font/*,.ttf,.otf,.woff,.woff2', 'aria-describedby': 'asset-hint' });
    input.addEventListener('change', async () => {
      for (const file of input.files) {
        texts.assets[file.name] = await new Promise((ok, no) => {
          const r = new FileReader();
          r.onload = () => ok(r.result);
          r.onerror = () => no(r.error);
          r.readAsDataURL(file);
        });
        announce(`${file.name} added to the draft`);
      }
      input.value = '';
      drawAssets();
      edited();
    });
    panels.assetList = list;
    return h('div', { role: 'tabpanel', id: 'panel-assets', 'aria-labelledby': 'tab-assets', class: 'panel', 'data-part': 'assets' },
      h('h3', {}, 'Assets'),
      h('p', { class: 'hint', id: 'asset-hint' }, 'Images and fonts the markup uses by file name (', h('code', {}, '<img src="logo.png">'), '). They are saved with the version.'),
      list,
      writer ? h('div', { class: 'field' }, h('label', { for: 'asset-file' }, 'Add an asset'), input) : null);
  }
  function drawAssets() {
    const names = Object.keys(texts.assets).sort();
    fill(panels.assetList, table('Assets', [
      ['File', n => h('code', {}, n)],
      ['Type', n => (texts.assets[n].match(/^data:([^;,]+)/) || [, '?'])[1]],
      ['Size', n => fmtBytes(Math.floor((texts.assets[n].length - texts.assets[n].indexOf(',') - 1) * 3 / 4))],
      ['', n => writer ? h('button', { type: 'button', class: 'btn small danger', 'aria-label': `Remove ${n}`, onclick: () => {
        delete texts.assets[n]; drawAssets(); edited(); announce(`${n} removed from the draft`);
      } }, 'Remove') : ''],
    ], names, 'No assets.'));
  }

  // ---- the preview --------------------------------------------------------
  const img = h('img', { class: 'page-img', alt: 'The preview is being drawn', width: 210, height: 297 });
  const staleNote = h('span', { class: 'badge warn stale-note', hidden: true }, 'Out of date');
  const status = h('p', { class: 'preview-status', 'aria-live': 'polite' }, 'Drawing the preview…');
  const engine = h('p', { class: 'engine muted' });
  const previewError = h('p', { class: 'form-error', role: 'alert', hidden: true });
  const pageLabel = h('span', { class: 'page-label' }, '');
  const prev = h('button', { type: 'button', class: 'btn small', disabled: true, onclick: () => turn(-1) }, 'Previous page');
  const next = h('button', { type: 'button', class: 'btn small', disabled: true, onclick: () => turn(1) }, 'Next page');
  const openPDF = h('button', { type: 'button', class: 'btn small', onclick: openAsPDF }, 'Open PDF');
  const pager = h('div', { class: 'pager', role: 'group', 'aria-label': 'Pages' }, prev, pageLabel, next, openPDF);
  const figure = h('figure', { class: 'preview-figure' }, img, h('figcaption', { class: 'sr-only' }, 'The draft, watermarked PREVIEW, as the server renders it'), staleNote);
  panels.preview = h('section', { role: 'tabpanel', id: 'panel-preview', 'aria-labelledby': 'tab-preview', class: 'panel preview-pane' },
    h('h2', { class: 'preview-title' }, 'Preview ', h('span', { class: 'muted small' }, '(watermarked, never billed)')),
    status, engine, previewError, pager, figure);

  let page = 1, pages = 0, timer = 0, ctrl = null, lastEdit = 0, url = '', stopped = false;
  let good = null; // the draft of the picture shown

  // draft builds the body a version takes from the texts; a part that is not
  // JSON is refused here, where the browser reads it, at its textarea.
  function draft() {
    const out = { html: areas.html.value };
    const problems = [];
    const read = (key) => {
      const s = areas[key].value.trim();
      if (!s) return undefined;
      try { return JSON.parse(s); } catch (e) { problems.push([key, `Not valid JSON: ${e.message}`]); return undefined; }
    };
    const manifest = read('manifest'), schema = read('schema'), sample = read('sample'), content = read('content');
    if (manifest !== undefined || schema !== undefined) out.manifest = { ...(manifest || {}), ...(schema !== undefined ? { dataSchema: schema } : {}) };
    if (sample !== undefined) out.sampleData = sample;
    if (content !== undefined) out.content = content;
    if (Object.keys(texts.assets).length) out.assets = texts.assets;
    return { out, problems };
  }

  function edited() {
    lastEdit = performance.now();
    clearTimeout(timer);
    timer = setTimeout(refresh, debounceMs);
  }

  function width() {
    const w = (figure.clientWidth || 600) * (window.devicePixelRatio || 1);
    return Math.min(2000, Math.max(300, Math.ceil(w / 100) * 100));
  }

  // refresh draws the draft's page; a newer call aborts an older one's
  // request, and only the newest answer is shown. A failure that is not
  // the draft's (no connection, a busy or restarting node) is tried again
  // after 1, 2 and 4 seconds, unless the draft changes first.
  async function refresh(tries = 0) {
    if (stopped) return;
    ctrl?.abort();
    const mine = ctrl = new AbortController();
    const since = lastEdit;
    const { out, problems } = draft();
    markDirty(out, problems);
    clearPartErrors();
    previewError.hidden = true;
    if (problems.length) {
      for (const [key, msg] of problems) partError(key, msg);
      stale(`Out of date: ${problems.length === 1 ? 'a part is' : 'parts are'} not valid JSON.`);
      return;
    }
    status.textContent = 'Drawing the preview…';
    try {
      const res = await api('POST', `/v1/templates/${tid}/preview`, { draft: out, format: 'png', page, width: width() }, { raw: true, signal: mine.signal });
      const blob = await res.blob();
      if (mine !== ctrl) return;
      pages = Number(res.headers.get('X-Platen-Pages') || 1);
      showEngine(res.headers.get('X-Platen-Engine'), res.headers.get('X-Platen-Engine-Reason'));
      const nextURL = URL.createObjectURL(blob);
      const loaded = new Image();
      loaded.src = nextURL;
      await loaded.decode();
      if (mine !== ctrl) { URL.revokeObjectURL(nextURL); return; }
      img.width = loaded.naturalWidth; img.height = loaded.naturalHeight;
      img.src = nextURL;
      img.alt = `Page ${page} of ${pages} of the draft preview`;
      if (url) URL.revokeObjectURL(url);
      url = nextURL;
      good = out;
      await painted();
      figure.classList.remove('stale');
      staleNote.hidden = true;
      drawPager();
      if (since) {
        const ms = Math.round(performance.now() - since);
        img.dataset.ms = String(ms);
        status.textContent = `Up to date: drawn ${ms} ms after your last change.`;
      } else status.textContent = 'Up to date.';
      img.dataset.drawn = String((Number(img.dataset.drawn) || 0) + 1);
    } catch (err) {
      if (err.name === 'AbortError' || mine !== ctrl) return;
      if (err.field === 'page' && page !== 1) { page = 1; return refresh(); }
      if (transient(err) && tries < 3) {
        status.textContent = 'The preview could not be drawn just now; trying again…';
        clearTimeout(timer);
        timer = setTimeout(() => refresh(tries + 1), 1000 * 2 ** tries);
        return;
      }
      const part = partOf(err.field);
      if (part) partError(part, err.message.replace(/^draft\./, ''));
      else { fill(previewError, err.message); previewError.hidden = false; }
      stale(part ? `Out of date: the server refused the ${parts.find(p => p.key === part).label.toLowerCase()}; the last good preview is shown.` : 'Out of date: the last good preview is shown.');
    }
  }

  function transient(err) {
    return err.status === 0 || err.status === 429 || err.status >= 500;
  }

  function stale(msg) {
    figure.classList.add('stale');
    staleNote.hidden = !good;
    status.textContent = msg;
  }

  function painted() {
    return new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
  }

  function drawPager() {
    pageLabel.textContent = `Page ${page} of ${pages}`;
    prev.disabled = page <= 1;
    next.disabled = page >= pages;
  }
  function turn(by) {
    page = Math.min(Math.max(1, page + by), pages);
    lastEdit = 0;
    refresh();
  }

  function showEngine(name, reason) {
    fill(engine, 'Engine: ', h('strong', {}, name || 'unknown'), reason ? ` — ${reason}` : '');
  }

  async function openAsPDF() {
    const { out, problems } = draft();
    const body = problems.length ? good : out;
    if (!body) return;
    try {
      const res = await api('POST', `/v1/templates/${tid}/preview`, { draft: body }, { raw: true });
      const u = URL.createObjectURL(await res.blob());
      const a = h('a', { href: u, target: '_blank', rel: 'noopener' });
      document.body.append(a); a.click(); a.remove();
      setTimeout(() => URL.revokeObjectURL(u), 60_000);
    } catch (err) { fill(previewError, err.message); previewError.hidden = false; }
  }

  // ---- errors at the parts -------------------------------------------------
  // An error that names a line ("line 106, column 5: …") is marked at that
  // line in the code editor, with a button that goes there.
  function partError(key, msg) {
    const panel = panels[key];
    const where = /\bline (\d+)(?:, column (\d+))?/.exec(msg);
    const ed = editors[key];
    const go = where && ed ? h('button', { type: 'button', class: 'btn small link', onclick: () => ed.goTo(Number(where[1]), Number(where[2] || 1)) },
      `Go to line ${where[1]}`) : null;
    const note = h('p', { class: 'field-error', id: `part-${key}-error` }, msg, go ? ' ' : '', go);
    const ta = areas[key];
    if (ta) {
      ta.setAttribute('aria-invalid', 'true');
      ta.setAttribute('aria-describedby', `part-${key}-hint part-${key}-error`);
      if (ed) {
        ed.setDescribedBy(`part-${key}-hint part-${key}-error`);
        ed.view.contentDOM.setAttribute('aria-invalid', 'true');
        if (where) ed.setError(Number(where[1]), Number(where[2] || 1));
        ed.view.dom.before(note); // above the code: the save bar may cover what is below it
      } else ta.after(note);
    } else panel.append(note);
    tabs[key].classList.add('has-error');
    tabs[key].append(h('span', { class: 'tab-error' }, ' (error)'));
  }
  function clearPartErrors() {
    for (const p of parts) {
      document.getElementById(`part-${p.key}-error`)?.remove();
      const ta = areas[p.key];
      if (ta) { ta.removeAttribute('aria-invalid'); ta.setAttribute('aria-describedby', `part-${p.key}-hint`); }
      const ed = editors[p.key];
      if (ed && ed.view.contentDOM.hasAttribute('aria-invalid')) {
        ed.setError(null);
        ed.setDescribedBy(`part-${p.key}-hint`);
        ed.view.contentDOM.removeAttribute('aria-invalid');
      }
      tabs[p.key].classList.remove('has-error');
      tabs[p.key].querySelector('.tab-error')?.remove();
    }
  }

  // ---- saving ---------------------------------------------------------------
  const dirty = h('span', { class: 'badge warn', hidden: true }, 'Unsaved changes');
  const basedOn = h('span', { class: 'muted' });
  // markDirty says whether the draft differs from the version it started
  // from; it runs with each preview, not each keystroke, since a draft with
  // assets is megabytes of JSON to compare.
  let baseJSON = null; // the draft of base, as markDirty compares it
  function markDirty(out, problems) {
    baseJSON ??= JSON.stringify(draftOf(base));
    dirty.hidden = !problems.length && JSON.stringify(out) === baseJSON;
  }
  function draftOf(v) {
    if (!v) return { html: '' };
    const o = { html: v.html || '' };
    const { dataSchema, ...rest } = v.manifest || {};
    o.manifest = dataSchema !== undefined ? { ...rest, dataSchema } : rest;
    if (v.sampleData !== undefined) o.sampleData = v.sampleData;
    if (v.content !== undefined) o.content = v.content;
    if (v.assets && Object.keys(v.assets).length) o.assets = v.assets;
    return o;
  }
  const saveError = h('p', { class: 'form-error', role: 'alert', tabindex: '-1', hidden: true });
  const activate = h('input', { type: 'checkbox', id: 'save-activate', name: 'activate' });
  const saveForm = h('form', { class: 'save-bar card', novalidate: true, 'aria-label': 'Save' },
    h('div', { class: 'save-state' }, basedOn, ' ', dirty),
    saveError,
    h('label', { class: 'check', for: 'save-activate' }, activate, h('span', {}, 'Make it the active version (it generates documents at once)')),
    h('button', { type: 'submit', class: 'btn primary' }, 'Save as new version'));
  saveForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    const btn = saveForm.querySelector('button[type=submit]');
    saveError.hidden = true;
    const { out, problems } = draft();
    clearPartErrors();
    if (problems.length) { for (const [key, msg] of problems) partError(key, msg); select(problems[0][0], true); return; }
    btn.disabled = true;
    try {
      const v = await api('POST', `/v1/templates/${tid}/versions`, { ...out, activate: activate.checked });
      base = v;
      baseJSON = null;
      announce(`Version ${v.version} saved${v.active ? ' and active' : ''}`);
      activate.checked = false;
      dirty.hidden = true;
      await reload();
    } catch (err) {
      const part = partOf(err.field);
      if (part) { partError(part, err.message); select(part, true); }
      else { fill(saveError, err.message); saveError.hidden = false; saveError.focus(); }
    } finally { btn.disabled = false; }
  });

  // ---- history, diff, activation -------------------------------------------
  const history = h('div', { class: 'history' });
  const diffOut = h('div', { class: 'diff-out', 'aria-live': 'polite' });
  const fromSel = h('select', { id: 'diff-from' });
  const toSel = h('select', { id: 'diff-to' });
  const diffForm = h('form', { class: 'inline-form', novalidate: true, 'aria-label': 'Compare versions' },
    h('div', { class: 'field' }, h('label', { for: 'diff-from' }, 'From version'), fromSel),
    h('div', { class: 'field' }, h('label', { for: 'diff-to' }, 'To version'), toSel),
    h('button', { type: 'submit', class: 'btn' }, 'Compare'));
  diffForm.addEventListener('submit', (e) => { e.preventDefault(); compare(Number(fromSel.value), Number(toSel.value)); });
  const cache = new Map();
  const version = async (n) => {
    if (!cache.has(n)) cache.set(n, api('GET', `/v1/templates/${tid}/versions/${n}`));
    return cache.get(n);
  };

  async function reload() {
    const [tt, vs] = await Promise.all([api('GET', `/v1/templates/${tid}`), api('GET', `/v1/templates/${tid}/versions`)]);
    Object.assign(t, tt);
    fill(basedOn, base ? `Editing a draft from version ${base.version}.` : 'No version saved yet.',
      t.activeVersion ? ` Active: version ${t.activeVersion}.` : ' No active version.');
    fill(history, table('Versions', [
      ['Version', v => `v${v.version}`],
      ['Created', v => when(v.createdAt)],
      ['Markup', v => fmtBytes(v.htmlBytes) + (v.assetCount ? `, ${v.assetCount} asset${v.assetCount > 1 ? 's' : ''}` : '')],
      ['Active', v => v.active ? badge('Active', 'ok') : writer ? h('button', { type: 'button', class: 'btn small', 'aria-label': `Activate version ${v.version}`, onclick: async (e) => {
        if (!(await confirmDialog(`Make version ${v.version} the active one? Documents generate from it at once.`, 'Activate'))) return;
        e.target.disabled = true;
        try { await api('POST', `/v1/templates/${tid}/versions/${v.version}/activate`); announce(`Version ${v.version} is active`); await reload(); }
        catch (err) { e.target.disabled = false; announce(err.message); }
      } }, 'Activate') : 'No'],
    ], vs.items, 'No versions yet: save one above.'));
    const opts = (sel, pick) => fill(sel, vs.items.map(v => h('option', { value: v.version, selected: v.version === pick }, `v${v.version}${v.active ? ' (active)' : ''}`)));
    const newest = vs.items[0]?.version || 0;
    opts(fromSel, Math.max(1, newest - 1));
    opts(toSel, newest);
    diffForm.hidden = vs.items.length < 2;
    if (vs.items.length >= 2) await compare(newest - 1, newest);
    else fill(diffOut, h('p', { class: 'muted' }, 'Save a second version to compare versions.'));
  }

  async function compare(a, b) {
    const [va, vb] = await Promise.all([version(a), version(b)]);
    const sa = split(va), sb = split(vb);
    const assetLines = (s) => Object.keys(s.assets).sort().map(n => `${n} (${fmtBytes(Math.floor(s.assets[n].length * 3 / 4))}, ${hashOf(s.assets[n])})`).join('\n');
    const sections = parts.map(p => {
      const ta = p.key === 'assets' ? assetLines(sa) : sa[p.key];
      const tb = p.key === 'assets' ? assetLines(sb) : sb[p.key];
      const ops = diffLines(split_(ta), split_(tb));
      const added = ops.filter(o => o[0] === '+').length, removed = ops.filter(o => o[0] === '-').length;
      const head = h('h4', {}, p.label, ': ', added || removed ? `${added} line${added === 1 ? '' : 's'} added, ${removed} removed` : 'no changes');
      return h('section', { class: 'diff-part' }, head, added || removed ? diffView(ops) : null);
    });
    fill(diffOut, h('h3', {}, `Changes from version ${a} to version ${b}`), sections);
  }

  // ---- the page ------------------------------------------------------------
  const editor = h('div', { class: 'editor' },
    h('div', { class: 'code-pane' }, tablist, parts.map(p => panels[p.key])),
    panels.preview);
  fill(main,
    pageHeader(t.name, link('/templates', 'All templates')),
    h('p', { class: 'lead' }, h('code', {}, t.slug), ' · written template',
      t.copiedFrom ? ` · copied from the ${t.copiedFrom} starter` : ''),
    editor,
    writer ? saveForm : null,
    h('section', { 'aria-labelledby': 'hist-h', class: 'card' }, h('h2', { id: 'hist-h' }, 'Version history'), history,
      h('h3', { class: 'diff-title' }, 'Compare two versions'), diffForm, diffOut));
  drawAssets();
  select('html', false);
  // A laptop shows the preview beside the code, so its tab goes; the phone's
  // choice of the preview comes back when the window narrows again, unless
  // another tab was chosen meanwhile.
  const onWide = () => {
    if (wide.matches && selected === 'preview') { narrowChoice = 'preview'; select('html', false); }
    else if (!wide.matches && narrowChoice && selected === 'html') select(narrowChoice, false);
    if (!wide.matches) narrowChoice = null;
  };
  wide.addEventListener('change', onWide);
  await reload();
  refresh();

  return () => {
    stopped = true;
    clearTimeout(timer);
    ctrl?.abort();
    wide.removeEventListener('change', onWide);
    if (url) URL.revokeObjectURL(url);
  };
}

// split_ cuts a text into lines; the empty text has none.
function split_(s) { return s ? s.split('\n') : []; }

// hashOf is a short fingerprint of an asset, so a changed file of the same
// name and size shows as changed in a diff.
function hashOf(s) {
  let x = 2166136261;
  for (let i = 0; i < s.length; i++) { x ^= s.charCodeAt(i); x = Math.imul(x, 16777619); }
  return (x >>> 0).toString(16).padStart(8, '0');
}

// diffView shows a line diff: each line marked by a text prefix (+, −, or
// two spaces) as well as its colour, unchanged runs folded behind a button.
function diffView(ops) {
  const pre = h('pre', { class: 'diff', tabindex: '0' });
  for (const chunk of collapse(ops, 3)) {
    if (chunk.skip) {
      const btn = h('button', { type: 'button', class: 'btn link diff-skip' }, `Show ${chunk.skip.length} unchanged line${chunk.skip.length === 1 ? '' : 's'}`);
      btn.addEventListener('click', () => { btn.replaceWith(...chunk.skip.map(line)); });
      pre.append(btn);
    } else pre.append(line(chunk));
  }
  return h('div', { class: 'diff-wrap' }, pre);
}

function line([op, text]) {
  if (op === '+') return h('ins', {}, h('span', { class: 'sr-only' }, 'added: '), h('span', { 'aria-hidden': 'true' }, '+ '), text, '\n');
  if (op === '-') return h('del', {}, h('span', { class: 'sr-only' }, 'removed: '), h('span', { 'aria-hidden': 'true' }, '− '), text, '\n');
  return h('span', { class: 'same' }, '  ', text, '\n');
}

