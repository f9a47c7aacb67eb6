// People in the console: the first owner from the printed link, keys made in
// the console and used with REST, an invited member who cannot see keys, and
// the account page. Each page is checked with axe-core and photographed at
// laptop and phone widths.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { launch, newPage, api, need, visit, acceptLink, password, screenshots, checkA11y, paints, firstPaint } from '../lib.mjs';

let browser;
let owner; // the first owner's page
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('the sign-in page', async () => {
  const page = await newPage(browser);
  try {
    await visit(page, '/signin', 'signin');
    // A wrong password says so at the form, without saying which was wrong.
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'wrong' }).waitFor();
  } finally { await page.context().close(); }
});

test('the first owner sets a password from the printed link', async () => {
  const link = need('firstLink');
  owner = await newPage(browser);
  await owner.goto(link);
  await owner.getByRole('heading', { name: 'Become the first owner' }).waitFor();
  paints.link = await firstPaint(owner);
  await checkA11y(owner, 'link');
  await screenshots(owner, 'link');
  assert.equal(new URL(owner.url()).hash, '', 'the token is cleaned from the address bar');
  await owner.getByLabel('Your email').fill('first.owner@example.com');
  await owner.getByLabel('Your name').fill('First Owner');
  await owner.getByLabel('Password').fill(password);
  await owner.getByRole('button', { name: /Set password/ }).click();
  await owner.locator('header .who').waitFor();
  await owner.getByRole('link', { name: 'First Owner' }).waitFor();
  // The link works once.
  const again = await newPage(browser);
  try {
    await again.goto(link);
    await again.getByRole('heading', { name: 'This link cannot be used' }).waitFor();
  } finally { await again.context().close(); }
});

test('an owner creates a key, copies it once, and it works with REST', async () => {
  await visit(owner, '/keys', 'keys');
  await owner.getByLabel('Name').fill('billing service');
  await owner.getByRole('checkbox', { name: /templates\.read/ }).check();
  await owner.getByRole('button', { name: 'Create key' }).click();
  const value = (await owner.locator('.secret-value').textContent()).trim();
  assert.match(value, /^plt_[A-Za-z0-9]{43}$/);
  await screenshots(owner, 'keys-created');
  const r = await api('GET', '/v1/templates', { key: value });
  assert.equal(r.status, 200, r.text);
  const wallet = await api('GET', '/v1/wallet', { key: value });
  assert.equal(wallet.status, 403, 'the key holds only the scopes chosen');
  // No secret in a page after its creation page.
  await owner.reload();
  await owner.getByRole('cell', { name: 'billing service', exact: true }).waitFor();
  assert.ok(!(await owner.content()).includes(value), 'the key value is in the page after a reload');
  await owner.getByRole('button', { name: 'Revoke billing service' }).click();
  await owner.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
  await owner.getByText(/^Revoked/).waitFor();
  assert.equal((await api('GET', '/v1/templates', { key: value })).status, 401);
});

test('an owner invites a member, who cannot see keys', async () => {
  await visit(owner, '/members', 'members');
  await owner.getByLabel('Email').fill('member@example.com');
  await owner.getByRole('button', { name: 'Make invitation link' }).click();
  const link = (await owner.locator('.secret-value').textContent()).trim();
  assert.match(link, /\/link#pll_/);
  await owner.reload();
  await owner.getByRole('cell', { name: /^First Owner/ }).waitFor();
  assert.ok(!(await owner.content()).includes(link.split('#')[1]), 'the invitation is in the page after a reload');

  const member = await newPage(browser, { width: 390, height: 844 });
  try {
    await acceptLink(member, link, { name: 'Mem Ber' });
    await member.getByRole('button', { name: 'Menu' }).click();
    const nav = member.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Templates' }).waitFor();
    assert.equal(await nav.getByRole('link', { name: 'API keys' }).count(), 0, 'a member is shown no keys entry');
    await member.goto(need('baseURL') + '/keys');
    await member.getByText(/does not allow this page/).waitFor();
    await checkA11y(member, 'keys-as-member');
    await screenshots(member, 'keys-as-member');
    const me = await member.evaluate(() => fetch('/console/api/keys').then(r => r.status));
    assert.equal(me, 403, 'the server refuses a member the keys');
  } finally { await member.context().close(); }
  await owner.reload();
  await owner.getByRole('cell', { name: /^Mem Ber/ }).waitFor();

  // An invitation sent to the wrong address is taken back: its link dies.
  await owner.getByLabel('Email').fill('wrong@example.com');
  await owner.getByRole('button', { name: 'Make invitation link' }).click();
  const wrong = (await owner.locator('.secret-value').textContent()).trim();
  await owner.getByRole('cell', { name: 'wrong@example.com', exact: true }).waitFor();
  await checkA11y(owner, 'members-pending');
  await screenshots(owner, 'members-pending');
  await owner.getByRole('button', { name: 'Take back the invitation for wrong@example.com' }).click();
  await owner.getByRole('dialog').getByRole('button', { name: 'Take back' }).click();
  await owner.getByRole('heading', { name: 'Invitations not yet used' }).waitFor({ state: 'detached' });
  const used = await api('POST', '/console/api/links/accept', { body: { token: wrong.split('#')[1], password },
    headers: { Origin: need('baseURL') } });
  assert.equal(used.status, 409, used.text);
});

test('a forged cross-site request from another origin is refused', async () => {
  // Another site (127.0.0.2 is another host, so another site) whose page
  // posts to the console with the owner's browser: a form that would make a
  // key, and a fetch that would copy a starter.
  const target = need('baseURL');
  const evil = http.createServer((req, res) => {
    res.setHeader('Content-Type', 'text/html');
    res.end(`<!doctype html><html lang="en"><title>evil</title><body>
      <form id="f" method="POST" action="${target}/console/api/keys" enctype="text/plain">
        <input name='{"name":"forged","scopes":["wallet.read"],"x":"' value='"}'></form>
      <script>
        fetch('${target}/v1/templates/library/invoice/copy', {method: 'POST', credentials: 'include', mode: 'no-cors',
          headers: {'Content-Type': 'text/plain'}, body: '{}'}).finally(() => document.getElementById('f').submit());
      </script></body></html>`);
  });
  await new Promise((ok) => evil.listen(0, '127.0.0.2', ok));
  const page = await owner.context().newPage();
  try {
    const answered = page.waitForResponse((r) => r.url().endsWith('/console/api/keys'));
    await page.goto(`http://127.0.0.2:${evil.address().port}/`);
    const res = await answered;
    assert.ok([401, 403].includes(res.status()), `the forged form got ${res.status()}`);
  } finally {
    await page.close();
    evil.close();
  }
  const keys = await owner.evaluate(() => fetch('/console/api/keys').then((r) => r.json()));
  assert.ok(!keys.data.items.some((k) => k.name === 'forged'), 'a forged request made a key');
  const tpls = await owner.evaluate(() => fetch('/v1/templates').then((r) => r.json()));
  assert.ok(!tpls.data.items.some((t) => t.slug === 'invoice'), 'a forged fetch copied a starter');
});

test('the account page; sign out everywhere ends the session', async () => {
  await visit(owner, '/account', 'account');
  const cookies = await owner.context().cookies();
  const session = cookies.find(c => c.name === 'platen_session');
  assert.ok(session?.httpOnly && session.sameSite === 'Lax', JSON.stringify(session));
  assert.equal(await owner.evaluate(() => document.cookie.includes('platen_session')), false, 'scripts cannot read the cookie');
  await owner.getByRole('button', { name: 'Sign out everywhere' }).click();
  await owner.getByRole('dialog').getByRole('button', { name: 'Sign out everywhere' }).click();
  await owner.getByRole('heading', { name: 'Sign in to Platen' }).waitFor();
  const stolen = await api('GET', '/v1/templates', { cookie: `platen_session=${session.value}` });
  assert.equal(stolen.status, 401, 'the cookie works after signing out');
  await owner.context().close();
});
