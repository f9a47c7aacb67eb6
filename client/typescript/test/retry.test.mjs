// A 429 retried with backoff, keeping the Idempotency-Key and the body:
// one document made.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Platen, PlatenError } from "@platen/client";
import { env, newOrg, copyStarter, drain } from "./helpers.mjs";

test("a rate-limited generate is retried with the same Idempotency-Key and makes one document", async (t) => {
  const { platen, key } = await newOrg("ts-retry");
  const { body } = await copyStarter(platen, "ts-retry");

  const refused = await drain(platen);
  assert.ok(refused instanceof PlatenError, `no 429: ${refused}`);
  assert.equal(refused.status, 429);
  assert.equal(refused.code, "RATE_LIMITED");
  assert.ok(refused.retryAfter >= 1, `retryAfter ${refused.retryAfter}`);

  // The key stays drained (each token back is taken at once) until the
  // generate's first answer; then its retry, after Retry-After, gets one.
  // A busy machine may still let the first attempt through: then again.
  for (let round = 1; ; round++) {
    let hammering = true;
    const hammer = Promise.all(Array.from({ length: 4 }, async () => {
      while (hammering) await platen.index({ maxRetries: 0 }).catch(() => {});
    }));
    const posts = [];
    const creator = new Platen({
      baseUrl: env.url, apiKey: key,
      fetch: async (url, init) => {
        const res = await fetch(url, init);
        posts.push({ key: init.headers["Idempotency-Key"], body: init.body, status: res.status, at: Date.now() });
        hammering = false;
        return res;
      },
    });
    const correlationId = `ts-retry-${round}`;
    const doc = await creator.documents.create({ ...body, correlationId }, { maxRetries: 6 });
    await hammer;
    if (posts[0].status !== 429 && round < 3) {
      t.diagnostic(`round ${round}: the first attempt found a token (${posts.map((p) => p.status)}); again`);
      continue;
    }
    assert.equal(doc.status, "completed");
    assert.ok(posts.length >= 2, `sent ${posts.length} time(s): ${posts.map((p) => p.status)}`);
    assert.equal(posts[0].status, 429);
    assert.equal(posts.at(-1).status, 201);
    const keys = new Set(posts.map((p) => p.key));
    assert.equal(keys.size, 1, "one Idempotency-Key across the attempts");
    assert.ok([...keys][0], "an Idempotency-Key was made");
    assert.equal(new Set(posts.map((p) => p.body)).size, 1, "the same body");
    assert.ok(posts[1].at - posts[0].at >= 900, "the retry waited Retry-After");

    const docs = await platen.documents.list({ correlationId });
    assert.deepEqual(docs.items.map((d) => d.id), [doc.id], "one document");

    // The same key again is a replay, not a second document.
    const replay = await platen.documents.create({ ...body, correlationId }, { idempotencyKey: [...keys][0], maxRetries: 6 });
    assert.equal(replay.id, doc.id);
    return;
  }
});

test("an aborted request stops its retries", async () => {
  const { platen } = await newOrg("ts-abort");
  await drain(platen);
  const ac = new AbortController();
  const started = Date.now();
  setTimeout(() => ac.abort(new Error("enough")), 200);
  await assert.rejects(platen.wallet.get({ signal: ac.signal, maxRetries: 10 }), /enough/);
  assert.ok(Date.now() - started < 900, "aborted during the wait");
});

test("a lost connection is retried when it is safe, and only then", async () => {
  const { platen: p0, key } = await newOrg("ts-lost");
  const { body } = await copyStarter(p0, "ts-lost");
  const sent = [];
  let failNext = 0;
  // fetch as if the connection broke before the answer came back, failNext times.
  const flaky = async (url, init) => {
    sent.push({ method: init.method, key: init.headers["Idempotency-Key"] });
    if (failNext > 0) {
      failNext--;
      await fetch(url, init); // it reached the node: the outcome is lost
      throw new TypeError("fetch failed");
    }
    return fetch(url, init);
  };
  const platen = new Platen({ baseUrl: env.url, apiKey: key, fetch: flaky });
  failNext = 1;
  const doc = await platen.documents.create({ ...body, correlationId: "ts-lost-1" });
  assert.equal(sent.length, 2);
  assert.equal(sent[0].key, sent[1].key);
  assert.equal((await platen.documents.list({ correlationId: "ts-lost-1" })).items.length, 1, "one document");
  assert.equal(doc.status, "completed");

  // A write without an Idempotency-Key is not sent again.
  sent.length = 0;
  failNext = 1;
  await assert.rejects(platen.templates.create({ name: "Once", slug: "ts-lost-once", html: "<p>x</p>" }), TypeError);
  assert.equal(sent.length, 1);
});
