// Overview, where every sign-in lands: this month's pages against the
// allowance and the wallet (for those who may read the wallet), documents a
// day over the last 30 days as a chart with its numbers, and the latest
// failures with their reasons. The change feed says when to read the
// figures again; nothing polls.
import { h, fill, api, when, fmtMoney, link, pageHeader, can, svg, session } from '../lib.js';
import { onEvent, whenLive } from '../realtime.js';

const DAYS = 30;

export async function render(main) {
  const wallet = can('wallet.read');
  const money = h('div', { class: 'grid overview-cards' });
  const chart = h('section', { class: 'card', 'aria-labelledby': 'chart-title' });
  const failures = h('section', { class: 'card', 'aria-labelledby': 'fail-title' });
  const liveNote = h('p', { class: 'sr-only', 'aria-live': 'polite' });

  async function loadStats() {
    const [stats, failed] = await Promise.all([
      api('GET', `/v1/documents/stats?days=${DAYS}`),
      api('GET', '/v1/documents?status=failed&limit=5'),
    ]);
    drawChart(chart, stats);
    drawFailures(failures, failed.items);
    return stats;
  }
  async function loadWallet(stats) {
    const w = wallet ? await api('GET', '/v1/wallet') : null;
    drawCards(money, w, stats);
  }
  // The first-run checklist, for those who may do its four steps.
  const onboard = can('keys.read') && can('webhooks.read') && can('templates.read');
  const checklist = h('section', { class: 'card checklist', 'aria-labelledby': 'first-title' });
  async function loadChecklist() {
    if (!onboard) return;
    try {
      const [keys, templates, done, hooks] = await Promise.all([
        api('GET', '/console/api/keys'), api('GET', '/v1/templates?limit=1'),
        api('GET', '/v1/documents?status=completed&limit=1'), api('GET', '/v1/webhooks'),
      ]);
      drawChecklist(checklist, {
        key: (keys.items || keys).some((k) => !k.revokedAt),
        template: templates.items.length > 0,
        pdf: done.items.length > 0,
        webhook: (hooks.items || hooks).length > 0,
      });
    } catch (err) {
      // The checklist is a guide: the figures below show without it.
      console.error(err);
      checklist.hidden = true;
    }
  }

  // Events come in bursts (queued, rendering, completed): one read after
  // the burst settles, not one per event.
  let timer = 0, lastStats = null, needStats = false, needWallet = false;
  let needChecklist = false;
  const stop = onEvent((f) => {
    const doc = f.event?.startsWith('document.'), pay = f.event?.startsWith('wallet.');
    // A template activated is a step of the checklist. Keys and webhook
    // endpoints have no event in the feed: the checklist is read again
    // when the person comes back to this tab (below), as after running
    // platen webhooks listen in a terminal.
    const step = (f.event || '').startsWith('template.');
    if (!doc && !pay && !step) return;
    needStats ||= doc;
    needWallet ||= pay || f.event === 'document.completed';
    needChecklist ||= step || f.event === 'document.completed';
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const stats = needStats, money = needWallet || needStats, steps = needChecklist;
      needStats = needWallet = needChecklist = false;
      try {
        if (stats) lastStats = await loadStats();
        if (money) await loadWallet(lastStats);
        if (steps) await loadChecklist();
        liveNote.textContent = 'Figures updated';
      } catch (err) { console.error(err); }
    }, 250);
  });
  try {
    await whenLive();
    lastStats = await loadStats();
    await Promise.all([loadWallet(lastStats), loadChecklist()]);
  } catch (err) { stop(); throw err; }

  // Coming back fires focus and visibilitychange together: one read.
  let backTimer = 0;
  const back = () => {
    if (document.visibilityState !== 'visible' || checklist.classList.contains('compact')) return;
    clearTimeout(backTimer);
    backTimer = setTimeout(loadChecklist, 100);
  };
  window.addEventListener('focus', back);
  document.addEventListener('visibilitychange', back);

  fill(main, pageHeader('Overview'),
    h('p', { class: 'lead' }, `${session.me.organisation.name}: what your documents did lately. The figures update by themselves.`),
    liveNote, onboard ? checklist : null, money, chart, failures);
  return () => { clearTimeout(timer); clearTimeout(backTimer); stop(); window.removeEventListener('focus', back); document.removeEventListener('visibilitychange', back); };
}

function drawCards(box, w, stats) {
  const today = stats.days[stats.days.length - 1];
  const cards = [];
  if (w) {
    const used = w.allowance.usedPages, total = w.allowance.pages;
    cards.push(h('div', { class: 'stat card' },
      h('h2', { id: 'pages-title' }, 'Pages this month'),
      h('p', { class: 'stat-value' }, `${used.toLocaleString()} of ${total.toLocaleString()}`),
      h('meter', { min: 0, max: Math.max(total, 1), value: Math.min(used, Math.max(total, 1)), 'aria-labelledby': 'pages-title' }),
      h('p', { class: 'muted' }, `${w.allowance.leftPages.toLocaleString()} left; the allowance starts again on ${dateOnly.format(new Date(w.period.end))}`)));
    cards.push(h('div', { class: 'stat card' },
      h('h2', {}, 'Wallet balance'),
      h('p', { class: 'stat-value' }, fmtMoney(w.balanceMicros)),
      h('p', { class: 'muted' }, w.plan.wallet ? `Pages beyond the allowance cost ${fmtMoney(w.plan.pageRateMicros)} each. ` : 'Your plan does not charge the wallet. ', link('/wallet', 'See the wallet'))));
  }
  cards.push(h('div', { class: 'stat card' },
    h('h2', {}, `Last ${DAYS} days`),
    h('p', { class: 'stat-value', 'data-testid': 'total-completed' }, `${stats.total.completed.toLocaleString()} completed`),
    h('p', { class: 'muted' }, `${stats.total.failed} failed · ${stats.total.pending} in progress · today ${today.completed + today.failed + today.pending}`)));
  fill(box, cards);
}

const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const dayFmt = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
const dayLabel = (day) => dayFmt.format(new Date(day + 'T00:00:00Z'));

// drawChart draws documents a day as stacked bars: completed solid, failed
// hatched, in progress outlined, so the kinds differ by pattern as well as
// colour. Each bar is an image with its own label (and a tooltip); the same
// numbers are in a table under the chart.
function drawChart(box, stats) {
  const W = 600, H = 160, top = 4, bottom = 2, left = 0;
  const n = stats.days.length, slot = (W - left) / n, barW = Math.max(slot - 3, 2);
  const max = Math.max(1, ...stats.days.map(d => d.completed + d.failed + d.pending));
  const y = (v) => (H - bottom - top) * v / max;
  const bars = stats.days.map((d, i) => {
    const x = left + i * slot + (slot - barW) / 2;
    let base = H - bottom;
    const part = (v, cls) => {
      if (!v) return null;
      const hgt = y(v); base -= hgt;
      return svg('rect', { x: x.toFixed(1), y: base.toFixed(1), width: barW.toFixed(1), height: hgt.toFixed(1), class: cls });
    };
    const label = `${dayLabel(d.day)}: ${d.completed} completed, ${d.failed} failed, ${d.pending} in progress`;
    return svg('g', { role: 'img', 'aria-label': label, class: 'bar' },
      svg('title', {}, label),
      // A transparent full-height target, so short bars get their tooltip.
      svg('rect', { x: x.toFixed(1), y: top, width: barW.toFixed(1), height: H - bottom - top, class: 'hit' }),
      part(d.completed, 'completed'), part(d.failed, 'failed'), part(d.pending, 'pending'));
  });
  // The axis labels are HTML under the chart, so they keep their size on a
  // phone where the drawing shrinks.
  const mid = stats.days[Math.floor((n - 1) / 2)];
  const axis = h('div', { class: 'chart-x', 'aria-hidden': 'true' },
    h('span', {}, dayLabel(stats.days[0].day)), h('span', {}, dayLabel(mid.day)), h('span', {}, 'Today'));
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', class: 'chart', role: 'group', 'aria-labelledby': 'chart-title', focusable: 'false' },
    svg('defs', {}, svg('pattern', { id: 'hatch', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
      svg('rect', { width: 6, height: 6, class: 'hatch-bg' }), svg('line', { x1: 0, y1: 0, x2: 0, y2: 6, class: 'hatch-line' }))),
    bars);
  const legend = h('ul', { class: 'legend' },
    h('li', {}, h('span', { class: 'key completed', 'aria-hidden': 'true' }), 'Completed (solid)'),
    h('li', {}, h('span', { class: 'key failed', 'aria-hidden': 'true' }), 'Failed (hatched)'),
    h('li', {}, h('span', { class: 'key pending', 'aria-hidden': 'true' }), 'In progress (outlined)'));
  const rows = stats.days.filter(d => d.completed + d.failed + d.pending > 0);
  const numbers = h('details', { class: 'numbers' },
    h('summary', {}, 'Show the numbers'),
    rows.length ? h('div', { class: 'table-wrap' }, h('table', {},
      h('caption', { class: 'sr-only' }, `Documents a day, last ${DAYS} days (days with none left out)`),
      h('thead', {}, h('tr', {}, ['Day', 'Completed', 'Failed', 'In progress'].map(c => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, rows.map(d => h('tr', {}, h('th', { scope: 'row' }, dayLabel(d.day)), h('td', {}, String(d.completed)), h('td', {}, String(d.failed)), h('td', {}, String(d.pending))))))) : h('p', { class: 'muted' }, 'No documents in these days.'));
  const keep = box.querySelector('details.numbers')?.open;
  if (keep) numbers.open = true;
  fill(box, h('h2', { id: 'chart-title' }, `Documents a day, last ${DAYS} days`),
    h('p', { class: 'muted chart-scale' }, `The tallest bar is ${max} document${max === 1 ? '' : 's'}.`),
    chart, axis, legend, numbers);
}

function drawFailures(box, items) {
  fill(box, h('h2', { id: 'fail-title' }, 'Recent failures'),
    items.length ? h('ul', { class: 'failures' }, items.map(d => h('li', {},
      h('p', {}, link('/documents/' + encodeURIComponent(d.id), h('code', {}, d.id)), ' · ', d.templateSlug, ' · ', h('span', { class: 'muted' }, when(d.createdAt))),
      h('p', {}, h('code', { class: 'error-code' }, d.errorCode || 'FAILED'), ' ', d.message || '')))) : h('p', { class: 'muted' }, 'No failed documents. '),
    items.length ? h('p', {}, link('/documents?status=failed', 'All failed documents')) : null);
}

// drawChecklist draws the four steps to a first PDF and a webhook, each
// done or to do with where to do it; once all are done it says so in one
// line.
function drawChecklist(box, done) {
  const steps = [
    ['key', 'Make an API key', 'Your code and the command line sign in with it.', '/keys', 'API keys'],
    ['template', 'Copy a starter or write a template', 'A starter generates at once with its sample data.', '/templates', 'Templates'],
    ['pdf', 'Make a PDF', 'Generate from a template here, with the API, or with platen generate.', '/documents', 'Documents'],
    ['webhook', 'Add a webhook', 'Hear when each document is ready; platen webhooks listen receives them on your machine.', '/webhooks', 'Webhooks'],
  ];
  const count = steps.filter(([k]) => done[k]).length;
  if (count === steps.length) {
    fill(box, h('h2', { id: 'first-title', class: 'sr-only' }, 'Getting started'),
      h('p', { class: 'checklist-done' }, h('span', { class: 'tick done', 'aria-hidden': 'true' }), 'You are set up: a key, a template, a PDF and a webhook.'));
    box.classList.add('compact');
    return;
  }
  box.classList.remove('compact');
  fill(box,
    h('h2', { id: 'first-title' }, 'Getting started'),
    h('p', { class: 'muted' }, `${count} of ${steps.length} done: the steps to a first PDF and a webhook.`),
    h('ol', { class: 'steps' }, steps.map(([k, title, why, path, place]) => h('li', { class: done[k] ? 'step done' : 'step' },
      h('span', { class: done[k] ? 'tick done' : 'tick', 'aria-hidden': 'true' }),
      h('div', {},
        h('strong', {}, title), h('span', { class: 'sr-only' }, done[k] ? ' (done)' : ' (to do)'),
        h('p', { class: 'muted small' }, why, ' ', done[k] ? null : link(path, `Go to ${place}`)))))));
}
