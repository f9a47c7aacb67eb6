// Wallet (owners): the plan, this month's allowance, the balance, the newest
// ledger rows and what documents cost month by month. Credits and debits
// arrive from the change feed.
import { h, fill, api, fmtMoney, link, pageHeader, table, badge, session, copyButton, icon, when } from '../lib.js';
import { onEvent, whenLive } from '../realtime.js';

export async function render(main) {
  const body = h('div', {});
  const liveNote = h('p', { class: 'sr-only', 'aria-live': 'polite' });
  async function load() {
    const [w, rows, usage] = await Promise.all([api('GET', '/v1/wallet'), api('GET', '/v1/wallet/ledger?limit=20'), api('GET', '/v1/wallet/usage?months=12')]);
    fill(body, summary(w), topUp(w), ledger(rows), months(usage.months));
  }
  let timer = 0;
  const stop = onEvent((f) => {
    if (!f.event?.startsWith('wallet.') && f.event !== 'document.completed') return;
    clearTimeout(timer);
    timer = setTimeout(() => load().then(() => { liveNote.textContent = 'Wallet updated'; }).catch(console.error), 250);
  });
  try { await whenLive(); await load(); } catch (err) { stop(); throw err; }
  fill(main, pageHeader('Wallet'),
    h('p', { class: 'lead' }, 'Each month your plan includes an allowance of pages; pages beyond it are paid from the wallet.'),
    liveNote, body);
  return () => { clearTimeout(timer); stop(); };
}

const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

function summary(w) {
  const row = (label, ...value) => [h('dt', {}, label), h('dd', {}, ...value)];
  return h('section', { class: 'card', 'aria-labelledby': 'w-plan' },
    h('h2', { id: 'w-plan' }, 'Plan and balance'),
    h('dl', { class: 'facts' },
      row('Plan', h('strong', {}, w.plan.name)),
      row('Allowance', `${w.allowance.pages.toLocaleString()} pages a month`),
      row('Used this month', `${w.allowance.usedPages.toLocaleString()} pages, ${w.allowance.leftPages.toLocaleString()} left`, w.allowance.heldPages ? ` (${w.allowance.heldPages} held by documents rendering)` : ''),
      row('Period', `${day.format(new Date(w.period.start))} to ${day.format(new Date(new Date(w.period.end) - 1))}`),
      row('Pages beyond it', w.plan.wallet ? `${fmtMoney(w.plan.pageRateMicros)} a page, from the wallet` : 'Not available on this plan'),
      row('Balance', h('strong', { class: 'balance' }, fmtMoney(w.balanceMicros)), w.heldMicros ? ` (${fmtMoney(w.heldMicros)} held by documents rendering)` : '')));
}

// topUp says what adding money means and who does it: this node's
// operator credits a wallet (there is no card payment in Platen itself),
// and what a sum buys at the plan's page rate.
function topUp(w) {
  const org = session.me?.organisation?.id || '';
  const rate = w.plan.pageRateMicros;
  const sums = [10, 50, 200].map((units) => units * 1e6);
  const buys = w.plan.wallet && rate > 0
    ? h('ul', { class: 'plain buys' }, sums.map((m) => h('li', {}, h('strong', {}, fmtMoney(m)), ` buys ${Math.floor(m / rate).toLocaleString()} pages beyond the allowance`)))
    : null;
  const command = `platen admin credit ${org} AMOUNT_MICROS INVOICE_REFERENCE`;
  return h('section', { class: 'card', 'aria-labelledby': 'w-topup' },
    h('h2', { id: 'w-topup' }, icon('wallet'), ' Adding money'),
    w.plan.wallet
      ? h('p', {}, 'The wallet is credited by whoever runs this Platen node (its operator), usually against an invoice you pay them. Ask them for a top-up and give them your organisation id.')
      : h('p', {}, 'Your plan (', h('strong', {}, w.plan.name), ') does not use the wallet: pages beyond the allowance are refused. Ask whoever runs this Platen node (its operator) to move the organisation to a paid plan.'),
    buys,
    h('p', { class: 'org-id-row' }, 'Organisation id: ', h('code', {}, org), ' ', copyButton(org, 'Copy the id')),
    h('details', {}, h('summary', {}, 'What the operator runs'),
      h('pre', { class: 'hook-pre' }, command),
      h('p', { class: 'muted small' }, 'Amounts are in micro-units (1,000,000 is one ', session.me?.config?.currency || 'EUR', '); the reference makes a repeated credit safe. The credit shows here at once.')));
}

// ledger shows the newest rows, and older ones a page at a time below them.
function ledger(page) {
  const cols = [
    ['When', e => when(e.at)],
    ['Kind', e => badge(e.kind === 'credit' ? 'Credit' : 'Debit', e.kind === 'credit' ? 'ok' : 'muted')],
    ['Amount', e => h('span', { class: 'num' }, (e.amountMicros > 0 ? '+' : '') + fmtMoney(e.amountMicros))],
    ['Balance after', e => h('span', { class: 'num' }, fmtMoney(e.balanceAfterMicros))],
    ['Reference', e => e.reference?.startsWith('doc_') ? link('/documents/' + encodeURIComponent(e.reference), h('code', {}, e.reference)) : (e.reference || '—')],
  ];
  const t = table('Ledger, newest first', cols, page.items, 'No ledger rows yet: the wallet has not been credited or charged.');
  let before = page.nextBefore;
  const note = h('p', { class: 'sr-only', 'aria-live': 'polite' });
  const more = h('button', { type: 'button', class: 'btn', hidden: !before, onclick: async () => {
    more.disabled = true;
    try {
      const next = await api('GET', `/v1/wallet/ledger?limit=20&before=${before}`);
      const tbody = t.querySelector('tbody');
      for (const e of next.items) tbody.append(h('tr', {}, cols.map(([, cell]) => h('td', {}, cell(e)))));
      before = next.nextBefore;
      more.hidden = !before;
      note.textContent = `${next.items.length} older rows shown`;
    } catch (err) { note.textContent = err.message; }
    finally { more.disabled = false; }
  } }, 'Show older rows');
  return h('section', { class: 'wallet-part', 'aria-labelledby': 'w-ledger' },
    h('h2', { id: 'w-ledger' }, 'Ledger'),
    h('p', { class: 'muted' }, 'Newest first. A debit is the part of a document beyond the allowance.'),
    t, note, h('p', {}, more));
}

function months(all) {
  const fmt = new Intl.DateTimeFormat(undefined, { month: 'short', year: 'numeric', timeZone: 'UTC' });
  // The months before the first one with a document are left out: twelve
  // empty rows from before the organisation existed say nothing.
  let last = all.length - 1;
  while (last > 0 && all[last].documents === 0 && all[last].amountMicros === 0) last--;
  const rows = all.slice(0, last + 1);
  return h('section', { class: 'wallet-part', 'aria-labelledby': 'w-usage' },
    h('h2', { id: 'w-usage' }, 'Usage by month'),
    h('p', { class: 'muted' }, 'Completed documents by the month they completed in, from the first month with one. Failed documents cost nothing.'),
    table('Usage by month, newest first', [
      ['Month', m => fmt.format(new Date(m.month + '-01T00:00:00Z'))],
      ['Documents', m => String(m.documents)],
      ['Allowance pages', m => m.allowancePages.toLocaleString()],
      ['Wallet pages', m => m.walletPages.toLocaleString()],
      ['Amount', m => fmtMoney(m.amountMicros)],
    ], rows));
}
