// Signing certificates (docs/signatures.md): the organisation's
// certificates, uploading one from a PKCS#12 file with its password, and
// deleting one. The key is sealed by the server and never comes back: the
// list shows what the certificate says of itself (subject, issuer, key
// algorithm, validity), and the id a manifest or a request names.
import { h, fill, api, field, submitting, showError, clearErrors, table, badge, copyButton, confirmDialog, announce, pageHeader, when, fmtDate } from '../lib.js';

// maxFileBytes is the largest PKCS#12 file the server opens (sign.MaxPKCS12):
// a larger one is refused here, before it goes over the wire.
const maxFileBytes = 256 << 10;

// soonDays is how near its end a certificate's validity is marked as a
// warning: a month leaves time to obtain and upload its successor.
const soonDays = 30;

const dayMs = 86400000;
const dayFmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

// validity says when a certificate stops signing, in words: "expired", or
// "expires in N days" (whole days left, counted down), under the date; the
// last soonDays are a warning. This is the one place the console decides
// it; the server refuses an expired certificate itself (app.signRequest),
// whatever this says.
export function validity(notAfter, now = Date.now()) {
  const end = new Date(notAfter);
  const left = end.getTime() - now;
  const date = h('time', { datetime: end.toISOString(), title: fmtDate(notAfter) }, dayFmt.format(end));
  if (left <= 0) return h('span', { class: 'cert-validity' }, date, badge('expired', 'danger'));
  const days = Math.floor(left / dayMs);
  const words = days === 0 ? 'expires in less than a day' : `expires in ${days} ${days === 1 ? 'day' : 'days'}`;
  return h('span', { class: 'cert-validity' }, date, days < soonDays ? badge(words, 'warn') : h('span', { class: 'muted' }, words));
}

// readableDN spaces a distinguished name's parts ("CN=Example CA, O=Example
// Ltd") so that it wraps between them; an escaped comma stays as it is.
function readableDN(dn) {
  return (dn || '').replace(/(?<!\\),(?! )/g, ', ');
}

// idCell shows a certificate's id under its name: the id a manifest or a
// request names, with a button that copies it.
function idCell(c) {
  const copy = copyButton(c.id, 'Copy');
  copy.setAttribute('aria-label', `Copy the id of ${c.name}`);
  return h('span', { class: 'cert-id' }, h('code', {}, c.id), copy);
}

export async function render(main) {
  const list = h('div', { class: 'list' });
  // A refused deletion is said above the list, not in the upload form.
  const listError = h('p', { class: 'form-error', role: 'alert', tabindex: '-1', hidden: true });
  const listPart = h('div', {}, listError, list);
  const created = h('div', { 'aria-live': 'polite' });
  async function load() {
    const { items } = await api('GET', '/v1/signing/certificates');
    clearErrors(listPart);
    fill(list, table('Signing certificates', [
      ['Name', c => h('div', {}, h('span', { class: 'cert-name' }, c.name), idCell(c))],
      ['Subject', c => h('span', { title: c.subjectDn }, c.subject)],
      ['Issuer', c => h('span', { class: 'cert-dn' }, readableDN(c.issuerDn))],
      ['Key', c => h('span', { class: 'cert-key' }, c.keyAlgorithm)],
      ['Valid until', c => validity(c.notAfter)],
      ['Added', c => when(c.createdAt)],
      ['', c => h('button', { type: 'button', class: 'btn small danger', 'aria-label': `Delete ${c.name}`, onclick: async () => {
        if (!(await confirmDialog(`Delete the certificate "${c.name}"? Its key is erased at once: documents it signed keep their signatures, and templates or requests that name it are refused.`, 'Delete'))) return;
        try {
          await api('DELETE', `/v1/signing/certificates/${encodeURIComponent(c.id)}`);
        } catch (err) { showError(listPart, err); return; }
        fill(created);
        announce(`Certificate ${c.name} deleted`);
        await load();
      } }, 'Delete')],
    ], items, 'No certificates yet: upload one below.'));
  }
  await load();
  const form = h('form', { class: 'stack card cert-upload', novalidate: true, 'aria-labelledby': 'new-cert' },
    h('h2', { id: 'new-cert' }, 'Upload a certificate'),
    h('p', { class: 'form-error', role: 'alert', tabindex: '-1', hidden: true }),
    field('Certificate file (.p12 or .pfx)', { name: 'file', type: 'file', accept: '.p12,.pfx,application/x-pkcs12', required: true },
      { hint: 'The PKCS#12 file that holds the signing key and its certificate, with its chain if your authority gave you one; up to 256 KB.' }),
    field('Password', { name: 'password', type: 'password', autocomplete: 'off' },
      { hint: 'The file\'s password, exactly as it was set. Platen uses it once to open the file and keeps neither.' }),
    field('Name', { name: 'name', placeholder: 'e.g. Accounts' }, { hint: 'Left empty, the certificate\'s subject.' }),
    h('button', { type: 'submit', class: 'btn primary' }, 'Upload certificate'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const file = form.elements.file.files[0];
    if (!file) { showError(form, { field: 'file', message: 'Choose the .p12 or .pfx file.' }); return; }
    if (file.size > maxFileBytes) {
      showError(form, { field: 'file', message: `This file is ${Math.ceil(file.size / 1024)} KB; a PKCS#12 file may be at most 256 KB (a key and its chain take a few KB).` });
      return;
    }
    submitting(form, async () => {
      // FormData sends the password as typed: spaces are part of it.
      const c = await api('POST', '/v1/signing/certificates', new FormData(form));
      fill(created, h('section', { class: 'notice ok cert-created', 'aria-label': `Certificate ${c.name} stored` },
        h('p', {}, `Stored "${c.name}" (${c.subject}), valid until ${dayFmt.format(new Date(c.notAfter))}. Its key is sealed.`),
        h('p', {}, 'Sign with it: ', h('code', {}, `"sign": {"certificateId": "${c.id}"}`), ' ', copyButton(c.id, 'Copy id'))));
      form.reset();
      await load();
      // The notice (a live region) says it; the copy button is what comes next.
      created.querySelector('button')?.focus();
    });
  });
  fill(main, pageHeader('Signing certificates'),
    h('p', { class: 'lead' }, 'Platen signs documents with the certificates you upload here (each key is sealed when stored and never shown again): a template\'s manifest or a document request asks for a signature with ',
      h('code', {}, '"sign": {"certificateId": "crt_…"}'), '.'),
    created, listPart, form);
}
