// Signing certificates in the console: an owner uploads the PKCS#12 file the
// Go test wrote (sign/signtest), first with the wrong password (refused at
// the password input: the right one with its trailing space trimmed, so the
// page must send the password as typed) and with a file that is not PKCS#12
// (refused at the file input), then with the right one, and sees it listed
// with its subject, issuer, key and validity, and its id to sign with; the
// key is in no answer. Deleting asks first, and Cancel keeps it. A member
// has neither the menu entry nor the page. Each state is checked with
// axe-core and photographed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, api, need, visit, newOwner, newPage, acceptLink, screenshots, checkA11y } from '../lib.mjs';

let browser;
let owner; // { page, orgId }
let certId = '';
before(async () => {
  browser = await launch();
  owner = await newOwner(browser, { plan: 'starter' });
});
after(async () => { await browser?.close(); });

test('the page says the key is sealed and how a template signs; the menu leads to it', async () => {
  const { page } = owner;
  // The overview drawn first: the router does not cancel a page still
  // loading, so one finishing after the click would cover the new page.
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Signing' }).click();
  await page.getByRole('heading', { level: 1, name: 'Signing certificates' }).waitFor();
  await visit(page, '/signing', 'signing-empty', { ready: page.getByText('No certificates yet') });
  assert.equal(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Signing' }).getAttribute('aria-current'), 'page');
  const lead = await page.locator('main .lead').textContent();
  assert.match(lead, /sealed when stored and never shown again/);
  assert.ok(lead.includes('"sign": {"certificateId": "crt_…"}'), lead);
  assert.equal(await page.getByLabel('Password').getAttribute('type'), 'password');
});

test('a wrong password is refused at the password input, a file that is not PKCS#12 at the file input', async () => {
  const { page } = owner;
  const file = page.getByLabel('Certificate file (.p12 or .pfx)');
  const pass = page.getByLabel('Password');
  const upload = page.getByRole('button', { name: 'Upload certificate' });

  // No file: said at the file input, nothing sent.
  await upload.click();
  await page.locator('#f-file-error').filter({ hasText: 'Choose the .p12 or .pfx file' }).waitFor();

  await file.setInputFiles(need('signingP12'));
  await pass.fill(need('signingPassword').trim());
  await page.getByLabel('Name').fill('Accounts');
  await upload.click();
  const passErr = page.locator('#f-password-error');
  await passErr.waitFor();
  assert.match(await passErr.textContent(), /does not open the file/);
  assert.equal(await pass.getAttribute('aria-invalid'), 'true');
  assert.equal(await pass.getAttribute('aria-describedby'), 'f-password-error');
  assert.equal(await page.locator('#f-file-error').count(), 0, 'the file is not blamed');
  assert.equal(await page.locator('tbody tr').count(), 0, 'nothing stored');
  await checkA11y(page, 'signing-password-refused');
  await screenshots(page, 'signing-password-refused');

  await file.setInputFiles({ name: 'notes.p12', mimeType: 'application/x-pkcs12', buffer: Buffer.from('not a PKCS#12 file') });
  await pass.fill(need('signingPassword'));
  await upload.click();
  const fileErr = page.locator('#f-file-error');
  await fileErr.waitFor();
  assert.match(await fileErr.textContent(), /is not a PKCS#12 file/);
  assert.equal(await page.locator('#f-password-error').count(), 0, 'the earlier refusal is gone');
  assert.equal(await pass.getAttribute('aria-invalid'), null);
});

test('the right password stores it: listed with subject, issuer, key and validity; the key is in no answer', async () => {
  const { page } = owner;
  await page.getByLabel('Certificate file (.p12 or .pfx)').setInputFiles(need('signingP12'));
  await page.getByLabel('Password').fill(need('signingPassword'));
  await page.getByLabel('Name').fill('Accounts');
  await page.getByRole('button', { name: 'Upload certificate' }).click();
  const stored = page.locator('.cert-created');
  await stored.waitFor();
  const snippet = (await stored.locator('code').textContent()).trim();
  certId = snippet.match(/"certificateId": "(crt_[0-9a-z]+)"/)?.[1] || '';
  assert.ok(certId, `the id to sign with: ${snippet}`);
  assert.equal(await page.getByLabel('Password').inputValue(), '', 'the form is emptied');

  const row = page.locator('tbody tr').filter({ hasText: certId });
  await row.waitFor();
  const cells = Object.fromEntries(await row.locator('td').evaluateAll((tds) => tds.map((td) => [td.dataset.label || '', td.textContent.trim()])));
  assert.equal(await row.locator('.cert-name').textContent(), 'Accounts');
  assert.equal(await row.locator('.cert-id code').textContent(), certId, 'the id is under the name');
  assert.equal(cells.Subject, 'Ada Lovelace Accounts');
  assert.equal(cells.Issuer, 'CN=Platen e2e CA, O=Platen tests');
  assert.equal(cells.Key, 'ECDSA P-256');
  // A year from now, less the hour the test authority backdates by.
  assert.match(cells['Valid until'], /expires in 36[45] days$/);
  assert.doesNotMatch(cells['Valid until'], /expired/);
  await page.getByRole('button', { name: 'Copy the id of Accounts' }).waitFor();
  await checkA11y(page, 'signing-stored');
  await screenshots(page, 'signing-stored');

  // The words for the other states, from the page's own function: an
  // expired certificate cannot be uploaded to show them.
  const words = await page.evaluate(async () => {
    const { validity } = await import('/assets/pages/signing.js');
    const now = Date.parse('2030-01-10T12:00:00Z');
    return ['2030-01-10T11:00:00Z', '2030-01-10T18:00:00Z', '2030-01-11T13:00:00Z', '2030-01-20T12:00:00Z', '2030-03-20T12:00:00Z']
      .map((t) => { const el = validity(t, now).lastChild; return [el.textContent, el.className]; });
  });
  assert.deepEqual(words, [
    ['expired', 'badge danger'],
    ['expires in less than a day', 'badge warn'],
    ['expires in 1 day', 'badge warn'],
    ['expires in 10 days', 'badge warn'],
    ['expires in 69 days', 'muted'],
  ]);

  // The key, the file and the password are in no answer the console reads.
  const list = await page.evaluate(() => fetch('/v1/signing/certificates').then((r) => r.text()));
  const one = await page.evaluate((p) => fetch(p).then((r) => r.text()), `/v1/signing/certificates/${certId}`);
  for (const text of [list, one]) {
    assert.ok(text.includes(certId), text);
    assert.ok(!/PRIVATE|pkcs12|password/i.test(text) && !text.includes(need('signingPassword').trim()), text);
  }
  await visit(page, '/signing', 'signing', { ready: page.locator('tbody tr').filter({ hasText: certId }) });
});

test('a member has neither the menu entry nor the page, and the server refuses them', async () => {
  assert.ok(certId, 'the certificate was stored');
  const op = need('operatorToken');
  const inv = await api('POST', `/admin/v1/orgs/${owner.orgId}/invites`, { key: op, body: { email: `signing.member.${process.pid}@example.com`, role: 'member' } });
  assert.equal(inv.status, 201, inv.text);
  const member = await newPage(browser);
  try {
    await acceptLink(member, inv.json.data.link, { name: 'Sig Member' });
    assert.equal(await member.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Signing' }).count(), 0);
    await member.goto(need('baseURL') + '/signing');
    await member.getByText(/does not allow this page/).waitFor();
    const got = await member.evaluate((p) => Promise.all([fetch('/v1/signing/certificates').then((r) => r.status), fetch(p).then((r) => r.status)]), `/v1/signing/certificates/${certId}`);
    assert.deepEqual(got, [403, 403]);
  } finally { await member.context().close(); }
});

test('delete asks first: Cancel keeps it, Delete erases it', async () => {
  assert.ok(certId, 'the certificate was stored');
  const { page } = owner;
  const del = page.getByRole('button', { name: 'Delete Accounts' });
  await del.click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  assert.match(await dialog.textContent(), /Delete the certificate "Accounts"\? Its key is erased/);
  await checkA11y(page, 'signing-delete-dialog');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
  assert.equal(await page.locator('tbody tr').count(), 1, 'Cancel keeps it');

  await del.click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await page.getByText('No certificates yet').waitFor();
  const list = await page.evaluate(() => fetch('/v1/signing/certificates').then((r) => r.json()));
  assert.deepEqual(list.data.items, []);
  const gone = await page.evaluate((p) => fetch(p).then((r) => r.status), `/v1/signing/certificates/${certId}`);
  assert.equal(gone, 404);
  await page.context().close();
});
