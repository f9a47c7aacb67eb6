// The newcomer's first hour, walked as one person would on a fresh machine:
// a node of its own started with `platen serve --dev` on an empty folder in
// a fresh HOME (the first key saved as the CLI profile "local"), the owner
// link opened, the overview's checklist, an API key made, a starter copied,
// the markup broken and the error seen at its line, a document generated
// with its first page shown and downloaded, and `platen webhooks listen`
// receiving the next document's webhook, verified, as the checklist ticks
// its last step. Every page on the way is checked with axe-core and
// photographed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch, newPage, need, checkA11y, screenshots, password, firstPaint, paints } from '../lib.mjs';

let browser, page, home, node, base;
const children = [];

// freePort asks the system for a port on loopback that is free now.
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

// run starts the platen binary in the fresh HOME and collects its output;
// until(re) waits for a line that matches.
function run(args) {
  const env = { ...process.env, HOME: home };
  delete env.XDG_CONFIG_HOME;
  for (const k of Object.keys(env)) if (k.startsWith('PLATEN_')) delete env[k];
  const child = spawn(need('binary'), args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  const waiters = [];
  const feed = (chunk) => {
    out += chunk;
    for (const w of [...waiters]) {
      const m = w.re.exec(out);
      if (m) { waiters.splice(waiters.indexOf(w), 1); clearTimeout(w.timer); w.resolve(m); }
    }
  };
  child.stdout.setEncoding('utf8').on('data', feed);
  child.stderr.setEncoding('utf8').on('data', (c) => { child.errText = (child.errText || '') + c; });
  child.output = () => out;
  child.until = (re, ms = 60_000) => new Promise((resolve, reject) => {
    const m = re.exec(out);
    if (m) return resolve(m);
    const w = { re, resolve, timer: setTimeout(() => reject(new Error(`no ${re} in ${ms} ms; stdout:\n${out}\nstderr:\n${(child.errText || '').slice(-2000)}`)), ms) };
    waiters.push(w);
  });
  return child;
}

async function visitHere(urlPath, name, ready) {
  await page.goto(base + urlPath);
  await (ready || page.getByRole('heading', { level: 1 })).waitFor();
  paints[name] = await firstPaint(page);
  await checkA11y(page, name);
  await screenshots(page, name);
}

before(async () => {
  home = mkdtempSync(path.join(tmpdir(), 'platen-newcomer-'));
  const [http, raft] = [await freePort(), await freePort()];
  node = run(['serve', '--dev', '--data-dir', path.join(home, 'data'), '--http', `127.0.0.1:${http}`, '--raft', `127.0.0.1:${raft}`]);
  await node.until(/listening on (http:\/\/\S+)/);
  base = `http://127.0.0.1:${http}`;
  browser = await launch();
  page = await newPage(browser);
});
after(async () => {
  await browser?.close();
  // Every process ends before its home is removed.
  await Promise.all(children.map((c) => c.exitCode !== null || c.signalCode !== null ? null
    : new Promise((r) => { c.once('exit', r); c.kill('SIGTERM'); setTimeout(() => c.kill('SIGKILL'), 30_000).unref(); })));
  rmSync(home, { recursive: true, force: true });
});

test('a newcomer goes from an empty folder to a PDF and a verified webhook', async () => {
  // The first start printed the owner link and saved its key for the CLI.
  const link = (await node.until(/(http:\/\/\S+\/link#pll_\S+)/))[1];
  assert.match(node.output(), /Saved .*profile "local"|profile "local"/, 'the first key was not saved as the CLI profile');
  const profiles = readFileSync(path.join(home, '.config', 'platen', 'config.json'), 'utf8');
  assert.match(profiles, /"local"/);

  // The owner link: become the first owner.
  await page.goto(link);
  await page.getByRole('heading', { level: 1 }).waitFor();
  if (await page.getByLabel('Your email').count()) await page.getByLabel('Your email').fill('newcomer@example.com');
  await page.getByLabel('Password', { exact: false }).fill(password);
  await page.getByRole('button', { name: /Set password|^Join / }).click();
  await page.locator('header .who').waitFor();

  // The overview is the checklist: the first start made a key.
  const steps = page.locator('section.checklist');
  await steps.getByText('1 of 4 done').waitFor();
  await visitHere('/', 'newcomer-overview', steps.getByText('1 of 4 done'));

  // An API key of one's own, shown once.
  await page.goto(base + '/keys');
  await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
  await page.getByLabel('Name').fill('my laptop');
  await page.getByRole('button', { name: /Create/ }).click();
  await page.getByText(/plt_[A-Za-z0-9]{43}/).first().waitFor();
  await checkA11y(page, 'newcomer-key-shown');
  await screenshots(page, 'newcomer-key-shown');

  // A starter, copied and opened in the editor.
  await page.goto(base + '/templates');
  await page.getByRole('button', { name: 'Use this starter: Invoice' }).click();
  await page.getByRole('form', { name: 'Copy Invoice' }).getByRole('button', { name: 'Copy and edit' }).click();
  await page.getByRole('heading', { level: 1, name: 'Invoice' }).waitFor();
  await page.waitForFunction(() => document.querySelector('main')?.dataset.editor === 'code');
  await page.waitForFunction(() => Number(document.querySelector('img.page-img')?.dataset.drawn || 0) >= 1, null, { timeout: 20_000 });

  // A mistake, shown where it is: the line of the {{#each}} left open.
  const editor = page.locator('.code-editor[data-for=part-html]');
  await editor.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n{{#each items}}');
  const err = page.locator('#part-html-error');
  await err.waitFor();
  const lines = (await page.locator('#part-html').inputValue()).split('\n').length;
  assert.match(await err.textContent(), new RegExp(`line ${lines}, column 1: \\{\\{#each\\}\\} is never closed`));
  await editor.locator('.cm-error-line').waitFor();
  await checkA11y(page, 'newcomer-editor-error');
  await screenshots(page, 'newcomer-editor-error');
  for (let i = 0; i < '\n{{#each items}}'.length; i++) await page.keyboard.press('Backspace');
  await err.waitFor({ state: 'detached' });
  assert.equal(await page.getByText('Unsaved changes').isVisible(), false, 'the draft, put back, still differs from the version');

  // A document from the console, its first page in the list, downloaded.
  await page.goto(base + '/documents');
  await page.getByText('Generate a document').click();
  await page.waitForFunction(() => document.querySelector('textarea[name=data]')?.value.includes('invoiceNumber'));
  await page.getByRole('button', { name: 'Generate' }).click();
  const rowOf = page.locator('table.docs tbody tr').first();
  await rowOf.locator('[data-status="completed"]').waitFor({ timeout: 20_000 });
  await page.waitForFunction(() => { const i = document.querySelector('table.docs img.doc-thumb'); return i?.complete && i.naturalWidth === 320; });
  const [download] = await Promise.all([page.waitForEvent('download'), rowOf.getByRole('button', { name: /^Download invoice-.*\.pdf$/ }).click()]);
  assert.equal(readFileSync(await download.path()).subarray(0, 5).toString(), '%PDF-');
  await steps.count(); // the overview is not open: its checklist is read below
  await visitHere('/documents', 'newcomer-documents');

  // A webhook: `platen webhooks listen` on this machine, with the profile
  // the first start saved. The checklist ticks its last step.
  await page.goto(base + '/');
  await steps.getByText('3 of 4 done').waitFor();
  const listen = run(['webhooks', 'listen', '--json', '--event', 'document.completed']);
  const first = JSON.parse((await listen.until(/^(\{.*"listening".*\})$/m))[1]);
  assert.match(first.endpoint, /^whk_/);
  // Back from the terminal to the browser's tab: the checklist looks again.
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await page.getByText('You are set up').waitFor({ timeout: 20_000 });
  await checkA11y(page, 'newcomer-set-up');
  await screenshots(page, 'newcomer-set-up');

  // The next document's webhook arrives at the listener, verified.
  await page.goto(base + '/documents');
  await page.getByText('Generate a document').click();
  await page.waitForFunction(() => document.querySelector('textarea[name=data]')?.value.includes('invoiceNumber'));
  await page.getByRole('button', { name: 'Generate' }).click();
  const line = JSON.parse((await listen.until(/^(\{.*"event":"document\.completed".*\})$/m, 30_000))[1]);
  assert.equal(line.verified, true, JSON.stringify(line));
  // The webhooks page shows the listener's endpoint and its delivery.
  await page.goto(base + '/webhooks');
  await page.getByRole('link', { name: /listen/i }).first().waitFor();
});
