// Shared by the tests: the node's address and keys from the Go harness
// (client_test.go), an organisation of a test's own, and a recording fetch.
import assert from "node:assert/strict";
import WebSocket from "ws";
import { Platen, operations } from "@platen/client";

export const env = {
  url: need("PLATEN_URL"),
  key: need("PLATEN_API_KEY"),
  operatorToken: need("PLATEN_OPERATOR_TOKEN"),
  tlsCert: need("PLATEN_TLS_CERT"),
  tlsKey: need("PLATEN_TLS_KEY"),
  /** A PKCS#12 file the harness made (sign/signtest), its password, and its certificate's SHA-256. */
  signingP12: need("PLATEN_SIGNING_P12"),
  signingPassword: need("PLATEN_SIGNING_PASSWORD"),
  signingSha256: need("PLATEN_SIGNING_SHA256"),
};

function need(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run these tests through go test ./client/typescript`);
  return v;
}

/** admin calls the operator API. */
export async function admin(method, path, body) {
  const res = await fetch(env.url + path, {
    method,
    headers: { Authorization: `Bearer ${env.operatorToken}`, "Content-Type": "application/json" },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = await res.json();
  assert.ok(res.ok, `${method} ${path}: HTTP ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

/**
 * newOrg makes an organisation of the test's own, on the starter plan, and
 * a key with every scope the first key holds: each test file has its own
 * feed, documents and rate bucket.
 */
export async function newOrg(name, options = {}) {
  const first = new Platen({ baseUrl: env.url, apiKey: env.key });
  const scopes = (await first.index()).scopes.map((s) => s.scope);
  const org = await admin("POST", "/admin/v1/orgs", { name, plan: "starter" });
  const key = await admin("POST", `/admin/v1/orgs/${org.id}/keys`, { name: `${name} key`, scopes });
  const recorder = recordingFetch();
  const platen = new Platen({ baseUrl: env.url, apiKey: key.key, WebSocket, fetch: recorder.fetch, ...options });
  return { org, key: key.key, scopes, platen, calls: recorder.calls };
}

/** opOf names the operation of the table a request the client sent went through. */
export function opOf(method, pathname) {
  for (const [name, op] of Object.entries(operations)) {
    const re = new RegExp("^" + op.path.replace(/\{\w+\}/g, "[^/]+").replace(/\./g, "\\.") + "$");
    if (op.method === method && re.test(pathname)) return name;
  }
  return undefined;
}

/** recordingFetch is fetch that keeps every request it sent and the status it got. */
export function recordingFetch() {
  const calls = [];
  return {
    calls,
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      calls.push({ method: init.method, url: new URL(url), headers: { ...init.headers }, body: init.body, status: res.status });
      return res;
    },
  };
}

/** starterBody is a generate body for a starter copied under slug. */
export async function copyStarter(platen, slug, starter = "receipt") {
  const lib = await platen.templates.library();
  const s = lib.items.find((x) => x.slug === starter) ?? lib.items[0];
  const tpl = await platen.templates.copyStarter(s.slug, { slug, name: `${s.name} (${slug})` });
  return { template: tpl, starter: s, body: { templateId: tpl.slug, data: s.sampleData ?? {} } };
}

/** eventually polls fn until it answers something truthy, or fails after ms. */
export async function eventually(what, fn, ms = 20000) {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * drain spends the key's tokens: requests that may not retry, twenty at a
 * time, until one is refused; it answers that refusal as soon as it comes,
 * so the next request finds the bucket empty (a token comes back each
 * second).
 */
export async function drain(platen) {
  for (let round = 0; round < 20; round++) {
    try {
      return await Promise.any(Array.from({ length: 20 }, () =>
        platen.index({ maxRetries: 0 }).then(() => Promise.reject(new Error("answered")), (e) => e)));
    } catch {
      // all twenty answered: again
    }
  }
  assert.fail("the key was never refused");
}

export { WebSocket };
