// Which refusals and lost connections are sent again: the Go client's rule,
// by method and operation (docs/clients.md, Retries), never by an error's
// message. A fake fetch answers each attempt, so every case is exact.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Platen, PlatenError } from "@platen/client";

function refusal(status, code, message) {
  return new Response(JSON.stringify({ error: { code, message } }), {
    status, headers: { "Content-Type": "application/json", "Retry-After": "0" },
  });
}

/** attempts calls f on a client whose every answer is answer(), and counts the sends. */
async function attempts(answer, f) {
  let sent = 0;
  const platen = new Platen({
    baseUrl: "http://127.0.0.1:9", apiKey: "plt_test",
    fetch: async () => { sent++; return answer(); },
  });
  await assert.rejects(f(platen, { maxRetries: 1 }));
  return sent;
}

const ops = [
  { name: "GET /v1/wallet", safe: true, f: (p, o) => p.wallet.get(o) },
  { name: "DELETE /v1/keys/{keyId}", safe: true, f: (p, o) => p.keys.revoke("key_x", o) },
  { name: "POST /v1/documents", safe: true, f: (p, o) => p.documents.create({ templateId: "t", data: {} }, o) },
  { name: "POST /v1/webhooks", safe: false, f: (p, o) => p.webhooks.create({ url: "https://example.com/h", events: ["document.completed"] }, o) },
  { name: "POST /v1/keys", safe: false, f: (p, o) => p.keys.create({ name: "k", scopes: ["templates.read"] }, o) },
  { name: "PATCH /v1/webhooks/{id}", safe: false, f: (p, o) => p.webhooks.update("we_x", { enabled: false }, o) },
];

for (const op of ops) {
  test(`${op.name}: a 503 UNAVAILABLE is retried ${op.safe ? "" : "not "}(whatever its message)`, async () => {
    for (const message of ["the outcome is not known", "the node is not ready", "placement is settling"]) {
      const sent = await attempts(() => refusal(503, "UNAVAILABLE", message), op.f);
      assert.equal(sent, op.safe ? 2 : 1, `${message}: sent ${sent} time(s)`);
    }
  });
  test(`${op.name}: a lost connection is retried ${op.safe ? "" : "not "}`, async () => {
    const sent = await attempts(() => { throw new TypeError("fetch failed"); }, op.f);
    assert.equal(sent, op.safe ? 2 : 1);
  });
  test(`${op.name}: 429 and 503 OVERLOADED are always retried; 500 never`, async () => {
    assert.equal(await attempts(() => refusal(429, "RATE_LIMITED", "slow down"), op.f), 2);
    assert.equal(await attempts(() => refusal(503, "OVERLOADED", "a queue is full"), op.f), 2);
    assert.equal(await attempts(() => refusal(500, "INTERNAL", "oops"), op.f), 1);
  });
}

test("a refusal that is not retried is thrown as a PlatenError", async () => {
  const platen = new Platen({ baseUrl: "http://127.0.0.1:9", apiKey: "plt_test", fetch: async () => refusal(503, "UNAVAILABLE", "x") });
  const err = await platen.keys.create({ name: "k", scopes: ["templates.read"] }).catch((e) => e);
  assert.ok(err instanceof PlatenError);
  assert.equal(err.code, "UNAVAILABLE");
});
