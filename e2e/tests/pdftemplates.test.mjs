// Templates made from an uploaded PDF: upload one in the console (a refusal
// shown at the file input first), see every text piece outlined over the
// page, mark two pieces as fields by clicking them (a refusal of a key shown
// at that field's input), save a version, preview the draft, generate a
// document with sample values, and read the values back out of the
// generated PDF with pdftotext. The upload page and the editor (loaded at
// its own address) are checked with axe-core and photographed at laptop and
// phone widths.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { launch, newOwner, visit, checkA11y, screenshots, widths } from '../lib.mjs';

// An invoice Chromium printed, already in the repository as a fixture of
// the PDF reader.
const fixture = fileURLToPath(new URL('../../pdftemplate/testdata/chromium-invoice.pdf', import.meta.url));

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

// pdfText is the text of a PDF, as pdftotext (poppler) reads it.
function pdfText(bytes) {
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: bytes }).toString();
}

test('upload a PDF, mark two fields, save, preview and generate from it', async () => {
  const { page } = await newOwner(browser, { plan: 'starter' });
  try {
    await visit(page, '/templates/upload', 'pdf-upload');

    // The server's refusal shows at the file input.
    await page.getByLabel('PDF file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a PDF at all') });
    await page.getByRole('button', { name: 'Upload and read its text' }).click();
    const fileInput = page.getByLabel('PDF file');
    await page.locator('.field-error').first().waitFor();
    assert.equal(await fileInput.getAttribute('aria-invalid'), 'true', 'the refusal is shown at the file input');

    // A file over the limit is refused in the browser, at the file input, naming the limit; nothing is sent.
    let sent = 0;
    const count = (req) => { if (req.url().endsWith('/v1/templates/pdf')) sent++; };
    page.on('request', count);
    await fileInput.setInputFiles({ name: 'big.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(21 * 1048576, 0x20) });
    await page.getByRole('button', { name: 'Upload and read its text' }).click();
    await page.locator('.field-error', { hasText: 'a PDF may be at most 20 MB' }).waitFor();
    assert.equal(await fileInput.getAttribute('aria-invalid'), 'true', 'the size refusal is shown at the file input');
    page.off('request', count);
    assert.equal(sent, 0, 'a file over the limit was sent');

    await fileInput.setInputFiles(fixture);
    await page.getByLabel('Name').fill('Invoice from a PDF');
    await page.getByLabel('Slug').fill('pdf-invoice');
    await page.getByRole('button', { name: 'Upload and read its text' }).click();
    await page.getByRole('heading', { level: 1, name: 'Invoice from a PDF' }).waitFor();
    const id = new URL(page.url()).pathname.split('/').pop();
    assert.match(id, /^tpl_/, 'the editor opens at the template’s address');

    // Every piece the server read is a button over the page image.
    const pieces = await page.evaluate((id) => fetch(`/v1/templates/${id}/pieces`).then(r => r.json()), id);
    const items = pieces.data.items;
    assert.ok(items.length > 10, `pieces: ${items.length}`);
    const sheet = page.locator('.pdf-page').first();
    await sheet.locator('img').evaluate((img) => img.decode());
    assert.equal(await sheet.locator('button.pdf-piece').count(), items.length, 'one button a piece');
    // Placed where the piece is on the image, whatever width it is shown at.
    const customer = items.find(p => p.text === 'Marlow Coffee Roasters Ltd');
    assert.ok(customer, 'the fixture’s customer line is a piece');
    const { width: pw, height: ph } = pieces.data.pages[0];
    for (const size of [widths.laptop, widths.phone]) {
      await page.setViewportSize(size);
      const img = await sheet.locator('img').boundingBox();
      const b = await sheet.locator(`button.pdf-piece[data-piece="${customer.id}"]`).boundingBox();
      assert.ok(Math.abs(b.x - (img.x + img.width * customer.box.x / pw)) < 1.5, `left at ${size.width}: ${b.x} vs image ${img.x}+${img.width}`);
      assert.ok(Math.abs(b.width - img.width * customer.box.w / pw) < 1.5, `width at ${size.width}`);
      assert.ok(Math.abs(b.y - (img.y + img.height * customer.box.y / ph)) < 1.5, `top at ${size.width}`);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `no sideways scroll at ${size.width}`);
    }
    // On a phone the pieces over the page are too small to touch: they are
    // out of reach there, and the list's buttons, at least 24 px tall, are
    // how a piece is chosen.
    await page.setViewportSize(widths.phone);
    assert.equal(await sheet.locator('.pdf-pieces[aria-hidden]').count(), 1);
    assert.equal(await sheet.locator('button.pdf-piece:not([disabled])').count(), 0, 'a piece too small to touch can be touched');
    const listButton = page.locator('.pdf-piece-list button').first();
    assert.ok((await listButton.boundingBox()).height >= 24, 'a piece list button under 24 px on a phone');
    await page.setViewportSize(widths.laptop);

    // Mark two pieces by clicking them; the second without a key first.
    await sheet.getByRole('button', { name: customer.text, exact: true }).click();
    const key0 = page.getByRole('textbox', { name: 'Key' }).nth(0);
    assert.ok(await key0.evaluate((el) => el === document.activeElement), 'the new field’s key has the focus');
    await key0.fill('customer');
    await sheet.getByRole('button', { name: 'PO-77815', exact: true }).click();
    await page.getByRole('button', { name: 'Save as version' }).click();
    const key1 = page.locator('[name="fields[1].key"]');
    await page.locator('#f-fields\\[1\\]\\.key-error').waitFor();
    assert.equal(await key1.getAttribute('aria-invalid'), 'true', 'the refusal of fields[1].key is at its input');
    await key1.fill('po');
    await page.locator('[name="fields[1].required"]').check();

    // Marked pieces look different: a solid outline and their key over them.
    const marked = sheet.locator('button.pdf-piece.marked');
    assert.equal(await marked.count(), 2);
    assert.deepEqual(await sheet.locator('.pdf-piece-tag.shown').allTextContents(), ['customer', 'po']);
    // Each key sits beside its piece and covers no other piece's text.
    const covered = await page.evaluate(() => {
      const boxes = [...document.querySelectorAll('.pdf-page button.pdf-piece')].map(b => b.getBoundingClientRect());
      return [...document.querySelectorAll('.pdf-piece-tag.shown')].flatMap((t) => {
        const r = t.getBoundingClientRect();
        return boxes.filter(o => r.left < o.right - 0.5 && o.left < r.right - 0.5 && r.top < o.bottom - 0.5 && o.top < r.bottom - 0.5).map(() => t.textContent + ' (' + t.dataset.side + ')');
      });
    });
    assert.deepEqual(covered, [], 'a key covers a piece of text');
    assert.equal(await sheet.getByRole('button', { name: `${customer.text} (field customer)` }).count(), 1, 'the field is in the button’s name');
    assert.equal(await page.getByRole('row', { name: /Marlow Coffee Roasters Ltd.*customer/ }).count(), 1, 'the table says which pieces are fields');

    // A keyboard gets past the pieces' buttons to the fields at once.
    await page.getByRole('button', { name: 'Skip the pieces to the fields' }).focus();
    await page.keyboard.press('Enter');
    assert.ok(await key0.evaluate((el) => el === document.activeElement), 'skipping the pieces lands on the first field');

    await page.getByRole('button', { name: 'Save as version' }).click();
    await page.getByText('Version 1 saved and active.').waitFor();
    const v = await page.evaluate((id) => fetch(`/v1/templates/${id}/versions/1`).then(r => r.json()), id);
    assert.deepEqual(v.data.fields.map(f => [f.key, f.text, !!f.required]),
      [['customer', 'Marlow Coffee Roasters Ltd', false], ['po', 'PO-77815', true]]);

    // The editor at its own address (a full load, through the template
    // page) starts from the saved version's fields.
    await visit(page, `/templates/${id}`, 'pdf-editor', { ready: sheet.locator('button.pdf-piece').first() });
    await sheet.locator('img').evaluate((img) => img.decode());
    assert.deepEqual(await sheet.locator('.pdf-piece-tag.shown').allTextContents(), ['customer', 'po']);
    assert.equal(await page.locator('[name="fields[1].required"]').isChecked(), true);

    // Try it: the draft previewed with the values typed, then a document.
    await page.getByRole('textbox', { name: 'customer', exact: true }).fill('Acme Widgets GmbH');
    await page.getByRole('textbox', { name: 'po', exact: true }).fill('PO-12345');
    // Click to the picture painted, in the browser, three times: the median.
    const times = [];
    for (let i = 0; i < 3; i++) {
      times.push(await page.evaluate(async () => {
        const t0 = performance.now();
        [...document.querySelectorAll('button')].find(b => b.textContent === 'Preview the draft').click();
        let img;
        while (!(img = document.querySelector('.pdf-preview-img'))) await new Promise(r => setTimeout(r, 5));
        await img.decode();
        await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
        return performance.now() - t0;
      }));
    }
    times.sort((a, b) => a - b);
    console.log(`# pdf draft preview: ${times[1].toFixed(0)} ms (median of ${times.map(t => t.toFixed(0)).join(', ')} ms: click to the picture painted)`);
    const open = page.getByRole('link', { name: 'open the preview PDF' });
    await open.waitFor();
    const previewText = pdfText(Buffer.from(await page.evaluate(async (href) => {
      const b = await (await fetch(href)).arrayBuffer();
      return [...new Uint8Array(b)];
    }, await open.getAttribute('href'))));
    assert.match(previewText, /Acme Widgets GmbH/, 'the preview has the value typed');
    // And as a picture of the page that holds the fields ("format": "png").
    const pic = page.getByRole('img', { name: 'The draft previewed: page 1' });
    await pic.evaluate((img) => img.decode());
    assert.ok(await pic.evaluate((img) => img.naturalWidth > 300), 'the preview picture is drawn');

    await checkA11y(page, 'pdf-editor-preview');
    await screenshots(page, 'pdf-editor-preview');

    await page.getByRole('button', { name: 'Generate document' }).click();
    const docLink = page.getByRole('link', { name: /^doc_/ });
    await docLink.waitFor();
    assert.match(await docLink.getAttribute('href'), /^\/documents\/doc_/);
    const download = await page.getByRole('link', { name: 'Download the PDF' }).getAttribute('href');
    const res = await fetch(download);
    assert.equal(res.status, 200);
    const text = pdfText(Buffer.from(await res.arrayBuffer()));
    assert.match(text, /Acme Widgets GmbH/);
    assert.match(text, /PO-12345/);
    assert.doesNotMatch(text, /Marlow Coffee Roasters Ltd/, 'the original text is gone');
    assert.doesNotMatch(text, /PO-77815/);

    // A required key left empty: the server's refusal at its input.
    await page.getByRole('textbox', { name: 'po', exact: true }).fill('');
    await page.getByRole('button', { name: 'Generate document' }).click();
    await page.locator('#f-po-error').waitFor();
    assert.equal(await page.getByRole('textbox', { name: 'po', exact: true }).getAttribute('aria-invalid'), 'true');
    await screenshots(page, 'pdf-editor-refused');

    // A version saved without activating it, then activated from the list.
    await page.getByLabel('Make it the active version').uncheck();
    await page.getByRole('button', { name: 'Save as version' }).click();
    await page.getByText('Version 2 saved. It is not active: documents use version 1.').waitFor();
    await page.getByRole('button', { name: 'Activate version 2' }).click();
    await page.getByRole('row', { name: /^2 active/ }).waitFor();
    const t = await page.evaluate((id) => fetch(`/v1/templates/${id}`).then(r => r.json()), id);
    assert.equal(t.data.activeVersion, 2);
  } finally { await page.context().close(); }
});
