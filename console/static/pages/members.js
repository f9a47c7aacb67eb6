// Members (owners): invite people with a one-time link, change roles,
// remove people. An organisation keeps at least one owner: the server says
// so when a change would break that.
import { h, fill, api, field, formData, submitting, table, secretBox, confirmDialog, announce, showError, pageHeader, session, when } from '../lib.js';

export async function render(main) {
  const list = h('div', { class: 'list' });
  const invited = h('div', { 'aria-live': 'polite' });
  const errBox = h('p', { class: 'form-error', role: 'alert', tabindex: '-1', hidden: true });
  async function load() {
    const { items } = await api('GET', '/console/api/members');
    fill(list, table('Members', [
      ['Person', m => h('span', {}, m.name ? [m.name, h('br'), h('span', { class: 'muted' }, m.email)] : m.email, m.you ? ' (you)' : '')],
      ['Role', m => {
        const sel = h('select', { 'aria-label': `Role of ${m.email}` },
          h('option', { value: 'member', selected: m.role === 'member' }, 'Member'),
          h('option', { value: 'owner', selected: m.role === 'owner' }, 'Owner'));
        sel.addEventListener('change', async () => {
          try { await api('PATCH', `/console/api/members/${encodeURIComponent(m.userId)}`, { role: sel.value }); announce(`${m.email} is now ${sel.value === 'owner' ? 'an owner' : 'a member'}`); }
          catch (err) { showError(main, err); sel.value = m.role; }
          if (m.you) location.reload();
        });
        return sel;
      }],
      ['Since', m => when(m.since)],
      ['', m => h('button', { type: 'button', class: 'btn small danger', 'aria-label': `Remove ${m.email}`, onclick: async () => {
        if (!(await confirmDialog(`Remove ${m.email} from ${session.me.organisation.name}? They are signed out of it at once.`, 'Remove'))) return;
        try { await api('DELETE', `/console/api/members/${encodeURIComponent(m.userId)}`); announce(`${m.email} removed`); await load(); }
        catch (err) { showError(main, err); }
      } }, 'Remove')],
    ], items));
  }
  // Invitations not yet used: who, as what, until when; an owner may take
  // one back (sent to the wrong address, say). Their links are never shown
  // again.
  const pending = h('div', { class: 'list' });
  async function loadPending() {
    const { items } = await api('GET', '/console/api/invites');
    fill(pending, items.length === 0 ? null : h('section', { class: 'pending', 'aria-labelledby': 'pending' },
      h('h2', { id: 'pending' }, 'Invitations not yet used'),
      table('Invitations not yet used', [
        ['Email', i => i.email],
        ['Role', i => i.role],
        ['Made by', i => i.createdBy],
        ['Expires', i => when(i.expiresAt)],
        ['', i => h('button', { type: 'button', class: 'btn small danger', 'aria-label': `Take back the invitation for ${i.email}`, onclick: async () => {
          if (!(await confirmDialog(`Take back the invitation for ${i.email}? Its link stops working at once.`, 'Take back'))) return;
          try { await api('DELETE', `/console/api/invites/${encodeURIComponent(i.id)}`); announce(`Invitation for ${i.email} taken back`); await loadPending(); }
          catch (err) { showError(main, err); }
        } }, 'Take back')],
      ], items)));
  }
  await Promise.all([load(), loadPending()]);
  const form = h('form', { class: 'stack card', novalidate: true, 'aria-labelledby': 'invite' },
    h('h2', { id: 'invite' }, 'Invite someone'),
    h('p', { class: 'form-error', role: 'alert', tabindex: '-1', hidden: true }),
    field('Email', { name: 'email', type: 'email', required: true }),
    field('Role', { name: 'role', value: 'member' }, { tag: 'select', options: [['member', 'Member: generates documents and edits templates'], ['owner', 'Owner: also keys, webhooks, people and the wallet']] }),
    h('button', { type: 'submit', class: 'btn primary' }, 'Make invitation link'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    submitting(form, async () => {
      const inv = await api('POST', '/console/api/invites', formData(form));
      fill(invited, secretBox(`Invitation for ${inv.email}`, inv.link, `Send this link to ${inv.email} yourself: it works once, for 24 hours, and is not shown again.`));
      form.reset();
      await loadPending();
    });
  });
  fill(main, pageHeader('Members'), errBox,
    h('p', { class: 'lead' }, 'Owners manage keys, webhooks, people and the wallet. Members generate documents and edit templates.'),
    invited, list, pending, form);
}
