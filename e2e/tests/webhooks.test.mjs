// Webhooks in the console: an owner adds an endpoint pointing at the
// harness's real HTTPS receiver, sees its signing secret once, pings it and
// sees the receiver's answer, checks the receiver got a request signed with
// that secret, sees a document's delivery listed with its request and
// response, and switches the endpoint off and on. Both pages are checked
// with axe-core and photographed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { launch, api, need, visit, newOwner, newPage, acceptLink, received, screenshots, checkA11y } from '../lib.mjs';

let browser;
let owner; // { page, orgId }
let secret = '';
let hookURL = '';
let hookPath = '';
let endpointPage = '';
before(async () => {
  browser = await launch();
  owner = await newOwner(browser, { plan: 'starter' });
  hookPath = `/hooks/${owner.orgId}`;
  hookURL = need('receiverURL') + hookPath;
});
after(async () => { await browser?.close(); });

// verify is docs/webhooks.md's Node.js verifier, as a customer would use it.
function verify(secretValue, header, rawBody, now = Date.now()) {
  const parts = Object.fromEntries(header.split(',').map((p) => p.trim().split('=', 2)));
  const t = Number.parseInt(parts.t, 10);
  if (!Number.isFinite(t) || !parts.v1) throw new Error('malformed signature header');
  if (Math.abs(now / 1000 - t) > 300) throw new Error('timestamp outside the five-minute tolerance');
  const want = crypto.createHmac('sha256', secretValue).update(`${parts.t}.`).update(rawBody).digest('hex');
  const a = Buffer.from(want), b = Buffer.from(parts.v1);
  if (a.length !== b.length || !crypto.timingSafeEqual(a, b)) throw new Error('signature does not match');
}

async function until(what, fn, ms = 15000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

test('an owner adds an endpoint and sees its secret once; the guard refuses a private address at the url field', async () => {
  const { page } = owner;
  await visit(page, '/webhooks', 'webhooks-empty', { ready: page.getByText('No endpoints yet') });
  const boxes = page.getByRole('group', { name: 'Events' }).getByRole('checkbox');
  assert.equal(await boxes.count(), 5, 'one box for each event kind the API accepts');
  // This node lets webhooks reach loopback (as serve --dev does): the hint says so, and names the CLI's receiver.
  await page.getByText(/loopback and private addresses work too, and `platen webhooks listen` receives/).waitFor();

  // Not https: refused by the server, shown at the URL input.
  await page.getByLabel('Name').fill('receiver');
  await page.getByLabel('URL').fill('http://127.0.0.1:9/hook');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const urlErr = page.locator('#f-url-error');
  await urlErr.waitFor();
  assert.match(await urlErr.textContent(), /https/);
  assert.equal(await page.getByLabel('URL').getAttribute('aria-invalid'), 'true');
  await screenshots(page, 'webhooks-url-refused');

  await page.getByLabel('URL').fill(hookURL);
  await page.getByRole('checkbox', { name: 'document.completed' }).check();
  await page.getByRole('checkbox', { name: 'document.failed' }).check();
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  secret = (await page.locator('.secret-value').textContent()).trim();
  assert.match(secret, /^whsec_/);
  await page.getByRole('cell', { name: 'receiver', exact: true }).waitFor();
  await page.getByRole('cell', { name: 'Enabled' }).waitFor();
  await checkA11y(page, 'webhooks-created');
  await screenshots(page, 'webhooks-created');

  // The secret never again: not in the page after a reload, not in any GET.
  await page.reload();
  await page.getByRole('cell', { name: 'receiver', exact: true }).waitFor();
  assert.ok(!(await page.content()).includes(secret), 'the signing secret is in the page after a reload');
  const list = await page.evaluate(() => fetch('/v1/webhooks').then((r) => r.text()));
  assert.ok(list.includes('"receiver"') && !list.includes(secret) && !list.includes('signingSecret'), list);
  const id = JSON.parse(list).data.items[0].id;
  const one = await page.evaluate((p) => fetch(p).then((r) => r.text()), `/v1/webhooks/${id}`);
  assert.ok(one.includes(id) && !one.includes(secret) && !one.includes('signingSecret'), one);
  await visit(page, '/webhooks', 'webhooks', { ready: page.getByRole('cell', { name: 'receiver', exact: true }) });
  endpointPage = `/webhooks/${id}`;
});

test('a ping from the console: the receiver answers in the page, and got a request signed with the secret', async () => {
  assert.ok(endpointPage, 'the endpoint was added');
  const { page } = owner;
  await page.getByRole('link', { name: 'receiver' }).click();
  await page.getByRole('heading', { level: 1, name: 'receiver' }).waitFor();
  await page.getByText('No deliveries yet').waitFor();
  await page.getByRole('button', { name: 'Send a ping' }).click();
  await page.locator('.ping-status').filter({ hasText: 'HTTP 200' }).waitFor();
  assert.equal((await page.locator('.ping-body').textContent()).trim(), 'received ping', 'the receiver\'s body is shown');

  const got = await received(hookPath);
  const ping = got.find((r) => r.headers['x-service-event'] === 'ping');
  assert.ok(ping, `the receiver got no ping: ${JSON.stringify(got)}`);
  verify(secret, ping.headers['x-service-signature'], Buffer.from(ping.body, 'utf8'));
  assert.throws(() => verify('whsec_not-the-secret', ping.headers['x-service-signature'], Buffer.from(ping.body, 'utf8')), /does not match/);
  assert.equal(JSON.parse(ping.body).event, 'ping');
});

test('a document made through REST is delivered; its request and response open in the page', async () => {
  const { page } = owner;
  const op = need('operatorToken');
  const k = await api('POST', `/admin/v1/orgs/${owner.orgId}/keys`, { key: op, body: { name: 'e2e webhooks', scopes: ['documents.generate', 'documents.read', 'templates.read', 'templates.write'] } });
  assert.equal(k.status, 201, k.text);
  const key = k.json.data.key;
  const lib = await api('GET', '/v1/templates/library', { key });
  const invoice = lib.json.data.items.find((s) => s.slug === 'invoice');
  assert.ok(invoice, 'the invoice starter');
  const copy = await api('POST', '/v1/templates/library/invoice/copy', { key, body: {} });
  assert.equal(copy.status, 201, copy.text);

  const doc = await api('POST', '/v1/documents', { key, body: { templateId: 'invoice', data: invoice.sampleData, wait: true } });
  assert.ok(doc.status === 200 || doc.status === 201, doc.text);
  const docId = doc.json.data.id;
  // The change feed brings the delivery into the list without a reload.
  const row = page.locator('tbody tr').filter({ hasText: 'document.completed' });
  await row.waitFor();
  // Its attempt may finish after the feed's last event: Refresh reads again.
  await until('the delivery to be delivered', async () => {
    if (await row.getByText('delivered', { exact: true }).count()) return true;
    await page.getByRole('button', { name: 'Refresh' }).click();
    return false;
  });
  const details = row.getByRole('button', { name: /Details of document\.completed/ });
  assert.equal(await details.getAttribute('aria-expanded'), 'false');
  await details.click();
  assert.equal(await details.getAttribute('aria-expanded'), 'true');
  const panel = page.locator('#' + (await details.getAttribute('aria-controls')));
  await panel.getByRole('heading', { name: 'Request' }).waitFor();
  const text = await panel.textContent();
  assert.match(text, /x-service-signature: t=\d+,v1=[0-9a-f]{64}/);
  assert.ok(text.includes(docId), 'the request body names the document');
  assert.match(text, /HTTP 200/);
  assert.ok(text.includes('received document.completed'), 'the receiver\'s body is shown');
  await checkA11y(page, 'webhook-delivery');
  await screenshots(page, 'webhook-delivery');

  // The receiver got that delivery, signed with the secret.
  const got = await received(hookPath);
  const dl = got.find((r) => r.headers['x-service-event'] === 'document.completed');
  assert.ok(dl, 'the receiver got the delivery');
  verify(secret, dl.headers['x-service-signature'], Buffer.from(dl.body, 'utf8'));
  await details.click();
  assert.equal(await panel.isHidden(), true, 'the details close again');
});

test('another organisation\'s owner cannot see, change or ping the endpoint; a member cannot reach webhooks', async () => {
  assert.ok(endpointPage, 'the endpoint was added');
  const id = endpointPage.split('/').pop();
  const other = await newOwner(browser, { plan: 'starter' });
  try {
    await other.page.goto(need('baseURL') + endpointPage);
    await other.page.getByText('There is no such endpoint').waitFor();
    const statuses = await other.page.evaluate(async (id) => {
      const me = await (await fetch('/console/api/me')).json();
      const headers = { 'X-CSRF-Token': me.data.csrf, 'Content-Type': 'application/json' };
      const p = `/v1/webhooks/${id}`;
      return Promise.all([
        fetch(p).then((r) => r.status),
        fetch(p + '/deliveries').then((r) => r.status),
        fetch(p, { method: 'PATCH', headers, body: '{"enabled": false}' }).then((r) => r.status),
        fetch(p + '/ping', { method: 'POST', headers }).then((r) => r.status),
        fetch(p, { method: 'DELETE', headers }).then((r) => r.status),
      ]);
    }, id);
    assert.deepEqual(statuses, [404, 404, 404, 404, 404], 'another organisation\'s endpoint is not found');
    assert.equal((await other.page.evaluate(() => fetch('/v1/webhooks').then((r) => r.json()))).data.items.length, 0);
  } finally { await other.page.context().close(); }

  const op = need('operatorToken');
  const inv = await api('POST', `/admin/v1/orgs/${owner.orgId}/invites`, { key: op, body: { email: `member.${process.pid}@example.com`, role: 'member' } });
  assert.equal(inv.status, 201, inv.text);
  const member = await newPage(browser);
  try {
    await acceptLink(member, inv.json.data.link, { name: 'Hook Member' });
    await member.goto(need('baseURL') + endpointPage);
    await member.getByText(/does not allow this page/).waitFor();
    const got = await member.evaluate((p) => Promise.all([fetch('/v1/webhooks').then((r) => r.status), fetch(p).then((r) => r.status)]), `/v1/webhooks/${id}`);
    assert.deepEqual(got, [403, 403], 'the server refuses a member the webhooks');
  } finally { await member.context().close(); }
});

test('disable and re-enable; both pages pass axe at both widths', async () => {
  assert.ok(endpointPage, 'the endpoint was added');
  const { page } = owner;
  await visit(page, endpointPage, 'webhook', { ready: page.locator('tbody tr').first() });
  await page.getByRole('button', { name: 'Disable' }).click();
  await page.getByText('Switched off', { exact: true }).waitFor();
  await page.getByText('switched off by the organisation').waitFor();
  const off = await api('GET', '/v1/webhooks', { cookie: await cookie(page) });
  assert.equal(off.json.data.items[0].enabled, false, 'the server holds it switched off');
  await screenshots(page, 'webhook-disabled');
  await page.getByRole('button', { name: 'Enable' }).click();
  await page.getByRole('button', { name: 'Disable' }).waitFor();
  await page.getByText('Enabled', { exact: true }).waitFor();
  const on = await api('GET', '/v1/webhooks', { cookie: await cookie(page) });
  assert.equal(on.json.data.items[0].enabled, true);
  await page.context().close();
});

async function cookie(page) {
  const c = (await page.context().cookies()).find((x) => x.name === 'platen_session');
  return `platen_session=${c.value}`;
}
