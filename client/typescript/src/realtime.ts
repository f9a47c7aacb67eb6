import { PlatenError, type Violation } from "./errors.js";
import { randomKey } from "./http.js";
import type { Document, DocumentStatus, EventKind, GenerateRequest, JSONObject, KnownEvent, Quote } from "./types.js";

/** What this client needs of a WebSocket: the browser's, Node 22's, or the `ws` package's. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: "open" | "message" | "close" | "error", listener: (ev: any) => void): void;
}

/** A WebSocket constructor: globalThis.WebSocket, or `import WebSocket from "ws"` on Node 20. */
export type WebSocketConstructor = new (url: string, protocols?: string | string[]) => WebSocketLike;

export interface RealtimeOptions {
  /** The WebSocket constructor (default: the client's option, then globalThis.WebSocket). */
  WebSocket?: WebSocketConstructor;
  /** Reconnect after a dropped connection (default true). */
  reconnect?: boolean;
  /** The longest wait between reconnection attempts (default 5000 ms); the first is about 100 ms. */
  maxReconnectDelayMs?: number;
  /** How often a ping checks the connection (default 25000 ms; 0 never). No pong by the next ping closes and reconnects it. */
  pingIntervalMs?: number;
  /** Called when the connection opens (authenticated), drops, or is closed for good. */
  onStateChange?: (state: RealtimeState, detail?: { code?: number; reason?: string; attempt?: number }) => void;
  /** Errors that belong to no call: an error frame without a known ref, a refused reconnection. */
  onError?: (err: PlatenError) => void;
  /**
   * How many times a generate or a subscribe refused with RATE_LIMITED or
   * OVERLOADED is sent again, after its retryAfter (default 5). Realtime
   * frames count against the key's rate.
   */
  maxRetries?: number;
  /** Called before a refused frame is sent again. */
  onRetry?: (what: "generate" | "subscribe", err: PlatenError, delayMs: number) => void;
}

export type RealtimeState = "connecting" | "open" | "reconnecting" | "closed";

/** An event of the change feed, as a subscription delivers it. */
export type RealtimeEvent = KnownEvent<{ type: "event"; cursor: string; at: string }>;

/** A generate's progress frames: the document as it stands at each change. */
export type DocumentFrameType = "document.queued" | "document.rendering" | "document.completed" | "document.failed";

export interface RealtimeGenerateOptions {
  /** Makes the generate safe to resend; one is made when none is given. */
  idempotencyKey?: string;
  /** Each frame of the document before the last. */
  onUpdate?: (doc: Document, type: DocumentFrameType) => void;
  /** Stops waiting (the document is still made). */
  signal?: AbortSignal;
}

export interface SubscribeOptions {
  /** Replay every event after this cursor first. */
  since?: string;
}

/** The subscription of a realtime connection. */
export interface Subscription {
  /** The cursor subscribed from: events after it are delivered. */
  readonly startCursor: string;
  /** The last cursor delivered, or startCursor before the first event. */
  readonly cursor: string;
  /** The events that will be asked for (empty: every kind the key may read). */
  readonly events: EventKind[];
}

interface PendingGenerate {
  frame: { type: "generate"; ref: string; idempotencyKey: string; body: JSONObject };
  resolve: (v: any) => void;
  reject: (e: unknown) => void;
  onUpdate: ((doc: Document, type: DocumentFrameType) => void) | undefined;
  retries: number;
}

interface SubState {
  events: EventKind[];
  onEvent: (ev: RealtimeEvent) => void;
  startCursor: string | undefined;
  since: string | undefined;
  last: string | undefined;
  ref: string;
  ready: { resolve: (s: Subscription) => void; reject: (e: unknown) => void } | undefined;
  retries: number;
}

const OPEN = 1;
const closeUnauthorized = 4401;

/** cursorAfter reports whether cursor a comes after b (cursors are decimal integers). */
function cursorAfter(a: string, b: string): boolean {
  try {
    return BigInt(a) > BigInt(b);
  } catch {
    return a.length !== b.length ? a.length > b.length : a > b;
  }
}

function frameError(f: { error?: { code?: string; message?: string; field?: string; violations?: Violation[]; retryAfter?: number } }): PlatenError {
  const e = f.error ?? {};
  return new PlatenError({
    status: 0,
    code: e.code ?? "ERROR",
    message: e.message ?? "the realtime connection refused the frame",
    ...(e.field ? { field: e.field } : {}),
    ...(e.violations ? { violations: e.violations } : {}),
    ...(e.retryAfter !== undefined ? { retryAfter: e.retryAfter } : {}),
  });
}

/**
 * A realtime connection to /v1/realtime. It connects at once, authenticates
 * with an auth frame (which every WebSocket can send), and after a dropped
 * connection reconnects with backoff, subscribes again from the last cursor
 * it delivered (so no event is missed or delivered twice) and resends every
 * generate still waiting, with its idempotencyKey (so none makes a second
 * document).
 */
export class Realtime {
  private ws: WebSocketLike | undefined;
  private authenticated = false;
  private closed = false;
  private attempt = 0;
  private seq = 0;
  private readonly pending = new Map<string, PendingGenerate>();
  private sub: SubState | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly retryTimers = new Set<ReturnType<typeof setTimeout>>();
  private pinger: ReturnType<typeof setInterval> | undefined;
  private awaitingPong = false;
  private readonly WS: WebSocketConstructor;

  constructor(
    private readonly url: string,
    private readonly apiKey: string,
    private readonly options: RealtimeOptions & { WebSocket: WebSocketConstructor },
  ) {
    this.WS = options.WebSocket;
    this.connect();
  }

  /**
   * Generates a document and resolves with it once completed or failed (a
   * failed document resolves too: see its errorCode). With `dryRun: true`
   * it resolves with the quote. A refusal rejects with a PlatenError.
   */
  generate(body: GenerateRequest & { dryRun: true }, options?: RealtimeGenerateOptions): Promise<Quote>;
  generate(body: GenerateRequest & { dryRun?: false }, options?: RealtimeGenerateOptions): Promise<Document>;
  generate(body: GenerateRequest & { dryRun?: boolean }, options: RealtimeGenerateOptions = {}): Promise<Document | Quote> {
    if (this.closed) return Promise.reject(new PlatenError({ status: 0, code: "CLOSED", message: "the realtime connection is closed" }));
    const ref = `g${++this.seq}`;
    const idempotencyKey = options.idempotencyKey ?? randomKey();
    return new Promise((resolve, reject) => {
      const p: PendingGenerate = {
        frame: { type: "generate", ref, idempotencyKey, body: body as unknown as JSONObject },
        resolve,
        reject,
        onUpdate: options.onUpdate,
        retries: 0,
      };
      this.pending.set(ref, p);
      if (options.signal) {
        const onAbort = () => {
          if (this.pending.delete(ref)) reject(options.signal?.reason);
        };
        if (options.signal.aborted) return onAbort();
        options.signal.addEventListener("abort", onAbort, { once: true });
      }
      if (this.authenticated) this.sendFrame(p.frame);
    });
  }

  /** A dry run through the connection: the quote of body. */
  quote(body: GenerateRequest, options: Omit<RealtimeGenerateOptions, "onUpdate"> = {}): Promise<Quote> {
    return this.generate({ ...body, dryRun: true }, options);
  }

  /**
   * Follows the change feed: onEvent gets every event of the kinds asked for
   * (empty: every kind the key may read), after `since` when given, then
   * live. Resolves once subscribed. A connection holds one subscription: a
   * second call replaces the first.
   */
  subscribe(events: EventKind[], options: SubscribeOptions, onEvent: (ev: RealtimeEvent) => void): Promise<Subscription> {
    if (this.closed) return Promise.reject(new PlatenError({ status: 0, code: "CLOSED", message: "the realtime connection is closed" }));
    return new Promise((resolve, reject) => {
      this.sub?.ready?.reject(new PlatenError({ status: 0, code: "REPLACED", message: "another subscription replaced this one" }));
      this.sub = { events: [...events], onEvent, startCursor: undefined, since: options.since, last: undefined, ref: `s${++this.seq}`, ready: { resolve, reject }, retries: 0 };
      if (this.authenticated) this.sendSubscribe();
    });
  }

  /** The subscription's state, or undefined without one. */
  get subscription(): Subscription | undefined {
    const s = this.sub;
    if (!s || s.startCursor === undefined) return undefined;
    return { startCursor: s.startCursor, cursor: s.last ?? s.startCursor, events: s.events };
  }

  /** Closes the connection for good; generates still waiting reject. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopTimers();
    this.ws?.close(1000, "closed by the client");
    this.failAll(new PlatenError({ status: 0, code: "CLOSED", message: "the realtime connection was closed" }));
    this.options.onStateChange?.("closed");
  }

  private connect(): void {
    this.authenticated = false;
    if (this.attempt === 0) this.options.onStateChange?.("connecting");
    let ws: WebSocketLike;
    try {
      ws = new this.WS(this.url);
    } catch (err) {
      this.options.onError?.(new PlatenError({ status: 0, code: "CONNECT_FAILED", message: String(err) }));
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (this.ws !== ws) return;
      ws.send(JSON.stringify({ type: "auth", ref: "auth", key: this.apiKey }));
    });
    ws.addEventListener("message", (ev: { data: unknown }) => {
      if (this.ws !== ws) return;
      const text = typeof ev.data === "string" ? ev.data : new TextDecoder().decode(ev.data as ArrayBuffer);
      let f: any;
      try {
        f = JSON.parse(text);
      } catch {
        return;
      }
      this.onFrame(f);
    });
    ws.addEventListener("error", () => {
      // A close event follows; it decides.
    });
    ws.addEventListener("close", (ev: { code?: number; reason?: string }) => {
      if (this.ws !== ws) return;
      this.ws = undefined;
      this.authenticated = false;
      this.stopTimers();
      if (this.closed) return;
      if (ev.code === closeUnauthorized) {
        const err = new PlatenError({ status: 401, code: "UNAUTHENTICATED", message: ev.reason || "a valid API key is required" });
        this.closed = true;
        this.failAll(err);
        this.options.onError?.(err);
        this.options.onStateChange?.("closed", { code: ev.code, reason: ev.reason ?? "" });
        return;
      }
      if (this.options.reconnect === false) {
        this.closed = true;
        this.failAll(new PlatenError({ status: 0, code: "DISCONNECTED", message: `the realtime connection closed (${ev.code ?? "no code"})` }));
        this.options.onStateChange?.("closed", { code: ev.code ?? 0, reason: ev.reason ?? "" });
        return;
      }
      this.scheduleReconnect();
    });
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    const max = this.options.maxReconnectDelayMs ?? 5000;
    const base = Math.min(max, 100 * 2 ** this.attempt);
    const delay = base / 2 + Math.random() * (base / 2);
    this.attempt++;
    this.options.onStateChange?.("reconnecting", { attempt: this.attempt });
    this.timer = setTimeout(() => this.connect(), delay);
  }

  private stopTimers(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const t of this.retryTimers) clearTimeout(t);
    this.retryTimers.clear();
    if (this.pinger) clearInterval(this.pinger);
    this.timer = this.pinger = undefined;
  }

  private sendFrame(f: object): void {
    if (this.ws && this.ws.readyState === OPEN) this.ws.send(JSON.stringify(f));
  }

  private sendSubscribe(): void {
    const s = this.sub;
    if (!s) return;
    // After a drop: from the last event delivered, or where the first subscription started.
    const since = s.last ?? s.startCursor ?? s.since;
    this.sendFrame({ type: "subscribe", ref: s.ref, ...(s.events.length ? { events: s.events } : {}), ...(since !== undefined ? { since } : {}) });
  }

  private onFrame(f: any): void {
    switch (f.type) {
      case "authenticated": {
        this.authenticated = true;
        this.attempt = 0;
        this.options.onStateChange?.("open");
        this.startPinger();
        this.sendSubscribe();
        for (const p of this.pending.values()) this.sendFrame(p.frame);
        return;
      }
      case "pong":
        this.awaitingPong = false;
        return;
      case "subscribed": {
        const s = this.sub;
        if (!s || f.ref !== s.ref) return;
        if (s.startCursor === undefined) s.startCursor = String(f.cursor);
        if (s.ready) {
          s.ready.resolve({ startCursor: s.startCursor, cursor: s.last ?? s.startCursor, events: s.events });
          s.ready = undefined;
        }
        return;
      }
      case "event": {
        const s = this.sub;
        if (!s) return;
        const cursor = String(f.cursor);
        const after = s.last ?? s.startCursor;
        if (after !== undefined && !cursorAfter(cursor, after)) return; // seen already
        s.last = cursor;
        try {
          s.onEvent(f as RealtimeEvent);
        } catch (err) {
          this.options.onError?.(new PlatenError({ status: 0, code: "HANDLER_FAILED", message: `onEvent threw: ${String(err)}` }));
        }
        return;
      }
      case "quote": {
        const p = this.pending.get(f.ref);
        if (!p) return;
        this.pending.delete(f.ref);
        p.resolve(f.data as Quote);
        return;
      }
      case "document.queued":
      case "document.rendering":
      case "document.completed":
      case "document.failed": {
        const p = this.pending.get(f.ref);
        if (!p) return;
        const doc = f.data as Document;
        const status = doc.status as DocumentStatus;
        if (status === "completed" || status === "failed") {
          this.pending.delete(f.ref);
          p.resolve(doc);
        } else {
          p.onUpdate?.(doc, f.type);
        }
        return;
      }
      case "error": {
        const err = frameError(f);
        if (f.ref === "auth") {
          // 4401 follows and ends the connection.
          return;
        }
        const p = f.ref ? this.pending.get(f.ref) : undefined;
        if (p) {
          if (this.retryable(err) && p.retries < (this.options.maxRetries ?? 5)) {
            // Safe to send again: it carries its idempotencyKey.
            this.later("generate", err, p.retries++, () => this.pending.get(p.frame.ref) === p && this.sendFrame(p.frame));
            return;
          }
          this.pending.delete(f.ref);
          p.reject(err);
          return;
        }
        const s = this.sub;
        if (s && f.ref === s.ref) {
          if (this.retryable(err) && s.retries < (this.options.maxRetries ?? 5)) {
            // From the cursor delivered by then.
            this.later("subscribe", err, s.retries++, () => this.sub === s && this.sendSubscribe());
            return;
          }
          if (s.ready) {
            s.ready.reject(err);
            this.sub = undefined;
            return;
          }
        }
        this.options.onError?.(err);
        return;
      }
    }
  }

  private retryable(err: PlatenError): boolean {
    return err.code === "RATE_LIMITED" || err.code === "OVERLOADED";
  }

  /** later runs send after the refusal's retryAfter (or a backoff), with jitter, on this connection only. */
  private later(what: "generate" | "subscribe", err: PlatenError, attempt: number, send: () => void): void {
    const base = err.retryAfter !== undefined ? err.retryAfter * 1000 : Math.min(5000, 250 * 2 ** attempt);
    const delay = base + Math.random() * Math.max(base, 100) * 0.25;
    this.options.onRetry?.(what, err, delay);
    const ws = this.ws;
    const t = setTimeout(() => {
      this.retryTimers.delete(t);
      // A reconnection in between has sent it again already.
      if (this.ws === ws && this.authenticated) send();
    }, delay);
    this.retryTimers.add(t);
  }

  private startPinger(): void {
    const every = this.options.pingIntervalMs ?? 25000;
    if (every <= 0) return;
    this.awaitingPong = false;
    this.pinger = setInterval(() => {
      if (this.awaitingPong) {
        // No pong since the last ping: the connection is dead. Leave it
        // (its close handshake could take long) and reconnect now.
        const dead = this.ws;
        this.ws = undefined;
        this.authenticated = false;
        this.stopTimers();
        const t = dead as (WebSocketLike & { terminate?: () => void }) | undefined;
        if (t?.terminate) t.terminate();
        else t?.close(4000, "no pong");
        this.scheduleReconnect();
        return;
      }
      this.awaitingPong = true;
      this.sendFrame({ type: "ping", ref: "ping" });
    }, every);
    (this.pinger as { unref?: () => void }).unref?.();
  }

  private failAll(err: PlatenError): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    this.sub?.ready?.reject(err);
  }
}
