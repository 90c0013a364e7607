import { afterAll, beforeAll, describe, expect, it } from "vitest";
import crypto from "node:crypto";
import { startQuire, waitForJob, type QuireServer } from "../helpers/quire-server";
import { uploadBytes, download } from "../helpers/api-client";
import { makePdf, makeDamagedPdf, encryptPdf, pageTexts } from "../helpers/pdf-fixtures";
import { startLoopbackServer } from "../helpers/loopback-server";

let q: QuireServer;
let pdf3: string;

beforeAll(async () => {
  q = await startQuire();
  pdf3 = await uploadBytes(q, makePdf({ pages: 3 }), "three.pdf", "application/pdf");
});
afterAll(async () => q?.stop());

describe(`API spine (${process.env.QUIRE_TEST_PG_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("GET /v1/account/credit/balance (valid key → remainingCredits)", async () => {
    const r = await q.api("/v1/account/credit/balance");
    expect(r.status).toBe(200);
    expect(typeof r.body.remainingCredits).toBe("number");
    expect(r.body.remainingCredits).toBeGreaterThan(0);
  });

  it("GET /v1/account/credit/balance (missing or wrong key → 401 envelope)", async () => {
    const none = await q.api("/v1/account/credit/balance", { key: null });
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ error: true, status: 401 });
    expect(none.body.message).toMatch(/x-api-key/);
    const wrong = await q.api("/v1/account/credit/balance", { key: "qk_nope" });
    expect(wrong.status).toBe(401);
  });

  it("OPTIONS preflight answers CORS for browser clients", async () => {
    const r = await fetch(q.url + "/v1/pdf/info", { method: "OPTIONS", headers: { origin: "https://example.org", "access-control-request-headers": "x-api-key" } });
    expect(r.status).toBe(204);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("access-control-allow-headers")).toContain("x-api-key");
  });

  it("unknown endpoint → 404 JSON envelope", async () => {
    const r = await q.api("/v1/nope", { json: {} });
    expect(r.status).toBe(404);
    expect(r.body.error).toBe(true);
  });

  it("POST /v1/pdf/info (JSON body → info with PageCount and credits)", async () => {
    const r = await q.api("/v1/pdf/info", { json: { url: pdf3 } });
    expect(r.status).toBe(200);
    expect(r.body.error).toBe(false);
    expect(r.body.status).toBe(200);
    expect(r.body.info.PageCount).toBe(3);
    expect(r.body.info.PageRectangle.Size).toBe("612, 792");
    expect(r.body.credits).toBeGreaterThan(0);
    expect(typeof r.body.remainingCredits).toBe("number");
    expect(typeof r.body.duration).toBe("number");
  });

  it("POST /v1/pdf/info (urlencoded, query string and case-insensitive names)", async () => {
    const form = await q.api("/v1/pdf/info", {
      body: new URLSearchParams({ URL: pdf3, Async: "False", password: "" }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(200);
    expect(form.body.info.PageCount).toBe(3);
    const query = await q.api(`/v1/pdf/info?url=${encodeURIComponent(pdf3)}`, { method: "POST" });
    expect(query.status).toBe(200);
    expect(query.body.info.PageCount).toBe(3);
  });

  it("POST /v1/pdf/info (multipart `file` part instead of url)", async () => {
    const fd = new FormData();
    fd.set("file", new Blob([new Uint8Array(makePdf({ pages: 2 }))], { type: "application/pdf" }), "two.pdf");
    const r = await q.api("/v1/pdf/info", { body: fd });
    expect(r.status).toBe(200);
    expect(r.body.info.PageCount).toBe(2);
  });

  it("POST /v1/pdf/info (missing url → 400, damaged file → 442, not JSON → 400)", async () => {
    const missing = await q.api("/v1/pdf/info", { json: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/url/);
    const bad = await uploadBytes(q, makeDamagedPdf("random"), "bad.pdf");
    const damaged = await q.api("/v1/pdf/info", { json: { url: bad } });
    expect(damaged.status).toBe(442);
    expect(damaged.body).toMatchObject({ error: true, status: 442 });
    const notJson = await q.api("/v1/pdf/info", { body: "{oops", headers: { "content-type": "application/json" } });
    expect(notJson.status).toBe(400);
  });

  it("POST /v1/pdf/info (encrypted: no password → 441, wrong → 441, right → 200)", async () => {
    const enc = await uploadBytes(q, encryptPdf(makePdf({ pages: 2 }), { userPassword: "s3cret", ownerPassword: "owner" }), "enc.pdf");
    const none = await q.api("/v1/pdf/info", { json: { url: enc } });
    expect(none.status).toBe(441);
    const wrong = await q.api("/v1/pdf/info", { json: { url: enc, password: "nope" } });
    expect(wrong.status).toBe(441);
    const right = await q.api("/v1/pdf/info", { json: { url: enc, password: "s3cret" } });
    expect(right.status).toBe(200);
    expect(right.body.info.Encrypted).toBe(true);
  });

  it("POST /v1/pdf/info (profiles unreadable → 444; lenient shapes accepted)", async () => {
    const bad = await q.api("/v1/pdf/info", { json: { url: pdf3, profiles: "{not: json: at all" } });
    expect(bad.status).toBe(444);
    for (const profiles of [
      "",
      "{ 'OCRMode': 'Never' }",
      "'OCRMode': 'Never'",
      { OCRMode: "Never" },
      '{"profiles":[{"profile1":{"OCRMode":"Never"}}]}',
      { profiles: [{ profile1: { OCRMode: "Never" } }] },
    ]) {
      const r = await q.api("/v1/pdf/info", { json: { url: pdf3, profiles } });
      expect(r.status, JSON.stringify(profiles)).toBe(200);
    }
  });

  it("POST /v1/pdf/split (1-based pages → urls named result_pageN-M.pdf with the right pages)", async () => {
    const r = await q.api("/v1/pdf/split", { json: { url: pdf3, pages: "1-2, 3" } });
    expect(r.status).toBe(200);
    expect(r.body.urls).toHaveLength(2);
    expect(r.body.pageCount).toBe(3);
    const first = await download(r.body.urls[0]);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("content-disposition")).toContain("result_page1-2.pdf");
    expect(pageTexts(first.bytes).map((t) => t.trim())).toEqual(["Page 1", "Page 2"]);
    const second = await download(r.body.urls[1]);
    expect(pageTexts(second.bytes).map((t) => t.trim())).toEqual(["Page 3"]);
    expect(new Date(r.body.outputLinkValidTill).getTime()).toBeGreaterThan(Date.now());
  });

  it("POST /v1/pdf/split (page past the end → 449, malformed → 450)", async () => {
    const past = await q.api("/v1/pdf/split", { json: { url: pdf3, pages: "2-9" } });
    expect(past.status).toBe(449);
    expect(past.body.message).toMatch(/past the last page/);
    const bad = await q.api("/v1/pdf/split", { json: { url: pdf3, pages: "1-x" } });
    expect(bad.status).toBe(450);
  });

  it("output links are signed: a tampered signature → 404", async () => {
    const r = await q.api("/v1/pdf/split", { json: { url: pdf3, pages: "1" } });
    const tampered = r.body.urls[0].replace(/sig=[^&]+/, "sig=AAAA");
    expect((await download(tampered)).status).toBe(404);
  });

  it("async: true → jobId + url at once; job check by POST body, POST ?jobid and GET", async () => {
    const r = await q.api("/v1/pdf/split", { json: { url: pdf3, async: "true" } });
    expect(r.status).toBe(200);
    expect(r.body.jobId).toBeTruthy();
    expect(r.body.url).toMatch(/^http/);
    const done = await waitForJob(q, r.body.jobId);
    expect(done.status).toBe("success");
    expect(done.jobId).toBe(r.body.jobId);
    expect(typeof done.jobDuration).toBe("number");
    const byBody = await q.api("/v1/job/check", { json: { jobid: r.body.jobId } });
    expect(byBody.body.status).toBe("success");
    const byQuery = await q.api(`/v1/job/check?jobid=${r.body.jobId}`, { method: "POST" });
    expect(byQuery.body.status).toBe("success");
    // The promised URL holds the JSON list of the output URLs.
    const list = JSON.parse((await download(r.body.url)).bytes.toString("utf8"));
    expect(list).toHaveLength(3);
    expect((await download(list[2])).status).toBe(200);
  });

  it("job check of an unknown id: working without force, unknown with force", async () => {
    const a = await q.api("/v1/job/check", { json: { jobId: "no-such-job" } });
    expect(a.body.status).toBe("working");
    const b = await q.api("/v1/job/check", { json: { jobId: "no-such-job", force: true } });
    expect(b.body.status).toBe("unknown");
  });

  it("a failed async job reports failed with a message and no credits", async () => {
    const r = await q.api("/v1/pdf/split", { json: { url: pdf3, pages: "7", async: true } });
    const done = await waitForJob(q, r.body.jobId);
    expect(done.status).toBe("failed");
    expect(done.message).toMatch(/past the last page/);
    expect(done.credits).toBe(0);
  });

  it("profiles DataDecryption*/DataEncryption* and outputDataFormat base64 round-trip", async () => {
    const key = "0123456789abcdef0123456789abcdef"; // 32 bytes → AES256
    const iv = "abcdef9876543210";
    const c = crypto.createCipheriv("aes-256-cbc", Buffer.from(key), Buffer.from(iv));
    const encrypted = Buffer.concat([c.update(makePdf({ pages: 2 })), c.final()]);
    const src = await uploadBytes(q, encrypted, "secret.bin");
    const r = await q.api("/v1/pdf/split", {
      json: {
        url: src,
        pages: "2",
        profiles: { DataDecryptionAlgorithm: "AES256", DataDecryptionKey: key, DataDecryptionIV: iv, DataEncryptionAlgorithm: "AES256", DataEncryptionKey: key, DataEncryptionIV: iv, outputDataFormat: "base64" },
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const b64 = (await download(r.body.urls[0])).bytes.toString("utf8");
    const d = crypto.createDecipheriv("aes-256-cbc", Buffer.from(key), Buffer.from(iv));
    const plain = Buffer.concat([d.update(Buffer.from(b64, "base64")), d.final()]);
    expect(pageTexts(plain).map((t) => t.trim())).toEqual(["Page 2"]);
    // The source was decrypted into a file of the job's own: the stored upload is as it was sent.
    expect(Buffer.compare((await download(src)).bytes, encrypted)).toBe(0);
  });

  it("uploads: POST /v1/file/upload (multipart) and /v1/file/upload/base64 give usable URLs", async () => {
    const fd = new FormData();
    fd.set("file", new Blob([new Uint8Array(makePdf({ pages: 4 }))]), "four.pdf");
    const up = await q.api("/v1/file/upload", { body: fd });
    expect(up.status).toBe(200);
    const info = await q.api("/v1/pdf/info", { json: { url: up.body.url } });
    expect(info.body.info.PageCount).toBe(4);
    const b64 = await q.api("/v1/file/upload/base64", {
      json: { name: "five.pdf", file: "data:application/pdf;base64," + makePdf({ pages: 5 }).toString("base64") },
    });
    expect(b64.status).toBe(200);
    const info5 = await q.api("/v1/pdf/info", { json: { url: b64.body.url } });
    expect(info5.body.info.PageCount).toBe(5);
    const bad = await q.api("/v1/file/upload/base64", { json: { file: "***" } });
    expect(bad.status).toBe(400);
  });

  it("source URLs on private or loopback addresses → 403 and nothing is sent", async () => {
    const canary = await startLoopbackServer();
    try {
      const r = await q.api("/v1/pdf/info", { json: { url: `${canary.origin}/x.pdf` } });
      expect(r.status).toBe(403);
      expect(r.body.message).toMatch(/loopback|private|not allowed|public/i);
      const decimal = await q.api("/v1/pdf/info", { json: { url: `http://2130706433:${canary.port}/x.pdf` } });
      expect(decimal.status).toBe(403);
      const priv = await q.api("/v1/pdf/info", { json: { url: "http://10.1.2.3/x.pdf" } });
      expect(priv.status).toBe(403);
      const ftp = await q.api("/v1/pdf/info", { json: { url: "ftp://example.org/x.pdf" } });
      expect(ftp.status).toBe(452);
      expect(canary.connections).toBe(0);
    } finally {
      await canary.close();
    }
  });

  it("GET /v1/openapi.json lists every operation", async () => {
    const r = await q.api("/v1/openapi.json", { key: null });
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe("3.1.0");
    expect(r.body.paths["/v1/pdf/split"].post.operationId).toBe("pdf-split");
  });

  it("API keys: created keys work, revoked keys get 401 at once", async () => {
    const created = await q.api("/v1/account/keys", { json: { name: "temp" } });
    expect(created.status).toBe(200);
    const k = created.body.secret as string;
    expect((await q.api("/v1/account/credit/balance", { key: k })).status).toBe(200);
    const del = await q.api(`/v1/account/keys/${created.body.key.id}`, { method: "DELETE" });
    expect(del.status).toBe(200);
    expect((await q.api("/v1/account/credit/balance", { key: k })).status).toBe(401);
  });
});
