// A 429 retried with backoff, keeping the Idempotency-Key and the body:
// one document made.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PlatenError } from "@platen/client";
import { newOrg, copyStarter } from "./helpers.mjs";

test("a rate-limited generate is retried with the same Idempotency-Key and makes one document", async () => {
  const { platen, calls } = await newOrg("ts-retry");
  const { body } = await copyStarter(platen, "ts-retry");

  // Drain the key's bucket: requests that may not retry, until one is refused.
  let refused;
  for (let round = 0; !refused && round < 5; round++) {
    const rs = await Promise.allSettled(Array.from({ length: 60 }, () => platen.index({ maxRetries: 0 })));
    refused = rs.find((r) => r.status === "rejected")?.reason;
  }
  assert.ok(refused instanceof PlatenError, `no 429: ${refused}`);
  assert.equal(refused.status, 429);
  assert.equal(refused.code, "RATE_LIMITED");
  assert.ok(refused.retryAfter >= 1, `retryAfter ${refused.retryAfter}`);

  const started = Date.now();
  const doc = await platen.documents.create({ ...body, correlationId: "ts-retry-1" }, { maxRetries: 6 });
  assert.equal(doc.status, "completed");

  const posts = calls.filter((c) => c.method === "POST" && c.url.pathname === "/v1/documents");
  assert.ok(posts.length >= 2, `sent ${posts.length} time(s): ${posts.map((p) => p.status)}`);
  assert.equal(posts[0].status, 429);
  assert.equal(posts.at(-1).status, 201);
  const keys = new Set(posts.map((p) => p.headers["Idempotency-Key"]));
  assert.equal(keys.size, 1, "one Idempotency-Key across the attempts");
  assert.ok([...keys][0], "an Idempotency-Key was made");
  assert.equal(new Set(posts.map((p) => p.body)).size, 1, "the same body");
  assert.ok(Date.now() - started >= 900, "the retry waited Retry-After");

  const docs = await platen.documents.list({ correlationId: "ts-retry-1" });
  assert.deepEqual(docs.items.map((d) => d.id), [doc.id], "one document");

  // The same key again is a replay, not a second document.
  const replay = await platen.documents.create({ ...body, correlationId: "ts-retry-1" }, { idempotencyKey: [...keys][0], maxRetries: 6 });
  assert.equal(replay.id, doc.id);
});

test("an aborted request stops its retries", async () => {
  const { platen } = await newOrg("ts-abort");
  let refused;
  while (!refused) {
    const rs = await Promise.allSettled(Array.from({ length: 60 }, () => platen.index({ maxRetries: 0 })));
    refused = rs.find((r) => r.status === "rejected")?.reason;
  }
  const ac = new AbortController();
  const started = Date.now();
  setTimeout(() => ac.abort(new Error("enough")), 200);
  await assert.rejects(platen.wallet.get({ signal: ac.signal, maxRetries: 10 }), /enough/);
  assert.ok(Date.now() - started < 900, "aborted during the wait");
});
