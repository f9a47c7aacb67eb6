// One document: its record, why it failed when it did, its render report, a download (a fresh
// signed link from the API each time), and regenerating it. Its status
// follows the change feed while the page is open.
import { h, fill, api, showError, fmtDate, when, fmtBytes, statusBadge, link, go, pageHeader, can, announce, icon, downloadDocument, saveAs } from '../lib.js';
import { onEvent, whenLive } from '../realtime.js';
import { cost, retryThumb } from './documents.js';

export async function render(main, params) {
  const id = params.id;
  let doc = null;
  const body = h('div', {});
  const liveNote = h('p', { class: 'sr-only', 'aria-live': 'polite' });
  const errBox = h('p', { class: 'form-error', role: 'alert', tabindex: '-1', hidden: true });

  const early = [];
  let handle = (f) => early.push(f);
  const stop = onEvent((f) => handle(f));
  try {
    await whenLive();
    doc = await api('GET', `/v1/documents/${encodeURIComponent(id)}`);
  } catch (err) {
    stop();
    if (err.status === 404) {
      fill(main, pageHeader('Document not found'), h('p', {}, 'There is no document ', h('code', {}, id), ' in this organisation. ', link('/documents', 'Back to the documents'), '.'));
      return undefined;
    }
    throw err;
  }

  function draw() {
    fill(body, failure(doc), facts(doc), data(doc), conformance(doc), report(doc));
    const head = main.querySelector('.page-head');
    const fresh = header(doc);
    if (head) head.replaceWith(fresh); else main.prepend(fresh);
  }

  function header(d) {
    const download = d.status === 'failed' ? null : h('button', { type: 'button', class: 'btn primary', disabled: d.status !== 'completed' || d.fileExpired, onclick: async () => {
      download.disabled = true;
      try {
        await downloadDocument(d);
        announce(`Downloading ${d.filename}`);
      } catch (err) { showError(main, err); }
      finally { download.disabled = doc.status !== 'completed'; }
    } }, icon('download'), 'Download PDF');
    const regen = can('documents.generate') ? h('button', { type: 'button', class: 'btn', onclick: async () => {
      regen.disabled = true;
      try {
        const n = await api('POST', `/v1/documents/${encodeURIComponent(d.id)}/regenerate`, { wait: false });
        announce(`Regenerating as ${n.id}`);
        go('/documents/' + encodeURIComponent(n.id));
      } catch (err) { showError(main, err); regen.disabled = false; }
    } }, 'Regenerate') : null;
    const einv = d.report?.conformance?.einvoice;
    const xml = einv && d.status === 'completed' && !d.fileExpired ? h('button', { type: 'button', class: 'btn', onclick: async () => {
      xml.disabled = true;
      try {
        // The XML comes from the stored PDF, as an attachment.
        const res = await api('GET', `/v1/documents/${encodeURIComponent(d.id)}/einvoice`, undefined, { raw: true });
        const url = URL.createObjectURL(await res.blob());
        const name = (d.filename || 'invoice.pdf').replace(/\.pdf$/, '') + '-' + einv.file;
        saveAs(url, name);
        setTimeout(() => URL.revokeObjectURL(url), 10000);
        announce(`Downloading ${name}`);
      } catch (err) { showError(main, err); }
      finally { xml.disabled = false; }
    } }, `Download ${einv.file}`) : null;
    return pageHeader(d.filename || 'Document', download, xml, regen);
  }

  handle = (f) => {
    if (!f.event?.startsWith('document.') || f.data?.id !== id) return;
    // The event carries the record without its link; read it again for the
    // fields the page shows that the event does not carry.
    api('GET', `/v1/documents/${encodeURIComponent(id)}`).then((d) => {
      const was = doc.status;
      doc = d;
      draw();
      if (d.status !== was) liveNote.textContent = `The document is now ${d.status}`;
    }).catch((err) => showError(main, err));
  };

  fill(main, errBox, liveNote, body,
    h('p', {}, link('/documents', '← All documents')));
  draw();
  early.splice(0).forEach(handle);
  return stop;
}

function facts(d) {
  const row = (label, ...value) => [h('dt', {}, label), h('dd', {}, ...value)];
  const first = d.status === 'completed' && !d.fileExpired
    ? h('figure', { class: 'doc-first-page' },
      h('img', { src: `/v1/documents/${encodeURIComponent(d.id)}/thumbnail`, alt: `First page of ${d.filename || d.id}`, width: 160, height: 226, onerror: retryThumb }),
      h('figcaption', { class: 'muted small' }, d.pageCount > 1 ? `Page 1 of ${d.pageCount}` : 'The only page'))
    : null;
  return h('section', { class: 'card record', 'aria-labelledby': 'doc-record' },
    h('h2', { id: 'doc-record' }, 'Record'),
    h('div', { class: first ? 'record-body' : '' }, first,
    h('dl', { class: 'facts' },
      row('Status', statusBadge(d.status)),
      row('Id', h('code', {}, d.id)),
      row('Template', link('/templates/' + encodeURIComponent(d.templateId), d.templateSlug), ` version ${d.templateVersion}`),
      row('Correlation ID', d.correlationId ? h('code', {}, d.correlationId) : '—'),
      row('Engine', d.engine || '—', d.engineReason ? h('span', { class: 'muted block' }, d.engineReason) : null),
      row('Pages', d.status === 'completed' ? String(d.pageCount) : '—'),
      row('Cost', cost(d)),
      row('Size', d.status === 'completed' ? fmtBytes(d.byteSize) : '—'),
      row('Watermark', d.watermarked ? 'Yes (sandbox)' : 'No'),
      row('Created', when(d.createdAt)),
      row('Completed', d.completedAt ? when(d.completedAt) : '—', d.durationMs ? h('span', { class: 'muted' }, ` in ${d.durationMs} ms`) : null),
      row('Downloads', String(d.downloads)),
      d.fileExpiresAt ? row('File kept until', fmtDate(d.fileExpiresAt)) : null,
      d.regeneratedFrom ? row('Regenerated from', link('/documents/' + encodeURIComponent(d.regeneratedFrom), h('code', {}, d.regeneratedFrom))) : null,
      d.metadata ? row('Metadata', h('code', { class: 'wrap' }, JSON.stringify(d.metadata))) : null)));
}

// data shows the data the document was made from, read when opened: it
// may be large, and it is the customer's (the same scope as the PDF).
function data(d) {
  const out = h('div', {});
  const box = h('details', { class: 'card doc-data' },
    h('summary', {}, h('h2', {}, 'Data it was made from')), out);
  box.addEventListener('toggle', async () => {
    if (!box.open || out.childElementCount) return;
    fill(out, h('p', { class: 'muted' }, 'Loading…'));
    try {
      const v = await api('GET', `/v1/documents/${encodeURIComponent(d.id)}/data`);
      const text = JSON.stringify(v, null, 2);
      fill(out, h('pre', { class: 'hook-pre', tabindex: '0', 'aria-label': 'The data, as JSON' }, text),
        h('p', { class: 'muted small' }, 'As it was sent. Regenerate renders from it again.'));
    } catch (err) { fill(out, h('p', { class: 'form-error' }, err.message)); }
  });
  return box;
}

// conformance shows what was checked of a PDF/A or e-invoice document
// (docs/einvoices.md "The conformance report"): the count, never a
// verdict of validity, the rules failed with why, and the rules checked.
function conformance(d) {
  const c = d.report?.conformance;
  if (!c) return null;
  const row = (label, ...value) => [h('dt', {}, label), h('dd', {}, ...value)];
  const e = c.einvoice;
  const ids = (list) => h('p', { class: 'rule-ids' }, list.map((id, i) => [i ? ' ' : '', h('code', {}, id)]));
  return h('section', { class: 'card', 'aria-labelledby': 'doc-conformance' },
    h('h2', { id: 'doc-conformance' }, 'Conformance'),
    h('p', { class: c.failed ? 'notice warn' : 'notice ok' }, c.summary,
      c.failed ? '' : h('span', { class: 'muted' }, ' — the rules Platen checks; not a full veraPDF validation.')),
    h('dl', { class: 'facts' },
      row('PDF/A', c.pdfa),
      e ? row('E-invoice', `${e.profile}, embedded as `, h('code', {}, e.file), ` (AFRelationship ${e.afRelationship})`) : null,
      c.failures.length ? row('Failed', h('ul', { class: 'plain' }, c.failures.map((f) => h('li', {}, h('code', {}, f.id), ' ', f.detail || '')))) : null,
      row('Not checked', h('span', { class: 'muted' }, c.notChecked))),
    h('details', {},
      h('summary', {}, `PDF/A rules checked (${c.pdfaRules.length}), by veraPDF id`), ids(c.pdfaRules)),
    e ? h('details', {},
      h('summary', {}, `Invoice rules checked before rendering (${e.rules.length}), and the XML's checks`), ids(e.rules), ids(e.xmlChecks)) : null);
}

// report shows the render report (docs/api.md "Render report"): the time
// of each stage, where a failed render stopped, the fonts, the assets that
// did not load and the PDF's SHA-256.
function report(d) {
  const r = d.report;
  if (!r || !r.ms) return null; // not rendered yet
  const row = (label, ...value) => [h('dt', {}, label), h('dd', {}, ...value)];
  const stages = ['queued', 'filling', 'rendering', 'counting', 'storing'].filter((s) => s in r.ms);
  const fonts = r.fonts || { used: [], substituted: [] };
  const assets = r.failedAssets || [];
  return h('section', { class: 'card', 'aria-labelledby': 'doc-report' },
    h('h2', { id: 'doc-report' }, 'Render report'),
    h('dl', { class: 'facts' },
      row('Time by stage', stages.map((s, i) => [i ? ' · ' : '', `${s} ${r.ms[s]} ms`])),
      r.failedAt ? row('Failed at', r.failedAt) : null,
      row('Fonts used', fonts.used.length ? fonts.used.join(', ') : '—'),
      row('Fonts substituted', fonts.substituted.length
        ? h('ul', { class: 'plain' }, fonts.substituted.map((s) => h('li', {}, `${s.requested} → ${s.used}`)))
        : 'None'),
      row('Assets not loaded', assets.length
        ? h('ul', { class: 'plain' }, assets.map((a) => h('li', {}, h('code', { class: 'wrap' }, a.url), h('span', { class: 'muted block' }, a.reason))))
        : 'None'),
      r.sha256 ? row('SHA-256', h('code', { class: 'wrap' }, r.sha256)) : null));
}

// failure says why a document failed, in the server's words; a file deleted
// at the end of its retention says so too.
function failure(d) {
  if (d.status === 'failed') {
    return h('section', { class: 'card failure', 'aria-labelledby': 'doc-failed' },
      h('h2', { id: 'doc-failed' }, 'Why it failed'),
      h('p', {}, h('code', { class: 'error-code' }, d.errorCode || 'FAILED')),
      h('p', { class: 'failure-message' }, d.message || 'No reason was recorded.'),
      h('p', { class: 'muted' }, 'A failed document costs nothing. Fix the template or the data, then generate again; Regenerate helps when the engine failed.'));
  }
  if (d.fileExpired) return h('p', { class: 'notice' }, d.message);
  if (d.status === 'queued' || d.status === 'rendering') return h('p', { class: 'notice' }, `The document is ${d.status}; this page updates by itself when it finishes.`);
  return null;
}
