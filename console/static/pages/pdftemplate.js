// Templates made from an uploaded PDF (docs/pdf-templates.md): the upload
// page (/templates/upload), and the editor that pages/template.js shows for
// a template whose kind is "pdf". The editor draws the upload's pages with
// every text piece outlined as a button; a piece clicked becomes a field of
// the draft (the fields a version of a PDF template has: pieceId, key,
// default, whenMissing, required, align); the draft is saved as a version,
// previewed unsaved, and tried with sample values. Every rule (a key's form,
// a piece marked twice, a required key missing) is the server's: its
// refusals are shown at the input they name (fields[1].key,
// draft.fields[0].key, a data key).
import { h, fill, api, field, submitting, showError, clearErrors, pageHeader, link, go, announce, badge, table, when } from '../lib.js';

// maxUploadBytes is the largest file the browser sends: the API takes a
// request of up to 20 MB (transport's MaxUploadBytes), and the form's
// other fields and multipart framing take a little of it.
const maxUploadBytes = (20 << 20) - (64 << 10);

// render draws the upload page. A template made opens in the editor, at
// its own address.
export async function render(main) {
  const form = h('form', { class: 'stack card pdf-upload', novalidate: true, 'aria-labelledby': 'pdf-up' },
    h('h2', { id: 'pdf-up' }, 'Your PDF'),
    h('p', { class: 'form-error', role: 'alert', tabindex: '-1', hidden: true }),
    field('PDF file', { name: 'file', type: 'file', accept: 'application/pdf,.pdf', required: true },
      { hint: 'Up to 20 MB and 50 pages, with its text as text: a scan has none to mark.' }),
    field('Name', { name: 'name', placeholder: 'e.g. Course certificate' }, { hint: 'Left empty, the file’s name.' }),
    field('Slug', { name: 'slug', placeholder: 'e.g. course-certificate' },
      { hint: 'How your code names the template: lower-case letters, digits and -. Left empty, made from the name.' }),
    h('button', { type: 'submit', class: 'btn primary' }, 'Upload and read its text'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    // Checked here, before 20 MB go over the wire to be refused.
    const file = form.elements.file.files[0];
    if (!file) { showError(form, { field: 'file', message: 'Choose a PDF file.' }); return; }
    if (file.size > maxUploadBytes) {
      showError(form, { field: 'file', message: `This file is ${(file.size / 1048576).toFixed(1)} MB; a PDF may be at most 20 MB.` });
      return;
    }
    submitting(form, async () => {
      const t = await api('POST', '/v1/templates/pdf', new FormData(form));
      announce(`${t.name}: ${t.source?.pieceCount ?? t.pieces?.length ?? 0} text pieces read`);
      // The template's own page (pages/template.js) hands it to the editor.
      go('/templates/' + encodeURIComponent(t.id));
    });
  });
  fill(main, pageHeader('Upload a PDF', link('/templates', 'All templates')),
    h('p', { class: 'lead' }, 'A PDF you already have (a certificate, a form, a letter) becomes a template: its text is read, you mark the pieces that change as fields, and each document replaces their text and leaves everything else as printed.'),
    form);
}

// whenMissing's choices, as a version's field takes them; "" leaves it out
// (the server then prints the default when one is given, else the original).
const whenMissingOptions = [['', 'Automatic'], ['default', 'The default'], ['blank', 'Blank'], ['original', 'The original']];
const alignOptions = [['', 'Left'], ['right', 'Right'], ['center', 'Centre']];

// renderEditor draws the editor of a template made from a PDF in main. It
// returns a function that lets go of what it made (preview files).
export async function renderEditor(main, template) {
  const id = template.id;
  const base = '/v1/templates/' + encodeURIComponent(id);
  const urls = []; // blob: URLs of previews, revoked when the page goes
  const [found, saved] = await Promise.all([
    template.pieces && template.source ? { items: template.pieces, pages: template.source.pages } : api('GET', base + '/pieces'),
    template.latestVersion ? api('GET', `${base}/versions/${template.latestVersion}`) : null,
  ]);
  const pieces = new Map(found.items.map(p => [p.id, p]));
  const pages = found.pages;
  // The draft: the fields as a version's body takes them, starting from the
  // latest version's.
  let fields = (saved?.fields || []).filter(f => pieces.has(f.pieceId)).map(draftField);
  let latest = template.latestVersion || 0;
  let active = template.activeVersion || 0;
  const tryValues = {}; // what the person typed in "Try it", by key

  // Page images: asked for sharp on this screen; the boxes are placed in
  // percent of the page, so they follow the image however wide it is shown.
  const dpi = Math.min(300, Math.round(110 * Math.max(1, window.devicePixelRatio || 1)));
  const buttons = new Map(); // pieceId -> its button over the image
  const figures = pages.map(pg => {
    const img = h('img', { src: `${base}/pages/${pg.number}.png?dpi=${dpi}`, alt: `Page ${pg.number} of ${template.source?.filename || 'the upload'}`,
      width: Math.round(pg.width), height: Math.round(pg.height), loading: pg.number > 1 ? 'lazy' : null, decoding: 'async' });
    const layer = h('div', { class: 'pdf-pieces' });
    for (const p of found.items.filter(p => p.page === pg.number)) {
      const b = h('button', { type: 'button', class: 'pdf-piece', dataset: { piece: p.id }, onclick: () => mark(p.id) });
      // The key over a marked piece: beside the button, not in it, as the
      // button's name is the piece's text (with the key said after it).
      const tag = h('span', { class: 'pdf-piece-tag', 'aria-hidden': 'true' });
      b.style.left = pct(p.box.x, pg.width);
      b.style.top = pct(p.box.y, pg.height);
      b.style.width = pct(p.box.w, pg.width);
      b.style.height = pct(p.box.h, pg.height);
      b.tag = tag;
      buttons.set(p.id, b);
      layer.append(b, tag);
    }
    return h('figure', { class: 'pdf-page', 'aria-labelledby': `pdf-cap-${pg.number}` },
      h('figcaption', { id: `pdf-cap-${pg.number}` }, pages.length > 1 ? `Page ${pg.number} of ${pages.length}` : 'The page',
        h('span', { class: 'pdf-choose-wide' }, ': choose a piece of text to make it a field'),
        h('span', { class: 'pdf-choose-narrow' }, ': its fields are marked; choose pieces in the list of text pieces below')),
      h('div', { class: 'pdf-sheet' }, img, layer));
  });

  // The fields of the draft, each a fieldset whose inputs are named as the
  // version's body names them, so a refusal lands at its input.
  const list = h('div', { class: 'pdf-fields', 'data-field': 'fields', tabindex: '-1' });
  const fieldsForm = h('form', { class: 'stack', novalidate: true, 'aria-labelledby': 'pdf-fields-h' },
    h('h2', { id: 'pdf-fields-h' }, 'Fields'),
    h('p', { class: 'muted pdf-fields-about' }, 'A field’s key names the value of the document’s data that replaces the piece’s text. ',
      'When the key is missing, the field prints its default, stays blank, or keeps the original text (Automatic: the default if there is one, else the original); a required key refuses the document instead. Alignment places a value in the original’s width.'),
    h('p', { class: 'form-error', role: 'alert', tabindex: '-1', hidden: true }),
    list,
    h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'activate', checked: true }),
      h('span', {}, 'Make it the active version: documents are made with it')),
    h('button', { type: 'submit', class: 'btn primary' }, 'Save as version'));
  const savedNote = h('p', { class: 'pdf-saved', 'aria-live': 'polite' });
  fieldsForm.addEventListener('submit', (e) => {
    e.preventDefault();
    submitting(fieldsForm, async () => {
      const v = await api('POST', base + '/versions', { fields: body(), activate: fieldsForm.elements.activate.checked });
      latest = v.version;
      if (v.active) active = v.version;
      fill(savedNote, `Version ${v.version} saved`, v.active ? ' and active.' : '. It is not active: documents use version ' + (active || 'none') + '.');
      announce(`Version ${v.version} saved`);
      drawFacts();
      drawTry();
      await drawVersions();
    });
  });

  // body is the draft as POST .../versions takes it.
  function body() {
    return fields.map(f => ({ pieceId: f.pieceId, key: f.key.trim(), default: f.default || undefined,
      whenMissing: f.whenMissing || undefined, required: f.required || undefined, align: f.align || undefined }));
  }

  function mark(pieceId) {
    let i = fields.findIndex(f => f.pieceId === pieceId);
    if (i < 0) {
      fields.push({ pieceId, key: '', default: '', whenMissing: '', required: false, align: '' });
      i = fields.length - 1;
      drawFields();
      drawTry();
    }
    const row = list.querySelector(`[data-row="${i}"]`);
    row?.scrollIntoView?.({ block: 'nearest' });
    row?.querySelector('input')?.focus();
    select(pieceId);
  }

  function unmark(i) {
    const [gone] = fields.splice(i, 1);
    drawFields();
    drawTry();
    announce(`“${pieces.get(gone.pieceId).text}” is no longer a field`);
    buttons.get(gone.pieceId)?.focus();
  }

  // select shows which piece the person is working on.
  function select(pieceId) {
    for (const [pid, b] of buttons) b.classList.toggle('selected', pid === pieceId);
  }

  // drawMarks makes the pieces that are fields look so: a solid outline and
  // the key over them (never colour alone), and says so in their names.
  function drawMarks() {
    const byPiece = new Map(fields.map(f => [f.pieceId, f]));
    for (const [pid, b] of buttons) {
      const f = byPiece.get(pid), text = pieces.get(pid).text;
      b.classList.toggle('marked', !!f);
      b.setAttribute('aria-label', f ? `${text} (field ${f.key.trim() || 'without a key yet'})` : text);
      b.tag.textContent = f ? (f.key.trim() || 'field') : '';
      b.tag.classList.toggle('shown', !!f);
    }
    placeTags();
    drawTable();
  }

  // placeTags puts each key beside its piece where it covers no other
  // text: to its right, else its left, else above or below it, slid along
  // the piece; the first place on the page clear of other pieces and keys,
  // or failing that the one that covers least. Sizes are in the PDF's
  // points, measured from the tags as drawn.
  function placeTags() {
    for (const pg of pages) {
      const layer = figures[pg.number - 1].querySelector('.pdf-pieces');
      const scale = layer.clientWidth / pg.width;
      if (!scale) continue;
      const onPage = found.items.filter(p => p.page === pg.number);
      const taken = [];
      const covers = (r) => {
        if (r.x < 0 || r.y < 0 || r.x + r.w > pg.width || r.y + r.h > pg.height) return Infinity;
        let area = 0;
        for (const o of [...onPage.map(p => p.box), ...taken]) {
          const w = Math.min(r.x + r.w, o.x + o.w) - Math.max(r.x, o.x), hh = Math.min(r.y + r.h, o.y + o.h) - Math.max(r.y, o.y);
          if (w > 0 && hh > 0) area += w * hh;
        }
        return area;
      };
      for (const p of onPage) {
        const tag = buttons.get(p.id).tag;
        if (!tag.classList.contains('shown')) continue;
        const w = tag.offsetWidth / scale, hgt = tag.offsetHeight / scale, gap = 2 / scale, b = p.box;
        const mid = b.y + (b.h - hgt) / 2;
        const sides = [
          ['right', { x: b.x + b.w + gap, y: mid, w, h: hgt }],
          ['left', { x: b.x - w - gap, y: mid, w, h: hgt }],
        ];
        for (const [name, y] of [['above', b.y - hgt - gap], ['below', b.y + b.h + gap]]) {
          for (let x = b.x; x <= b.x + Math.max(b.w, w); x += w / 4) sides.push([name, { x, y, w, h: hgt }]);
        }
        let best = sides[0], least = Infinity;
        for (const s of sides) {
          const a = covers(s[1]);
          if (a < least) { best = s; least = a; }
          if (a === 0) break;
        }
        const [side, r] = best;
        taken.push(r);
        tag.dataset.side = side;
        tag.style.left = pct(r.x, pg.width);
        tag.style.top = pct(r.y, pg.height);
      }
    }
  }
  const replace = () => requestAnimationFrame(placeTags);

  // On a phone the pieces drawn over the page are a few pixels tall, too
  // small to touch: the page is a picture of the fields there, and pieces
  // are chosen in the list below, whose buttons are large enough.
  const narrow = window.matchMedia('(max-width: 800px)');
  function touchMode() {
    for (const f of figures) {
      const layer = f.querySelector('.pdf-pieces');
      if (narrow.matches) layer.setAttribute('aria-hidden', 'true'); else layer.removeAttribute('aria-hidden');
      for (const b of layer.querySelectorAll('button')) b.disabled = narrow.matches;
    }
  }
  narrow.addEventListener('change', touchMode);
  touchMode();

  function drawFields() {
    clearErrors(fieldsForm);
    fill(list, fields.length ? fields.map((f, i) => fieldRow(f, i))
      : h('p', { class: 'muted' }, 'No fields yet: choose a piece of text on the page, or in the list of pieces below, to make it a field.'));
    drawMarks();
  }

  function fieldRow(f, i) {
    const p = pieces.get(f.pieceId);
    const n = `fields[${i}]`;
    const bind = (prop, redraw) => (e) => {
      f[prop] = e.target.type === 'checkbox' ? e.target.checked : e.target.value;
      if (redraw) { drawMarks(); drawTry(); }
    };
    const key = field('Key', { name: n + '.key', value: f.key, autocomplete: 'off', spellcheck: 'false', placeholder: 'e.g. name', oninput: bind('key', true) });
    const def = field('Default', { name: n + '.default', value: f.default, oninput: bind('default') });
    const missing = field('When missing', { name: n + '.whenMissing', value: f.whenMissing, onchange: bind('whenMissing') }, { tag: 'select', options: whenMissingOptions });
    const align = field('Alignment', { name: n + '.align', value: f.align, onchange: bind('align') }, { tag: 'select', options: alignOptions });
    const req = h('label', { class: 'check' }, h('input', { type: 'checkbox', name: n + '.required', checked: f.required, onchange: bind('required') }),
      h('span', {}, 'Required'));
    return h('fieldset', { class: 'pdf-field', dataset: { row: String(i) }, onfocusin: () => select(f.pieceId) },
      h('legend', {}, h('span', { class: 'sr-only' }, 'Field ' + (i + 1) + ': '), '“', p.text, '”', pages.length > 1 ? h('span', { class: 'muted' }, ` · page ${p.page}`) : null),
      // Where a refusal of the field as a whole (its piece) is shown.
      h('div', { class: 'field', 'data-field': n, tabindex: '-1' }),
      key, def, h('div', { class: 'pdf-field-pair' }, missing, align),
      h('div', { class: 'pdf-field-end' }, req,
        h('button', { type: 'button', class: 'btn small danger', 'aria-label': `Remove the field “${p.text}”`, onclick: () => unmark(i) }, 'Remove')));
  }

  // The pieces again, as a table: a screen reader's (and a small screen's)
  // way to pick one.
  const pieceTable = h('div', {});
  function drawTable() {
    const byPiece = new Map(fields.map((f, i) => [f.pieceId, [f, i]]));
    fill(pieceTable, table('Text pieces read from the PDF', [
      ['Text', p => [h('span', { class: 'pdf-text' }, p.text), ' ', h('span', { class: 'muted pdf-font' },
        pages.length > 1 ? `page ${p.page} · ` : '', `${p.font || ''} ${p.size ? p.size.toFixed(1) + '\u00a0pt' : ''}`)]],
      ['Field', p => byPiece.has(p.id) ? badge(byPiece.get(p.id)[0].key.trim() || 'no key yet', 'ok') : h('span', { class: 'muted pdf-none' }, '—')],
      ['', p => h('button', { type: 'button', class: 'btn small', 'aria-label': (byPiece.has(p.id) ? 'Edit the field “' : 'Make a field of “') + p.text + '”', onclick: () => mark(p.id) },
        byPiece.has(p.id) ? 'Edit the field' : 'Make a field')],
    ], found.items, 'The upload has no text pieces to mark.'));
  }

  // "Try it": a value per key, rendered as the draft or the saved version,
  // or made into a real document.
  const tryForm = h('form', { class: 'stack', novalidate: true, 'aria-labelledby': 'pdf-try-h' });
  const tryOut = h('div', { class: 'pdf-try-out', 'aria-live': 'polite' });
  function drawTry() {
    const keys = [...new Set(fields.map(f => f.key.trim()).filter(Boolean))];
    fill(tryForm,
      h('h2', { id: 'pdf-try-h' }, 'Try it'),
      h('p', { class: 'muted' }, 'Type a value for each key. A key left empty is missing, and its field does what you chose for that.'),
      h('p', { class: 'form-error', role: 'alert', tabindex: '-1', hidden: true }),
      keys.length ? h('div', { class: 'pdf-try-values' }, keys.map(k => {
        const f = fields.find(x => x.key.trim() === k);
        return field(k, { name: k, value: tryValues[k] ?? '', oninput: (e) => { tryValues[k] = e.target.value; } },
          { hint: `Replaces “${pieces.get(f.pieceId).text}”` + (f.default ? `; default “${f.default}”` : '') });
      })) : h('p', { class: 'muted' }, 'Give a field a key to try a value in it.'),
      h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'btn', onclick: () => run(() => preview(null)) }, 'Preview the draft'),
        latest ? h('button', { type: 'button', class: 'btn', onclick: () => run(() => preview(latest)) }, `Preview version ${latest}`) : null,
        h('button', { type: 'button', class: 'btn primary', onclick: () => run(generate) }, 'Generate document')));
  }

  // data is what the "Try it" form holds: a key left empty is left out.
  function data() {
    const out = {};
    for (const [k, v] of Object.entries(tryValues)) if (v !== '' && fields.some(f => f.key.trim() === k)) out[k] = v;
    return out;
  }

  async function run(fn) {
    const btns = tryForm.querySelectorAll('button');
    clearErrors(tryForm);
    clearErrors(fieldsForm);
    fill(tryOut); // an earlier answer is not this one's
    btns.forEach(b => { b.disabled = true; });
    try { await fn(); }
    catch (err) {
      // A draft's refusal names the draft's field: show it at that field.
      if (err.field?.startsWith('draft.')) { err.field = err.field.slice('draft.'.length); showError(fieldsForm, err); }
      else if (err.field?.startsWith('fields')) showError(fieldsForm, err);
      else showError(tryForm, err);
    } finally { btns.forEach(b => { b.disabled = false; }); }
  }

  // preview renders the draft (version null) or a saved version with the
  // values typed: the PDF as a link, and when the server draws pictures of
  // a preview ("format": "png"), the pages holding fields as images.
  let pngs = true; // until the server says it does not know "format"
  async function preview(version) {
    const req = version ? { version, data: data() } : { draft: { fields: body() }, data: data() };
    const onPages = [...new Set(fields.map(f => pieces.get(f.pieceId).page))].sort((a, b) => a - b).slice(0, 4);
    const width = Math.min(2000, Math.round(Math.min(tryOut.clientWidth || 800, 900) * Math.max(1, window.devicePixelRatio || 1)));
    const pics = pngs ? Promise.all((onPages.length ? onPages : [1]).map(page =>
      api('POST', base + '/preview', { ...req, format: 'png', page, width }, { raw: true }).then(r => r.blob()).then(b => [page, b]))).catch(err => {
      if (err.status === 400 && ['format', 'page', 'width'].includes(err.field)) { pngs = false; return []; }
      throw err;
    }) : Promise.resolve([]);
    const res = await api('POST', base + '/preview', req, { raw: true });
    const pdf = await res.blob();
    const images = await pics;
    const n = Number(res.headers.get('X-Platen-Pages') || 0);
    const pdfURL = keep(URL.createObjectURL(pdf));
    const what = version ? `Version ${version}` : 'The draft';
    fill(tryOut,
      h('p', {}, `${what}, previewed`, n ? ` (${n} page${n === 1 ? '' : 's'}, watermarked, not billed): ` : ': ',
        h('a', { href: pdfURL, target: '_blank', rel: 'noopener', class: 'pdf-preview-link' }, 'open the preview PDF')),
      images.map(([page, b]) => h('img', { class: 'pdf-preview-img', src: keep(URL.createObjectURL(b)), alt: `${what} previewed: page ${page}` })));
  }

  async function generate() {
    const d = await api('POST', '/v1/documents', { templateId: id, data: data() });
    fill(tryOut, h('p', {}, 'Document ', link('/documents/' + encodeURIComponent(d.id), d.id), ' ', badge(d.status, d.status),
      d.downloadUrl ? [' ', h('a', { href: d.downloadUrl, class: 'pdf-download' }, 'Download the PDF')] : null,
      d.status === 'failed' ? [': ', d.message || d.errorCode] : null));
    announce(`Document ${d.status}`);
  }

  function keep(url) { urls.push(url); return url; }

  // Versions: each saved set of fields; one is active (documents use it).
  // Read after the editor is drawn, as it sits below the fold.
  const versions = h('div', { 'aria-live': 'polite' });
  const versionsSection = h('section', { class: 'pdf-versions', 'aria-labelledby': 'pdf-versions-h' },
    h('h2', { id: 'pdf-versions-h' }, 'Versions'),
    h('p', { class: 'form-error', role: 'alert', tabindex: '-1', hidden: true }),
    versions);
  async function act(fn) {
    clearErrors(versionsSection);
    try { await fn(); } catch (err) { showError(versionsSection, err); }
  }
  async function drawVersions() {
    if (!latest) { fill(versions, h('p', { class: 'muted' }, 'No version yet: mark fields and save them as one.')); return; }
    const { items } = await api('GET', base + '/versions');
    fill(versions, table('Versions', [
      ['Version', v => [String(v.version), ' ', v.active ? badge('active', 'ok') : null]],
      ['Fields', v => String(v.fieldCount || 0)],
      ['Saved', v => when(v.createdAt)],
      ['', v => h('span', { class: 'pdf-version-actions' },
        h('button', { type: 'button', class: 'btn small', 'aria-label': `Edit the fields of version ${v.version}`, onclick: () => act(async () => {
          const got = await api('GET', `${base}/versions/${v.version}`);
          fields = got.fields.filter(f => pieces.has(f.pieceId)).map(draftField);
          drawFields();
          drawTry();
          announce(`The fields of version ${v.version} are the draft`);
          (list.querySelector('input') || list).focus();
        }) }, 'Edit the fields'),
        v.active ? null : h('button', { type: 'button', class: 'btn small', 'aria-label': `Activate version ${v.version}`, onclick: () => act(async () => {
          await api('POST', `${base}/versions/${v.version}/activate`);
          active = v.version;
          announce(`Version ${v.version} is active`);
          drawFacts();
          await drawVersions();
        }) }, 'Activate'))],
    ], items));
  }

  const facts = h('p', { class: 'muted pdf-facts' });
  function drawFacts() {
    const s = template.source || {};
    fill(facts, 'Made from ', h('code', {}, s.filename || 'a PDF'), ` · ${pages.length} page${pages.length === 1 ? '' : 's'} · ${found.items.length} text pieces · slug `,
      h('code', {}, template.slug), ' · ', active ? `version ${active} is active` : 'no active version yet: save one to generate');
  }
  drawFacts();
  drawFields();
  drawTry();
  fill(main,
    pageHeader(template.name, badge('From a PDF'), link('/templates', 'All templates')),
    facts,
    h('div', { class: 'pdf-editor' },
      h('section', { class: 'pdf-pages', 'aria-label': 'Pages' },
        // A keyboard's way past every piece's button to the fields.
        h('button', { type: 'button', class: 'btn small pdf-skip', onclick: () => (list.querySelector('input') || list).focus() }, 'Skip the pieces to the fields'),
        figures),
      h('section', { class: 'card pdf-side', 'aria-label': 'Fields and saving' }, fieldsForm, savedNote)),
    h('section', { class: 'card pdf-try', 'aria-label': 'Try it' }, tryForm, tryOut),
    versionsSection,
    h('section', { class: 'pdf-piece-list', 'aria-labelledby': 'pdf-list-h' },
      h('h2', { id: 'pdf-list-h' }, 'Text pieces'),
      h('p', { class: 'muted' }, 'Every piece of text read from the PDF; a piece made a field is replaced in each document.'),
      pieceTable));
  act(drawVersions);
  // The keys are placed once the page is laid out, and again when its
  // width changes.
  window.addEventListener('resize', replace);
  replace();
  return () => { window.removeEventListener('resize', replace); narrow.removeEventListener('change', touchMode); urls.forEach(u => URL.revokeObjectURL(u)); };
}

// draftField is a saved version's field as the draft holds it.
function draftField({ pieceId, key, default: def, whenMissing, required, align }) {
  return { pieceId, key, default: def || '', whenMissing: whenMissing || '', required: !!required, align: align || '' };
}

function pct(v, of) { return (100 * v / of).toFixed(4) + '%'; }
