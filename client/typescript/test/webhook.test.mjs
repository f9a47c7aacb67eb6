// A real delivery to an HTTPS receiver in this process, verified.
import { test } from "node:test";
import assert from "node:assert/strict";
import https from "node:https";
import { readFileSync } from "node:fs";
import { verifyWebhook, parseWebhook, constructWebhook } from "@platen/client";
import { env, newOrg, copyStarter, eventually } from "./helpers.mjs";

/** receiver serves HTTPS on loopback and keeps every request's raw body. */
async function receiver() {
  const got = [];
  const server = https.createServer({ cert: readFileSync(env.tlsCert), key: readFileSync(env.tlsKey) }, (req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      got.push({ headers: req.headers, raw: Buffer.concat(chunks) });
      res.writeHead(200, { "Content-Type": "text/plain" }).end("ok");
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { got, url: `https://127.0.0.1:${server.address().port}/hook`, close: () => server.close() };
}

test("a delivery verifies, and a tampered one does not", async (t) => {
  const { platen } = await newOrg("ts-webhook");
  const rx = await receiver();
  t.after(() => rx.close());
  const ep = await platen.webhooks.create({ name: "ts receiver", url: rx.url, events: ["document.completed"] });
  const secret = ep.signingSecret;

  // A ping, answered by the receiver.
  const ping = await platen.webhooks.ping(ep.id);
  assert.equal(ping.status, 200);
  const pinged = rx.got.find((d) => d.headers["x-service-event"] === "ping");
  assert.ok(pinged, "the ping arrived");
  assert.equal(await verifyWebhook(secret, pinged.headers["x-service-signature"], pinged.raw), true);

  // A document's completion, delivered.
  const { body } = await copyStarter(platen, "ts-webhook");
  const doc = await platen.documents.create(body);
  assert.equal(doc.status, "completed");
  const d = await eventually("the document.completed delivery", () =>
    rx.got.find((x) => x.headers["x-service-event"] === "document.completed" && JSON.parse(x.raw).data.id === doc.id));
  const header = d.headers["x-service-signature"];
  assert.equal(await verifyWebhook(secret, header, d.raw), true, "the delivery verifies");
  assert.equal(await verifyWebhook(secret, header, new Uint8Array(d.raw)), true, "as bytes");
  assert.equal(await verifyWebhook(secret, header, d.raw.toString("utf8")), true, "as a string");

  const tampered = Buffer.from(d.raw.toString("utf8").replace(doc.id, doc.id.slice(0, -1) + "x"));
  assert.equal(await verifyWebhook(secret, header, tampered), false, "a tampered body");
  assert.equal(await verifyWebhook(secret, header, Buffer.concat([d.raw, Buffer.from(" ")])), false, "a byte more");
  assert.equal(await verifyWebhook("whsec_wrong", header, d.raw), false, "another secret");
  const signedAt = Number(/t=(\d+)/.exec(header)[1]) * 1000;
  assert.equal(await verifyWebhook(secret, header, d.raw, { now: signedAt + 300_000 }), true, "at the tolerance's edge");
  assert.equal(await verifyWebhook(secret, header, d.raw, { now: signedAt + 301_000 }), false, "too late");
  assert.equal(await verifyWebhook(secret, header, d.raw, { now: signedAt + 301_000, toleranceSeconds: 3600 }), true, "a wider tolerance");
  assert.equal(await verifyWebhook(secret, header, d.raw, { now: new Date(signedAt - 301_000) }), false, "too early, now as a Date");
  assert.equal(await verifyWebhook(secret, "v1=abc", d.raw), false, "no timestamp");
  assert.equal(await verifyWebhook(secret, undefined, d.raw), false, "no header");

  const payload = parseWebhook(d.raw);
  assert.equal(payload.event, "document.completed");
  assert.equal(payload.id, d.headers["x-service-delivery"]);
  if (payload.event === "document.completed") {
    assert.equal(payload.data.id, doc.id);
    assert.equal(payload.data.pageCount, doc.pageCount);
    assert.match(payload.data.url, /\/files\//);
    assert.equal(payload.data.report.sha256, doc.report.sha256, "the payload carries the render report");
  }
  assert.equal((await constructWebhook(secret, header, d.raw)).id, payload.id);
  await assert.rejects(constructWebhook(secret, header, tampered), /signature/);

  // The log has it delivered.
  const log = await eventually("the delivery logged as delivered", async () => {
    const l = await platen.webhooks.deliveries(ep.id);
    return l.items.find((x) => x.event === "document.completed" && x.status === "delivered") && l;
  });
  assert.ok(log.items.length >= 1);
});
