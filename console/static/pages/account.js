// Your account: change your password, sign out everywhere.
import { h, fill, api, field, formData, submitting, announce, go, session, pageHeader, confirmDialog } from '../lib.js';

export async function render(main) {
  const me = session.me;
  const pw = h('form', { class: 'stack card', novalidate: true, 'aria-labelledby': 'pw' },
    h('h2', { id: 'pw' }, 'Change your password'),
    h('p', { class: 'form-error', role: 'alert', tabindex: '-1', hidden: true }),
    field('Current password', { name: 'current', type: 'password', autocomplete: 'current-password', required: true }),
    field('New password', { name: 'password', type: 'password', autocomplete: 'new-password', required: true }, { hint: 'At least 10 characters. Your other devices are signed out.' }),
    h('button', { type: 'submit', class: 'btn primary' }, 'Change password'));
  pw.addEventListener('submit', (e) => {
    e.preventDefault();
    submitting(pw, async () => {
      await api('POST', '/console/api/password', formData(pw));
      pw.reset();
      announce('Password changed; every other session is signed out');
    });
  });
  fill(main, pageHeader('Your account'),
    h('dl', { class: 'facts' },
      h('dt', {}, 'Email'), h('dd', {}, me.user.email),
      h('dt', {}, 'Organisation'), h('dd', {}, me.organisation.name),
      h('dt', {}, 'Role'), h('dd', {}, me.role),
      h('dt', {}, 'This session ends'), h('dd', {}, new Date(me.sessionEnds).toLocaleString(), ' at the latest, or after 12 hours unused')),
    pw,
    h('section', { class: 'card stack', 'aria-labelledby': 'everywhere' },
      h('h2', { id: 'everywhere' }, 'Sign out everywhere'),
      h('p', {}, 'Ends every session of your account, on every device, this one included.'),
      h('button', { type: 'button', class: 'btn danger', onclick: async () => {
        if (!(await confirmDialog('Sign out on every device?', 'Sign out everywhere'))) return;
        await api('POST', '/console/api/signout', { everywhere: true });
        session.me = null;
        go('/signin');
      } }, 'Sign out everywhere')));
}
