// Every route of the API through the client, as a user installs it, and
// the client's operations table against the node's OpenAPI document.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Platen, PlatenError, operations } from "@platen/client";
import { env, newOrg, copyStarter, opOf } from "./helpers.mjs";

/** elsewhere are operations another test file calls; the walk below leaves them. */
const elsewhere = {
  "signing.create": "signing.test.mjs",
  "signing.list": "signing.test.mjs",
  "signing.get": "signing.test.mjs",
  "signing.delete": "signing.test.mjs",
};

test("operations is exactly the /v1 operations of the node's OpenAPI document", async () => {
  const platen = new Platen({ baseUrl: env.url, apiKey: env.key });
  const doc = await platen.openapi();
  const api = new Set();
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith("/v1")) continue;
    for (const method of Object.keys(item)) {
      if (["get", "post", "put", "patch", "delete"].includes(method)) api.add(`${method.toUpperCase()} ${path}`);
    }
  }
  const client = new Set(Object.values(operations).map((o) => `${o.method} ${o.path}`));
  const missing = [...api].filter((x) => !client.has(x)).sort();
  const extra = [...client].filter((x) => !api.has(x)).sort();
  assert.deepEqual(missing, [], `routes of the API the client lacks: ${missing.join(", ")}`);
  assert.deepEqual(extra, [], `client operations the API lacks: ${extra.join(", ")}`);
  assert.equal(client.size, Object.keys(operations).length, "two names for one operation");
  // The index lists the same operations.
  const index = await platen.index();
  const listed = new Set(index.operations.map((o) => `${o.method} ${o.path.replace(/:(\w+)/g, "{$1}")}`));
  for (const x of client) {
    if (!listed.has(x)) assert.fail(`GET /v1 does not list ${x}`);
  }
});

test("every operation, through the client", async (t) => {
  const { platen, calls } = await newOrg("ts-routes");
  const seen = new Set();

  // The index and the description.
  const index = await platen.index();
  assert.equal(index.success, true);
  assert.equal(index.version, "v1");
  assert.ok(index.scopes.some((s) => s.scope === "documents.generate"));
  const doc0 = await platen.openapi();
  assert.match(doc0.openapi, /^3\.1/);

  // Wallet.
  const wallet = await platen.wallet.get();
  assert.equal(wallet.plan.name, "starter");
  assert.equal(typeof wallet.allowance.leftPages, "number");
  const ledger = await platen.wallet.ledger({ limit: 5 });
  assert.ok(Array.isArray(ledger.items));
  const usage = await platen.wallet.usage({ months: 2 });
  assert.equal(usage.months.length, 2);

  // Templates: the library, a copy, one written here, its versions.
  const lib = await platen.templates.library();
  assert.ok(lib.items.length > 0);
  const thumb = await platen.templates.starterThumbnail(lib.items[0].slug);
  assert.deepEqual([...thumb.slice(1, 4)], [0x50, 0x4e, 0x47], "a PNG");
  const { template: copied, body } = await copyStarter(platen, "ts-receipt");
  assert.equal(copied.activeVersion, 1);

  const tpl = await platen.templates.create({
    name: "Hello", slug: "ts-hello", description: "from the TypeScript client",
    html: "<h1>Hello {{name}}</h1>", sampleData: { name: "sample" },
  });
  assert.equal(tpl.slug, "ts-hello");
  assert.equal(tpl.activeVersion, 1);
  const listed = await platen.templates.list({ limit: 50 });
  assert.ok(listed.items.some((x) => x.id === tpl.id));
  assert.equal((await platen.templates.get("ts-hello")).id, tpl.id);
  const renamed = await platen.templates.update(tpl.id, { name: "Hello there" });
  assert.equal(renamed.name, "Hello there");
  const v2 = await platen.templates.createVersion(tpl.id, { html: "<h1>Hi {{name}}</h1>", sampleData: { name: "v2" }, activate: false });
  assert.equal(v2.version, 2);
  assert.equal(v2.active, false);
  const versions = await platen.templates.listVersions(tpl.id);
  assert.deepEqual(versions.items.map((v) => v.version), [2, 1]);
  const got2 = await platen.templates.getVersion(tpl.id, 2);
  assert.equal(got2.html, "<h1>Hi {{name}}</h1>");
  const activated = await platen.templates.activateVersion(tpl.id, 2);
  assert.equal(activated.activeVersion, 2);
  const pdf = await platen.templates.preview(tpl.id, { data: { name: "preview" } });
  assert.equal(new TextDecoder().decode(pdf.bytes.slice(0, 5)), "%PDF-");
  assert.equal(pdf.pages, 1);
  assert.ok(pdf.engine);
  const png = await platen.templates.preview(tpl.id, { draft: { html: "<p>draft {{name}}</p>", sampleData: { name: "d" } }, format: "png", width: 200 });
  assert.equal(png.contentType, "image/png");
  assert.equal(png.page, 1);
  const archived = await platen.templates.archive(tpl.id);
  assert.ok(archived.archivedAt);
  const restored = await platen.templates.update(tpl.id, { archived: false });
  assert.ok(!restored.archivedAt);

  // A template from an uploaded PDF: the preview just made.
  const fromPDF = await platen.templates.createFromPDF({ file: pdf.bytes, filename: "hello.pdf", name: "From a PDF", slug: "ts-from-pdf" });
  assert.equal(fromPDF.kind, "pdf");
  assert.ok(fromPDF.pieces.length > 0);
  const pieces = await platen.templates.pieces(fromPDF.id, { page: 1 });
  assert.ok(pieces.items.length > 0);
  assert.equal(pieces.pages.length, 1);
  const page = await platen.templates.pageImage(fromPDF.id, 1);
  assert.deepEqual([...page.slice(1, 4)], [0x50, 0x4e, 0x47]);

  // Documents.
  const quote = await platen.documents.quote(body);
  assert.ok(quote.pageCount >= 1);
  assert.equal(quote.allowancePages, quote.pageCount, "the starter plan's allowance covers it");
  assert.equal(quote.walletMicros, 0);
  assert.equal(quote.payable, true);
  assert.equal(quote.report.ms.queued, 0);
  assert.equal(quote.report.ms.storing, 0);
  assert.equal((await platen.documents.list({ limit: 100 })).items.length, 0, "a dry run makes no document");
  const doc = await platen.documents.create({ ...body, correlationId: "ts-routes-1", metadata: { from: "ts" } });
  assert.equal(doc.status, "completed");
  assert.equal(doc.pageCount, quote.pageCount, "the quote's pages are the document's");
  assert.equal(doc.report.engine, doc.engine);
  assert.ok(doc.report.fonts.used.length >= 1, `fonts: ${JSON.stringify(doc.report.fonts)}`);
  assert.deepEqual(doc.report.failedAssets, []);
  for (const stage of ["queued", "filling", "rendering", "counting", "storing"]) assert.equal(typeof doc.report.ms[stage], "number", stage);
  assert.equal(doc.report.sha256, quote.report.sha256, "the same PDF");
  assert.deepEqual(doc.metadata, { from: "ts" });
  assert.ok(doc.downloadUrl);
  const list = await platen.documents.list({ correlationId: "ts-routes-1" });
  assert.deepEqual(list.items.map((d) => d.id), [doc.id]);
  assert.equal(list.nextCursor, null);
  const stats = await platen.documents.stats({ days: 2 });
  assert.equal(stats.days.length, 2);
  assert.ok(stats.total.completed >= 1);
  assert.equal((await platen.documents.get(doc.id)).id, doc.id);
  const link = await platen.documents.downloadLink(doc.id, { ttlSeconds: 120 });
  assert.match(link.url, /\/files\//);
  const bytes = await platen.documents.download(doc.id);
  assert.equal(new TextDecoder().decode(bytes.slice(0, 5)), "%PDF-");
  assert.equal(doc.report.bytes, bytes.length);
  const digest = Buffer.from(await crypto.subtle.digest("SHA-256", bytes)).toString("hex");
  assert.equal(doc.report.sha256, digest, "the report's sha256 is the downloaded PDF's");
  const firstPage = await platen.documents.thumbnail(doc.id);
  assert.deepEqual([...firstPage.slice(1, 4)], [0x50, 0x4e, 0x47], "the thumbnail is a PNG");
  assert.deepEqual(await platen.documents.data(doc.id), body.data, "the document's data is what it was made from");
  assert.equal(doc.charge.allowancePages + doc.charge.walletPages, doc.pageCount);
  const again = await platen.documents.regenerate(doc.id);
  assert.notEqual(again.id, doc.id);
  assert.equal(again.regeneratedFrom, doc.id);

  // An e-invoice: its conformance report, and the XML its PDF embeds.
  const { body: einvBody } = await copyStarter(platen, "ts-einvoice", "e-invoice");
  const einv = await platen.documents.create(einvBody);
  assert.equal(einv.report.conformance.failed, 0);
  assert.equal(einv.report.conformance.einvoice.file, "factur-x.xml");
  const xml = await platen.documents.einvoiceXml(einv.id);
  assert.match(xml, /<rsm:CrossIndustryInvoice/);

  // Webhooks (a receiver that is not there: the ping answers how it failed).
  const ep = await platen.webhooks.create({ name: "nowhere", url: "https://127.0.0.1:9/hook", events: ["document.completed"] });
  assert.match(ep.signingSecret, /^whsec_/);
  assert.ok((await platen.webhooks.list()).items.some((e) => e.id === ep.id));
  assert.equal((await platen.webhooks.get(ep.id)).name, "nowhere");
  const changed = await platen.webhooks.update(ep.id, { name: "still nowhere", events: ["document.completed", "document.failed"] });
  assert.deepEqual(changed.events, ["document.completed", "document.failed"]);
  const deliveries = await platen.webhooks.deliveries(ep.id, { limit: 5 });
  assert.ok(Array.isArray(deliveries.items));
  const ping = await platen.webhooks.ping(ep.id);
  assert.equal(typeof ping.status, "number");
  const deleted = await platen.webhooks.delete(ep.id);
  assert.equal(deleted.deleted, true);

  // Keys.
  const made = await platen.keys.create({ name: "ts-made", scopes: ["documents.read"] });
  assert.match(made.key, /^plt_/);
  const keys = await platen.keys.list();
  assert.ok(keys.items.some((k) => k.id === made.id));
  const other = new Platen({ baseUrl: env.url, apiKey: made.key });
  assert.equal((await other.documents.get(doc.id)).id, doc.id);
  await platen.keys.revoke(made.id);
  await assert.rejects(other.documents.get(doc.id), (e) => e instanceof PlatenError && e.status === 401 && e.code === "UNAUTHENTICATED");

  // Realtime: the one operation that is not fetch.
  const rt = platen.realtime();
  try {
    const q = await rt.quote(body);
    assert.equal(q.pageCount, quote.pageCount);
    assert.equal(q.report.sha256, quote.report.sha256);
    const d = await rt.generate({ ...body, correlationId: "ts-routes-rt" });
    assert.equal(d.status, "completed");
  } finally {
    rt.close();
  }
  seen.add("realtime");

  // Refusals as PlatenErrors.
  await assert.rejects(platen.documents.get("doc_nope"), (e) => {
    assert.ok(e instanceof PlatenError);
    assert.equal(e.status, 404);
    assert.equal(e.code, "NOT_FOUND");
    assert.ok(e.requestId);
    return true;
  });
  await assert.rejects(platen.templates.create({ name: "Bad", slug: "Not A Slug" }), (e) => {
    assert.equal(e.status, 400);
    assert.equal(e.code, "INVALID_REQUEST");
    assert.equal(e.field, "slug");
    return true;
  });
  await assert.rejects(platen.documents.create({ ...body, data: {} }), (e) => {
    assert.equal(e.status, 422);
    assert.equal(e.code, "PAYLOAD_VALIDATION_FAILED");
    assert.ok(e.violations.length >= 2, `violations: ${JSON.stringify(e.violations)}`);
    assert.equal(e.violations[0].field, e.field);
    return true;
  });
  await assert.rejects(other.keys.list(), (e) => e.status === 401);
  const weak = await platen.keys.create({ name: "ts-weak", scopes: ["documents.read", "keys.write"] });
  const weakClient = new Platen({ baseUrl: env.url, apiKey: weak.key });
  await assert.rejects(weakClient.keys.create({ name: "stronger", scopes: ["templates.write"] }), (e) => {
    assert.ok(e instanceof PlatenError);
    assert.equal(e.status, 403);
    assert.equal(e.code, "FORBIDDEN");
    assert.equal(e.field, "scopes");
    assert.match(e.message, /templates\.write/);
    return true;
  });
  const revoked = await weakClient.keys.revoke(weak.id);
  assert.ok(revoked.revokedAt);

  // Every operation went through the table.
  for (const c of calls) {
    const name = opOf(c.method, c.url.pathname);
    if (name) seen.add(name);
    else if (!c.url.pathname.startsWith("/files/")) assert.fail(`a request outside the operations table: ${c.method} ${c.url.pathname}`);
  }
  const notCalled = Object.keys(operations).filter((n) => !seen.has(n) && !elsewhere[n]);
  assert.deepEqual(notCalled, [], `operations the test did not call: ${notCalled.join(", ")}`);
});
