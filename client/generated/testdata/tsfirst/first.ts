// A first PDF with openapi-fetch, typed by what openapi-typescript generates
// from Platen's served OpenAPI document (schema.d.ts, made by the test with
// default settings, no hand edits): copy the invoice starter, generate a
// document from its sample data, read the record back, download the PDF.
//
// Usage: node first.js <base URL> <API key> <output.pdf>
import { writeFile } from "node:fs/promises";
import createClient from "openapi-fetch";
import type { paths } from "./schema.js";

const [base, key, out] = process.argv.slice(2);
if (!base || !key || !out) {
  console.error("usage: node first.js <base URL> <API key> <output.pdf>");
  process.exit(2);
}

const platen = createClient<paths>({ baseUrl: base, headers: { Authorization: `Bearer ${key}` } });

function fail(step: string, error: unknown, response: Response): never {
  throw new Error(`${step}: HTTP ${response.status} ${JSON.stringify(error)}`);
}

const lib = await platen.GET("/v1/templates/library");
if (!lib.data) fail("library", lib.error, lib.response);
const invoice = lib.data.data?.items?.find((s) => s.slug === "invoice");
if (!invoice?.sampleData) throw new Error("the library has no invoice starter with sample data");

const copied = await platen.POST("/v1/templates/library/{starterSlug}/copy", {
  params: { path: { starterSlug: "invoice" } },
  body: { slug: "first-invoice-ts", name: "My first invoice" },
});
if (!copied.data) fail("copy the starter", copied.error, copied.response);

const made = await platen.POST("/v1/documents", {
  body: { templateId: "first-invoice-ts", data: invoice.sampleData },
});
if (!made.data) fail("generate", made.error, made.response);
if (made.response.status !== 201 || !made.data.data || !("id" in made.data.data)) {
  throw new Error(`generate answered HTTP ${made.response.status}`);
}
const id = made.data.data.id;

const got = await platen.GET("/v1/documents/{id}", { params: { path: { id } } });
if (!got.data?.data) fail("read the document", got.error, got.response);
const doc = got.data.data;
if (doc.status !== "completed") throw new Error(`the document is ${doc.status}`);

const link = await platen.GET("/v1/documents/{id}/download", { params: { path: { id } } });
if (!link.data?.data?.url) fail("download link", link.error, link.response);
const res = await fetch(link.data.data.url);
if (!res.ok) throw new Error(`download: HTTP ${res.status}`);
const pdf = new Uint8Array(await res.arrayBuffer());
await writeFile(out, pdf);
console.log(`${id} ${doc.status} ${doc.pageCount} page(s) ${pdf.length} bytes`);
