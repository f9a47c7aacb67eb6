// Templates: the organisation's templates, the way to upload a PDF as one,
// and the starter gallery, where a starter is copied under a name and slug
// the person may change and opens in the editor.
import { h, fill, api, field, formData, submitting, table, badge, link, go, can, pageHeader, announce, when } from '../lib.js';

// A thumbnail is drawn 320 pixels wide (app.ThumbnailWidth) and shown at
// half that; the box keeps A4's shape, and other page shapes sit inside it
// (object-fit), so nothing moves when the pictures arrive.
const thumbW = 160, thumbH = 226;

export async function render(main) {
  const writer = can('templates.write');
  const [list, library] = await Promise.all([
    api('GET', '/v1/templates?limit=100'),
    api('GET', '/v1/templates/library'),
  ]);

  const mine = table('Your templates', [
    ['Name', t => link(`/templates/${encodeURIComponent(t.id)}`, t.name)],
    ['Slug', t => h('code', {}, t.slug)],
    ['Kind', t => t.kind === 'pdf' ? badge('From a PDF') : badge('Written', 'muted')],
    ['Active version', t => t.activeVersion ? `v${t.activeVersion}` + (t.latestVersion > t.activeVersion ? ` (latest v${t.latestVersion})` : '') : badge('None yet', 'warn')],
    ['Updated', t => when(t.updatedAt)],
  ], list.items, 'No templates yet: copy a starter below, or upload a PDF.');

  const gallery = h('ul', { class: 'starters', role: 'list' }, library.items.map(st => starterCard(st, writer)));

  fill(main,
    pageHeader('Templates', writer ? link('/templates/upload', 'Upload a PDF') : null),
    h('p', { class: 'lead' }, 'A template is the markup and data schema your documents are made from. Each save is a new version; the active one generates.'),
    h('section', { 'aria-labelledby': 'mine' }, h('h2', { id: 'mine' }, 'Your templates'), mine,
      list.nextCursor ? h('p', { class: 'muted' }, 'Showing the newest 100.') : null),
    h('section', { 'aria-labelledby': 'gallery', class: 'gallery' },
      h('h2', { id: 'gallery' }, 'Starters'),
      h('p', { class: 'muted' }, 'Ready-made templates with sample data. Copying one makes it yours: its version 1 is active and generates at once.'),
      gallery));
  main.querySelector('.page-head .actions a')?.classList.add('btn', 'primary');
}

// starterCard is one starter: its picture, what it is, and (for people who
// may write templates) a copy form that opens under the button.
function starterCard(st, writer) {
  const titleId = 'st-' + st.slug;
  const card = h('li', { class: 'starter card', 'aria-labelledby': titleId },
    h('img', { src: `/v1/templates/library/${encodeURIComponent(st.slug)}/thumbnail.png`, width: thumbW, height: thumbH,
      loading: 'lazy', decoding: 'async', alt: `First page of the ${st.name} starter with its sample data` }),
    h('div', { class: 'starter-text' },
      h('h3', { id: titleId }, st.name),
      st.category ? h('p', { class: 'muted small' }, st.category) : null,
      h('p', {}, st.description)));
  if (!writer) return card;
  const form = copyForm(st);
  const use = h('button', { type: 'button', class: 'btn', 'aria-expanded': 'false', 'aria-controls': form.id,
    'aria-label': `Use this starter: ${st.name}`, onclick: () => {
      const open = form.hidden;
      form.hidden = !open;
      use.setAttribute('aria-expanded', String(open));
      if (open) form.querySelector('input').focus();
    } }, 'Use this starter');
  card.querySelector('.starter-text').append(use, form);
  return card;
}

// copyForm copies a starter under the name and slug given; the server's
// refusal (a slug in use, a slug with capitals) shows at its input.
function copyForm(st) {
  const form = h('form', { class: 'stack copy-form', id: 'copy-' + st.slug, novalidate: true, hidden: true, 'aria-label': `Copy ${st.name}` },
    h('p', { class: 'form-error', role: 'alert', tabindex: '-1', hidden: true }),
    field('Name', { name: 'name', value: st.name, id: `copy-${st.slug}-name`, required: true }),
    field('Slug', { name: 'slug', value: st.slug, id: `copy-${st.slug}-slug`, required: true, autocomplete: 'off', spellcheck: 'false' },
      { hint: 'How your code names it: lower-case letters, digits and -.' }),
    h('button', { type: 'submit', class: 'btn primary' }, 'Copy and edit'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    submitting(form, async () => {
      const t = await api('POST', `/v1/templates/library/${encodeURIComponent(st.slug)}/copy`, formData(form));
      announce(`${t.name} copied; version 1 is active`);
      go(`/templates/${encodeURIComponent(t.id)}`);
    });
  });
  return form;
}
