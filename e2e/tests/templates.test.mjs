// Templates in the console: the list and the starter gallery, copying a
// starter (a slug in use refused at its field), the editor's live preview
// as the markup is typed, a schema error at its part, saving a version,
// the history with its diff, and activating the version. The time from the
// last keystroke to the new preview painted is measured in the browser.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { launch, newOwner, visit, screenshots, checkA11y, widths } from '../lib.mjs';
import { diffLines, collapse } from '../../console/static/diff.js';

let browser;
let owner;
before(async () => {
  browser = await launch();
  owner = await newOwner(browser);
});
after(async () => { await browser?.close(); });

// The diff the editor shows is a shortest edit script: checked against the
// longest common subsequence of random texts, and it gives both texts back.
test('diff.js finds a shortest line diff and folds unchanged runs', () => {
  const lcs = (a, b) => {
    const d = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
    for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) d[i][j] = a[i - 1] === b[j - 1] ? d[i - 1][j - 1] + 1 : Math.max(d[i - 1][j], d[i][j - 1]);
    return d[a.length][b.length];
  };
  let seed = 7;
  const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return Math.floor(seed / 2147483648 * n); };
  for (let t = 0; t < 400; t++) {
    const a = Array.from({ length: rnd(14) }, () => 'abcd'[rnd(4)]);
    const b = Array.from({ length: rnd(14) }, () => 'abcd'[rnd(4)]);
    const ops = diffLines(a, b);
    assert.deepEqual(ops.filter(o => o[0] !== '+').map(o => o[1]), a);
    assert.deepEqual(ops.filter(o => o[0] !== '-').map(o => o[1]), b);
    assert.equal(ops.filter(o => o[0] !== ' ').length, a.length + b.length - 2 * lcs(a, b), JSON.stringify({ a, b, ops }));
  }
  const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
  const changed = lines.map((l, i) => i === 15 ? 'changed' : l);
  const shown = collapse(diffLines(lines, changed), 3).map(c => c.skip ? `[${c.skip.length}]` : c[0] + c[1]);
  assert.deepEqual(shown, ['[12]', ' line 12', ' line 13', ' line 14', '-line 15', '+changed', ' line 16', ' line 17', ' line 18', '[11]']);
});

test('copy a starter, edit it beside its live preview, save, compare and activate a version', async () => {
  const { page } = owner;
  await visit(page, '/templates', 'templates', { ready: page.getByRole('heading', { name: 'Starters' }) });
  await page.getByText('No templates yet').waitFor();
  const thumb = page.getByRole('img', { name: /Invoice starter/ });
  assert.equal(await thumb.getAttribute('loading'), 'lazy');
  assert.deepEqual([await thumb.getAttribute('width'), await thumb.getAttribute('height')], ['160', '226']);
  // Every thumbnail arrives, in the box its width and height kept for it;
  // the page is photographed again with them.
  await page.waitForFunction(() => [...document.querySelectorAll('.starters img')].every(i => i.complete && i.naturalWidth === 320));
  await screenshots(page, 'templates');

  // Copy the invoice starter under its own slug: the editor opens.
  await page.getByRole('button', { name: 'Use this starter: Invoice' }).click();
  const form = page.getByRole('form', { name: 'Copy Invoice' });
  await form.getByLabel('Name').fill('Our invoice');
  await form.getByRole('button', { name: 'Copy and edit' }).click();
  await page.getByRole('heading', { level: 1, name: 'Our invoice' }).waitFor();
  const editorURL = new URL(page.url()).pathname;
  assert.match(editorURL, /^\/templates\/tpl_/);

  // Copying it again under the same slug is refused at the slug's input.
  await page.goto(new URL('/templates', page.url()).href);
  await page.getByRole('link', { name: 'Our invoice' }).waitFor();
  await page.getByRole('button', { name: 'Use this starter: Invoice' }).click();
  await form.getByRole('button', { name: 'Copy and edit' }).click();
  const slug = form.getByLabel('Slug');
  await form.locator('.field-error').filter({ hasText: 'is taken' }).waitFor();
  assert.equal(await slug.getAttribute('aria-invalid'), 'true');
  assert.match(await form.locator(`#${await slug.getAttribute('aria-describedby')}`).textContent(), /invoice.*is taken/);

  // The editor: the first preview is a picture of the draft.
  await page.goto(new URL(editorURL, page.url()).href);
  const img = page.locator('img.page-img');
  const drawn = async (n) => page.waitForFunction((n) => Number(document.querySelector('img.page-img')?.dataset.drawn || 0) >= n, n, { timeout: 45_000 });
  await drawn(1);
  assert.match(await page.locator('.engine').textContent(), /Engine: (phantom|chromium) — .+/);
  assert.match(await page.locator('.page-label').textContent(), /^Page 1 of 1$/);
  const picture = () => page.evaluate(async () => {
    const el = document.querySelector('img.page-img');
    const bytes = new Uint8Array(await (await fetch(el.src)).arrayBuffer());
    let x = 2166136261;
    for (const b of bytes) x = Math.imul(x ^ b, 16777619);
    return { src: el.src, size: bytes.length, hash: x >>> 0, width: el.naturalWidth };
  });
  assert.equal(await page.getByText('Unsaved changes').isVisible(), false, 'the version as loaded is shown as unsaved');
  const first = await picture();
  assert.ok(first.size > 10_000 && first.width >= 300, JSON.stringify(first));

  // The markup is in a code editor: line numbers, Handlebars marked over
  // the HTML, and a Find button that opens its search.
  assert.equal(await page.locator('main').getAttribute('data-editor'), 'code', 'the code editor did not load');
  const markup = page.getByRole('textbox', { name: 'Markup' });
  const htmlEditor = page.locator('.code-editor[data-for=part-html]');
  await htmlEditor.locator('.cm-lineNumbers .cm-gutterElement').filter({ hasText: /^1$/ }).waitFor();
  await page.getByRole('button', { name: 'Find in markup' }).click();
  await htmlEditor.locator('.cm-search input[name=search]').waitFor();
  await page.keyboard.press('Escape');
  await htmlEditor.locator('.cm-search').waitFor({ state: 'detached' });

  // Type into the markup: each pause redraws the preview; the time from
  // the last keystroke to the new picture painted is the page's own
  // measure (img data-ms). The cursor is put where a person puts it: the
  // heading's line scrolled into view with the wheel, a click on it, End,
  // and back over "</h1>".
  const reveal = async (line) => {
    for (let i = 0; i < 80 && !(await line.count()); i++) {
      await htmlEditor.hover();
      await page.mouse.wheel(0, 300);
      await page.waitForTimeout(30);
    }
    return line;
  };
  const times = [];
  for (const word of [' Z1', ' Z2', ' Z3', ' Z4', ' Z5']) {
    const before = Number(await img.getAttribute('data-drawn'));
    await (await reveal(htmlEditor.locator('.cm-line').filter({ hasText: '<h1>Invoice' }))).click();
    await page.keyboard.press('End');
    for (let i = 0; i < '</h1>'.length; i++) await page.keyboard.press('ArrowLeft');
    await page.keyboard.type(word, { delay: 30 });
    await drawn(before + 1);
    times.push(Number(await img.getAttribute('data-ms')));
  }
  // Near the heading (the editor shows it now), Handlebars is marked.
  assert.ok(await htmlEditor.locator('.cm-hbs-block').count() > 0, 'no {{#block}} is marked');
  assert.ok(await htmlEditor.locator('.cm-hbs').count() > 3, 'no {{…}} is marked');
  const after = await picture();
  assert.notEqual(after.src, first.src, 'the preview picture was not replaced');
  assert.notEqual(after.hash, first.hash, 'the preview picture did not change');
  // The words typed are in the draft the server renders.
  const pdfText = await draftText(page, editorURL.split('/').pop(), await page.locator('#part-html').inputValue());
  assert.match(pdfText, /INVOICE Z1 Z2 Z3\s+Z4 Z5/i); // upper case by the CSS, and wrapped
  // Open PDF opens the draft's PDF itself in a new tab; headless Chromium,
  // which has no PDF viewer, downloads it instead.
  const opened = new Promise((resolve) => {
    page.once('popup', (tab) => resolve({ tab }));
    page.once('download', (download) => resolve({ download }));
    setTimeout(() => resolve({}), 15_000);
  });
  await page.getByRole('button', { name: 'Open PDF' }).click();
  const { tab, download } = await opened;
  assert.ok(tab || download, 'Open PDF opened no tab and downloaded nothing');
  if (tab) {
    assert.match(tab.url(), /^blob:/);
    await tab.close();
  } else {
    assert.equal(readFileSync(await download.path()).subarray(0, 5).toString(), '%PDF-');
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(`# preview: ${sorted[Math.floor(sorted.length / 2)]} ms (median of ${times.join(', ')} ms: last keystroke to the new picture painted, 400 ms of debounce included)`);

  // A schema error is shown at the data schema, and the preview keeps its
  // last good picture, marked out of date.
  await page.getByRole('tab', { name: 'Data schema' }).click();
  const schema = page.getByRole('textbox', { name: 'Data schema' });
  const good = await page.locator('#part-schema').inputValue();
  const bad = JSON.parse(good);
  bad.invoiceNumber.type = 'nmber';
  await schema.fill(JSON.stringify(bad, null, 2));
  const err = page.locator('#part-schema-error');
  await err.waitFor();
  assert.match(await err.textContent(), /manifest\.dataSchema\.invoiceNumber\.type/);
  assert.equal(await schema.getAttribute('aria-invalid'), 'true');
  assert.match(await page.getByRole('tab', { name: /Data schema/ }).textContent(), /\(error\)/);
  await page.locator('figure.preview-figure.stale').waitFor();
  await page.locator('.stale-note').waitFor({ state: 'visible' });
  assert.equal((await picture()).hash, after.hash, 'the last good picture stays');
  await checkA11y(page, 'template-schema-error');
  await screenshots(page, 'template-schema-error');
  const beforeFix = Number(await img.getAttribute('data-drawn'));
  await schema.fill(good);
  await drawn(beforeFix + 1);
  assert.equal(await err.count(), 0);
  assert.equal(await page.locator('.stale-note').isVisible(), false, 'an up-to-date preview is marked out of date');
  assert.equal(await page.getByText('Unsaved changes').isVisible(), true);

  // A block that is never closed is shown where it opened, in words, at
  // its line in the editor; "Go to line" puts the cursor there.
  await page.getByRole('tab', { name: 'Markup' }).click();
  const goodMarkup = await page.locator('#part-html').inputValue();
  const lines = goodMarkup.split('\n');
  const closeAt = lines.findIndex(l => l.trim() === '{{/each}}');
  const openAt = lines.findLastIndex((l, i) => i < closeAt && l.includes('{{#each items}}'));
  assert.ok(closeAt > 0 && openAt > 0, 'the invoice starter has an {{#each items}} block on lines of its own');
  const beforeBreak = Number(await img.getAttribute('data-drawn'));
  await (await reveal(htmlEditor.locator('.cm-line').filter({ hasText: /^\s*\{\{\/each\}\}\s*$/ }))).click();
  await page.keyboard.press('Home'); await page.keyboard.press('Shift+End');
  await page.keyboard.press('Delete');
  const markupErr = page.locator('#part-html-error');
  await markupErr.waitFor();
  const column = lines[openAt].indexOf('{{#each items}}') + 1;
  assert.match(await markupErr.textContent(), new RegExp(`line ${openAt + 1}, column ${column}: \\{\\{#each\\}\\} is never closed`));
  assert.equal(await markup.getAttribute('aria-invalid'), 'true');
  await htmlEditor.locator('.cm-error-line').filter({ hasText: '{{#each items}}' }).waitFor();
  assert.equal(Number(await img.getAttribute('data-drawn')), beforeBreak, 'a broken draft was drawn');
  await checkA11y(page, 'template-markup-error');
  await screenshots(page, 'template-markup-error');
  await page.getByRole('button', { name: `Go to line ${openAt + 1}` }).click();
  assert.equal((await htmlEditor.locator('.cm-activeLine').textContent()).trim(), lines[openAt].trim());
  await page.keyboard.press('Control+z');
  await markupErr.waitFor({ state: 'detached' });
  await drawn(beforeBreak + 1);
  assert.equal(await page.locator('#part-html').inputValue(), goodMarkup, 'undo did not give the markup back');
  assert.equal(await htmlEditor.locator('.cm-error-line').count(), 0);

  // Save as a new version (not active), see it in the history with its
  // diff, then activate it.
  await page.getByRole('button', { name: 'Save as new version' }).click();
  await page.getByRole('button', { name: 'Activate version 2' }).waitFor();
  assert.equal(await page.getByText('Unsaved changes').isVisible(), false, 'a saved draft is shown as unsaved');
  await page.getByRole('heading', { name: 'Changes from version 1 to version 2' }).waitFor();
  const markupDiff = page.locator('.diff-part').filter({ has: page.getByRole('heading', { name: /^Markup: 1 line added, 1 removed$/ }) });
  await markupDiff.locator('ins').filter({ hasText: 'Invoice Z1 Z2 Z3 Z4 Z5' }).waitFor();
  await markupDiff.locator('del').filter({ hasText: '<h1>Invoice</h1>' }).waitFor();
  assert.match(await markupDiff.locator('ins').first().textContent(), /^added: \+ /);
  assert.ok(await markupDiff.getByRole('button', { name: /^Show \d+ unchanged lines$/ }).count() >= 1, 'unchanged runs are folded');
  await page.locator('.diff-part').filter({ hasText: 'Manifest: no changes' }).waitFor();
  await page.getByRole('button', { name: 'Activate version 2' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Activate' }).click();
  await page.getByRole('row', { name: /v2.*Active/ }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Activate version 1' }).count(), 1);
  const t = await page.evaluate((id) => fetch(`/v1/templates/${id}`).then(r => r.json()), editorURL.split('/').pop());
  assert.equal(t.data.activeVersion, 2);

  // The editor as a page: axe and screenshots with the history and diff;
  // on a phone the preview is a tab of its own.
  await visit(page, editorURL, 'template-editor', { ready: page.getByRole('heading', { name: 'Changes from version 1 to version 2' }) });
  await drawn(1);
  await page.setViewportSize(widths.phone);
  await page.getByRole('tab', { name: 'Preview' }).click();
  await img.waitFor();
  await checkA11y(page, 'template-editor-phone-preview');
  await screenshots(page, 'template-editor-preview-tab');
  await page.setViewportSize(widths.laptop);
});

// draftText renders the draft through the API as the console does (the
// session, its CSRF token) and answers the PDF's text.
async function draftText(page, id, html) {
  const b64 = await page.evaluate(async ({ id, html }) => {
    const me = await (await fetch('/console/api/me')).json();
    const v = await (await fetch(`/v1/templates/${id}/versions/1`)).json();
    const draft = { ...v.data, html };
    for (const k of ['templateId', 'version', 'active', 'engine', 'createdAt']) delete draft[k];
    const res = await fetch(`/v1/templates/${id}/preview`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': me.data.csrf }, body: JSON.stringify({ draft }) });
    if (!res.ok) throw new Error(`draft preview: HTTP ${res.status} ${await res.text()}`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(s);
  }, { id, html });
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: Buffer.from(b64, 'base64') }).toString();
}

// A template made from an uploaded PDF is listed as such, and its address
// opens the PDF editor (pages/pdftemplate.js), not the written one.
test('a template from a PDF opens in the PDF editor', async () => {
  const { page } = owner;
  const pdf = readFileSync(new URL('../../pdftemplate/testdata/chromium-invoice.pdf', import.meta.url)).toString('base64');
  const id = await page.evaluate(async (b64) => {
    const me = await (await fetch('/console/api/me')).json();
    const body = new FormData();
    body.append('file', new Blob([Uint8Array.from(atob(b64), c => c.charCodeAt(0))], { type: 'application/pdf' }), 'invoice.pdf');
    body.append('name', 'Scanned invoice');
    body.append('slug', 'scanned-invoice');
    const res = await fetch('/v1/templates/pdf', { method: 'POST', headers: { 'X-CSRF-Token': me.data.csrf }, body });
    if (res.status !== 201) throw new Error(`upload: HTTP ${res.status} ${await res.text()}`);
    return (await res.json()).data.id;
  }, pdf);
  await page.goto(new URL('/templates', page.url()).href);
  const row = page.getByRole('row', { name: /Scanned invoice/ });
  await row.getByText('From a PDF').waitFor();
  await row.getByRole('link', { name: 'Scanned invoice' }).click();
  await page.getByRole('heading', { level: 1, name: 'Scanned invoice' }).waitFor();
  assert.equal(new URL(page.url()).pathname, `/templates/${id}`);
  await page.locator('.pdf-page img').first().waitFor();
  assert.equal(await page.getByRole('tab', { name: 'Markup' }).count(), 0, 'the written editor was drawn');
});
