/**
 * The codes a refusal of the API carries (docs/api.md "Error codes", where
 * each has its status and whether retrying helps).
 */
export type ErrorCode =
  | "INVALID_REQUEST"
  | "UNAUTHENTICATED"
  | "PAYMENT_REQUIRED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "CONFLICT"
  | "PAYLOAD_TOO_LARGE"
  | "LINK_EXPIRED"
  | "FILE_EXPIRED"
  | "PAYLOAD_VALIDATION_FAILED"
  | "RENDER_FAILED"
  | "PDF_TOO_COMPLEX"
  | "RATE_LIMITED"
  | "INTERNAL"
  | "OVERLOADED"
  | "UNAVAILABLE";

/** One input at fault. */
export interface Violation {
  field: string;
  message: string;
}

/**
 * A refusal of the API: the error envelope's code, message and field, the
 * HTTP status, and Retry-After in seconds when the answer gave one.
 * Realtime error frames are PlatenErrors too (status 0).
 */
export class PlatenError extends Error {
  /** The HTTP status (0 for a realtime error frame or a closed connection). */
  readonly status: number;
  /**
   * The API's code (an ErrorCode), or the client's own for a realtime
   * connection that closed; typed so that a code added later still reads.
   */
  readonly code: ErrorCode | (string & {});
  /** The input at fault, when one is (`items[2].price`): the first of violations when there are several. */
  readonly field: string | undefined;
  /** Every field at fault, in the order found (at most 50), when data broke the template's data schema (PAYLOAD_VALIDATION_FAILED); empty otherwise. */
  readonly violations: Violation[];
  /** Seconds to wait before trying again, from Retry-After. */
  readonly retryAfter: number | undefined;
  /** The X-Request-Id of the answer, to quote to the operator. */
  readonly requestId: string | undefined;

  constructor(init: { status: number; code: string; message: string; field?: string; violations?: Violation[]; retryAfter?: number; requestId?: string }) {
    super(init.message);
    this.name = "PlatenError";
    this.status = init.status;
    this.code = init.code;
    this.field = init.field || undefined;
    this.violations = init.violations ?? [];
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
