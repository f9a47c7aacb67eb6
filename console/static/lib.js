// Shared helpers of the console's pages: building DOM, calling the API,
// showing the server's errors where they belong, formatting.
// Pages never build HTML from strings: every text goes in as a text node.

// h builds an element: h('a', {href: '/x', class: 'btn'}, 'text', child…).
// Attributes starting with "on" are listeners; null/false ones are left out.
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

// clear empties an element and fills it with children.
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// ApiError is a refusal in the API's error envelope.
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.message || `HTTP ${status}`);
    this.status = status;
    this.code = problem?.code || 'HTTP_' + status;
    this.field = problem?.field || '';
    this.retryAfter = 0;
  }
}

// session holds the signed-in person (GET /console/api/me): role, scopes,
// CSRF token. app.js sets it.
export const session = { me: null };

export function can(scope) { return !!session.me?.scopes?.includes(scope); }
export function isOwner() { return session.me?.role === 'owner'; }

// api calls a route of this node with the session cookie; a state-changing
// call carries the session's CSRF token. JSON bodies are encoded, FormData
// sent as it is. It answers the envelope's data, or the raw Response when
// opts.raw is set (PDFs, images), and throws ApiError for a refusal.
export async function api(method, path, body, opts = {}) {
  const headers = {};
  if (method !== 'GET' && method !== 'HEAD' && session.me) headers['X-CSRF-Token'] = session.me.csrf;
  let payload;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) { headers['Content-Type'] = 'application/json'; payload = JSON.stringify(body); }
  let res;
  try {
    res = await fetch(path, { method, headers, body: payload, credentials: 'same-origin', signal: opts.signal });
  } catch (err) {
    if (err.name === 'AbortError') throw err;
    // The browser's own words ("Failed to fetch", "NetworkError when
    // attempting to fetch resource") tell a person nothing.
    throw new ApiError(0, { code: 'NETWORK', message: 'Platen could not be reached: check your connection, then try again.' });
  }
  if (res.status === 502 || res.status === 504) {
    throw new ApiError(res.status, { code: 'UNAVAILABLE', message: 'Platen is not answering just now (the proxy in front of it got no answer); try again in a moment.' });
  }
  if (res.status === 401 && !opts.anonymous) {
    session.me = null;
    const here = location.pathname + location.search;
    history.pushState({}, '', '/signin?next=' + encodeURIComponent(here));
    window.dispatchEvent(new PopStateEvent('popstate'));
    throw new ApiError(401, { code: 'UNAUTHENTICATED', message: 'Your session has ended; sign in again.' });
  }
  if (opts.raw && res.ok) return res;
  let env = null;
  try { env = await res.json(); } catch { /* not JSON */ }
  if (!res.ok || env?.success === false) {
    const err = new ApiError(res.status, env?.error);
    err.retryAfter = Number(res.headers.get('Retry-After') || 0);
    throw err;
  }
  return env?.data ?? env;
}

// showError puts an error where it belongs: at the form's input named by the
// error's field (aria-invalid, with the message linked by aria-describedby),
// else in the form's (or the page's) error box. Field names may be dotted
// paths; the nearest named input wins.
export function showError(scope, err) {
  clearErrors(scope);
  const msg = err?.message || String(err);
  let input = null;
  if (err?.field && scope?.querySelector) {
    const parts = err.field.split('.');
    for (let n = parts.length; n > 0 && !input; n--) {
      const name = parts.slice(0, n).join('.');
      input = scope.querySelector(`[name="${CSS.escape(name)}"]`) || scope.querySelector(`[data-field="${CSS.escape(name)}"]`);
    }
  }
  if (input) {
    const id = (input.id || input.name || 'f') + '-error';
    const note = h('p', { class: 'field-error', id }, msg);
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-describedby', id);
    (input.closest('.field') || input.parentElement).append(note);
    input.focus();
    return;
  }
  const box = scope?.querySelector?.('.form-error') || document.querySelector('main .form-error');
  if (box) { fill(box, msg); box.hidden = false; box.focus?.(); } else announce(msg);
}

export function clearErrors(scope) {
  if (!scope?.querySelectorAll) return;
  scope.querySelectorAll('.field-error').forEach(e => e.remove());
  scope.querySelectorAll('[aria-invalid]').forEach(e => { e.removeAttribute('aria-invalid'); e.removeAttribute('aria-describedby'); });
  scope.querySelectorAll('.form-error').forEach(e => { e.hidden = true; e.replaceChildren(); });
}

// announce tells screen readers (and everyone, briefly) what happened.
export function announce(msg) {
  const s = document.getElementById('status');
  if (!s) return;
  s.textContent = msg;
  s.classList.add('shown');
  clearTimeout(announce.t);
  announce.t = setTimeout(() => s.classList.remove('shown'), 4000);
}

// field is a labelled input: field('Name', {name: 'name', required: true}).
// opts.hint adds a description; opts.tag picks 'textarea' or 'select'
// (with opts.options as [value, label] pairs).
export function field(label, attrs = {}, opts = {}) {
  const id = attrs.id || 'f-' + (attrs.name || Math.random().toString(36).slice(2));
  const tag = opts.tag || 'input';
  const input = h(tag, { ...attrs, id, 'aria-describedby': opts.hint ? id + '-hint' : null });
  if (tag === 'select') for (const [v, l] of opts.options || []) input.append(h('option', { value: v, selected: v === attrs.value }, l));
  if (tag === 'textarea' && attrs.value !== undefined) input.value = attrs.value;
  return h('div', { class: 'field' }, h('label', { for: id }, label), opts.hint ? h('p', { class: 'hint', id: id + '-hint' }, opts.hint) : null, input);
}

// formData reads a form's named inputs as an object (checkbox groups as
// arrays of their checked values).
export function formData(form) {
  const out = {};
  for (const el of form.elements) {
    if (!el.name || el.disabled) continue;
    if (el.type === 'checkbox') {
      if (form.querySelectorAll(`input[type=checkbox][name="${CSS.escape(el.name)}"]`).length > 1) {
        (out[el.name] ||= []);
        if (el.checked) out[el.name].push(el.value);
      } else out[el.name] = el.checked;
    } else if (el.type === 'radio') { if (el.checked) out[el.name] = el.value; }
    else out[el.name] = el.value;
  }
  return out;
}

// submitting disables a form's button while fn runs, and shows its error.
export async function submitting(form, fn) {
  const btn = form.querySelector('button[type=submit]');
  clearErrors(form);
  if (btn) btn.disabled = true;
  try { return await fn(); }
  catch (err) { showError(form, err); return undefined; }
  finally { if (btn) btn.disabled = false; }
}

// copyButton copies text to the clipboard and says so.
export function copyButton(text, label = 'Copy') {
  return h('button', { type: 'button', class: 'btn small', onclick: async (e) => {
    try { await navigator.clipboard.writeText(text); announce('Copied to the clipboard'); }
    catch { const r = document.createRange(); r.selectNodeContents(e.target.previousElementSibling || e.target); getSelection().removeAllRanges(); getSelection().addRange(r); announce('Selected: press Ctrl+C to copy'); }
  } }, label);
}

// secretBox shows a value that is shown once, with a copy button.
export function secretBox(title, value, note) {
  return h('section', { class: 'secret', 'aria-label': title },
    h('h3', {}, title),
    h('p', {}, note || 'Copy it now: it is not shown again.'),
    h('div', { class: 'secret-row' }, h('code', { class: 'secret-value' }, value), copyButton(value)));
}

const dateFmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
export function fmtDate(s) { return s ? dateFmt.format(new Date(s)) : '—'; }

const relFmt = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

// when is a time as people say it ("5 minutes ago", "yesterday", "in 3
// days"), with the exact date and time on hover and for assistive
// technology (a <time> with a title); a week and more away, the date.
export function when(s) {
  if (!s) return '—';
  const t = new Date(s), secs = (t.getTime() - Date.now()) / 1000, abs = Math.abs(secs);
  let text;
  if (abs < 45) text = secs < 0 ? 'just now' : 'in a moment';
  else if (abs < 3600) text = relFmt.format(Math.round(secs / 60), 'minute');
  else if (abs < 86400) text = relFmt.format(Math.round(secs / 3600), 'hour');
  else if (abs < 7 * 86400) text = relFmt.format(Math.round(secs / 86400), 'day');
  else text = dateFmt.format(t);
  return h('time', { datetime: t.toISOString(), title: dateFmt.format(t) }, text);
}

// fmtMoney formats micro-units (one millionth of the currency unit) in the
// node's wallet currency, as the person's locale writes money: "€12.50",
// "12,50 €"; a page price below a cent keeps its digits ("€0.0025").
export function fmtMoney(micros) {
  const currency = session.me?.config?.currency || 'EUR';
  return (Number(micros || 0) / 1e6).toLocaleString(undefined, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 4 });
}

export function badge(text, kind = '') { return h('span', { class: 'badge ' + kind }, text); }

// table builds an accessible table: cols is [[header, row => cell]]. On a
// phone each row folds into a card, each cell headed by its column's name
// (data-label, drawn by app.css).
export function table(caption, cols, rows, empty = 'Nothing yet.') {
  if (!rows.length) return h('p', { class: 'muted empty' }, empty);
  return h('div', { class: 'table-wrap' }, h('table', { class: 'cards' },
    h('caption', { class: 'sr-only' }, caption),
    h('thead', {}, h('tr', {}, cols.map(([head]) => h('th', { scope: 'col' }, head)))),
    h('tbody', {}, rows.map(r => h('tr', {}, cols.map(([head, cell]) => h('td', { 'data-label': head || null }, cell(r))))))));
}

// go navigates within the console.
export function go(path) {
  history.pushState({}, '', path);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

// link is an in-console link that navigates without reloading.
export function link(path, ...children) {
  return h('a', { href: path, onclick: (e) => { if (e.metaKey || e.ctrlKey || e.shiftKey || e.button) return; e.preventDefault(); go(path); } }, ...children);
}

// confirmDialog asks a yes/no question in an accessible modal dialog.
export function confirmDialog(question, yes = 'Yes') {
  return new Promise((resolve) => {
    const d = h('dialog', { class: 'dialog', 'aria-labelledby': 'dlg-q' },
      h('p', { id: 'dlg-q' }, question),
      h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'btn', onclick: () => { d.close(); resolve(false); } }, 'Cancel'),
        h('button', { type: 'button', class: 'btn danger', onclick: () => { d.close(); resolve(true); } }, yes)));
    d.addEventListener('close', () => { d.remove(); resolve(false); });
    document.body.append(d);
    d.showModal();
  });
}

// pageHeader is a page's title and optional actions.
export function pageHeader(title, ...actions) {
  document.title = title + ' · Platen';
  return h('div', { class: 'page-head' }, h('h1', {}, title), actions.length ? h('div', { class: 'actions' }, actions) : null);
}

// statusBadge shows a document's status as a word in a coloured badge: the
// word carries the meaning, the colour only repeats it.
export function statusBadge(status) {
  const label = { queued: 'Queued', rendering: 'Rendering', completed: 'Completed', failed: 'Failed' }[status] || status;
  return h('span', { class: 'badge ' + status, dataset: { status } }, label);
}

// svg builds an SVG element as h() builds HTML ones (attributes as given,
// text as text nodes).
export function svg(tag, attrs, ...children) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    el.setAttribute(k, String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// fmtBytes is a file size for people.
export function fmtBytes(n) {
  n = Number(n || 0);
  if (n < 1024) return n + ' B';
  if (n < 1024 * 1024) return (n / 1024).toFixed(1) + ' KB';
  return (n / 1024 / 1024).toFixed(1) + ' MB';
}

// icons are the console's one icon set: 24-unit outlines drawn with the
// text's colour, shown beside words (never instead of them), hidden from
// assistive technology.
const icons = {
  overview: 'M3 11l9-7 9 7M5 9.5V20h5v-6h4v6h5V9.5',
  documents: 'M6 3h8l5 5v13H6zM14 3v5h5M9 13h6M9 17h6',
  templates: 'M4 4h16v16H4zM4 9h16M10 9v11',
  webhooks: 'M13 3L5 14h6l-1 7 8-11h-6z',
  signing: 'M4 4h16v11h-3M12 15H4V4M8 8h8M8 11h3M14.5 12.5a2.5 2.5 0 1 0 .01 0M13 17.5V21l1.5-1 1.5 1v-3.5',
  keys: 'M8 15a4 4 0 1 1 0-8 4 4 0 0 1 0 8zM12 11h9M18 11v3M21 11v3',
  wallet: 'M3 7h16a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H3zM3 7l13-3v3M16 13.5h2',
  members: 'M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7zM3 20c0-3.3 2.7-6 6-6s6 2.7 6 6M16 4.5a3.5 3.5 0 0 1 0 6.5M18 14c2 .8 3 2.8 3 6',
  account: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21c0-4.4 3.6-8 8-8s8 3.6 8 8',
  search: 'M11 18a7 7 0 1 1 0-14 7 7 0 0 1 0 14zM20 20l-4-4',
  download: 'M12 4v11M7 10l5 5 5-5M5 20h14',
  upload: 'M12 20V9M7 14l5-5 5 5M5 4h14',
  check: 'M5 12l5 5 9-10',
  alert: 'M12 3l10 18H2zM12 10v5M12 18v.5',
  plus: 'M12 5v14M5 12h14',
  copy: 'M8 8h12v12H8zM16 8V4H4v12h4',
  external: 'M14 4h6v6M20 4l-9 9M18 14v6H4V6h6',
  play: 'M7 4l13 8-13 8z',
};
export function icon(name) {
  return svg('svg', { class: 'icon', viewBox: '0 0 24 24', 'aria-hidden': 'true', focusable: 'false' }, svg('path', { d: icons[name] }));
}

// saveAs has the browser save url (a signed link or a blob: URL) as name.
export function saveAs(url, name) {
  const a = h('a', { href: url, download: name, hidden: true });
  document.body.append(a); a.click(); a.remove();
}

// downloadDocument mints a fresh signed link of a completed document (the
// download is recorded) and follows it: the PDF comes as an attachment.
export async function downloadDocument(d) {
  const { url } = await api('GET', `/v1/documents/${encodeURIComponent(d.id)}/download`);
  saveAs(url, d.filename);
}
