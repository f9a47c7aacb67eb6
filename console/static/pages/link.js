// A one-time link: the first owner's, an invitation, or a password reset.
// The token is after '#' in the address, so it never reaches a server log;
// it is sent in a request body, and the address is cleaned once it is read.
import { h, fill, api, field, formData, submitting, go, session, link } from '../lib.js';

let token = '';

export async function render(main) {
  if (location.hash.length > 1) {
    token = decodeURIComponent(location.hash.slice(1));
    history.replaceState({}, '', '/link');
  }
  let info;
  try {
    info = await api('POST', '/console/api/links/lookup', { token }, { anonymous: true });
  } catch (err) {
    fill(main, h('div', { class: 'card narrow' }, h('h1', {}, 'This link cannot be used'),
      h('p', { role: 'alert' }, err.code === 'CONFLICT' ? 'It was used already or has expired. Ask for a new one: an owner of your organisation can invite you again, and the operator can make a reset link.' : err.message),
      h('p', {}, link('/signin', 'Sign in'))));
    return;
  }
  const title = { owner: 'Become the first owner', invite: `Join ${info.organisation}`, reset: 'Set a new password' }[info.purpose] || 'Set your password';
  const intro = {
    owner: `You will be the owner of ${info.organisation}: you manage its keys, webhooks, people and wallet.`,
    invite: `You are invited to ${info.organisation} as ${info.role === 'owner' ? 'an owner' : 'a member'}.`,
    reset: `Choose a new password for ${info.email}. Every device signed in to this account is signed out.`,
  }[info.purpose];
  // An invitation for an email that has an account joins it with its own
  // password: the link never sets an existing account's password.
  const joining = info.hasAccount && info.purpose !== 'reset';
  const form = h('form', { class: 'stack', novalidate: true },
    h('p', { class: 'form-error', role: 'alert', tabindex: '-1', hidden: true }),
    info.email ? h('p', {}, 'Email: ', h('strong', {}, info.email)) : field('Your email', { name: 'email', type: 'email', autocomplete: 'username', required: true }),
    info.purpose !== 'reset' && !info.hasAccount ? field('Your name', { name: 'name', autocomplete: 'name' }) : null,
    joining
      ? field('Your password', { name: 'password', type: 'password', autocomplete: 'current-password', required: true }, { hint: 'This email has an account: sign in with its password to join.' })
      : field('Password', { name: 'password', type: 'password', autocomplete: 'new-password', required: true }, { hint: 'At least 10 characters.' }),
    h('button', { type: 'submit', class: 'btn primary' }, joining ? `Join ${info.organisation}` : info.purpose === 'reset' ? 'Set password and sign in' : 'Set password and continue'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    submitting(form, async () => {
      session.me = await api('POST', '/console/api/links/accept', { token, ...formData(form) }, { anonymous: true });
      token = '';
      go('/');
    });
  });
  fill(main, h('div', { class: 'card narrow' }, h('h1', {}, title), h('p', {}, intro), form,
    h('p', { class: 'muted' }, 'This link works once and expires ', new Date(info.expiresAt).toLocaleString(), '.')));
}
