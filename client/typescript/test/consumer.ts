// Type-checked (tsc --noEmit) against the installed package's declarations,
// as a TypeScript user's code would be. Never run.
import {
  Platen,
  PlatenError,
  operations,
  verifyWebhook,
  parseWebhook,
  type Document,
  type Quote,
  type RealtimeEvent,
  type WebSocketConstructor,
  type GenerateRequest,
  type OperationName,
  type SigningCertificate,
  type Signature,
} from "@platen/client";

declare const WS: WebSocketConstructor;

export async function consumer(): Promise<void> {
  const platen = new Platen({ baseUrl: "https://platen.example", apiKey: "plt_x", maxRetries: 2, WebSocket: WS });
  const body: GenerateRequest = { templateId: "invoice", data: { number: "INV-7" }, correlationId: "o-1" };
  const doc: Document = await platen.documents.create(body, { idempotencyKey: "o-1" });
  const pages: number = doc.pageCount;
  const quote: Quote = await platen.documents.quote(body);
  const payable: boolean = quote.payable;
  const pdf: Uint8Array = await platen.documents.download(doc.id);
  const engine: string | undefined = doc.report?.engine;
  const list = await platen.documents.list({ status: "completed", limit: 10 });
  const next: string | null | undefined = list.nextCursor;
  const keys = await platen.keys.create({ name: "ci", scopes: ["documents.read"] });
  const secret: string = keys.key;
  const w = await platen.wallet.get();
  const left: number = w.allowance.leftPages;

  const cert: SigningCertificate = await platen.signing.create({ file: new Uint8Array(), password: "pw", name: "Accounts" });
  const certs: SigningCertificate[] = (await platen.signing.list()).items;
  const signed = await platen.documents.create({ ...body, sign: { certificateId: cert.id, appearance: "visible" } });
  const sig: Signature | undefined = signed.signature;
  const checks: string[] | undefined = signed.report?.conformance?.signature?.checks;
  const pdfa: string | undefined = signed.report?.conformance?.pdfa;
  const gone: boolean = (await platen.signing.delete(cert.id)).deleted;
  // @ts-expect-error an appearance the API does not have
  await platen.documents.create({ ...body, sign: { certificateId: cert.id, appearance: "loud" } });
  // @ts-expect-error a certificate upload needs its password
  await platen.signing.create({ file: new Uint8Array() });

  // @ts-expect-error templateId is required
  await platen.documents.create({ data: {} });
  // @ts-expect-error an unknown status
  await platen.documents.list({ status: "done" });

  try {
    await platen.templates.get("invoice");
  } catch (e) {
    if (e instanceof PlatenError) {
      const s: number = e.status;
      const c: string = e.code;
      const f: string | undefined = e.field;
      const r: number | undefined = e.retryAfter;
      void [s, c, f, r];
    }
  }

  const rt = platen.realtime({ maxReconnectDelayMs: 1000 });
  const d: Document = await rt.generate(body, { idempotencyKey: "k" });
  const q: Quote = await rt.generate({ ...body, dryRun: true });
  const sub = await rt.subscribe(["document.completed"], { since: "41" }, (ev: RealtimeEvent) => {
    if (ev.event === "document.completed") {
      const url: string | undefined = ev.data.url;
      const signer: string | undefined = ev.data.signature?.signer;
      void [url, signer];
    }
    if (ev.event === "wallet.debited") {
      const m: number = ev.data.amountMicros;
      void m;
    }
  });
  const cursor: string = sub.cursor;
  rt.close();

  const ok: boolean = await verifyWebhook("whsec_x", "t=1,v1=00", new Uint8Array(), { toleranceSeconds: 60 });
  const p = parseWebhook("{}");
  if (p.event === "template.activated") {
    const v: number = p.data.version;
    void v;
  }
  const name: OperationName = "documents.create";
  const op: { method: string; path: string } = operations[name];
  void [pages, payable, pdf, engine, next, secret, left, certs, sig, checks, pdfa, gone, d, q, cursor, ok, op];
}
