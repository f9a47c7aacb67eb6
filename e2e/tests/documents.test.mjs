// Documents in the console: an owner generates from the console's form and
// (with a key) through REST while the list is open, and both rows appear and
// turn completed from the change feed without a reload; a schema refusal is
// shown at the data box; one document is opened, downloaded (a PDF) and
// regenerated; a failed document says why; the overview counts them and
// draws the chart, live; the wallet page shows a credit as it lands and the
// usage by month. Each page is checked with axe-core and photographed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { launch, newPage, api, need, visit, newOwner, acceptLink, screenshots } from '../lib.mjs';

let browser, page, orgId, key;
const marker = () => page.evaluate(() => window.__noReload === true);

before(async () => {
  browser = await launch();
  ({ page, orgId } = await newOwner(browser, { plan: 'starter' }));
  const k = await api('POST', `/admin/v1/orgs/${orgId}/keys`, { key: need('operatorToken'),
    body: { name: 'e2e documents', scopes: ['documents.generate', 'templates.write', 'templates.read', 'wallet.read'] } });
  assert.equal(k.status, 201, k.text);
  key = k.json.data.key;
  const copy = await api('POST', '/v1/templates/library/letter/copy', { key, body: {} });
  assert.equal(copy.status, 201, copy.text);
  // A template whose fill fails at render time (an asset it does not have):
  // its sample data passes the check, any item makes a failed document.
  const broken = await api('POST', '/v1/templates', { key, body: {
    name: 'Broken', slug: 'broken', html: '{{#each items}}{{asset "missing.png"}}{{/each}}', sampleData: { items: [] }, activate: true } });
  assert.equal(broken.status, 201, broken.text);
});
after(async () => { await browser?.close(); });

const row = (text) => page.locator('table.docs tbody tr', { hasText: text });

test('documents made in the console and through REST appear and complete live', async () => {
  await visit(page, '/documents', 'documents-empty');
  await page.evaluate(() => { window.__noReload = true; });

  // A schema refusal is shown at the data box.
  await page.getByText('Generate a document').click();
  const data = page.getByLabel('Data (JSON)');
  await page.locator('details.generate').getByLabel('Template').selectOption('letter');
  await page.waitForFunction(() => document.querySelector('textarea[name=data]')?.value.includes('recipient'));
  await data.fill('{"subject": 5}');
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  await page.locator('textarea[name=data][aria-invalid=true]').waitFor();
  await page.locator('.field-error', { hasText: /is required|must be/ }).waitFor();
  await screenshots(page, 'documents-schema-error');

  // The form: back to the sample data (choosing the template again), with a correlationId.
  await page.locator('details.generate').getByLabel('Template').selectOption('broken');
  await page.waitForFunction(() => document.querySelector('textarea[name=data]')?.value.includes('items'));
  await page.locator('details.generate').getByLabel('Template').selectOption('letter');
  await page.waitForFunction(() => document.querySelector('textarea[name=data]')?.value.includes('recipient'));
  await page.getByLabel('Correlation ID (optional)').fill('console-1');
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  await row('console-1').waitFor();
  await row('console-1').getByText('Completed').waitFor({ timeout: 20000 });
  // The form's line about the document follows it as the row does.
  await page.locator('.gen-status', { hasText: 'completed' }).waitFor();

  // REST, with a key, while the page is open: the feed brings the row.
  const sample = (await api('GET', '/v1/templates/letter/versions/1', { key })).json.data.sampleData;
  const r = await api('POST', '/v1/documents', { key, body: { templateId: 'letter', data: sample, correlationId: 'rest-1', wait: false } });
  assert.equal(r.status, 202, r.text);
  await row('rest-1').waitFor();
  await row('rest-1').getByText('Completed').waitFor({ timeout: 20000 });
  assert.ok(await marker(), 'the page was reloaded');
  const live = await page.locator('#docs-live').textContent();
  assert.match(live, /doc_/, 'the change was announced');
  await visit(page, '/documents', 'documents');

  // Filters live in the address; a filtered list takes only what fits.
  await page.getByLabel('Correlation ID').first().fill('rest-1');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(/correlationId=rest-1/);
  await row('rest-1').waitFor();
  assert.equal(await row('console-1').count(), 0, 'a filtered-out document is listed');
  await page.evaluate(() => { window.__noReload = true; });
  const other = await api('POST', '/v1/documents', { key, body: { templateId: 'letter', data: sample, correlationId: 'other', wait: false } });
  assert.equal(other.status, 202, other.text);
  const fits = await api('POST', '/v1/documents', { key, body: { templateId: 'letter', data: sample, correlationId: 'rest-1', wait: false } });
  await page.locator(`tr[data-id="${fits.json.data.id}"]`).getByText('Completed').waitFor({ timeout: 20000 });
  assert.equal(await row('other').count(), 0, 'a document outside the filter arrived in the filtered list');
  assert.ok(await marker(), 'the page was reloaded');
  await visit(page, '/documents?correlationId=rest-1', 'documents-filtered');
});

test('a document opens, downloads as a PDF and regenerates', async () => {
  await page.goto(need('baseURL') + '/documents?correlationId=console-1');
  // The row is the document: its file name, and its PDF a click away.
  const [fromRow] = await Promise.all([page.waitForEvent('download'), row('console-1').getByRole('button', { name: /^Download letter-.*\.pdf$/ }).click()]);
  assert.equal((await readFile(await fromRow.path())).subarray(0, 4).toString(), '%PDF', 'the row\'s download is not a PDF');
  // Its first page, drawn by the server, and what it cost: a page of the
  // monthly allowance.
  await page.waitForFunction(() => { const i = document.querySelector('table.docs img.doc-thumb'); return i?.complete && i.naturalWidth === 320; });
  assert.match(await row('console-1').getByRole('cell').nth(4).textContent(), /^1 allowance page$/);
  await row('console-1').getByRole('link', { name: /^letter-.*\.pdf$/ }).click();
  await page.getByRole('heading', { name: 'Record' }).waitFor();
  const id = new URL(page.url()).pathname.split('/').pop();
  assert.match(id, /^doc_/);
  await visit(page, '/documents/' + id, 'document');
  const firstPage = page.getByRole('img', { name: /^First page of letter-.*\.pdf$/ });
  await page.waitForFunction(() => { const i = document.querySelector('.doc-first-page img'); return i?.complete && i.naturalWidth === 320; });
  assert.equal(await firstPage.getAttribute('width'), '160');
  await page.getByRole('definition').filter({ hasText: /^1 allowance page$/ }).waitFor();
  // The data it was made from, read when the section is opened.
  await page.getByText('Data it was made from').click();
  const dataPre = page.getByLabel('The data, as JSON');
  await dataPre.waitFor();
  const sent = (await api('GET', '/v1/documents/' + id + '/data', { key })).json.data;
  assert.deepEqual(JSON.parse(await dataPre.textContent()), sent);
  await screenshots(page, 'document-data');
  // Times as people say them, the exact time on hover.
  const created = page.locator('.facts time[datetime]').first();
  assert.match(await created.textContent(), /just now|minute|hour/);
  assert.match(await created.getAttribute('title'), /\d{4}/, 'the exact time is on hover');
  // The render report: every stage's time and the PDF's SHA-256.
  await page.getByRole('heading', { name: 'Render report' }).waitFor();
  const rec = (await api('GET', '/v1/documents/' + id, { key })).json.data;
  await page.getByText(rec.report.sha256).waitFor();
  await page.getByText(/queued \d+ ms · filling \d+ ms · rendering \d+ ms · counting \d+ ms · storing \d+ ms/).waitFor();

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
  const pdf = await readFile(await download.path());
  assert.equal(pdf.subarray(0, 4).toString(), '%PDF', 'the download is not a PDF');
  assert.equal((await api('GET', '/v1/documents/' + id, { key })).json.data.downloads, 2, 'the downloads (the row\'s and the page\'s) were not recorded');

  await page.evaluate(() => { window.__noReload = true; });
  await page.getByRole('button', { name: 'Regenerate' }).click();
  await page.waitForURL((u) => u.pathname.startsWith('/documents/doc_') && !u.pathname.endsWith(id));
  await page.getByRole('definition').filter({ hasText: id }).waitFor();
  await page.locator('.facts [data-status="completed"]').waitFor({ timeout: 20000 });
  assert.ok(await marker(), 'the page was reloaded');
});

test('a failed document says why, here and on the overview', async () => {
  await page.goto(need('baseURL') + '/documents');
  await page.locator('table.docs').waitFor();
  await page.evaluate(() => { window.__noReload = true; });
  const r = await api('POST', '/v1/documents', { key, body: { templateId: 'broken', data: { items: [{}] }, correlationId: 'will-fail', wait: false } });
  assert.equal(r.status, 202, r.text);
  await row('will-fail').getByText('Failed').waitFor({ timeout: 20000 });
  await row('will-fail').getByRole('link').click();
  await page.getByRole('heading', { name: 'Why it failed' }).waitFor();
  await page.getByText('TEMPLATE_ERROR').waitFor();
  await page.getByText(/missing\.png/).waitFor();
  await page.getByRole('heading', { name: 'Render report' }).waitFor();
  await page.getByRole('definition').filter({ hasText: /^filling$/ }).waitFor();
  assert.ok(await marker(), 'the page was reloaded');
  await visit(page, '/documents/' + r.json.data.id, 'document-failed');
});

test('the overview counts the documents, draws the chart and follows the feed', async () => {
  await visit(page, '/', 'overview');
  // The first-run checklist: a key, a template and PDFs are there; the webhook is the step left.
  const steps = page.locator('section.checklist');
  await steps.getByText('3 of 4 done').waitFor();
  assert.equal(await steps.locator('li.step:not(.done)').count(), 1);
  assert.match(await steps.locator('li.step:not(.done)').textContent(), /Add a webhook.*Go to Webhooks/);
  const today = page.locator('svg.chart g.bar').last();
  assert.equal(await page.locator('svg.chart g.bar').count(), 30);
  assert.match(await today.getAttribute('aria-label'), /: 5 completed, 1 failed, 0 in progress$/);
  await page.getByText('5 completed', { exact: true }).waitFor();
  await page.getByRole('link', { name: /doc_/ }).first().waitFor();
  await page.getByText(/missing\.png/).waitFor();
  // The numbers behind the chart.
  await page.getByText('Show the numbers').click();
  await page.getByRole('rowheader').first().waitFor();
  await screenshots(page, 'overview-numbers');

  await page.evaluate(() => { window.__noReload = true; });
  const sample = (await api('GET', '/v1/templates/letter/versions/1', { key })).json.data.sampleData;
  const r = await api('POST', '/v1/documents', { key, body: { templateId: 'letter', data: sample } });
  assert.equal(r.status, 201, r.text);
  await page.getByText('6 completed', { exact: true }).waitFor();
  assert.match(await today.getAttribute('aria-label'), /: 6 completed, 1 failed/);
  assert.ok(await marker(), 'the page was reloaded');
});

test('the wallet shows a credit as it lands, and usage by month', async () => {
  await visit(page, '/wallet', 'wallet-empty');
  await page.evaluate(() => { window.__noReload = true; });
  const c = await api('POST', `/admin/v1/orgs/${orgId}/wallet/credit`, { key: need('operatorToken'), body: { amountMicros: 2500000, reference: 'e2e-topup' } });
  assert.equal(c.status, 201, c.text);
  await page.getByRole('row', { name: /e2e-topup/ }).waitFor();
  // Money with its currency (the node's wallet currency, EUR by default).
  assert.match(await page.getByRole('row', { name: /e2e-topup/ }).textContent(), /\+€2\.50/);
  // What a top-up means and who to ask, with the id to give them.
  const topUp = page.getByRole('region', { name: 'Adding money' });
  await topUp.getByText(orgId, { exact: true }).waitFor();
  assert.match(await topUp.textContent(), /operator/);
  assert.ok(await marker(), 'the page was reloaded');
  const month = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date());
  const usage = page.getByRole('table', { name: /Usage by month/ }).getByRole('row', { name: new RegExp(month) });
  // Six completed letters, all within the allowance: no wallet pages.
  const cells = await usage.getByRole('cell').allTextContents();
  assert.equal(cells[1], '6', cells.join(' | '));
  assert.equal(Number(cells[2]), (await api('GET', '/v1/wallet', { key })).json.data.allowance.usedPages, cells.join(' | '));
  assert.equal(cells[3], '0', cells.join(' | '));
  // The organisation was made this month: no empty months from before it.
  assert.equal(await page.getByRole('table', { name: /Usage by month/ }).locator('tbody tr').count(), 1, 'months before the first document are listed');
  await visit(page, '/wallet', 'wallet');
  await page.evaluate(() => { window.__noReload = true; });

  // Older rows a page at a time: twenty more credits push the first off the first page.
  for (let i = 2; i <= 21; i++) {
    const more = await api('POST', `/admin/v1/orgs/${orgId}/wallet/credit`, { key: need('operatorToken'), body: { amountMicros: 1000, reference: 'e2e-topup-' + i } });
    assert.equal(more.status, 201, more.text);
  }
  await page.getByRole('cell', { name: 'e2e-topup-21', exact: true }).waitFor();
  assert.equal(await page.getByRole('cell', { name: 'e2e-topup', exact: true }).count(), 0, 'the first page holds more than 20 rows');
  await page.getByRole('button', { name: 'Show older rows' }).click();
  await page.getByRole('cell', { name: 'e2e-topup', exact: true }).waitFor();
  assert.ok(await page.getByRole('button', { name: 'Show older rows' }).isHidden(), 'a button for rows that are not there');
  assert.ok(await marker(), 'the page was reloaded');
});

test('a member sees the overview without the wallet, and no error', async () => {
  const inv = await api('POST', `/admin/v1/orgs/${orgId}/invites`, { key: need('operatorToken'), body: { email: `member.${process.pid}@example.com`, role: 'member' } });
  assert.equal(inv.status, 201, inv.text);
  const member = await newPage(browser);
  try {
    await acceptLink(member, inv.json.data.link);
    await member.getByRole('heading', { name: 'Documents a day, last 30 days' }).waitFor();
    await member.getByText('6 completed', { exact: true }).waitFor();
    assert.equal(await member.getByText('Wallet balance').count(), 0, 'a member is shown the wallet');
    assert.equal(await member.locator('main .form-error').count(), 0, 'the overview shows an error');
    await visit(member, '/', 'overview-member');
  } finally { await member.context().close(); }
});

test('older documents come a page at a time', async () => {
  const sample = (await api('GET', '/v1/templates/letter/versions/1', { key })).json.data.sampleData;
  for (let i = 0; i < 16; i++) {
    const r = await api('POST', '/v1/documents', { key, body: { templateId: 'letter', data: sample, correlationId: 'bulk-' + i, wait: false } });
    assert.equal(r.status, 202, r.text);
  }
  await page.goto(need('baseURL') + '/documents');
  await page.locator('table.docs').waitFor();
  const rows = page.locator('table.docs tbody tr');
  assert.equal(await rows.count(), 20, 'the first page');
  await page.getByRole('button', { name: 'Show older documents' }).click();
  await page.waitForFunction(() => document.querySelectorAll('table.docs tbody tr').length > 20);
  const all = (await api('GET', '/v1/documents?limit=100', { key })).json.data.items.length;
  assert.equal(await rows.count(), all, 'every document after the second page');
  assert.ok(await page.getByRole('button', { name: 'Show older documents' }).isHidden(), 'a button for documents that are not there');
});

test('an e-invoice shows its conformance report and hands out its XML', async () => {
  const copy = await api('POST', '/v1/templates/library/e-invoice/copy', { key, body: {} });
  assert.equal(copy.status, 201, copy.text);
  const sample = (await api('GET', '/v1/templates/e-invoice/versions/1', { key })).json.data.sampleData;
  const r = await api('POST', '/v1/documents', { key, body: { templateId: 'e-invoice', data: sample, correlationId: 'einvoice-1' } });
  assert.equal(r.status, 201, r.text);
  await visit(page, '/documents/' + r.json.data.id, 'document-einvoice');
  await page.getByRole('heading', { name: 'Conformance' }).waitFor();
  await page.getByText(/\d+ rules checked, 0 failed/).waitFor();
  await page.getByText('EN 16931, embedded as').waitFor();
  await page.getByText(/PDF\/A rules checked \(\d+\), by veraPDF id/).click();
  await page.getByText('6.6.4-1', { exact: true }).waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download factur-x.xml' }).click()]);
  assert.match(download.suggestedFilename(), /factur-x\.xml$/);
  const xml = (await readFile(await download.path())).toString();
  assert.match(xml, /<rsm:CrossIndustryInvoice/, 'the download is not the invoice XML');
  assert.match(xml, /<ram:GrandTotalAmount>1531\.73<\/ram:GrandTotalAmount>/);
});

test('a page that does not exist is shown inside the signed-in frame', async () => {
  await visit(page, '/no-such-page', 'not-found-signed-in');
  await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Documents' }).waitFor();
  await page.getByText('Sign out').waitFor();
});

test('a network failure is said in words, not in the browser\'s', async () => {
  await page.goto(need('baseURL') + '/documents');
  await page.locator('table.docs').waitFor();
  await page.getByText('Generate a document').click();
  await page.locator('details.generate').getByLabel('Template').selectOption('letter');
  await page.waitForFunction(() => document.querySelector('textarea[name=data]')?.value.includes('recipient'));
  await page.context().setOffline(true);
  try {
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await page.getByText('Platen could not be reached: check your connection, then try again.').waitFor();
    assert.equal(await page.getByText(/Failed to fetch|NetworkError/).count(), 0, 'the browser\'s own words are shown');
  } finally { await page.context().setOffline(false); }
});
