import type { JSONObject, KnownEvent } from "./types.js";

export interface VerifyOptions {
  /** How far the signature's time may be from now (default 300 s). */
  toleranceSeconds?: number;
  /** Now: a Date, or milliseconds since the epoch (default Date.now()). */
  now?: number | Date;
}

/** A webhook delivery's payload, as Platen POSTs it. */
export type WebhookPayload = KnownEvent<{ v: number; id: string; orgId: string; at: string }>;

/** The untyped form of a payload, for event kinds this client does not know. */
export interface RawWebhookPayload {
  v: number;
  id: string;
  event: string;
  orgId: string;
  at: string;
  data: JSONObject;
}

const encoder = new TextEncoder();

function bytesOf(body: string | ArrayBuffer | ArrayBufferView): Uint8Array {
  if (typeof body === "string") return encoder.encode(body);
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
}

function hex(buf: ArrayBuffer): string {
  return Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** equalConstantTime compares two strings in time that depends only on their lengths. */
function equalConstantTime(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    diff |= (a.charCodeAt(i % (a.length || 1)) || 0) ^ (b.charCodeAt(i % (b.length || 1)) || 0);
  }
  return diff === 0;
}

/**
 * verifyWebhook checks a delivery's `x-service-signature` header against its
 * raw body (exactly the bytes received, before any JSON parsing) and the
 * endpoint's signing secret: HMAC-SHA256 of `t + "." + body`, compared in
 * constant time, with the timestamp within toleranceSeconds of now. It
 * resolves true or false; it never throws for a bad signature or header.
 * It uses WebCrypto (globalThis.crypto.subtle): browsers, Node 20, Deno, Bun
 * and workers all have it.
 */
export async function verifyWebhook(
  secret: string,
  header: string | null | undefined,
  rawBody: string | ArrayBuffer | ArrayBufferView,
  options: VerifyOptions = {},
): Promise<boolean> {
  if (!header) return false;
  let ts: string | undefined;
  const sigs: string[] = [];
  for (const part of header.split(",")) {
    const i = part.indexOf("=");
    if (i < 0) continue;
    const k = part.slice(0, i).trim();
    const v = part.slice(i + 1).trim();
    if (k === "t") ts = v;
    else if (k === "v1") sigs.push(v);
  }
  if (!ts || !/^\d+$/.test(ts) || sigs.length === 0) return false;
  const tolerance = options.toleranceSeconds ?? 300;
  const now = options.now instanceof Date ? options.now.getTime() : (options.now ?? Date.now());
  if (Math.abs(now / 1000 - Number(ts)) > tolerance) return false;
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error("verifyWebhook: this platform has no WebCrypto (globalThis.crypto.subtle)");
  const key = await subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const body = bytesOf(rawBody);
  const signed = new Uint8Array(ts.length + 1 + body.length);
  signed.set(encoder.encode(ts + "."), 0);
  signed.set(body, ts.length + 1);
  const want = hex(await subtle.sign("HMAC", key, signed));
  let ok = false;
  for (const s of sigs) ok = equalConstantTime(want, s.toLowerCase()) || ok;
  return ok;
}

/**
 * parseWebhook reads a delivery's raw body into a typed payload. Verify it
 * first: parseWebhook checks only its shape.
 */
export function parseWebhook(rawBody: string | ArrayBuffer | ArrayBufferView): WebhookPayload {
  const text = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(bytesOf(rawBody));
  const p = JSON.parse(text) as RawWebhookPayload;
  if (!p || typeof p !== "object" || typeof p.event !== "string" || typeof p.id !== "string") {
    throw new TypeError("not a Platen webhook payload: it needs id and event");
  }
  return p as unknown as WebhookPayload;
}

/**
 * constructWebhook verifies then parses: the payload, or a thrown Error when
 * the signature does not check out.
 */
export async function constructWebhook(
  secret: string,
  header: string | null | undefined,
  rawBody: string | ArrayBuffer | ArrayBufferView,
  options: VerifyOptions = {},
): Promise<WebhookPayload> {
  if (!(await verifyWebhook(secret, header, rawBody, options))) throw new Error("the webhook's signature does not check out");
  return parseWebhook(rawBody);
}
