// The API's requests and answers, with the field names of docs/api.md.
// Times are ISO 8601 strings, as the API sends them; amounts are integer
// micro-units of the wallet currency (1 unit = 1,000,000 micros).

/** Any JSON value. */
export type JSONValue = string | number | boolean | null | JSONValue[] | { [key: string]: JSONValue };

/** A JSON object. */
export type JSONObject = { [key: string]: JSONValue };

/** A listing: `nextCursor` is null on the last page (and on listings without pages). */
export interface List<T> {
  items: T[];
  nextCursor?: string | null;
}

// ---- the index ----

export interface ScopeInfo {
  scope: Scope;
  label: string;
}

/** A scope an API key may hold. */
export type Scope =
  | "documents.generate"
  | "documents.read"
  | "templates.read"
  | "templates.write"
  | "webhooks.read"
  | "webhooks.write"
  | "wallet.read"
  | "keys.read"
  | "keys.write"
  | "signing.read"
  | "signing.write"
  | (string & {});

export interface IndexOperation {
  method: string;
  path: string;
  summary: string;
  /** Empty or absent for operations any key may call. */
  scope?: Scope;
}

/** GET /v1: not an envelope's data, the whole answer. */
export interface Index {
  success: boolean;
  version: string;
  organisation: string;
  organisationId: string;
  plan: string;
  scopes: ScopeInfo[];
  operations: IndexOperation[];
  message: string;
}

// ---- documents ----

export type DocumentStatus = "queued" | "rendering" | "completed" | "failed";

export type Engine = "auto" | "phantom" | "chromium" | "pdfium" | (string & {});

/** The body of POST /v1/documents (and of a realtime generate). */
export interface GenerateRequest {
  /** A template's id or slug. */
  templateId: string;
  data?: JSONObject;
  correlationId?: string;
  metadata?: JSONObject;
  engine?: Engine;
  /** Makes the document PDF/A, whatever the template asks. */
  pdfa?: PDFALevel;
  /** Makes the document PDF/UA-1, accessible, whatever the template asks (docs/accessibility.md). */
  pdfua?: "1";
  filename?: string;
  templateVersion?: number;
  /** Signs the document, in place of whatever the template's manifest asks. */
  sign?: SignSpec;
  /** Wait for the PDF (default true, up to the node's wait). */
  wait?: boolean;
}

/** Per-call options of a request. */
export interface RequestOptions {
  /** Aborts the request, its retries and the wait between them. */
  signal?: AbortSignal;
  /** Overrides the client's maxRetries for this call. */
  maxRetries?: number;
}

/** Options of documents.create. */
export interface GenerateOptions extends RequestOptions {
  /** The Idempotency-Key; one is made when none is given, and kept across retries. */
  idempotencyKey?: string;
}

export interface FontSubstitution {
  requested: string;
  used: string;
}

export interface FailedAsset {
  url: string;
  reason: string;
}

/** The stages of making a document; "signing" only on a signed document. */
export type RenderStage = "queued" | "filling" | "rendering" | "counting" | "signing" | "storing";

/** How a field of a template made from a PDF was set. */
export interface FieldReport {
  key: string;
  pieceId: string;
  from: string;
  font: string;
  substituted: boolean;
  reason?: string;
  size: number;
  lines: number;
}

/** A document's render report, once rendering has finished. */
export interface RenderReport {
  engine?: Engine;
  engineReason?: string;
  /** Always present; maybe empty. */
  fonts: { used: string[]; substituted: FontSubstitution[] };
  /** Always present; maybe empty. */
  failedAssets: FailedAsset[];
  /** Milliseconds by stage; a failed document's has the stages up to failedAt. */
  ms: Partial<Record<RenderStage, number>>;
  bytes?: number;
  sha256?: string;
  /** Only on failed documents. */
  failedAt?: RenderStage;
  /** Templates made from a PDF only. */
  fields?: FieldReport[];
  /** PDF/A, e-invoice and signed documents only. */
  conformance?: Conformance;
}

/**
 * The checks made on a PDF/A, e-invoice or signed document
 * (docs/einvoices.md, docs/signatures.md). It counts checks and never says "valid".
 */
export interface Conformance {
  /** "N rules checked, M failed". */
  summary: string;
  checked: number;
  failed: number;
  /** Such as "PDF/A-3b"; absent when the document is not PDF/A (a signed one, say). */
  pdfa?: string;
  /** veraPDF rule ids (clause-test) checked on the finished file; absent when the document is not PDF/A. */
  pdfaRules?: string[];
  /** "PDF/UA-1"; absent when the document does not claim PDF/UA. */
  pdfua?: "PDF/UA-1";
  /** ISO 14289-1 rules checked on the finished file, by veraPDF id. */
  pdfuaRules?: string[];
  /** A signed document's signature checks, by id (docs/signatures.md "What is checked"). */
  signature?: { level: PAdESLevel; checks: string[] };
  einvoice?: {
    profile: string;
    file: string;
    afRelationship: string;
    /** EN 16931 rules checked on the data before rendering. */
    rules: string[];
    xmlChecks: string[];
  };
  /** The rules failed, with what is wrong; empty when none. */
  failures: { id: string; passed: boolean; detail?: string }[];
  notChecked: string;
}

/** A PDF/A part and level: PDF/A-2 or PDF/A-3, level b or u. */
export type PDFALevel = "2b" | "2u" | "3b" | "3u";

// ---- signing ----

/** A PAdES baseline level: B-T when the node names a time-stamp authority, else B-B. */
export type PAdESLevel = "PAdES-B-B" | "PAdES-B-T" | (string & {});

/**
 * invisible (the default) signs without drawing anything; visible also draws a block
 * naming the signer, the time, the reason and the location at the foot of the last page.
 */
export type SignatureAppearance = "invisible" | "visible";

/**
 * Signs a document with one of the organisation's certificates, the last step of making
 * it (docs/signatures.md): a request's `sign`, or a template manifest's. A request's
 * replaces the manifest's.
 */
export interface SignSpec {
  /** A signing certificate's id, `crt_…`. */
  certificateId: string;
  /** Written in the signature; up to 200 characters. */
  reason?: string;
  /** Written in the signature; up to 200 characters. */
  location?: string;
  /** Default "invisible". */
  appearance?: SignatureAppearance;
}

/** A signed document's signature: its PAdES level, who signed, with which certificate, and when. */
export interface Signature {
  level: PAdESLevel;
  /** The certificate's common name. */
  signer: string;
  certificateId: string;
  certificateSha256: string;
  /** The node's time, written in the signature. */
  signedAt: string;
  /** The time-stamp authority's time; PAdES-B-T only. */
  timestampedAt?: string;
  reason?: string;
  location?: string;
  appearance: SignatureAppearance;
}

/** A signing certificate; its key is sealed on the node and never shown. */
export interface SigningCertificate {
  id: string;
  name: string;
  /** The common name, which readers show as the signer. */
  subject: string;
  subjectDn: string;
  issuerDn: string;
  /** Hex. */
  serial: string;
  /** The certificate's SHA-256 fingerprint, hex. */
  sha256: string;
  /** "RSA 3072", "ECDSA P-256", … */
  keyAlgorithm: string;
  notBefore: string;
  notAfter: string;
  /** Certificates in the chain, the signer's included. */
  chainLength: number;
  createdAt: string;
}

/** The file of signing.create: a PKCS#12 file (.p12 or .pfx, up to 256 KB) and its password. */
export interface CertificateUpload {
  file: Blob | Uint8Array | ArrayBuffer;
  /** The upload's file name (default "certificate.p12"). */
  filename?: string;
  /** As typed, spaces and all; neither it nor the file is kept. */
  password: string;
  /** Defaults to the certificate's common name. */
  name?: string;
}

/** A document record. */
export interface Document {
  id: string;
  status: DocumentStatus;
  templateId: string;
  templateSlug: string;
  templateVersion: number;
  correlationId: string;
  pageCount: number;
  byteSize: number;
  filename: string;
  downloadUrl?: string;
  downloadUrlExpiresAt?: string;
  durationMs: number;
  report?: RenderReport;
  /** A failed document's: TEMPLATE_ERROR, RENDER_TIMEOUT, TOO_MANY_PAGES, RENDER_FAILED, DATA_UNAVAILABLE or SIGNING_FAILED. */
  errorCode?: string;
  message?: string;
  metadata?: JSONObject | null;
  engine?: Engine;
  engineReason?: string;
  /** The PDF/A level the request asked for. */
  pdfa?: PDFALevel;
  /** "1" when the request asked for PDF/UA-1. */
  pdfua?: "1";
  /** The signature the document asks for, from the request or the template's manifest. */
  sign?: SignSpec & { appearance: SignatureAppearance };
  /** The signature made, once the document has completed. */
  signature?: Signature;
  watermarked: boolean;
  regeneratedFrom?: string;
  downloads: number;
  /** What a completed document cost: allowance pages, wallet pages, and their price. */
  charge?: { allowancePages: number; walletPages: number; micros: number };
  createdAt: string;
  completedAt?: string;
  fileExpiresAt?: string;
  fileExpired?: boolean;
}

/** The answer of a dry run (`dryRun: true`): what the document would cost now. */
export interface Quote {
  pageCount: number;
  allowancePages: number;
  walletMicros: number;
  /** Whether those pages are covered now. */
  payable: boolean;
  report?: RenderReport;
}

export interface ListDocumentsQuery {
  status?: DocumentStatus;
  templateId?: string;
  correlationId?: string;
  limit?: number;
  cursor?: string;
}

export interface DayCount {
  day: string;
  completed: number;
  failed: number;
  pending: number;
}

export interface DocumentStats {
  days: DayCount[];
  total: DayCount;
}

/** A minted download link. */
export interface DownloadLink {
  url: string;
  expiresAt: string;
}

// ---- templates ----

export interface Page {
  number: number;
  width: number;
  height: number;
}

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A run of text on an uploaded PDF. */
export interface Piece {
  id: string;
  page: number;
  text: string;
  box: Box;
  font: string;
  size: number;
  color: string;
  bold: boolean;
  italic: boolean;
}

export interface Pieces {
  items: Piece[];
  pages: Page[];
}

export interface TemplateSource {
  filename: string;
  byteSize: number;
  sha256: string;
  pages: Page[];
  pieceCount: number;
}

export interface Template {
  id: string;
  slug: string;
  name: string;
  description: string;
  kind: "written" | "pdf" | (string & {});
  activeVersion: number;
  latestVersion: number;
  copiedFrom?: string;
  source?: TemplateSource;
  createdAt: string;
  updatedAt: string;
  archivedAt?: string;
}

/** The answer of templates.createFromPDF: the template and every text piece found. */
export interface PDFTemplate extends Template {
  pieces: Piece[];
}

/** A field that marks a piece of a template made from a PDF. */
export interface PDFField {
  pieceId: string;
  key: string;
  default?: string;
  whenMissing?: string;
  required?: boolean;
  align?: string;
  text?: string;
}

/** A version's source: the body of POST …/versions, and a preview's draft. */
export interface VersionInput {
  html?: string;
  manifest?: JSONObject;
  content?: JSONValue;
  sampleData?: JSONObject;
  /** Asset name → base64 or data: URL, as docs/templates.md describes. */
  assets?: Record<string, string>;
  fields?: PDFField[];
  activate?: boolean;
}

export interface CreateTemplateRequest extends Omit<VersionInput, "fields"> {
  name: string;
  slug?: string;
  description?: string;
}

export interface UpdateTemplateRequest {
  name?: string;
  slug?: string;
  description?: string;
  archived?: boolean;
}

export interface ListTemplatesQuery {
  limit?: number;
  cursor?: string;
  archived?: boolean;
}

export interface EngineChoice {
  engine: Engine;
  reason: string;
}

export interface Version {
  templateId: string;
  version: number;
  active: boolean;
  html?: string;
  content?: JSONValue;
  manifest?: JSONObject;
  sampleData?: JSONObject;
  assets?: Record<string, string>;
  fields?: PDFField[];
  engine?: EngineChoice;
  createdAt: string;
}

export interface VersionSummary {
  version: number;
  active: boolean;
  htmlBytes: number;
  assetCount: number;
  fieldCount: number;
  createdAt: string;
}

export interface PreviewRequest {
  data?: JSONObject;
  version?: number;
  engine?: Engine;
  draft?: VersionInput;
  /** "png" answers one page as a picture. */
  format?: "pdf" | "png";
  page?: number;
  width?: number;
}

/** A preview: the PDF (or a page as PNG) and what its headers say. */
export interface Preview {
  bytes: Uint8Array;
  contentType: string;
  pages: number;
  /** The page drawn, for a PNG. */
  page?: number;
  engine: string;
  engineReason: string;
}

export interface Starter {
  slug: string;
  name: string;
  description: string;
  category: string;
  manifest?: JSONObject;
  sampleData?: JSONObject;
}

export interface CopyStarterRequest {
  slug?: string;
  name?: string;
}

/** The file of templates.createFromPDF. */
export interface PDFUpload {
  file: Blob | Uint8Array | ArrayBuffer;
  /** The upload's file name (default "template.pdf"). */
  filename?: string;
  name: string;
  slug?: string;
}

// ---- webhooks ----

export type EventKind =
  | "document.queued"
  | "document.rendering"
  | "document.completed"
  | "document.failed"
  | "template.activated"
  | "wallet.credited"
  | "wallet.debited"
  | (string & {});

export interface Endpoint {
  id: string;
  name: string;
  url: string;
  events: EventKind[];
  enabled: boolean;
  disabledReason?: string;
  disabledAt?: string;
  consecutiveFailures: number;
  secretPrefix: string;
  createdAt: string;
  updatedAt: string;
  /** Only in the answer that created the endpoint. */
  signingSecret?: string;
}

export interface CreateWebhookRequest {
  name: string;
  url: string;
  /** Empty: every kind. */
  events?: EventKind[];
}

export interface UpdateWebhookRequest {
  name?: string;
  url?: string;
  events?: EventKind[];
  enabled?: boolean;
}

export interface SentRequest {
  headers: Record<string, string>;
  body: string;
  truncated?: boolean;
}

export interface ReceivedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  truncated?: boolean;
}

export interface Delivery {
  id: string;
  event: EventKind;
  eventId: string;
  status: string;
  attempts: number;
  lastStatus: number;
  lastError?: string;
  nextAttemptAt?: string;
  createdAt: string;
  deliveredAt?: string;
  lastRequest?: SentRequest;
  lastResponse?: ReceivedAnswer;
}

export interface ListDeliveriesQuery {
  limit?: number;
  cursor?: string;
}

/** What the receiver answered a ping. */
export interface PingResult {
  status: number;
  durationMs?: number;
  body: string;
  error?: string;
}

// ---- wallet ----

export interface Plan {
  name: string;
  monthlyPages: number;
  pageRateMicros: number;
  wallet: boolean;
  watermark: boolean;
}

export interface LedgerEntry {
  id: string;
  orgId?: string;
  seq: number;
  kind: "credit" | "debit" | (string & {});
  amountMicros: number;
  balanceAfterMicros: number;
  reference: string;
  at: string;
}

export interface Wallet {
  plan: Plan;
  period: { start: string; end: string };
  allowance: { pages: number; usedPages: number; leftPages: number; heldPages: number };
  /** The ISO 4217 code every Micros amount is in. */
  currency: string;
  balanceMicros: number;
  heldMicros: number;
  ledger: LedgerEntry[];
}

export interface LedgerPage {
  items: LedgerEntry[];
  /** null on the page holding the first row. */
  nextBefore: number | null;
}

export interface MonthUsage {
  month: string;
  documents: number;
  allowancePages: number;
  walletPages: number;
  amountMicros: number;
}

export interface Usage {
  months: MonthUsage[];
}

// ---- keys ----

/** An API key as its organisation sees it; `key`, its value, only in the answer that made it. */
export interface APIKey {
  id: string;
  orgId: string;
  name: string;
  scopes: Scope[];
  /** The start of its value, to tell keys apart. */
  prefix: string;
  createdAt: string;
  revokedAt?: string | null;
  /** When it last authenticated a request, to within five minutes. */
  lastUsedAt?: string | null;
  key?: string;
}

export interface CreateKeyRequest {
  name: string;
  scopes: Scope[];
}

// ---- events (webhook payloads and the realtime feed) ----

/** The data of a document event: the record without the data it was rendered from. */
export interface DocumentEventData {
  id: string;
  status: DocumentStatus;
  templateSlug: string;
  templateVersion: number;
  correlationId: string;
  pageCount: number;
  byteSize: number;
  filename: string;
  metadata?: JSONObject | null;
  errorCode?: string;
  message?: string;
  url?: string;
  urlExpiresAt?: string;
  engine?: Engine;
  engineReason?: string;
  report?: RenderReport;
  /** A signed document's signature, once it has completed. */
  signature?: Signature;
}

export interface TemplateActivatedData {
  templateId: string;
  slug: string;
  version: number;
  previousVersion: number;
}

export interface WalletCreditedData {
  ledgerEntryId: string;
  amountMicros: number;
  balanceMicros: number;
  reference: string;
}

export interface WalletDebitedData {
  ledgerEntryId: string;
  documentId: string;
  pages: number;
  amountMicros: number;
  balanceMicros: number;
}

/** What each event kind carries. */
export interface EventDataMap {
  "document.queued": DocumentEventData;
  "document.rendering": DocumentEventData;
  "document.completed": DocumentEventData;
  "document.failed": DocumentEventData;
  "template.activated": TemplateActivatedData;
  "wallet.credited": WalletCreditedData;
  "wallet.debited": WalletDebitedData;
  ping: JSONObject;
}

/** An event of a known kind, with its data typed. */
export type KnownEvent<F> = {
  [K in keyof EventDataMap]: F & { event: K; data: EventDataMap[K] };
}[keyof EventDataMap];
