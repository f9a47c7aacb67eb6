// The harness itself, against what every node serves: the browser starts and
// reaches the node, the first key works through api(), screenshots and first
// paint come back, and checkA11y both passes an accessible page and throws
// on an inaccessible one (a checker that never throws would prove nothing).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { launch, newPage, checkA11y, screenshots, firstPaint, api, env, need } from '../lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('the browser opens the node', async () => {
  const page = await newPage(browser);
  try {
    const res = await page.goto(need('baseURL') + '/v1/openapi.json');
    assert.equal(res.status(), 200);
    const doc = JSON.parse(await page.evaluate(() => document.body.innerText));
    assert.match(doc.openapi, /^3\./);
    assert.ok(doc.paths['/v1'], 'the OpenAPI document lists GET /v1');
    const fcp = await firstPaint(page);
    assert.ok(fcp > 0, `first contentful paint: ${fcp}`);
    console.log(`# first paint /v1/openapi.json: ${fcp.toFixed(0)} ms`);
  } finally {
    await page.context().close();
  }
});

test('the first key reads GET /v1; no key is refused', async () => {
  const ok = await api('GET', '/v1', { key: need('key') });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.json.success, true);
  assert.ok(ok.json.scopes.length > 0, 'the first key holds scopes');
  const refused = await api('GET', '/v1');
  assert.equal(refused.status, 401, refused.text);
  assert.equal(refused.json.success, false);
});

test('the operator token reads the operator API', async () => {
  const ok = await api('GET', '/admin/v1/orgs', { key: need('operatorToken') });
  assert.equal(ok.status, 200, ok.text);
});

test('the first-owner link, once printed, points at this node', { skip: env.firstLink === '' && 'the node printed no /link# line yet' }, () => {
  assert.ok(env.firstLink.startsWith(env.baseURL + '/link#'), env.firstLink);
});

test('checkA11y passes a labelled form; screenshots at the three widths', async () => {
  const page = await newPage(browser);
  try {
    await page.setContent(`<!doctype html><html lang="en"><head><title>Sign in</title></head><body><main>
      <h1>Sign in</h1>
      <form><label for="email">Email</label><input id="email" type="email" autocomplete="email">
      <button type="submit">Sign in</button></form></main></body></html>`);
    await checkA11y(page, 'a labelled form');
    const [laptop, wide, phone] = await screenshots(page, 'smoke-form');
    for (const f of [laptop, wide, phone]) assert.ok(existsSync(f) && statSync(f).size > 1000, `${f} written`);
    assert.deepEqual(page.viewportSize(), { width: 1280, height: 800 }, 'screenshots gives the viewport back');
  } finally {
    await page.context().close();
  }
});

test('screenshots throws on an element wider than its container, or than a phone', async () => {
  const page = await newPage(browser);
  try {
    await page.setContent(`<!doctype html><html lang="en"><head><title>Cards</title></head><body><main>
      <h1>Cards</h1><div class="card" style="width: 300px"><button id="wide" style="white-space: nowrap">Use this starter, a long label</button>
      <div id="fixed" style="width: 500px">wider than the card</div></div>
      <div style="overflow-x: auto; width: 200px"><table id="scrolls" style="width: 400px"><tr><td>scrolls in its box</td></tr></table></div>
      </main></body></html>`);
    await assert.rejects(screenshots(page, 'smoke-overflow'), (err) => {
      assert.match(err.message, /div#fixed ends at \d+ px, past its container div\.card/);
      assert.doesNotMatch(err.message, /#scrolls/, 'a table in a scrolling box is not an overflow');
      return true;
    });
  } finally {
    await page.context().close();
  }
});

test('checkA11y throws on an unlabelled input, naming the rule and the element', async () => {
  const page = await newPage(browser);
  try {
    await page.setContent(`<!doctype html><html lang="en"><head><title>Sign in</title></head><body><main>
      <h1>Sign in</h1><form><input id="nameless" type="text"><button type="submit">Go</button></form></main></body></html>`);
    await assert.rejects(checkA11y(page, 'an unlabelled input'), (err) => {
      assert.match(err.message, /accessibility of an unlabelled input/);
      assert.match(err.message, /\blabel \(critical\)/);
      assert.match(err.message, /#nameless/);
      return true;
    });
  } finally {
    await page.context().close();
  }
});
