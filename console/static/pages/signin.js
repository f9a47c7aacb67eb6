// Sign in (and, when the node allows it, sign up into a sandbox organisation).
import { h, fill, api, field, formData, submitting, go, link, session, showError } from '../lib.js';

export async function render(main) {
  const signUp = location.pathname === '/signup';
  const next = new URLSearchParams(location.search).get('next');
  const dest = next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
  let config = { signUp: false };
  try { config = await api('GET', '/console/api/config', undefined, { anonymous: true }); } catch { /* shown as off */ }
  if (signUp && !config.signUp) {
    fill(main, h('div', { class: 'card narrow' }, h('h1', {}, 'Sign up'),
      h('p', {}, 'This service does not take sign-ups. Ask an owner of your organisation, or the operator, for an invitation.'),
      h('p', {}, link('/signin', 'Sign in'))));
    return;
  }
  const form = h('form', { class: 'stack', novalidate: true },
    h('p', { class: 'form-error', role: 'alert', tabindex: '-1', hidden: true }),
    field('Email', { name: 'email', type: 'email', autocomplete: 'username', required: true, autofocus: true }),
    field('Password', { name: 'password', type: 'password', autocomplete: signUp ? 'new-password' : 'current-password', required: true },
      signUp ? { hint: 'At least 10 characters.' } : {}),
    signUp ? field('Organisation name', { name: 'organisation', autocomplete: 'organization' }, { hint: 'A sandbox organisation is made for you: documents are watermarked until the operator moves it to a paid plan.' }) : null,
    h('button', { type: 'submit', class: 'btn primary' }, signUp ? 'Sign up' : 'Sign in'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    submitting(form, async () => {
      try {
        session.me = await api('POST', signUp ? '/console/api/signup' : '/console/api/signin', formData(form), { anonymous: true });
      } catch (err) {
        if (err.code === 'SIGN_IN_LOCKED') err.message = `Too many failed sign-ins: this account is locked. Try again in ${Math.ceil(err.retryAfter / 60)} minutes, or ask the operator for a reset link.`;
        throw err;
      }
      go(dest);
    });
  });
  fill(main, h('div', { class: 'card narrow' },
    h('h1', {}, signUp ? 'Sign up' : 'Sign in to Platen'),
    form,
    signUp ? h('p', {}, 'Have an account? ', link('/signin', 'Sign in')) : (config.signUp ? h('p', {}, 'New here? ', link('/signup', 'Sign up')) : null),
    signUp ? null : h('p', { class: 'muted' }, 'Forgot your password? Ask the operator for a reset link.')));
  void showError;
}
