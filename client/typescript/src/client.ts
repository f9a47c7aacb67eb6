import { PlatenError } from "./errors.js";
import { call, errorOf, randomKey, send, type CallInit, type FetchLike, type Transport } from "./http.js";
import { operations, type OperationName } from "./operations.js";
import { Realtime, type RealtimeOptions, type WebSocketConstructor } from "./realtime.js";
import type {
  APIKey,
  CertificateUpload,
  CopyStarterRequest,
  CreateKeyRequest,
  CreateTemplateRequest,
  CreateWebhookRequest,
  Delivery,
  Document,
  DocumentStats,
  DownloadLink,
  Endpoint,
  GenerateOptions,
  GenerateRequest,
  Index,
  LedgerPage,
  List,
  ListDeliveriesQuery,
  ListDocumentsQuery,
  ListTemplatesQuery,
  PDFTemplate,
  PDFUpload,
  Pieces,
  PingResult,
  Preview,
  PreviewRequest,
  Quote,
  RequestOptions,
  SigningCertificate,
  Starter,
  Template,
  UpdateTemplateRequest,
  UpdateWebhookRequest,
  Usage,
  Version,
  VersionInput,
  VersionSummary,
  Wallet,
} from "./types.js";

export interface PlatenOptions {
  /** The node's address, e.g. `https://platen.example` (no /v1). */
  baseUrl: string;
  /** An API key, `plt_…`. */
  apiKey: string;
  /** How many times a 429 or 503 refusal is retried (default 3; 0 never). */
  maxRetries?: number;
  /** The fetch to use (default globalThis.fetch). */
  fetch?: FetchLike;
  /**
   * The WebSocket constructor realtime uses (default globalThis.WebSocket).
   * On Node 20, which has none, pass the `ws` package's: `import WebSocket from "ws"`.
   */
  WebSocket?: WebSocketConstructor;
}

/** newIdempotencyKey makes a key for a request that was given none. */
export function newIdempotencyKey(): string {
  return randomKey();
}

/** The client's plumbing, shared by its parts. */
class Core {
  constructor(readonly t: Transport) {}

  call<T>(name: OperationName, init: CallInit = {}): Promise<T> {
    return call<T>(this.t, operations[name], init);
  }

  send(name: OperationName, init: CallInit = {}): Promise<Response> {
    return send(this.t, operations[name], init);
  }
}

function opts(o?: RequestOptions): Pick<CallInit, "signal" | "maxRetries"> {
  return { signal: o?.signal, maxRetries: o?.maxRetries };
}

/** Documents: generate, quote, read, list, download and regenerate. */
export class Documents {
  constructor(private readonly c: Core) {}

  /**
   * Generates a document (POST /v1/documents). An Idempotency-Key is always
   * sent — `options.idempotencyKey`, or one made here — and kept across
   * retries, so a retried request makes one document.
   */
  create(body: GenerateRequest, options: GenerateOptions = {}): Promise<Document> {
    const key = options.idempotencyKey ?? newIdempotencyKey();
    return this.c.call("documents.create", { body, headers: { "Idempotency-Key": key }, ...opts(options) });
  }

  /**
   * A dry run: renders the document without storing or billing it and
   * answers what it would cost now. It refuses exactly as create would.
   */
  quote(body: GenerateRequest, options: RequestOptions = {}): Promise<Quote> {
    return this.c.call("documents.create", { body: { ...body, dryRun: true }, ...opts(options) });
  }

  list(query: ListDocumentsQuery = {}, options?: RequestOptions): Promise<List<Document>> {
    return this.c.call("documents.list", { query: { ...query }, ...opts(options) });
  }

  /** Every document matching query, page after page. */
  async *all(query: Omit<ListDocumentsQuery, "cursor"> = {}, options?: RequestOptions): AsyncGenerator<Document> {
    let cursor: string | undefined;
    do {
      const page = await this.list({ ...query, ...(cursor ? { cursor } : {}) }, options);
      yield* page.items;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }

  stats(query: { days?: number } = {}, options?: RequestOptions): Promise<DocumentStats> {
    return this.c.call("documents.stats", { query: { ...query }, ...opts(options) });
  }

  get(id: string, options?: RequestOptions): Promise<Document> {
    return this.c.call("documents.get", { params: { id }, ...opts(options) });
  }

  /** Mints a download link (ttlSeconds 60–604800, default 3600) and records the download. */
  downloadLink(id: string, query: { ttlSeconds?: number } = {}, options?: RequestOptions): Promise<DownloadLink> {
    return this.c.call("documents.downloadLink", { params: { id }, query: { ...query }, ...opts(options) });
  }

  /** The document's PDF: a link minted, then the file fetched through it. */
  async download(id: string, options?: RequestOptions): Promise<Uint8Array> {
    const link = await this.downloadLink(id, {}, options);
    const res = await this.c.t.fetch(link.url, { method: "GET", ...(options?.signal ? { signal: options.signal } : {}) });
    if (!res.ok) throw await errorOf(res);
    return new Uint8Array(await res.arrayBuffer());
  }

  /** The XML an e-invoice document's PDF embeds (factur-x.xml or xrechnung.xml); 404 for another document. */
  async einvoiceXml(id: string, options?: RequestOptions): Promise<string> {
    const res = await this.c.send("documents.einvoiceXml", { params: { id }, ...opts(options) });
    return await res.text();
  }

  /** The first page of a completed document as a PNG, 320 pixels wide on white. */
  async thumbnail(id: string, options?: RequestOptions): Promise<Uint8Array> {
    const res = await this.c.send("documents.thumbnail", { params: { id }, ...opts(options) });
    return new Uint8Array(await res.arrayBuffer());
  }

  /** The data a document was rendered from, as it was sent. */
  data(id: string, options?: RequestOptions): Promise<Record<string, unknown>> {
    return this.c.call("documents.data", { params: { id }, ...opts(options) });
  }

  /** A new document from the same data and template version. */
  regenerate(id: string, body: { wait?: boolean } = {}, options?: RequestOptions): Promise<Document> {
    return this.c.call("documents.regenerate", { params: { id }, body, ...opts(options) });
  }
}

/** Templates, their versions, previews, the starter library and PDF uploads. */
export class Templates {
  constructor(private readonly c: Core) {}

  create(body: CreateTemplateRequest, options?: RequestOptions): Promise<Template> {
    return this.c.call("templates.create", { body, ...opts(options) });
  }

  list(query: ListTemplatesQuery = {}, options?: RequestOptions): Promise<List<Template>> {
    return this.c.call("templates.list", { query: { ...query }, ...opts(options) });
  }

  /** A template by id or slug. */
  get(templateId: string, options?: RequestOptions): Promise<Template> {
    return this.c.call("templates.get", { params: { templateId }, ...opts(options) });
  }

  update(templateId: string, body: UpdateTemplateRequest, options?: RequestOptions): Promise<Template> {
    return this.c.call("templates.update", { params: { templateId }, body, ...opts(options) });
  }

  /** Archives a template; update(id, {archived: false}) restores it. */
  archive(templateId: string, options?: RequestOptions): Promise<Template> {
    return this.c.call("templates.archive", { params: { templateId }, ...opts(options) });
  }

  createVersion(templateId: string, body: VersionInput, options?: RequestOptions): Promise<Version> {
    return this.c.call("templates.createVersion", { params: { templateId }, body, ...opts(options) });
  }

  listVersions(templateId: string, options?: RequestOptions): Promise<List<VersionSummary>> {
    return this.c.call("templates.listVersions", { params: { templateId }, ...opts(options) });
  }

  getVersion(templateId: string, n: number, options?: RequestOptions): Promise<Version> {
    return this.c.call("templates.getVersion", { params: { templateId, n }, ...opts(options) });
  }

  /** Makes version n the one that generates; answers the template. */
  activateVersion(templateId: string, n: number, options?: RequestOptions): Promise<Template> {
    return this.c.call("templates.activateVersion", { params: { templateId, n }, ...opts(options) });
  }

  /** Renders a version or a draft: the watermarked PDF, or with format "png" one page as a picture. */
  async preview(templateId: string, body: PreviewRequest = {}, options?: RequestOptions): Promise<Preview> {
    const res = await this.c.send("templates.preview", { params: { templateId }, body, ...opts(options) });
    const h = res.headers;
    return {
      bytes: new Uint8Array(await res.arrayBuffer()),
      contentType: h.get("content-type") ?? "",
      pages: Number(h.get("x-platen-pages") ?? 0),
      ...(h.has("x-platen-page") ? { page: Number(h.get("x-platen-page")) } : {}),
      engine: h.get("x-platen-engine") ?? "",
      engineReason: h.get("x-platen-engine-reason") ?? "",
    };
  }

  /** The starter library. */
  library(options?: RequestOptions): Promise<List<Starter>> {
    return this.c.call("templates.library", opts(options));
  }

  /** A starter's first page as a PNG 320 pixels wide. */
  starterThumbnail(starterSlug: string, options?: RequestOptions): Promise<Uint8Array> {
    return this.c.call("templates.starterThumbnail", { params: { starterSlug }, expect: "bytes", ...opts(options) });
  }

  copyStarter(starterSlug: string, body: CopyStarterRequest = {}, options?: RequestOptions): Promise<Template> {
    return this.c.call("templates.copyStarter", { params: { starterSlug }, body, ...opts(options) });
  }

  /** Makes a template from an uploaded PDF (multipart), answering every text piece found. */
  createFromPDF(upload: PDFUpload, options?: RequestOptions): Promise<PDFTemplate> {
    const form = new FormData();
    const file = upload.file instanceof Blob ? upload.file : new Blob([upload.file as BlobPart], { type: "application/pdf" });
    form.set("file", file, upload.filename ?? "template.pdf");
    form.set("name", upload.name);
    if (upload.slug !== undefined) form.set("slug", upload.slug);
    return this.c.call("templates.createFromPDF", { body: form, ...opts(options) });
  }

  /** The text pieces of a template made from a PDF, all or one page's. */
  pieces(templateId: string, query: { page?: number } = {}, options?: RequestOptions): Promise<Pieces> {
    return this.c.call("templates.pieces", { params: { templateId }, query: { ...query }, ...opts(options) });
  }

  /** A page (from 1) of a template made from a PDF, as a PNG. */
  pageImage(templateId: string, page: number, query: { dpi?: number } = {}, options?: RequestOptions): Promise<Uint8Array> {
    return this.c.call("templates.pageImage", { params: { templateId, page: `${page}.png` }, query: { ...query }, expect: "bytes", ...opts(options) });
  }
}

/** Webhook endpoints and their deliveries. */
export class Webhooks {
  constructor(private readonly c: Core) {}

  /** Registers an endpoint; its signingSecret is in this answer only. */
  create(body: CreateWebhookRequest, options?: RequestOptions): Promise<Endpoint> {
    return this.c.call("webhooks.create", { body, ...opts(options) });
  }

  list(options?: RequestOptions): Promise<List<Endpoint>> {
    return this.c.call("webhooks.list", opts(options));
  }

  get(id: string, options?: RequestOptions): Promise<Endpoint> {
    return this.c.call("webhooks.get", { params: { id }, ...opts(options) });
  }

  update(id: string, body: UpdateWebhookRequest, options?: RequestOptions): Promise<Endpoint> {
    return this.c.call("webhooks.update", { params: { id }, body, ...opts(options) });
  }

  delete(id: string, options?: RequestOptions): Promise<{ id: string; deleted: boolean }> {
    return this.c.call("webhooks.delete", { params: { id }, ...opts(options) });
  }

  deliveries(id: string, query: ListDeliveriesQuery = {}, options?: RequestOptions): Promise<List<Delivery>> {
    return this.c.call("webhooks.deliveries", { params: { id }, query: { ...query }, ...opts(options) });
  }

  /** Sends a signed ping now and answers with the receiver's reply. */
  ping(id: string, options?: RequestOptions): Promise<PingResult> {
    return this.c.call("webhooks.ping", { params: { id }, ...opts(options) });
  }
}

/** The plan, allowance, balance, ledger and usage. */
export class WalletAPI {
  constructor(private readonly c: Core) {}

  get(options?: RequestOptions): Promise<Wallet> {
    return this.c.call("wallet.get", opts(options));
  }

  /** Ledger rows, newest first; pass nextBefore as before for older ones. */
  ledger(query: { limit?: number; before?: number } = {}, options?: RequestOptions): Promise<LedgerPage> {
    return this.c.call("wallet.ledger", { query: { ...query }, ...opts(options) });
  }

  usage(query: { months?: number } = {}, options?: RequestOptions): Promise<Usage> {
    return this.c.call("wallet.usage", { query: { ...query }, ...opts(options) });
  }
}

/** The organisation's API keys. */
export class Keys {
  constructor(private readonly c: Core) {}

  list(options?: RequestOptions): Promise<List<APIKey>> {
    return this.c.call("keys.list", opts(options));
  }

  /** Makes a key; its value (`key`) is in this answer only. A key gives only scopes it holds itself. */
  create(body: CreateKeyRequest, options?: RequestOptions): Promise<APIKey & { key: string }> {
    return this.c.call("keys.create", { body, ...opts(options) });
  }

  /** Revokes a key; it stops working at once. */
  revoke(keyId: string, options?: RequestOptions): Promise<APIKey> {
    return this.c.call("keys.revoke", { params: { keyId }, ...opts(options) });
  }
}

/**
 * The organisation's signing certificates, which a request's or a manifest's `sign`
 * names (docs/signatures.md). Reading needs signing.read; storing and deleting, signing.write.
 */
export class Signing {
  constructor(private readonly c: Core) {}

  /**
   * Stores a certificate and its key from a PKCS#12 file (multipart). A file the node
   * cannot use is refused with INVALID_REQUEST naming `file` or `password` and what to fix.
   */
  create(upload: CertificateUpload, options?: RequestOptions): Promise<SigningCertificate> {
    const form = new FormData();
    const file = upload.file instanceof Blob ? upload.file : new Blob([upload.file as BlobPart], { type: "application/x-pkcs12" });
    form.set("file", file, upload.filename ?? "certificate.p12");
    // Sent even when empty: a file may have no password.
    form.set("password", upload.password);
    if (upload.name !== undefined) form.set("name", upload.name);
    return this.c.call("signing.create", { body: form, ...opts(options) });
  }

  /** The certificates, oldest first, expired ones included. */
  list(options?: RequestOptions): Promise<List<SigningCertificate>> {
    return this.c.call("signing.list", opts(options));
  }

  get(id: string, options?: RequestOptions): Promise<SigningCertificate> {
    return this.c.call("signing.get", { params: { id }, ...opts(options) });
  }

  /**
   * Deletes a certificate and erases its key. Documents it signed keep their signatures;
   * a request or template naming it afterwards is refused, and a document still pending
   * fails SIGNING_FAILED.
   */
  delete(id: string, options?: RequestOptions): Promise<{ id: string; deleted: boolean }> {
    return this.c.call("signing.delete", { params: { id }, ...opts(options) });
  }
}

/**
 * A client of a Platen node's API.
 *
 * ```ts
 * const platen = new Platen({ baseUrl: "https://platen.example", apiKey: process.env.PLATEN_API_KEY! });
 * const doc = await platen.documents.create({ templateId: "invoice", data: { number: "INV-7" } });
 * ```
 */
export class Platen {
  readonly documents: Documents;
  readonly templates: Templates;
  readonly webhooks: Webhooks;
  readonly wallet: WalletAPI;
  readonly keys: Keys;
  readonly signing: Signing;
  private readonly core: Core;
  private readonly WebSocketCtor: WebSocketConstructor | undefined;

  constructor(options: PlatenOptions) {
    if (!options?.baseUrl) throw new TypeError("Platen: baseUrl is required");
    if (!options.apiKey) throw new TypeError("Platen: apiKey is required");
    const f = options.fetch ?? globalThis.fetch?.bind(globalThis);
    if (!f) throw new TypeError("Platen: no fetch on this platform; pass options.fetch");
    this.core = new Core({ baseUrl: options.baseUrl.replace(/\/+$/, ""), apiKey: options.apiKey, maxRetries: options.maxRetries ?? 3, fetch: f });
    this.documents = new Documents(this.core);
    this.templates = new Templates(this.core);
    this.webhooks = new Webhooks(this.core);
    this.wallet = new WalletAPI(this.core);
    this.keys = new Keys(this.core);
    this.signing = new Signing(this.core);
    this.WebSocketCtor = options.WebSocket;
  }

  /** GET /v1: the key's organisation, its scopes, and the operations. */
  index(options?: RequestOptions): Promise<Index> {
    return this.core.call("index", { expect: "json", ...opts(options) });
  }

  /** The API as an OpenAPI 3.1 document. */
  openapi(options?: RequestOptions): Promise<{ openapi: string; paths: Record<string, Record<string, unknown>>; [k: string]: unknown }> {
    return this.core.call("openapi", { expect: "json", ...opts(options) });
  }

  /**
   * A realtime connection (GET /v1/realtime): generate without polling and
   * follow the change feed, reconnecting and resuming after a drop.
   */
  realtime(options: RealtimeOptions = {}): Realtime {
    const WS = options.WebSocket ?? this.WebSocketCtor ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (!WS) throw new PlatenError({ status: 0, code: "NO_WEBSOCKET", message: "no WebSocket on this platform: pass the ws package's constructor as the WebSocket option" });
    const url = this.core.t.baseUrl.replace(/^http/, "ws") + operations.realtime.path;
    return new Realtime(url, this.core.t.apiKey, { ...options, WebSocket: WS });
  }
}
