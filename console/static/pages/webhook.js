// One webhook endpoint (owners): its settings, switching it off and on
// ("re-enable" after the failures that switched it off), deleting it,
// sending a ping and showing what the receiver answered, and its delivery
// log, each delivery expandable to the request its latest attempt sent and
// the answer it got. The log is read again when the change feed reports an
// event a webhook may carry, or when Refresh is pressed; nothing polls.
import { h, fill, api, badge, confirmDialog, announce, pageHeader, go, link, showError, when } from '../lib.js';
import { onEvent, whenLive } from '../realtime.js';
import { stateBadge, eventList } from './webhooks.js';

const deliveryBadge = { delivered: 'ok', pending: 'warn', failed: 'danger' };
// The delivery log's columns; on a phone each row folds into a card headed
// by these (table.cards in app.css, as lib.js table() does).
const columns = ['Event', 'Status', 'Attempts', 'Next attempt', 'Last answer', 'Request and response'];

// headerLines shows headers as "name: value" lines, names sorted.
function headerLines(headers, label) {
  const names = Object.keys(headers || {}).sort();
  if (!names.length) return h('p', { class: 'muted' }, 'No headers kept.');
  return scrollPre(label, names.map(n => `${n}: ${headers[n]}\n`).join(''));
}

// scrollPre is a block of text that may scroll, so it takes the keyboard's
// focus (arrow keys scroll it) and has a name.
function scrollPre(label, text, cls = '') {
  return h('pre', { class: 'hook-pre ' + cls, tabindex: '0', role: 'region', 'aria-label': label }, text);
}

// bodyBlock shows a body, pretty-printed when it is JSON (the bytes sent are
// the compact form; the signature covers those).
function bodyBlock(body, truncated, label) {
  let text = body || '';
  try { if (text) text = JSON.stringify(JSON.parse(text), null, 2); } catch { /* not JSON, or cut short: as kept */ }
  return [scrollPre(label, text || '(empty)'), truncated ? h('p', { class: 'muted' }, 'Cut short: only the start is kept.') : null];
}

// exchange is a delivery's latest request and answer, as far as the log
// keeps them.
function exchange(d, url) {
  if (!d.lastRequest) {
    return h('p', { class: 'muted' }, d.attempts
      ? `Attempted ${d.attempts} time(s), but not kept: the log keeps requests and answers only since this version of Platen.`
      : 'Not attempted yet.');
  }
  const req = d.lastRequest, res = d.lastResponse;
  return h('div', { class: 'hook-exchange' },
    h('section', { 'aria-label': `Request of ${d.id}` },
      h('h3', {}, 'Request'),
      h('p', {}, h('code', { class: 'hook-url' }, 'POST ' + url)),
      h('h4', {}, 'Headers'), headerLines(req.headers, 'Request headers'),
      h('h4', {}, 'Body'), bodyBlock(req.body, req.truncated, 'Request body')),
    h('section', { 'aria-label': `Response to ${d.id}` },
      h('h3', {}, 'Response'),
      res ? [h('p', {}, 'HTTP ', h('strong', {}, String(res.status))),
        h('h4', {}, 'Headers'), headerLines(res.headers, 'Response headers'),
        h('h4', {}, 'Body'), bodyBlock(res.body, res.truncated, 'Response body')]
        : h('p', {}, 'No answer: ', d.lastError || 'the connection failed.')));
}

export async function render(main, params) {
  const id = params.id;
  const path = `/v1/webhooks/${encodeURIComponent(id)}`;
  let ep;
  try { ep = await api('GET', path); }
  catch (err) {
    if (err.status !== 404) throw err;
    fill(main, pageHeader('Webhook'), h('p', { class: 'notice' }, 'There is no such endpoint. ', link('/webhooks', 'See all webhooks'), '.'));
    return;
  }

  const facts = h('div');
  const actions = h('div', { class: 'actions hook-actions' });
  const pingOut = h('div', { 'aria-live': 'polite', class: 'hook-ping' });
  const errBox = h('p', { class: 'form-error', role: 'alert', tabindex: '-1', hidden: true });

  function drawFacts() {
    fill(facts, h('dl', { class: 'facts' },
      h('dt', {}, 'URL'), h('dd', {}, h('code', { class: 'hook-url' }, ep.url)),
      h('dt', {}, 'Events'), h('dd', {}, eventList(ep.events)),
      h('dt', {}, 'State'), h('dd', {}, stateBadge(ep)),
      h('dt', {}, 'Failures in a row'), h('dd', {}, String(ep.consecutiveFailures)),
      h('dt', {}, 'Signing secret'), h('dd', {}, h('code', {}, ep.secretPrefix + '…'), ' ', h('span', { class: 'muted' }, '(shown in full only when the endpoint was added)')),
      h('dt', {}, 'Created'), h('dd', {}, when(ep.createdAt))));
    // An endpoint switched off by its failures is "re-enabled": that also
    // clears the count and sends the deliveries that waited.
    const toggle = ep.enabled
      ? h('button', { type: 'button', class: 'btn', onclick: () => setEnabled(false) }, 'Disable')
      : h('button', { type: 'button', class: 'btn primary', onclick: () => setEnabled(true) }, ep.disabledReason && ep.consecutiveFailures > 0 ? 'Re-enable' : 'Enable');
    fill(actions,
      h('button', { type: 'button', class: 'btn', onclick: ping }, 'Send a ping'),
      toggle,
      h('button', { type: 'button', class: 'btn danger', onclick: remove }, 'Delete'));
  }

  async function act(fn) {
    errBox.hidden = true;
    try { await fn(); } catch (err) { showError(main, err); }
  }

  function setEnabled(on) {
    return act(async () => {
      ep = await api('PATCH', path, { enabled: on });
      drawFacts();
      announce(on ? `${ep.name} enabled` : `${ep.name} disabled`);
      actions.querySelector('button:nth-child(2)')?.focus();
      if (on) loadDeliveries();
    });
  }

  function ping(e) {
    const btn = e.currentTarget;
    return act(async () => {
      btn.disabled = true;
      fill(pingOut, h('p', { class: 'muted' }, 'Sending a ping…'));
      try {
        const r = await api('POST', `${path}/ping`);
        fill(pingOut, h('section', { class: 'card', 'aria-label': 'Ping result' },
          r.status
            ? h('p', {}, 'The endpoint answered ', h('strong', { class: 'ping-status' }, `HTTP ${r.status}`), ` in ${r.durationMs} ms.`)
            : h('p', {}, 'The endpoint did not answer: ', r.error || 'no answer'),
          r.status ? [h('h3', {}, 'Its answer'), scrollPre('The ping\'s answer', r.body || '(empty)', 'ping-body')] : null));
      } catch (err) { fill(pingOut); throw err; }
      finally { btn.disabled = false; }
    });
  }

  function remove() {
    return act(async () => {
      if (!(await confirmDialog(`Delete the endpoint "${ep.name}"? Deliveries not yet made to it are dropped.`, 'Delete'))) return;
      await api('DELETE', path);
      announce(`${ep.name} deleted`);
      go('/webhooks');
    });
  }

  // The delivery log, a page at a time (newest first); "Show older" appends.
  const rows = h('tbody');
  const logBox = h('div', { class: 'table-wrap' });
  const more = h('p');
  const logStatus = h('p', { class: 'sr-only', 'aria-live': 'polite' });
  let shown = 0;

  function deliveryRows(d) {
    const detailID = 'dlv-' + d.id;
    const detail = h('tr', { id: detailID, class: 'hook-detail', hidden: true }, h('td', { colspan: 6 }));
    const btn = h('button', { type: 'button', class: 'btn small', 'aria-expanded': 'false', 'aria-controls': detailID,
      'aria-label': `Details of ${d.event} delivery ${d.id}`,
      onclick: () => {
        const open = btn.getAttribute('aria-expanded') !== 'true';
        btn.setAttribute('aria-expanded', String(open));
        if (open && !detail.firstChild.firstChild) fill(detail.firstChild, exchange(d, ep.url));
        detail.hidden = !open;
      } }, 'Details');
    const cell = (i, ...c) => h('td', { 'data-label': columns[i] }, ...c);
    const row = h('tr', { dataset: { delivery: d.id } },
      cell(0, h('code', {}, d.event)),
      cell(1, badge(d.status, deliveryBadge[d.status] || '')),
      cell(2, String(d.attempts)),
      cell(3, d.nextAttemptAt ? when(d.nextAttemptAt) : '—'),
      cell(4, d.lastStatus ? `HTTP ${d.lastStatus}` : (d.lastError ? h('span', { title: d.lastError }, 'No answer') : '—')),
      cell(5, btn));
    return [row, detail];
  }

  async function loadDeliveries(cursor) {
    const q = new URLSearchParams({ limit: '20' });
    if (cursor) q.set('cursor', cursor);
    const { items, nextCursor } = await api('GET', `${path}/deliveries?${q}`);
    // A reload keeps the open details open.
    const open = new Set([...rows.querySelectorAll('button[aria-expanded=true]')].map(b => b.getAttribute('aria-controls')));
    if (!cursor) { rows.replaceChildren(); shown = 0; }
    for (const d of items) {
      const [row, detail] = deliveryRows(d);
      rows.append(row, detail);
      if (open.has(detail.id)) row.querySelector('button').click();
    }
    shown += items.length;
    if (!shown) fill(logBox, h('p', { class: 'muted empty' }, 'No deliveries yet. Events this endpoint takes appear here as they happen.'));
    else if (!logBox.querySelector('table')) fill(logBox, h('table', { class: 'cards' },
      h('caption', { class: 'sr-only' }, 'Deliveries, newest first'),
      h('thead', {}, h('tr', {}, columns.map(t => h('th', { scope: 'col' }, t)))),
      rows));
    fill(more, nextCursor ? h('button', { type: 'button', class: 'btn', onclick: () => act(() => loadDeliveries(nextCursor)) }, 'Show older deliveries') : null);
    logStatus.textContent = `${shown} deliveries shown`;
  }

  drawFacts();
  // Events a webhook may carry make deliveries; several come together (a
  // document's queued, rendering, completed), so they are read once after a
  // short quiet spell. The feed is subscribed before the first read, so no
  // delivery made in between is missed.
  let soon = null;
  const stop = onEvent((f) => {
    if (!/^(document|template|wallet)\./.test(f.event || '')) return;
    clearTimeout(soon);
    soon = setTimeout(() => act(() => loadDeliveries()), 250);
  });
  try {
    await whenLive();
    await loadDeliveries();
  } catch (err) { stop(); throw err; }

  fill(main, pageHeader(ep.name || 'Webhook'),
    h('p', {}, link('/webhooks', '← All webhooks')),
    errBox,
    h('section', { class: 'card stack', 'aria-labelledby': 'hook-facts' }, h('h2', { id: 'hook-facts' }, 'Endpoint'), facts, actions, pingOut),
    h('section', { class: 'stack', 'aria-labelledby': 'hook-log' },
      h('div', { class: 'page-head' }, h('h2', { id: 'hook-log' }, 'Deliveries'),
        h('div', { class: 'actions' }, h('button', { type: 'button', class: 'btn small', onclick: () => act(async () => { await loadDeliveries(); announce('Deliveries refreshed'); }) }, 'Refresh'))),
      logStatus, logBox, more));
  return () => { stop(); clearTimeout(soon); };
}
