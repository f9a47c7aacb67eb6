// Documents: the organisation's documents, newest first, filtered by status,
// template and correlationId (the filters live in the address, so a filtered
// list can be shared and survives a reload), paged with the API's cursor.
// Documents made or changed elsewhere arrive from the change feed and are
// announced politely; nothing polls. A form generates a document from the
// console, with the server's refusals shown at the field they name.
import { h, fill, api, field, submitting, showError, when, statusBadge, link, go, pageHeader, can, fmtMoney, icon, downloadDocument } from '../lib.js';
import { onEvent, whenLive } from '../realtime.js';

const statuses = [['', 'Any status'], ['queued', 'Queued'], ['rendering', 'Rendering'], ['completed', 'Completed'], ['failed', 'Failed']];

export async function render(main) {
  const q = new URLSearchParams(location.search);
  const filter = { status: q.get('status') || '', templateId: q.get('templateId') || '', correlationId: q.get('correlationId') || '' };
  const listQuery = new URLSearchParams({ limit: '20' });
  for (const [k, v] of Object.entries(filter)) if (v) listQuery.set(k, v);

  // The feed is opened before the list is read, and what it says meanwhile
  // is applied after: a document made between the two is not missed.
  const early = [];
  let handle = (f) => early.push(f);
  const stop = onEvent((f) => handle(f));
  try { return await draw(main, filter, listQuery, stop, (fn) => { handle = fn; early.splice(0).forEach(fn); }); }
  catch (err) { stop(); throw err; }
}

async function draw(main, filter, listQuery, stop, listen) {
  const [page, templates] = await Promise.all([
    whenLive().then(() => api('GET', '/v1/documents?' + listQuery)),
    can('templates.read') ? api('GET', '/v1/templates?limit=100').then(r => r.items).catch(() => []) : Promise.resolve([]),
  ]);

  // The live region says what changed by itself; the list is the record.
  const liveNote = h('p', { class: 'sr-only', 'aria-live': 'polite', id: 'docs-live' });
  const tbody = h('tbody', {});
  const rows = new Map(); // id -> {doc, tr}
  const empty = h('p', { class: 'muted empty', hidden: page.items.length > 0 }, filtered(filter) ? 'No documents match these filters.' : 'No documents yet: generate one below, or with the API.');
  const tableWrap = h('div', { class: 'table-wrap', hidden: page.items.length === 0 }, h('table', { class: 'docs' },
    h('caption', { class: 'sr-only' }, 'Documents, newest first'),
    h('thead', {}, h('tr', {}, ['Document', 'Status', 'Template', 'Pages', 'Cost', 'Created', 'File'].map(c => h('th', { scope: 'col' }, c)))),
    tbody));

  // A row shows a document by what it is: its first page, its file name,
  // and its correlation id (else its id); a failed one says why.
  function row(d) {
    const hasFile = d.status === 'completed' && !d.fileExpired;
    return h('tr', { dataset: { id: d.id } },
      h('td', {}, h('div', { class: 'doc-cell' },
        hasFile ? h('img', { class: 'doc-thumb', src: `/v1/documents/${encodeURIComponent(d.id)}/thumbnail`, alt: '', width: 40, height: 57, loading: 'lazy', decoding: 'async', onerror: retryThumb })
          : h('span', { class: 'doc-thumb none', 'aria-hidden': 'true' }, icon('documents')),
        h('span', { class: 'doc-name' }, link('/documents/' + encodeURIComponent(d.id), d.filename || d.id),
          h('span', { class: 'muted block small' }, d.correlationId ? ['Correlation ', h('code', {}, d.correlationId)] : h('code', {}, d.id))))),
      h('td', {}, statusBadge(d.status), d.status === 'failed' && d.message ? h('span', { class: 'muted block small fail-why' }, d.message) : null),
      h('td', {}, d.templateSlug, h('span', { class: 'muted' }, ' v' + d.templateVersion)),
      h('td', { class: 'num' }, d.status === 'completed' ? String(d.pageCount) : '—'),
      h('td', {}, cost(d)),
      h('td', {}, when(d.createdAt)),
      h('td', {}, hasFile ? download(d) : h('span', { class: 'muted' }, '—')));
  }
  function download(d) {
    const b = h('button', { type: 'button', class: 'btn small', 'aria-label': `Download ${d.filename || d.id}`, onclick: async () => {
      b.disabled = true;
      try {
        await downloadDocument(d);
      } catch (err) { showError(main, err); }
      finally { b.disabled = false; }
    } }, icon('download'), 'PDF');
    return b;
  }
  function put(d, atTop) {
    const old = rows.get(d.id);
    const doc = old ? { ...old.doc, ...d } : d;
    const tr = row(doc);
    if (old) old.tr.replaceWith(tr);
    else if (atTop) tbody.prepend(tr);
    else tbody.append(tr);
    rows.set(d.id, { doc, tr });
    empty.hidden = true; tableWrap.hidden = false;
  }
  page.items.forEach(d => put(d, false));

  // Older pages append below, from the cursor the last page gave.
  let cursor = page.nextCursor;
  const more = h('button', { type: 'button', class: 'btn', hidden: !cursor, onclick: async () => {
    more.disabled = true;
    try {
      const next = await api('GET', '/v1/documents?' + new URLSearchParams({ ...Object.fromEntries(listQuery), cursor }));
      next.items.forEach(d => { if (!rows.has(d.id)) put(d, false); });
      cursor = next.nextCursor;
      more.hidden = !cursor;
      liveNote.textContent = `${next.items.length} older documents shown`;
    } catch (err) { showError(main, err); }
    finally { more.disabled = false; }
  } }, 'Show older documents');

  // A feed event's data is the record without templateId and createdAt
  // (docs/webhooks.md); the event's time stands for a new one's creation.
  listen((f) => {
    if (!f.event?.startsWith('document.') || !f.data?.id) return;
    const d = f.data;
    // The generate form's line about its document follows it too.
    document.querySelectorAll(`.gen-status[data-id="${CSS.escape(d.id)}"]`).forEach((el) => { el.textContent = d.status; });
    const known = rows.get(d.id);
    const fits = (!filter.status || d.status === filter.status) &&
      (!filter.templateId || d.templateSlug === filter.templateId || known?.doc.templateId === filter.templateId) &&
      (!filter.correlationId || (d.correlationId || '') === filter.correlationId);
    if (!fits) {
      if (known) { known.tr.remove(); rows.delete(d.id); liveNote.textContent = `Document ${d.id} is now ${d.status} and left this filtered list`; }
      return;
    }
    if (!known && f.event !== 'document.queued' && filter.status === '' && rows.size > 0 && olderThanList(d.id)) return;
    put(known ? d : { createdAt: f.at, ...d }, true);
    // The event does not carry the charge: the records do, read once for
    // a burst of completions (one list, not one read a document).
    if (d.status === 'completed') { clearTimeout(chargeTimer); chargeTimer = setTimeout(readCharges, 300); }
    liveNote.textContent = known ? `Document ${d.id} is ${d.status}` : `New document ${d.id}, ${d.status}`;
  });
  let chargeTimer = 0;
  function readCharges() {
    api('GET', '/v1/documents?' + new URLSearchParams({ ...Object.fromEntries(listQuery), limit: '50' })).then((page) => {
      for (const full of page.items) {
        const known = rows.get(full.id);
        if (known && full.charge && !known.doc.charge) put(full, false);
      }
    }).catch(() => {});
  }
  // A change to a document created before the oldest one listed belongs to
  // a page not shown: it is not pulled to the top.
  function olderThanList(id) {
    const ids = [...rows.keys()].sort();
    return id < ids[0] && !!cursor;
  }

  const filterForm = h('form', { class: 'inline-form card filters', role: 'search', 'aria-label': 'Filter documents' },
    field('Status', { name: 'status', value: filter.status }, { tag: 'select', options: statuses }),
    field('Template', { name: 'templateId', value: filter.templateId }, { tag: 'select', options: [['', 'Any template'], ...templates.map(t => [t.slug, t.name]), ...(filter.templateId && !templates.some(t => t.slug === filter.templateId) ? [[filter.templateId, filter.templateId]] : [])] }),
    field('Correlation ID', { name: 'correlationId', value: filter.correlationId, type: 'search' }),
    h('div', { class: 'filter-actions' },
      h('button', { type: 'submit', class: 'btn primary' }, 'Filter'),
      filtered(filter) ? link('/documents', 'Clear filters') : null));
  filterForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const next = new URLSearchParams();
    for (const [k, v] of new FormData(filterForm)) if (v) next.set(k, String(v));
    go('/documents' + (next.size ? '?' + next : ''));
  });

  fill(main, pageHeader('Documents'),
    h('p', { class: 'lead' }, 'Every document of your organisation, newest first. New documents and status changes appear here as they happen.'),
    filterForm, liveNote, empty, tableWrap, h('p', {}, more),
    can('documents.generate') ? generateForm(templates, (d) => { if (!rows.has(d.id)) put(d, true); }) : null);
  return stop;
}

function filtered(f) { return !!(f.status || f.templateId || f.correlationId); }

// retryThumb asks again, a few times, for a thumbnail the node answered
// 503 (its PDF readers busy, or starting): the picture is worth a wait.
export function retryThumb(e) {
  const img = e.currentTarget, n = Number(img.dataset.tries || 0);
  if (n >= 3) return;
  img.dataset.tries = String(n + 1);
  setTimeout(() => { img.src = img.src.replace(/(\?try=\d+)?$/, `?try=${n + 1}`); }, 2000 * (n + 1));
}

// cost is what a completed document cost, in words: pages from the
// monthly allowance, or money from the wallet.
export function cost(d) {
  const c = d.charge;
  if (d.status !== 'completed' || !c) return h('span', { class: 'muted' }, '—');
  const parts = [];
  if (c.walletPages) parts.push(h('span', {}, fmtMoney(c.micros)));
  if (c.allowancePages) parts.push(h('span', { class: c.walletPages ? 'muted block small' : '' }, `${c.allowancePages} allowance page${c.allowancePages === 1 ? '' : 's'}`));
  return parts.length ? parts : h('span', { class: 'muted' }, 'Free');
}

// generateForm makes a document from a template with JSON data, prefilled
// with the template's sample data. The server checks the data against the
// template's schema and names the field it refuses.
function generateForm(templates, shown) {
  const usable = templates.filter(t => t.activeVersion > 0 && !t.archivedAt);
  const result = h('div', { 'aria-live': 'polite' });
  const form = h('form', { class: 'stack', novalidate: true, 'aria-labelledby': 'gen-title' },
    h('p', { class: 'form-error', role: 'alert', tabindex: '-1', hidden: true }),
    field('Template', { name: 'templateId', id: 'gen-template', required: true }, { tag: 'select', options: usable.map(t => [t.slug, `${t.name} (${t.slug})`]) }),
    field('Data (JSON)', { name: 'data', id: 'gen-data', class: 'code', rows: 12, spellcheck: 'false' }, { tag: 'textarea', hint: 'Prefilled with the template\'s sample data. The server checks it against the template\'s schema.' }),
    field('Correlation ID (optional)', { name: 'correlationId', id: 'gen-correlation', maxlength: 200 }),
    h('button', { type: 'submit', class: 'btn primary' }, 'Generate'),
    result);
  const sel = form.elements.templateId, data = form.elements.data;
  async function sample() {
    const t = usable.find(t => t.slug === sel.value);
    if (!t) return;
    try {
      const v = await api('GET', `/v1/templates/${encodeURIComponent(t.id)}/versions/${t.activeVersion}`);
      // Another template may have been chosen while this one loaded.
      if (sel.value === t.slug) data.value = JSON.stringify(v.sampleData ?? {}, null, 2);
    } catch (err) { showError(form, err); }
  }
  sel.addEventListener('change', sample);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    submitting(form, async () => {
      let parsed;
      try { parsed = data.value.trim() ? JSON.parse(data.value) : {}; }
      catch (err) { showError(form, { field: 'data', message: 'This is not valid JSON: ' + err.message }); return; }
      const body = { templateId: sel.value, data: parsed, wait: false };
      if (form.elements.correlationId.value) body.correlationId = form.elements.correlationId.value;
      let d;
      try { d = await api('POST', '/v1/documents', body); }
      catch (err) {
        // A schema refusal names a path inside data (its message says which):
        // it belongs at the data box.
        if (err.code === 'PAYLOAD_VALIDATION_FAILED') {
          err.field = 'data';
          err.message = `The data does not fit the template's schema: ${err.message}`;
        }
        throw err;
      }
      shown(d);
      fill(result, h('p', { class: 'notice ok' }, 'Document ', link('/documents/' + encodeURIComponent(d.id), h('code', {}, d.id)), ' is ',
        // The feed may have brought the row on ahead of this answer.
        h('span', { class: 'gen-status', 'data-id': d.id }, document.querySelector(`tr[data-id="${CSS.escape(d.id)}"] [data-status]`)?.dataset.status ?? d.status), '. It is in the list above, which follows it as it renders.'));
    });
  });
  const details = h('details', { class: 'card generate' },
    h('summary', {}, h('h2', { id: 'gen-title' }, 'Generate a document')),
    usable.length ? form : h('p', { class: 'muted' }, 'No template can generate yet: copy a starter or save and activate a version on the ', link('/templates', 'Templates'), ' page.'));
  // The sample data is fetched when the form is first opened, not before.
  details.addEventListener('toggle', () => { if (details.open && !data.value) sample(); });
  return details;
}
