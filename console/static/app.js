// The console's entry: who is signed in, the layout, and the router that
// draws each page. Pages are modules under pages/, loaded when first shown;
// each exports render(main, params) and may return a function that stops
// what the page started (a live feed, a timer).
import { h, fill, api, session, isOwner, can, link, go, announce, icon } from './lib.js';

// routes: [pattern, module, title, options]. public pages need no session;
// owner pages are shown to owners only; scope pages to those holding it.
const routes = [
  ['/signin', 'signin', 'Sign in', { public: true }],
  ['/signup', 'signin', 'Sign up', { public: true }],
  ['/link', 'link', 'Set your password', { public: true }],
  ['/', 'overview', 'Overview', {}],
  ['/documents', 'documents', 'Documents', { scope: 'documents.read' }],
  ['/documents/:id', 'document', 'Document', { scope: 'documents.read' }],
  ['/templates', 'templates', 'Templates', { scope: 'templates.read' }],
  ['/templates/upload', 'pdftemplate', 'Upload a PDF', { scope: 'templates.write' }],
  ['/templates/:id', 'template', 'Template', { scope: 'templates.read' }],
  ['/webhooks', 'webhooks', 'Webhooks', { owner: true }],
  ['/webhooks/:id', 'webhook', 'Webhook', { owner: true }],
  ['/signing', 'signing', 'Signing certificates', { scope: 'signing.read' }],
  ['/keys', 'keys', 'API keys', { owner: true }],
  ['/wallet', 'wallet', 'Wallet', { owner: true }],
  ['/members', 'members', 'Members', { owner: true }],
  ['/account', 'account', 'Your account', {}],
];

// nav is the menu, in order; entries the person may not use are left out.
const nav = [
  ['/', 'Overview', {}, 'overview'],
  ['/documents', 'Documents', { scope: 'documents.read' }, 'documents'],
  ['/templates', 'Templates', { scope: 'templates.read' }, 'templates'],
  ['/webhooks', 'Webhooks', { owner: true }, 'webhooks'],
  ['/signing', 'Signing', { scope: 'signing.read' }, 'signing'],
  ['/keys', 'API keys', { owner: true }, 'keys'],
  ['/wallet', 'Wallet', { owner: true }, 'wallet'],
  ['/members', 'Members', { owner: true }, 'members'],
];

function allowed(opts) {
  if (opts.owner && !isOwner()) return false;
  if (opts.scope && !can(opts.scope)) return false;
  return true;
}

function match(path) {
  for (const [pattern, mod, title, opts] of routes) {
    const p = pattern.split('/'), s = path.replace(/\/+$/, '').split('/');
    if (pattern === '/' ? path === '/' : p.length === s.length && p.every((seg, i) => seg.startsWith(':') || seg === s[i])) {
      const params = {};
      p.forEach((seg, i) => { if (seg.startsWith(':')) params[seg.slice(1)] = decodeURIComponent(s[i]); });
      return { mod, title, opts, params };
    }
  }
  return null;
}

async function loadMe() {
  try { session.me = await api('GET', '/console/api/me', undefined, { anonymous: true }); }
  catch { session.me = null; }
}

function layout(current) {
  const me = session.me;
  const items = nav.filter(([, , o]) => allowed(o)).map(([path, label, , ic]) => h('li', {}, link(path, icon(ic), label)));
  const menu = h('nav', { class: 'nav', 'aria-label': 'Main' }, h('ul', {}, items));
  menu.querySelectorAll('a').forEach(a => {
    const path = a.getAttribute('href');
    const here = path === '/' ? current === '/' : current === path || current.startsWith(path + '/');
    if (here) a.setAttribute('aria-current', 'page');
  });
  const orgs = me.organisations || [];
  const orgSwitch = orgs.length > 1
    ? h('label', { class: 'org-switch' }, h('span', { class: 'sr-only' }, 'Organisation'),
        h('select', { onchange: async (e) => { await api('POST', '/console/api/switch', { organisationId: e.target.value }); await loadMe(); go('/'); } },
          orgs.map(o => h('option', { value: o.id, selected: o.id === me.organisation.id }, o.name))))
    : h('span', { class: 'org' }, me.organisation.name);
  const toggle = h('button', { type: 'button', class: 'menu-toggle', 'aria-expanded': 'false', 'aria-controls': 'sidebar',
    onclick: (e) => { const open = e.currentTarget.getAttribute('aria-expanded') !== 'true'; e.currentTarget.setAttribute('aria-expanded', String(open)); document.getElementById('sidebar').classList.toggle('open', open); } }, 'Menu');
  return h('div', { class: 'shell' },
    h('header', { class: 'top' },
      toggle,
      link('/', h('span', { class: 'brand' }, 'Platen')),
      orgSwitch,
      me.organisation.plan === 'sandbox' ? h('span', { class: 'badge warn', title: 'Documents are watermarked' }, 'Sandbox') : null,
      h('div', { class: 'who' },
        link('/account', me.user.name || me.user.email),
        h('button', { type: 'button', class: 'btn link', onclick: signOut }, 'Sign out'))),
    h('div', { class: 'body' },
      h('aside', { id: 'sidebar', class: 'sidebar' }, menu),
      h('main', { id: 'main', tabindex: '-1' })));
}

async function signOut() {
  try { await api('POST', '/console/api/signout', {}); }
  catch (err) {
    // Still signed in (no leader, a network fault): say so rather than show
    // the sign-in page over a live session.
    if (err.status !== 401) { announce(`Not signed out: ${err.message}`); return; }
  }
  session.me = null;
  go('/signin');
}

let stop = null;
let shownFor = null; // the session the layout was drawn for

async function render() {
  if (stop) { try { stop(); } catch { /* page gone */ } stop = null; }
  const path = location.pathname;
  const m = match(path);
  const app = document.getElementById('app');
  if ((!m || !m.opts.public) && !session.me) await loadMe();
  if (m && !m.opts.public && !session.me) { go('/signin?next=' + encodeURIComponent(path + location.search)); return; }
  let main;
  // A page that does not exist is shown inside the signed-in frame when
  // there is a session, so the person does not look signed out.
  if (m ? m.opts.public : !session.me) {
    shownFor = null;
    main = h('main', { id: 'main', tabindex: '-1', class: 'public' });
    fill(app, h('header', { class: 'top' }, h('span', { class: 'brand' }, 'Platen')), main);
  } else {
    if (shownFor !== session.me || !document.getElementById('sidebar')) {
      fill(app, layout(path));
      shownFor = session.me;
    } else {
      // Same layout: mark the current entry.
      document.querySelectorAll('.nav a').forEach(a => {
        const p = a.getAttribute('href');
        const here = p === '/' ? path === '/' : path === p || path.startsWith(p + '/');
        if (here) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
      });
      document.getElementById('sidebar')?.classList.remove('open');
      document.querySelector('.menu-toggle')?.setAttribute('aria-expanded', 'false');
    }
    main = document.getElementById('main');
    main.replaceChildren();
  }
  if (!m) {
    document.title = 'Not found · Platen';
    fill(main, h('h1', {}, 'Page not found'), h('p', {}, 'There is no page at ', h('code', {}, path), '. ', link('/', 'Go to the overview'), '.'));
    return;
  }
  if (!m.opts.public && !allowed(m.opts)) {
    document.title = 'Not allowed · Platen';
    fill(main, h('h1', {}, m.title), h('p', { class: 'notice' }, `Your role (${session.me.role}) does not allow this page. An owner of ${session.me.organisation.name} can change your role.`));
    return;
  }
  document.title = m.title + ' · Platen';
  try {
    const page = await import(`./pages/${m.mod}.js`);
    stop = (await page.render(main, m.params, { title: m.title, reload: loadMe })) || null;
  } catch (err) {
    console.error(err);
    fill(main, h('h1', {}, m.title), h('p', { class: 'form-error', role: 'alert' }, err.message || String(err)));
  }
  if (render.moved) main.focus({ preventScroll: true });
  render.moved = true;
}

window.addEventListener('popstate', render);
render();
export { loadMe };
