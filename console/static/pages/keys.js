// API keys (owners): create one with chosen scopes (its value shown once,
// with a copy button), revoke, and see when each was last used.
import { h, fill, api, field, formData, submitting, table, fmtDate, badge, secretBox, confirmDialog, announce, pageHeader, when } from '../lib.js';

export async function render(main) {
  const list = h('div', { class: 'list' });
  const created = h('div', { 'aria-live': 'polite' });
  async function load() {
    const { items, scopes } = await api('GET', '/console/api/keys');
    fill(list, table('API keys', [
      ['Name', k => k.name],
      ['Key', k => h('code', {}, k.prefix + '…')],
      ['Scopes', k => h('ul', { class: 'chips' }, k.scopes.map(s => h('li', {}, s)))],
      ['Created', k => when(k.createdAt)],
      ['Last used', k => k.lastUsedAt ? when(k.lastUsedAt) : 'Never'],
      ['', k => k.revokedAt ? badge('Revoked ' + fmtDate(k.revokedAt), 'muted')
        : h('button', { type: 'button', class: 'btn small danger', 'aria-label': `Revoke ${k.name}`, onclick: async () => {
          if (!(await confirmDialog(`Revoke the key "${k.name}"? Requests with it are refused at once.`, 'Revoke'))) return;
          await api('DELETE', `/console/api/keys/${encodeURIComponent(k.id)}`);
          announce(`Key ${k.name} revoked`);
          await load();
        } }, 'Revoke')],
    ], items, 'No keys yet: create one below.'));
    return scopes;
  }
  const scopes = await load();
  const form = h('form', { class: 'stack card', novalidate: true, 'aria-labelledby': 'new-key' },
    h('h2', { id: 'new-key' }, 'Create a key'),
    h('p', { class: 'form-error', role: 'alert', tabindex: '-1', hidden: true }),
    field('Name', { name: 'name', required: true, placeholder: 'e.g. billing service' }),
    h('fieldset', { 'data-field': 'scopes' }, h('legend', {}, 'Scopes'),
      scopes.map(s => h('label', { class: 'check' },
        h('input', { type: 'checkbox', name: 'scopes', value: s.scope, checked: s.scope.startsWith('documents.') }),
        h('span', {}, h('code', {}, s.scope), ' — ', s.label)))),
    h('button', { type: 'submit', class: 'btn primary' }, 'Create key'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    submitting(form, async () => {
      const k = await api('POST', '/console/api/keys', formData(form));
      fill(created, secretBox(`Your new key "${k.name}"`, k.key, 'Copy it now and keep it secret: it is not shown again. Use it as: Authorization: Bearer <key>.'));
      form.reset();
      await load();
      created.querySelector('button')?.focus();
    });
  });
  fill(main, pageHeader('API keys'),
    h('p', { class: 'lead' }, 'Keys let your code call the API. Each key holds only the scopes you give it.'),
    created, list, form);
}
