import { PlatenError, parseRetryAfter, type Violation } from "./errors.js";
import type { Operation } from "./operations.js";

/** The platform's fetch, or one like it. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** A query string's values; undefined ones are left out. */
export type Query = Record<string, string | number | boolean | undefined>;

export interface CallInit {
  params?: Record<string, string | number>;
  query?: Query;
  /** A JSON body, or FormData for an upload. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal | undefined;
  maxRetries?: number | undefined;
  /** What the answer is: the envelope's data (default), the whole JSON, or bytes. */
  expect?: "data" | "json" | "bytes";
}

export interface Transport {
  baseUrl: string;
  apiKey: string;
  maxRetries: number;
  fetch: FetchLike;
  userAgent?: string;
}

/** url fills an operation's path with its params and adds the query. */
export function operationURL(baseUrl: string, op: Operation, params: Record<string, string | number> = {}, query: Query = {}): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined || v === "") throw new TypeError(`${op.method} ${op.path}: ${name} is required`);
    return encodeURIComponent(String(v));
  });
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined) qs.set(k, String(v));
  }
  const s = qs.toString();
  return baseUrl.replace(/\/+$/, "") + path + (s ? `?${s}` : "");
}

/**
 * backoff is the wait before retry number attempt (from 0): Retry-After when
 * the answer gave one, else 250 ms doubling up to 8 s; plus up to a quarter
 * more at random, so clients refused together do not return together.
 */
export function backoff(attempt: number, retryAfterSeconds?: number): number {
  const base = retryAfterSeconds !== undefined ? retryAfterSeconds * 1000 : Math.min(8000, 250 * 2 ** attempt);
  return base + Math.random() * Math.max(base, 100) * 0.25;
}

/** sleep waits ms, or rejects at once when signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** errorOf reads a refusal into a PlatenError. */
export async function errorOf(res: Response): Promise<PlatenError> {
  let code = "HTTP_" + res.status;
  let message = res.statusText || `HTTP ${res.status}`;
  let field: string | undefined;
  let violations: Violation[] | undefined;
  const text = await res.text().catch(() => "");
  try {
    const env = JSON.parse(text) as { error?: { code?: string; message?: string; field?: string; violations?: Violation[] }; message?: string };
    if (env.error) {
      code = env.error.code ?? code;
      message = env.error.message ?? env.message ?? message;
      field = env.error.field;
      violations = env.error.violations;
    }
  } catch {
    if (text) message = text.slice(0, 500);
  }
  return new PlatenError({
    status: res.status,
    code,
    message,
    ...(field ? { field } : {}),
    ...(violations ? { violations } : {}),
    ...(res.headers.has("retry-after") ? { retryAfter: parseRetryAfter(res.headers.get("retry-after")) } : {}),
    ...(res.headers.has("x-request-id") ? { requestId: res.headers.get("x-request-id") ?? "" } : {}),
  } as ConstructorParameters<typeof PlatenError>[0]);
}

/**
 * safeToRepeat says whether an operation may be sent again when its outcome
 * is not known (a lost connection, a 503 UNAVAILABLE): GET, PUT and DELETE,
 * which mean the same sent twice, and POST /v1/documents, which always
 * carries an Idempotency-Key the node honours. No other POST honours one.
 * The Go client (client/client.go send) has the same rule.
 */
export function safeToRepeat(op: Operation): boolean {
  switch (op.method) {
    case "GET":
    case "PUT":
    case "DELETE":
      return true;
    case "POST":
      return op.path === "/v1/documents";
  }
  return false;
}

/**
 * retryable says whether a refusal may be sent again as it was: a 429, or
 * a 503 OVERLOADED (nothing was done) always; any other 503 only where
 * repeating is safe.
 */
function retryable(err: PlatenError, safe: boolean): boolean {
  if (err.status === 429) return true;
  if (err.status !== 503) return false;
  return safe || err.code === "OVERLOADED";
}

/**
 * send sends an operation, retrying 429 and 503 refusals up to maxRetries
 * times with backoff, honouring Retry-After, and a lost connection when it
 * is safe (safeToRepeat). Every attempt sends the same
 * body and the same headers (an Idempotency-Key among them). It answers the
 * successful Response, or throws the last refusal as a PlatenError.
 */
export async function send(t: Transport, op: Operation, init: CallInit = {}): Promise<Response> {
  const url = operationURL(t.baseUrl, op, init.params, init.query);
  const headers: Record<string, string> = { Authorization: `Bearer ${t.apiKey}`, Accept: "application/json, */*", ...init.headers };
  let body: BodyInit | undefined;
  if (init.body instanceof FormData) {
    body = init.body; // fetch sets the multipart boundary
  } else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers["Content-Type"] = "application/json";
  }
  const maxRetries = init.maxRetries ?? t.maxRetries;
  const safe = safeToRepeat(op);
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await t.fetch(url, { method: op.method, headers, ...(body !== undefined ? { body } : {}), ...(init.signal ? { signal: init.signal } : {}) });
    } catch (err) {
      // A lost connection: the request may or may not have been served, so
      // only an operation safe to repeat is sent again.
      if (init.signal?.aborted || attempt >= maxRetries || !safe) throw err;
      await sleep(backoff(attempt), init.signal);
      continue;
    }
    if (res.ok) return res;
    const err = await errorOf(res);
    if (attempt >= maxRetries || !retryable(err, safe)) throw err;
    await sleep(backoff(attempt, err.retryAfter), init.signal);
  }
}

/** call is send, decoding the answer: the envelope's data (default), the whole JSON, or the bytes. */
export async function call<T>(t: Transport, op: Operation, init: CallInit = {}): Promise<T> {
  const res = await send(t, op, init);
  if (init.expect === "bytes") return new Uint8Array(await res.arrayBuffer()) as T;
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  if (!text) return undefined as T;
  const json = JSON.parse(text) as { data?: unknown };
  return (init.expect === "json" ? json : json.data) as T;
}

/**
 * randomKey makes an idempotency key: a random UUID. crypto.randomUUID is
 * missing from pages served over plain http, where getRandomValues is not.
 */
export function randomKey(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === "function") return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
