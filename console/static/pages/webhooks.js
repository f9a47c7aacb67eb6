// Webhooks (owners): the organisation's endpoints, and registering one. The
// signing secret is in the answer that created the endpoint only, so it is
// shown here once, with a copy button, and never again.
import { h, fill, api, field, formData, submitting, table, badge, secretBox, link, pageHeader, session, when } from '../lib.js';

// eventKinds reads the event kinds an endpoint may subscribe to from the
// API's own description (the EventKind schema of /v1/openapi.json), so the
// console lists what the server accepts and nothing else.
async function eventKinds() {
  const doc = await api('GET', '/v1/openapi.json');
  return doc?.components?.schemas?.EventKind?.enum || [];
}

// stateBadge says whether an endpoint gets deliveries, in words (not colour
// alone), and why one is switched off.
export function stateBadge(e) {
  if (e.enabled) return badge('Enabled', 'ok');
  return h('span', {}, badge('Switched off', 'danger'), e.disabledReason ? h('span', { class: 'hook-reason' }, ' ', e.disabledReason) : null);
}

export function eventList(events) {
  return events?.length ? h('ul', { class: 'chips' }, events.map(ev => h('li', {}, ev))) : h('span', { class: 'muted' }, 'Every event');
}

export async function render(main) {
  const list = h('div', { class: 'list' });
  const created = h('div', { 'aria-live': 'polite' });
  async function load() {
    const { items } = await api('GET', '/v1/webhooks');
    fill(list, table('Webhook endpoints', [
      ['Name', e => link(`/webhooks/${encodeURIComponent(e.id)}`, e.name || e.id)],
      ['URL', e => h('code', { class: 'hook-url' }, e.url)],
      ['Events', e => eventList(e.events)],
      ['State', e => stateBadge(e)],
      ['Failures in a row', e => String(e.consecutiveFailures)],
      ['Created', e => when(e.createdAt)],
    ], items, 'No endpoints yet: add one below.'));
  }
  const [kinds] = await Promise.all([eventKinds(), load()]);
  const form = h('form', { class: 'stack card', novalidate: true, 'aria-labelledby': 'new-hook' },
    h('h2', { id: 'new-hook' }, 'Add an endpoint'),
    h('p', { class: 'form-error', role: 'alert', tabindex: '-1', hidden: true }),
    field('Name', { name: 'name', required: true, placeholder: 'e.g. orders' }),
    field('URL', { name: 'url', type: 'url', required: true, placeholder: 'https://hooks.example.com/platen' },
      { hint: session.me?.config?.webhooksPrivate
        ? 'https only. This is a development node: loopback and private addresses work too, and `platen webhooks listen` receives deliveries on this machine. Platen signs every delivery with the endpoint\'s secret.'
        : 'https only, on a public address. Platen signs every delivery with the endpoint\'s secret. To receive deliveries on your own machine, run a development node (platen serve --dev) and platen webhooks listen.' }),
    h('fieldset', { 'data-field': 'events' }, h('legend', {}, 'Events'),
      h('p', { class: 'hint' }, 'Leave every box empty to receive every event.'),
      kinds.map(k => h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'events', value: k }), h('code', {}, k)))),
    h('button', { type: 'submit', class: 'btn primary' }, 'Add endpoint'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    submitting(form, async () => {
      const body = formData(form);
      body.events = [...form.querySelectorAll('input[name=events]:checked')].map(c => c.value);
      let ep;
      try { ep = await api('POST', '/v1/webhooks', body); }
      catch (err) {
        // events[2] is refused at the group of boxes.
        if (err.field?.startsWith('events[')) err.field = 'events';
        throw err;
      }
      fill(created, secretBox(`The signing secret of "${ep.name}"`, ep.signingSecret,
        'Copy it now and keep it secret: it is not shown again. Your endpoint checks each delivery\'s x-service-signature header with it.'),
      h('p', {}, link(`/webhooks/${encodeURIComponent(ep.id)}`, `Open ${ep.name}: send a ping, see its deliveries`)));
      form.reset();
      await load();
      created.querySelector('button')?.focus();
    });
  });
  fill(main, pageHeader('Webhooks'),
    h('p', { class: 'lead' }, 'Platen posts the events you choose to your endpoints, signed, and retries until they take them.'),
    created, list, form);
}
