// Signing through the client, as a user installs it: a PKCS#12 file the Go
// harness made (sign/signtest) is stored, signs a document by a request's
// sign, shows in the record, its report, its PDF and the change feed, and
// is deleted. The node names no time-stamp authority: PAdES-B-B.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { PlatenError, operations } from "@platen/client";
import { env, newOrg, copyStarter, eventually, opOf } from "./helpers.mjs";

test("a certificate stored, a document signed with it, the certificate deleted", async () => {
  const { platen, calls } = await newOrg("ts-signing");
  const p12 = new Uint8Array(await readFile(env.signingP12));

  // A refusal names the field.
  await assert.rejects(platen.signing.create({ file: p12, filename: "ada.p12", password: "wrong" }), (e) => {
    assert.ok(e instanceof PlatenError);
    assert.equal(e.status, 400);
    assert.equal(e.code, "INVALID_REQUEST");
    assert.equal(e.field, "password");
    return true;
  });

  const cert = await platen.signing.create({ file: p12, filename: "ada.p12", password: env.signingPassword, name: "Accounts" });
  assert.match(cert.id, /^crt_/);
  assert.equal(cert.name, "Accounts");
  assert.equal(cert.subject, "Ada Lovelace");
  assert.equal(cert.sha256, env.signingSha256, "the fingerprint of the certificate the harness issued");
  assert.equal(cert.keyAlgorithm, "ECDSA P-256");
  assert.equal(cert.chainLength, 2);
  assert.ok(Date.parse(cert.notAfter) > Date.now());
  assert.deepEqual((await platen.signing.list()).items.map((c) => c.id), [cert.id]);
  assert.deepEqual(await platen.signing.get(cert.id), cert);

  // The change feed carries the signature too.
  const { body } = await copyStarter(platen, "ts-signed");
  const rt = platen.realtime();
  try {
    const completed = [];
    await rt.subscribe(["document.completed"], {}, (ev) => completed.push(ev));

    const doc = await platen.documents.create({ ...body, sign: { certificateId: cert.id, reason: "Receipt issued", location: "London", appearance: "visible" } });
    assert.equal(doc.status, "completed", `${doc.errorCode}: ${doc.message}`);
    assert.deepEqual(doc.sign, { certificateId: cert.id, reason: "Receipt issued", location: "London", appearance: "visible" });
    const sig = doc.signature;
    assert.equal(sig.level, "PAdES-B-B");
    assert.equal(sig.signer, "Ada Lovelace");
    assert.equal(sig.certificateId, cert.id);
    assert.equal(sig.certificateSha256, cert.sha256);
    assert.equal(sig.timestampedAt, undefined, "no time-stamp authority, no time-stamp");
    assert.equal(sig.reason, "Receipt issued");
    assert.equal(sig.location, "London");
    assert.equal(sig.appearance, "visible");
    assert.ok(Math.abs(Date.parse(sig.signedAt) - Date.now()) < 60_000, `signedAt ${sig.signedAt}`);

    const cf = doc.report.conformance;
    assert.equal(cf.signature.level, "PAdES-B-B");
    assert.ok(cf.signature.checks.length > 0);
    assert.equal(cf.failed, 0, JSON.stringify(cf.failures));
    assert.equal(cf.pdfa, undefined, "a signed document that is not PDF/A claims none");
    assert.equal(cf.pdfaRules, undefined);
    assert.equal(typeof doc.report.ms.signing, "number");

    const pdf = new TextDecoder("latin1").decode(await platen.documents.download(doc.id));
    assert.ok(pdf.includes("/SubFilter/ETSI.CAdES.detached"), "the PDF carries a PAdES signature");
    assert.equal((await platen.documents.get(doc.id)).signature.signedAt, sig.signedAt);

    const ev = await eventually("the document.completed event", () => completed.find((e) => e.data.id === doc.id));
    assert.equal(ev.data.signature.signer, "Ada Lovelace");
    assert.equal(ev.data.signature.signedAt, sig.signedAt);
  } finally {
    rt.close();
  }

  // Deleted: gone, and refused by name.
  assert.deepEqual(await platen.signing.delete(cert.id), { id: cert.id, deleted: true });
  await assert.rejects(platen.signing.get(cert.id), (e) => e instanceof PlatenError && e.status === 404 && e.code === "NOT_FOUND");
  await assert.rejects(platen.documents.create({ ...body, sign: { certificateId: cert.id } }), (e) => {
    assert.equal(e.status, 400);
    assert.equal(e.field, "sign.certificateId");
    return true;
  });

  // Every signing operation went through the table (routes.test.mjs leaves them to this file).
  const seen = new Set(calls.map((c) => opOf(c.method, c.url.pathname)));
  const notCalled = Object.keys(operations).filter((n) => n.startsWith("signing.") && !seen.has(n));
  assert.deepEqual(notCalled, [], `signing operations the test did not call: ${notCalled.join(", ")}`);
});
