// Realtime through a TCP proxy that is cut mid-render and mid-subscription:
// the generate resumes with its idempotencyKey (one document), and the
// subscription resumes from its cursor (no event missed, none twice).
import { test } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { Platen } from "@platen/client";
import { env, newOrg, copyStarter, eventually, drain, WebSocket } from "./helpers.mjs";

/** proxy forwards TCP to the node; cut() drops every connection through it. */
async function proxy(target) {
  const { hostname, port } = new URL(target);
  const sockets = new Set();
  let cuts = 0;
  const server = net.createServer((down) => {
    const up = net.connect(Number(port), hostname);
    for (const s of [down, up]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {});
    }
    down.pipe(up);
    up.pipe(down);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    cut() {
      cuts++;
      for (const s of sockets) s.destroy();
    },
    get cuts() {
      return cuts;
    },
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

test("a generate and a subscription survive dropped connections", async (t) => {
  const { platen, key } = await newOrg("ts-realtime");
  const { body } = await copyStarter(platen, "ts-realtime");
  const px = await proxy(env.url);
  t.after(() => px.close());

  const states = [];
  const through = new Platen({ baseUrl: px.url, apiKey: key, WebSocket });
  const rt = through.realtime({ maxReconnectDelayMs: 400, onStateChange: (s) => states.push(s) });
  t.after(() => rt.close());

  // A subscription to every kind, from now.
  const got = [];
  const sub = await rt.subscribe([], {}, (ev) => got.push(ev));
  const start = sub.startCursor;
  assert.match(start, /^\d+$/);

  // 1. A generate, cut as soon as the document is queued: the client
  // reconnects and resends the frame with its idempotencyKey.
  let cutAt;
  const doc = await rt.generate({ ...body, correlationId: "ts-rt-1" }, {
    idempotencyKey: "ts-rt-1",
    onUpdate: (d, type) => {
      if (cutAt === undefined) {
        cutAt = type;
        px.cut();
      }
    },
  });
  assert.equal(cutAt, "document.queued");
  assert.equal(doc.status, "completed");
  assert.ok(doc.pageCount >= 1);
  assert.match(doc.report.sha256, /^[0-9a-f]{64}$/, "the frame's record carries the report");
  const made = await platen.documents.list({ correlationId: "ts-rt-1" });
  assert.deepEqual(made.items.map((d) => d.id), [doc.id], "one document");
  await eventually("its completed event", () => got.some((e) => e.event === "document.completed" && e.data.id === doc.id));

  // 2. Events while the connection is down arrive after it is back.
  px.cut();
  const away = await platen.documents.create({ ...body, correlationId: "ts-rt-away" });
  assert.equal(away.status, "completed");
  await eventually("the event made while away", () => got.some((e) => e.event === "document.completed" && e.data.id === away.id));

  // 3. A cut in the middle of a burst of events.
  const burst = Array.from({ length: 3 }, (_, i) => platen.documents.create({ ...body, correlationId: `ts-rt-burst-${i}`, wait: false }));
  setTimeout(() => px.cut(), 30);
  const ids = (await Promise.all(burst)).map((d) => d.id);
  await eventually("the burst's completed events", () => ids.every((id) => got.some((e) => e.event === "document.completed" && e.data.id === id)));
  assert.ok(px.cuts >= 3);
  assert.ok(states.filter((s) => s === "open").length >= 3, `states: ${states.join(" ")}`);

  // No event twice, cursors in order.
  const cursors = got.map((e) => BigInt(e.cursor));
  for (let i = 1; i < cursors.length; i++) assert.ok(cursors[i] > cursors[i - 1], `cursor ${cursors[i]} after ${cursors[i - 1]}`);

  // None missed: a fresh connection replaying from the same start sees exactly the same.
  const direct = platen.realtime();
  t.after(() => direct.close());
  const replay = [];
  await direct.subscribe([], { since: start }, (ev) => replay.push(ev));
  const last = got.at(-1).cursor;
  await eventually("the replay up to the last cursor", () => replay.some((e) => e.cursor === last));
  const key2 = (e) => `${e.cursor} ${e.event} ${e.data.id ?? ""}`;
  assert.deepEqual(got.map(key2), replay.filter((e) => BigInt(e.cursor) <= BigInt(last)).map(key2));
});

test("realtime refusals: a bad key ends the connection, a bad frame rejects its call", async () => {
  const { platen } = await newOrg("ts-realtime-refusals");
  const states = [];
  const bad = new Platen({ baseUrl: env.url, apiKey: "plt_" + "x".repeat(43), WebSocket }).realtime({ onStateChange: (s) => states.push(s) });
  await assert.rejects(bad.generate({ templateId: "anything" }), (e) => e.status === 401 && e.code === "UNAUTHENTICATED");
  assert.equal(states.at(-1), "closed");
  assert.ok(!states.includes("reconnecting"), `states: ${states.join(" ")}`);

  const rt = platen.realtime();
  try {
    await assert.rejects(rt.subscribe(["document.nothing"], {}, () => {}), (e) => e.code === "INVALID_REQUEST" && e.field === "events[0]");
    await assert.rejects(rt.generate({ templateId: "no-such-template" }), (e) => e.code === "NOT_FOUND");
    const { body } = await copyStarter(platen, "ts-rt-refusals");
    await assert.rejects(rt.generate({ ...body, data: { ...body.data, unexpected: { deeply: [1] } }, templateVersion: 99 }), (e) => e.field === "templateVersion");
  } finally {
    rt.close();
  }
  await assert.rejects(rt.generate({ templateId: "x" }), (e) => e.code === "CLOSED");
});

test("a dry run through realtime answers a quote and makes nothing", async () => {
  const { platen } = await newOrg("ts-realtime-quote");
  const { body } = await copyStarter(platen, "ts-rtq");
  const rt = platen.realtime();
  try {
    const q = await rt.generate({ ...body, correlationId: "ts-rtq", dryRun: true }, { idempotencyKey: "ts-rtq" });
    assert.ok(q.pageCount >= 1);
    assert.equal(q.payable, true);
    assert.equal(q.allowancePages, q.pageCount);
    assert.equal(q.walletMicros, 0);
    assert.equal((await platen.documents.list({ correlationId: "ts-rtq" })).items.length, 0, "no document");
    // The key was not used up: the real generate with it makes the document.
    const doc = await rt.generate({ ...body, correlationId: "ts-rtq" }, { idempotencyKey: "ts-rtq" });
    assert.equal(doc.status, "completed");
    assert.equal(doc.pageCount, q.pageCount);
    await assert.rejects(rt.quote({ ...body, templateVersion: 99 }), (e) => e.field === "templateVersion");
  } finally {
    rt.close();
  }
});

test("a generate and a subscribe refused for the key's rate are sent again after retryAfter", async () => {
  const { platen } = await newOrg("ts-realtime-rate");
  const { body } = await copyStarter(platen, "ts-rt-rate");
  const retries = [];
  const rt = platen.realtime({ onRetry: (what, err, delay) => retries.push({ what, code: err.code, retryAfter: err.retryAfter, delay }) });
  try {
    await drain(platen);
    const got = [];
    const sub = await rt.subscribe(["document.completed"], {}, (ev) => got.push(ev));
    const doc = await rt.generate({ ...body, correlationId: "ts-rt-rate" });
    assert.equal(doc.status, "completed");
    // The drained key refuses at least the first of the two (a token comes
    // back each second; a busy machine may give the second one).
    assert.ok(retries.length >= 1, "nothing was refused");
    assert.ok(retries.every((r) => r.code === "RATE_LIMITED" && r.retryAfter >= 1 && r.delay >= 1000), JSON.stringify(retries));
    assert.equal((await platen.documents.list({ correlationId: "ts-rt-rate" })).items.length, 1, "one document");
    await eventually("the subscription's event", () => got.some((e) => e.data.id === doc.id));
    assert.match(sub.startCursor, /^\d+$/);
  } finally {
    rt.close();
  }
});

test("a document that fails resolves as failed, with where it failed; its dry run is refused", async () => {
  const { platen } = await newOrg("ts-realtime-failed");
  await platen.templates.create({
    name: "Fails", slug: "ts-fails",
    html: '{{#each items}}{{asset "missing.png"}}{{/each}}', sampleData: { items: [] },
  });
  const rt = platen.realtime();
  try {
    const doc = await rt.generate({ templateId: "ts-fails", data: { items: [1] } });
    assert.equal(doc.status, "failed");
    assert.equal(doc.errorCode, "TEMPLATE_ERROR");
    assert.equal(doc.report.failedAt, "filling");
    assert.equal(doc.report.sha256, undefined);
    assert.ok(Array.isArray(doc.report.failedAssets));
    assert.ok(Array.isArray(doc.report.fonts.used));
    await assert.rejects(rt.quote({ templateId: "ts-fails", data: { items: [1] } }), (e) => e.code === "RENDER_FAILED");
    await assert.rejects(platen.documents.quote({ templateId: "ts-fails", data: { items: [1] } }), (e) => e.status === 422 && e.code === "RENDER_FAILED");
  } finally {
    rt.close();
  }
});
