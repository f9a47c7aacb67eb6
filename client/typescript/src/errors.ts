/**
 * A refusal of the API: the error envelope's code, message and field, the
 * HTTP status, and Retry-After in seconds when the answer gave one.
 * Realtime error frames are PlatenErrors too (status 0).
 */
export class PlatenError extends Error {
  /** The HTTP status (0 for a realtime error frame or a closed connection). */
  readonly status: number;
  /** The API's code: INVALID_REQUEST, RATE_LIMITED, PAYMENT_REQUIRED, … */
  readonly code: string;
  /** The input at fault, when one is (`items[2].price`). */
  readonly field: string | undefined;
  /** Seconds to wait before trying again, from Retry-After. */
  readonly retryAfter: number | undefined;
  /** The X-Request-Id of the answer, to quote to the operator. */
  readonly requestId: string | undefined;

  constructor(init: { status: number; code: string; message: string; field?: string; retryAfter?: number; requestId?: string }) {
    super(init.message);
    this.name = "PlatenError";
    this.status = init.status;
    this.code = init.code;
    this.field = init.field || undefined;
    this.retryAfter = init.retryAfter;
    this.requestId = init.requestId;
  }
}

/** parseRetryAfter reads Retry-After as seconds (a number or an HTTP date). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const n = Number(value);
  if (Number.isFinite(n) && n >= 0) return n;
  const t = Date.parse(value);
  if (Number.isNaN(t)) return undefined;
  return Math.max(0, Math.ceil((t - now) / 1000));
}
