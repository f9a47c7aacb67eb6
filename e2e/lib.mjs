// Helpers every browser test uses. The Go test (e2e_test.go) starts one real
// node and runs each tests/*.test.mjs with node's own test runner, passing
// what the node's first start printed through the environment (see env).
//
// One browser a file: launch() in before(), browser.close() in after(); each
// case takes a fresh context from newPage(), so cookies never leak between
// cases.

import { mkdirSync, appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));

// What the Go test passes. A value the node has not printed (the first-owner
// link before the console lands) is the empty string, never undefined, so a
// test can tell "not printed" from a typo in the name.
export const env = {
  baseURL: (process.env.BASE_URL || '').replace(/\/$/, ''),
  // The first organisation's API key, with every scope.
  key: process.env.E2E_API_KEY || '',
  operatorToken: process.env.E2E_OPERATOR_TOKEN || '',
  // The first-owner one-time link (<baseURL>/link#<token>), or ''.
  firstLink: process.env.E2E_FIRST_LINK || '',
  shots: process.env.E2E_SHOTS || '/tmp/platen-e2e/shots',
  chromium: process.env.E2E_CHROMIUM || '/usr/bin/chromium',
  // A real HTTPS webhook receiver on 127.0.0.1 the node may deliver to
  // (https://127.0.0.1:<port>): a POST to any path is answered 200
  // "received <event>"; received() reads what it got.
  receiverURL: (process.env.E2E_RECEIVER_URL || '').replace(/\/$/, ''),
  // The receiver's CA certificate (a PEM file), which received() trusts.
  receiverCA: process.env.E2E_RECEIVER_CA || '',
  // The platen binary under test, for a test that starts a node of its own.
  binary: process.env.E2E_BINARY || '',
  // A PKCS#12 file (a P-256 key, its certificate for "Ada Lovelace
  // Accounts" valid for a year, and its CA "Platen e2e CA") and the
  // password that opens it, trailing space included.
  signingP12: process.env.E2E_SIGNING_P12 || '',
  signingPassword: process.env.E2E_SIGNING_PASSWORD || '',
};

// need returns env[name], and throws when it is empty: a test that needs the
// node fails by name when run without it (plain `node --test`), instead of
// fetching "undefined/v1".
export function need(name) {
  if (!env[name]) {
    throw new Error(`e2e: env.${name} is empty; run the tests through go test ./e2e, which starts a node`);
  }
  return env[name];
}

// The flags keep a test browser from reaching anything but the node: no
// updates, sync, first-run pages or QUIC probes; --no-sandbox because CI
// runs as root in a container, where Chromium's sandbox cannot start.
const flags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// launch starts Debian's Chromium, headless. Playwright gives every launch a
// fresh temporary profile (user-data dir) and removes it at close. Nothing is
// downloaded: playwright-core has no browser of its own.
export async function launch() {
  return chromium.launch({ executablePath: env.chromium, headless: true, args: flags });
}

// newPage opens a page in a new context (its own cookies and storage) with
// the given viewport; closing the page's context closes both.
export async function newPage(browser, { width = 1280, height = 800 } = {}) {
  // bypassCSP lets checkA11y inject axe-core into the console's pages,
  // whose Content-Security-Policy allows only their own scripts.
  const context = await browser.newContext({ viewport: { width, height }, bypassCSP: true });
  return context.newPage();
}

const axePath = path.join(here, 'node_modules', 'axe-core', 'axe.min.js');

// checkA11y runs axe-core on the page as it is now and throws one error
// listing every serious or critical violation (rule, impact, what to fix,
// the elements), so a test names everything wrong at once. Minor and moderate
// findings do not fail a test; they are returned for logging.
export async function checkA11y(page, label) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) {
    await page.addScriptTag({ path: axePath });
  }
  const results = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (bad.length > 0) {
    const lines = bad.map((v) => {
      const nodes = v.nodes.map((n) => `      ${n.target.join(' ')}: ${n.failureSummary.replace(/\n\s*/g, ' ')}`);
      return `  ${v.id} (${v.impact}): ${v.help}\n${nodes.join('\n')}`;
    });
    throw new Error(`accessibility of ${label}: ${bad.length} serious or critical violation(s)\n${lines.join('\n')}`);
  }
  return results.violations;
}

// The widths every page is looked at: a small laptop, a large one, and a
// phone.
export const widths = {
  laptop: { width: 1280, height: 800 },
  wide: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
};

// overflowing lists the elements wider than their container or the
// viewport: an element whose box passes its parent's right edge, or the
// viewport's, when no ancestor between them scrolls or clips. Hidden and
// visually hidden elements (1 px and less) do not count.
async function overflowing(page) {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const clips = (el) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX !== 'visible' || s.contain.includes('paint')) return true;
      }
      return false;
    };
    const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : '');
    const out = [];
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1 || getComputedStyle(el).visibility === 'hidden') continue;
      if (clips(el)) continue;
      const p = el.parentElement;
      const pr = p.getBoundingClientRect();
      if (r.right > vw + 1) out.push(`${name(el)} ends at ${Math.round(r.right)} px, past the viewport (${vw} px)`);
      else if (p !== document.body && pr.width > 1 && r.right > pr.right + 1 && getComputedStyle(p).display !== 'inline') out.push(`${name(el)} ends at ${Math.round(r.right)} px, past its container ${name(p)} (${Math.round(pr.right)} px)`);
      if (out.length >= 5) break;
    }
    return out;
  });
}

const taken = new Set();

// screenshots saves full-page PNGs of the page at each of widths as
// <shots>/<name>-<kind>.png, then gives the page its viewport back, and
// throws when an element overflows its container or the viewport at any
// of them. It returns the paths.
export async function screenshots(page, name) {
  mkdirSync(env.shots, { recursive: true });
  const before = page.viewportSize();
  const paths = [];
  const problems = [];
  // A full-page photograph shows what is below the fold too: lazy images
  // are loaded first (up to five seconds), so the picture has them, and
  // are lazy again afterwards, as the page made them.
  await page.evaluate(() => document.querySelectorAll('img[loading=lazy]').forEach((i) => { i.dataset.shotLazy = '1'; i.loading = 'eager'; }));
  await page.waitForFunction(() => [...document.images].every((i) => i.complete), null, { timeout: 5000 }).catch(() => {});
  for (const [kind, size] of Object.entries(widths)) {
    await page.setViewportSize(size);
    const file = path.join(env.shots, `${name}-${kind}.png`);
    await page.screenshot({ path: file, fullPage: true });
    paths.push(file);
    for (const o of await overflowing(page)) problems.push(`${kind} (${size.width} px): ${o}`);
  }
  await page.evaluate(() => document.querySelectorAll('img[data-shot-lazy]').forEach((i) => { i.loading = 'lazy'; delete i.dataset.shotLazy; }));
  if (before) await page.setViewportSize(before);
  if (problems.length) throw new Error(`${name}: elements overflow:\n  ${problems.join('\n  ')}`);
  taken.add(name);
  return paths;
}

process.on('exit', () => {
  if (taken.size > 0) console.log(`# screenshots (${[...taken].join(', ')}) in ${env.shots}`);
});

// firstPaint returns the page's first-contentful-paint time in milliseconds
// from navigation start, or null when the page painted nothing contentful
// within two seconds. The entry is buffered, so asking after goto() finds it.
export async function firstPaint(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const found = () => performance.getEntriesByName('first-contentful-paint')[0];
        if (found()) return resolve(found().startTime);
        const obs = new PerformanceObserver(() => {
          if (found()) {
            obs.disconnect();
            resolve(found().startTime);
          }
        });
        obs.observe({ type: 'paint', buffered: true });
        setTimeout(() => {
          obs.disconnect();
          resolve(found() ? found().startTime : null);
        }, 2000);
      }),
  );
}

// api calls the node's REST API as an API user (key) or as the console does
// (cookie, plus csrf for a non-GET). body is sent as JSON. It returns the
// status, the headers, the decoded envelope (json, null if the body is not
// JSON) and the raw text; it never throws on an HTTP error status, so a test
// asserts on refusals as on successes.
export async function api(method, urlPath, { key, cookie, csrf, body, headers = {} } = {}) {
  const h = { ...headers };
  if (key) h.Authorization = `Bearer ${key}`;
  if (cookie) h.Cookie = cookie;
  if (csrf) h['X-CSRF-Token'] = csrf;
  let payload;
  if (body !== undefined) {
    h['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(need('baseURL') + urlPath, { method, headers: h, body: payload, redirect: 'manual' });
  const text = await res.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON (a PDF, the app shell): text has it.
  }
  return { status: res.status, headers: res.headers, json, text };
}

// A password every test person uses: long enough for the console's rule.
export const password = 'correct horse battery staple';

let people = 0;

// acceptLink opens a one-time link in page and sets the password (and the
// email, for the first owner's link, which has none); it resolves once the
// console shows a signed-in page.
export async function acceptLink(page, link, { email, name } = {}) {
  await page.goto(link);
  await page.getByRole('heading', { level: 1 }).waitFor();
  if (email && (await page.getByLabel('Your email').count())) await page.getByLabel('Your email').fill(email);
  if (name && (await page.getByLabel('Your name').count())) await page.getByLabel('Your name').fill(name);
  await page.getByLabel('Password', { exact: false }).fill(password);
  await page.getByRole('button', { name: /Set password|^Join / }).click();
  await page.locator('header .who').waitFor();
}

// newOwner makes an organisation through the operator API (plan, with an
// optional wallet credit), invites an owner with a fresh email, and signs
// them in through the invitation link in a new page: each test file gets an
// organisation of its own on the shared node.
export async function newOwner(browser, { plan = 'starter', creditMicros = 0, size } = {}) {
  const op = need('operatorToken');
  const org = await api('POST', '/admin/v1/orgs', { key: op, body: { name: `Org ${++people} ${process.pid}`, plan } });
  if (org.status !== 201) throw new Error(`create org: ${org.text}`);
  const orgId = org.json.data.id;
  if (creditMicros) {
    const c = await api('POST', `/admin/v1/orgs/${orgId}/wallet/credit`, { key: op, body: { amountMicros: creditMicros, reference: 'e2e-' + orgId } });
    if (c.status !== 201) throw new Error(`credit: ${c.text}`);
  }
  const email = `owner${people}.${process.pid}@example.com`;
  const inv = await api('POST', `/admin/v1/orgs/${orgId}/invites`, { key: op, body: { email, role: 'owner' } });
  if (inv.status !== 201) throw new Error(`invite: ${inv.text}`);
  const page = await newPage(browser, size);
  await acceptLink(page, inv.json.data.link);
  return { page, email, orgId };
}

// Time to first paint of each page, by name, written to <shots>/paint.tsv
// when the file's tests end.
export const paints = {};
process.on('exit', () => {
  const rows = Object.entries(paints);
  if (rows.length === 0) return;
  mkdirSync(env.shots, { recursive: true });
  appendFileSync(path.join(env.shots, 'paint.tsv'), rows.map(([k, v]) => `${k}\t${v === null ? '' : v.toFixed(0)}\n`).join(''));
  console.log('# first paint (ms): ' + rows.map(([k, v]) => `${k} ${v === null ? '-' : v.toFixed(0)}`).join(', '));
});

// visit opens a console page the way a person does (a full load), waits for
// its heading, and checks it: time to first paint, axe-core, screenshots at
// both widths under name. ready is an extra locator to wait for.
export async function visit(page, urlPath, name, { ready } = {}) {
  await page.goto(need('baseURL') + urlPath);
  await page.locator('main h1').first().waitFor();
  if (ready) await ready.waitFor();
  paints[name] = await firstPaint(page);
  await checkA11y(page, name);
  await screenshots(page, name);
}

// received answers the requests the webhook receiver got at urlPath (every
// path when it is omitted), oldest first: [{method, path, headers (names in
// lower case), body (the raw body, for checking a signature), at}].
export async function received(urlPath) {
  const { readFileSync } = await import('node:fs');
  const https = await import('node:https');
  const url = new URL(need('receiverURL') + '/received');
  if (urlPath) url.searchParams.set('path', urlPath);
  const ca = readFileSync(need('receiverCA'));
  return new Promise((resolve, reject) => {
    https.get(url, { ca }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { text += c; });
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`receiver: HTTP ${res.statusCode} ${text}`));
        resolve(JSON.parse(text));
      });
    }).on('error', reject);
  });
}
