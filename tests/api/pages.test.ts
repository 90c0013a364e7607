import * as XLSX from "@e965/xlsx";
import * as mupdf from "mupdf";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startQuire, waitForJob, type QuireServer } from "../helpers/quire-server";
import { download, uploadBytes } from "../helpers/api-client";
import { barcodePage } from "../helpers/barcode-fixtures";
import { imageToPdfPages, renderPagePng } from "../helpers/extract-fixtures";
import { startLoopbackServer, type LoopbackServer } from "../helpers/loopback-server";
import { encryptPdf, makeDamagedPdf, makeFormPdf, makePdf, pageTexts } from "../helpers/pdf-fixtures";

/**
 * Page and document operations over HTTP: merge, merge2, split2, delete-pages, rotate,
 * rotate/auto, security add/remove, and optimize's `url`. Requests reproduce what the public
 * API's official Python samples send (form-encoded `data=`, `"True"` booleans, JSON strings
 * without a content type, presigned uploads named with application/octet-stream).
 */

let q: QuireServer;
let callbacks: LoopbackServer;

beforeAll(async () => {
  callbacks = await startLoopbackServer((_req, res) => res.end("ok"));
  q = await startQuire({ env: { EGRESS_ALLOW: `127.0.0.1:${callbacks.port}` } });
}, 120_000);
afterAll(async () => {
  await q?.stop();
  await callbacks?.close();
});

/** What the Python samples do to upload: presigned URL named application/octet-stream, raw PUT. */
const sampleUpload = (bytes: Uint8Array, name: string) => uploadBytes(q, bytes, name, "application/octet-stream");

/** `requests.post(url, data=parameters)`: form-encoded, Python's True/False for booleans. */
function samplePost(path: string, parameters: Record<string, string | number | boolean>, key?: string) {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(parameters)) form.set(k, typeof v === "boolean" ? (v ? "True" : "False") : String(v));
  return q.api(path, { method: "POST", body: form, key });
}

/** A fresh account with a known balance, for credit checks. */
async function userKey(credits: number) {
  const email = `pages-${Math.random().toString(36).slice(2)}@test.local`;
  const r = await q.cli(["create-user", email, "--password", "password123", "--credits", String(credits)]);
  if (r.code !== 0) throw new Error(r.out);
  return /api key:\s+(qk_\S+)/.exec(r.out)![1];
}

/** The /Rotate of every page, as viewers apply it. */
function rotations(bytes: Uint8Array): number[] {
  const doc = new mupdf.PDFDocument(Buffer.from(bytes));
  try {
    return Array.from({ length: doc.countPages() }, (_, i) => doc.findPage(i).getInheritable("Rotate").asNumber());
  } finally {
    doc.destroy();
  }
}

const labelled = (label: string, pages: number) => makePdf({ pages, text: (i) => `${label}${i + 1}` });

async function waitForCallback(path: string) {
  const deadline = Date.now() + 20_000;
  while (!callbacks.requests.some((x) => x.url === path) && Date.now() < deadline) await new Promise((s) => setTimeout(s, 200));
  const hit = callbacks.requests.find((x) => x.url === path);
  if (!hit) throw new Error(`no callback at ${path}`);
  return JSON.parse(hit.body.toString("utf8"));
}

describe("POST /v1/pdf/merge", () => {
  it("POST /v1/pdf/merge (the official sample: uploaded files, form-encoded, name; pages in order; credits per page)", async () => {
    const key = await userKey(100);
    const a = await sampleUpload(labelled("A", 2), "sample1.pdf");
    const b = await sampleUpload(labelled("B", 3), "sample2.pdf");
    const r = await samplePost("/v1/pdf/merge", { name: "result.pdf", url: `${a},${b}` }, key);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.error).toBe(false);
    expect(r.body.pageCount).toBe(5);
    expect(r.body.credits).toBe(1 + 5);
    expect(r.body.remainingCredits).toBe(100 - 6);
    expect(r.body.name).toBe("result.pdf");
    const out = await download(r.body.url);
    expect(out.headers.get("content-type")).toBe("application/pdf");
    expect(pageTexts(out.bytes)).toEqual(["A1", "A2", "B1", "B2", "B3"]);
  });

  it("POST /v1/pdf/merge (async sample: promised url holds the merged PDF; callback gets the job result)", async () => {
    const a = await sampleUpload(labelled("A", 1), "sample1.pdf");
    const b = await sampleUpload(labelled("B", 1), "sample2.pdf");
    const r = await samplePost("/v1/pdf/merge", { async: true, name: "result.pdf", url: `${a},${b}`, callback: `${callbacks.origin}/merge-done` });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const done = await waitForJob(q, r.body.jobId);
    expect(done.status).toBe("success");
    expect(pageTexts((await download(r.body.url)).bytes)).toEqual(["A1", "B1"]);
    const hook = await waitForCallback("/merge-done");
    expect(hook).toMatchObject({ jobId: r.body.jobId, status: "success", pageCount: 2 });
  });

  it("POST /v1/pdf/merge (forms of both inputs kept, clashing names renamed; GenerateBookmarks)", async () => {
    const form = await sampleUpload(await makeFormPdf(), "form.pdf");
    const r = await q.api("/v1/pdf/merge", { json: { url: `${form},${form}`, profiles: { GenerateBookmarks: true } } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toMatch(/name → name_2/);
    const fields = await q.api("/v1/pdf/info/fields", { json: { url: r.body.url } });
    const names = fields.body.info.FieldsInfo.Fields.map((f: { FieldName: string }) => f.FieldName);
    expect(names).toEqual(expect.arrayContaining(["name", "name_2", "country", "country_2"]));
    const info = await q.api("/v1/pdf/info", { json: { url: r.body.url } });
    expect(info.body.info.PageCount).toBe(4);
  });

  it("POST /v1/pdf/merge (one damaged input → 442 naming it; nothing charged)", async () => {
    const key = await userKey(50);
    const a = await sampleUpload(labelled("A", 1), "one.pdf");
    const b = await sampleUpload(labelled("B", 1), "two.pdf");
    const bad = await sampleUpload(makeDamagedPdf("truncated"), "name.pdf");
    const r = await q.api("/v1/pdf/merge", { json: { url: [a, b, bad].join(",") }, key });
    expect(r.status).toBe(442);
    expect(r.body).toMatchObject({ error: true, status: 442 });
    expect(r.body.message).toMatch(/^url #3 \(name\.pdf\): /);
    expect((await q.api("/v1/account/credit/balance", { key })).body.remainingCredits).toBe(50);
  });

  it("POST /v1/pdf/merge (missing password for one input → 441 naming it; password and passwords open them)", async () => {
    const plain = await sampleUpload(labelled("P", 1), "plain.pdf");
    const locked = await sampleUpload(encryptPdf(labelled("L", 1), { userPassword: "s3cret" }), "locked.pdf");
    const other = await sampleUpload(encryptPdf(labelled("O", 1), { userPassword: "other,pw" }), "other.pdf");
    const missing = await q.api("/v1/pdf/merge", { json: { url: `${plain},${locked}` } });
    expect(missing.status).toBe(441);
    expect(missing.body.message).toMatch(/^url #2 \(locked\.pdf\): this PDF is encrypted/);
    const ok = await q.api("/v1/pdf/merge", { json: { url: `${plain},${locked},${other}`, password: "s3cret", passwords: ["", "", "other,pw"] } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(pageTexts((await download(ok.body.url)).bytes)).toEqual(["P1", "L1", "O1"]);
    // A JSON array sent as a form field is read too.
    const form = await samplePost("/v1/pdf/merge", { url: `${locked},${other}`, passwords: JSON.stringify(["s3cret", "other,pw"]) });
    expect(form.status, JSON.stringify(form.body)).toBe(200);
  });

  it("POST /v1/pdf/merge (multipart with several file parts)", async () => {
    const body = new FormData();
    body.append("file", new Blob([new Uint8Array(labelled("X", 1))], { type: "application/pdf" }), "x.pdf");
    body.append("file", new Blob([new Uint8Array(labelled("Y", 2))], { type: "application/pdf" }), "y.pdf");
    const r = await q.api("/v1/pdf/merge", { method: "POST", body });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(pageTexts((await download(r.body.url)).bytes)).toEqual(["X1", "Y1", "Y2"]);
  });
});

describe("POST /v1/pdf/edit/delete-pages and /v1/pdf/edit/rotate", () => {
  it("POST /v1/pdf/edit/delete-pages (the official sample: JSON with url, name, pages 1-2 → the first two pages go; credits per page)", async () => {
    const key = await userKey(100);
    const src = await sampleUpload(makePdf({ pages: 5 }), "sample.pdf");
    const r = await q.api("/v1/pdf/edit/delete-pages", { json: { url: src, name: "result.pdf", pages: "1-2" }, key });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.pageCount).toBe(3);
    expect(r.body.credits).toBe(1 + 2); // per selected (deleted) page
    expect(r.body.name).toBe("result.pdf");
    expect(pageTexts((await download(r.body.url)).bytes)).toEqual(["Page 3", "Page 4", "Page 5"]);
    // The older sample sends the same fields form-encoded.
    const form = await samplePost("/v1/pdf/edit/delete-pages", { url: src, name: "result.pdf", pages: "!1" });
    expect(pageTexts((await download(form.body.url)).bytes)).toEqual(["Page 1", "Page 2", "Page 3", "Page 4"]);
  });

  it("POST /v1/pdf/edit/delete-pages (async: the promised url holds the PDF; bad selections answer 449/450/400)", async () => {
    const src = await sampleUpload(makePdf({ pages: 3 }), "three.pdf");
    const a = await q.api("/v1/pdf/edit/delete-pages", { json: { url: src, pages: "2", async: true } });
    expect((await waitForJob(q, a.body.jobId)).status).toBe("success");
    expect(pageTexts((await download(a.body.url)).bytes)).toEqual(["Page 1", "Page 3"]);
    expect((await q.api("/v1/pdf/edit/delete-pages", { json: { url: src, pages: "4" } })).status).toBe(449);
    const all = await q.api("/v1/pdf/edit/delete-pages", { json: { url: src, pages: "1-" } });
    expect(all.status).toBe(450);
    expect(all.body.message).toMatch(/at least one page/);
    const none = await q.api("/v1/pdf/edit/delete-pages", { json: { url: src } });
    expect(none.status).toBe(400);
    expect(none.body.message).toMatch(/^pages: required/);
  });

  it("POST /v1/pdf/edit/rotate (the official sample: angle 90, pages 0-2,4, form-encoded; sync and async)", async () => {
    const src = await sampleUpload(makePdf({ pages: 6 }), "sample.pdf");
    const r = await samplePost("/v1/pdf/edit/rotate", { url: src, name: "result.pdf", angle: 90, pages: "0-2,4" });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.pageCount).toBe(6);
    const info = await q.api("/v1/pdf/info", { json: { url: r.body.url } });
    expect(info.body.info.PageCount).toBe(6);
    expect(rotations((await download(r.body.url)).bytes)).toEqual([90, 90, 90, 0, 90, 0]);
    const a = await samplePost("/v1/pdf/edit/rotate", { url: src, name: "result.pdf", angle: 90, pages: "0-2,4", async: true });
    expect((await waitForJob(q, a.body.jobId)).status).toBe("success");
    expect((await download(a.body.url)).headers.get("content-type")).toBe("application/pdf");
  });

  it("POST /v1/pdf/edit/rotate (an angle that is not a multiple of 90 → 454 naming angle)", async () => {
    const src = await sampleUpload(makePdf({ pages: 1 }), "one.pdf");
    const r = await q.api("/v1/pdf/edit/rotate", { json: { url: src, angle: 45 } });
    expect(r.status).toBe(454);
    expect(r.body.message).toMatch(/^angle: use 90, 180 or 270/);
  });
});

/** `requests.post(url, data=json.dumps(parameters, indent=4))`: JSON text without a content type. */
function samplePostJsonText(path: string, parameters: Record<string, unknown>) {
  return q.api(path, { method: "POST", body: new Uint8Array(Buffer.from(JSON.stringify(parameters, null, 4))) });
}

describe("POST /v1/pdf/security/add and /v1/pdf/security/remove", () => {
  it("POST /v1/pdf/security/add (the official sample: JSON text without content type, AES_128bit, every permission; the output opens with the user password)", async () => {
    const src = await sampleUpload(makePdf({ pages: 2 }), "sample1.pdf");
    const r = await samplePostJsonText("/v1/pdf/security/add", {
      name: "protected.pdf",
      url: src,
      ownerPassword: "123456",
      userPassword: "654321",
      encryptionAlgorithm: "AES_128bit",
      allowAccessibilitySupport: true,
      allowAssemblyDocument: true,
      allowPrintDocument: true,
      allowFillForms: true,
      allowModifyDocument: true,
      allowContentExtraction: true,
      allowModifyAnnotations: true,
      printQuality: "HighResolution",
      async: false,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.name).toBe("protected.pdf");
    const out = (await download(r.body.url)).bytes;
    const doc = new mupdf.PDFDocument(out);
    try {
      expect(doc.needsPassword()).toBe(true);
      expect(doc.authenticatePassword("654321")).toBeGreaterThan(0);
    } finally {
      doc.destroy();
    }
    // Quire itself reads it back with the password.
    const info = await q.api("/v1/pdf/info", { json: { url: r.body.url, password: "654321" } });
    expect(info.body.info).toMatchObject({ Encrypted: true, PageCount: 2, PermissionPrinting: true });
    const locked = await q.api("/v1/pdf/info", { json: { url: r.body.url } });
    expect(locked.status).toBe(441);
  });

  it("POST /v1/pdf/security/add (PascalCase names as the MCP server sends them; restrictions hold for the user)", async () => {
    const src = await sampleUpload(makePdf(), "doc.pdf");
    const r = await q.api("/v1/pdf/security/add", {
      json: { url: src, ownerPassword: "owner", userPassword: "", EncryptionAlgorithm: "RC4_128bit", AllowPrintDocument: true, PrintQuality: "LowResolution" },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const info = await q.api("/v1/pdf/info", { json: { url: r.body.url } });
    expect(info.body.info).toMatchObject({ Encrypted: true, PermissionPrinting: true, PermissionHighQualityPrint: false, PermissionContentExtraction: false, PermissionModifyDocument: false });
  });

  it("POST /v1/pdf/security/add (async with callback; bad algorithm → 454)", async () => {
    const src = await sampleUpload(makePdf(), "doc.pdf");
    const a = await q.api("/v1/pdf/security/add", { json: { url: src, ownerPassword: "o", userPassword: "u", async: true, callback: `${callbacks.origin}/secured` } });
    expect((await waitForJob(q, a.body.jobId)).status).toBe("success");
    expect(await waitForCallback("/secured")).toMatchObject({ jobId: a.body.jobId, status: "success" });
    expect(pageTexts((await download(a.body.url)).bytes, "u")).toEqual(["Page 1"]);
    const bad = await q.api("/v1/pdf/security/add", { json: { url: src, ownerPassword: "o", encryptionAlgorithm: "DES" } });
    expect(bad.status).toBe(454);
    expect(bad.body.message).toMatch(/^encryptionAlgorithm: /);
  });

  it("POST /v1/pdf/security/remove (the official sample: JSON text, password admin@123; a wrong password → 441)", async () => {
    const src = await sampleUpload(encryptPdf(makePdf({ pages: 2 }), { userPassword: "admin@123", ownerPassword: "owner" }), "ProtectedPDFFile.pdf");
    const r = await samplePostJsonText("/v1/pdf/security/remove", { name: "unprotected.pdf", url: src, password: "admin@123", async: false });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.name).toBe("unprotected.pdf");
    const info = await q.api("/v1/pdf/info", { json: { url: r.body.url } });
    expect(info.body.info).toMatchObject({ Encrypted: false, PageCount: 2 });
    const wrong = await q.api("/v1/pdf/security/remove", { json: { url: src, password: "nope" } });
    expect(wrong.status).toBe(441);
  });
});

describe("optimize's url, presigned content types", () => {
  it("POST /v1/pdf/optimize (the official samples: GET with the query string reads `url`; async sample downloads the PDF from the first answer's url)", async () => {
    const src = await sampleUpload(makePdf({ pages: 2 }), "sample.pdf");
    const r = await q.api(`/v1/pdf/optimize?name=result.pdf&password=&url=${src}`, { headers: { "content-type": "application/octet-stream" } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.urls).toEqual([r.body.url]);
    const out = await download(r.body.url);
    expect(out.headers.get("content-type")).toBe("application/pdf");
    expect(pageTexts(out.bytes)).toEqual(["Page 1", "Page 2"]);
    const a = await q.api(`/v1/pdf/optimize?async=True&name=result.pdf&password=&url=${src}`, { headers: { "content-type": "application/octet-stream" } });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect((await waitForJob(q, a.body.jobId)).status).toBe("success");
    const promised = await download(a.body.url);
    expect(promised.headers.get("content-type")).toBe("application/pdf");
    expect(pageTexts(promised.bytes)).toEqual(["Page 1", "Page 2"]);
    // The advanced sample: form-encoded profiles in single-quoted pseudo-JSON.
    const adv = await samplePost("/v1/pdf/optimize", {
      name: "result.pdf",
      password: "",
      url: src,
      profiles: "{ 'ImageOptimizationFormat': 'JPEG', 'JPEGQuality': 25, 'ResampleImages': true, 'ResamplingResolution': 120, 'GrayscaleImages': false }",
    });
    expect(adv.status, JSON.stringify(adv.body)).toBe(200);
    expect(adv.body.url).toBeTruthy();
  });

  it("GET /v1/file/upload/get-presigned-url (the named contenttype wins over the PUT's Content-Type; generic names take the PUT's)", async () => {
    const pre = await q.api("/v1/file/upload/get-presigned-url?name=doc.pdf&contenttype=application/pdf");
    const put = await fetch(pre.body.presignedUrl, { method: "PUT", body: new Uint8Array(makePdf()), headers: { "content-type": "text/html" } });
    expect(put.status).toBe(200);
    expect((await download(pre.body.url)).headers.get("content-type")).toBe("application/pdf");
    const generic = await q.api("/v1/file/upload/get-presigned-url?name=img.png&contenttype=application/octet-stream");
    await fetch(generic.body.presignedUrl, { method: "PUT", body: new Uint8Array([1, 2, 3]), headers: { "content-type": "image/png" } });
    expect((await download(generic.body.url)).headers.get("content-type")).toBe("image/png");
    const sample = await q.api("/v1/file/upload/get-presigned-url?contenttype=application/octet-stream&name=sample.pdf");
    await fetch(sample.body.presignedUrl, { method: "PUT", body: new Uint8Array(makePdf()), headers: { "content-type": "application/octet-stream" } });
    expect((await download(sample.body.url)).headers.get("content-type")).toBe("application/octet-stream");
  });
});

describe("POST /v1/pdf/split2", () => {
  /** Three invoices of 2, 1 and 3 pages: the first page of each says "INVOICE NUMBER 100n". */
  const batch = () =>
    makePdf({ pages: 6, text: (i) => ({ 0: "INVOICE NUMBER 1001", 2: "Invoice Number 1002", 3: "INVOICE NUMBER 1003" })[i] ?? `Details page ${i + 1}` });

  it("POST /v1/pdf/split2 (the official text sample: searchString \"invoice number\", form-encoded; urls per invoice; credits per page)", async () => {
    const key = await userKey(100);
    const src = await sampleUpload(batch(), "sample.pdf");
    const r = await samplePost("/v1/pdf/split2", { searchString: "invoice number", url: src }, key);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.urls).toHaveLength(3);
    expect(r.body.pageCount).toBe(6);
    expect(r.body.credits).toBe(1 + 6);
    const parts = await Promise.all(r.body.urls.map((u: string) => download(u)));
    expect(parts.map((p) => pageTexts(p.bytes).length)).toEqual([2, 1, 3]);
    expect(parts.map((p) => /filename="([^"]+)"/.exec(p.headers.get("content-disposition")!)![1])).toEqual([
      "result_page1-2.pdf",
      "result_page3.pdf",
      "result_page4-6.pdf",
    ]);
  });

  it("POST /v1/pdf/split2 (the official async text sample: the promised url holds the JSON list of part URLs)", async () => {
    const src = await sampleUpload(batch(), "sample.pdf");
    const r = await samplePost("/v1/pdf/split2", { async: true, searchString: "invoice number", url: src });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await waitForJob(q, r.body.jobId)).status).toBe("success");
    const list = JSON.parse((await download(r.body.url)).bytes.toString("utf8")) as string[];
    expect(list).toHaveLength(3);
    expect(pageTexts((await download(list[1])).bytes)).toEqual(["Invoice Number 1002"]);
  });

  /** The official barcode samples' macro: a QR code or Data Matrix whose value matches /bytescout\.com/. */
  const SPLIT_TEXT = "[[barcode:qrcode,datamatrix /bytescout\\.com/]]";

  async function barcodeBatch() {
    const parts = [
      await barcodePage([{ bcid: "qrcode", text: "https://bytescout.com/1" }], "Batch 1"),
      makePdf({ text: () => "Batch 1 continued" }),
      await barcodePage([{ bcid: "datamatrix", text: "bytescout.com/2" }], "Batch 2"),
    ];
    const urls = await Promise.all(parts.map((p, i) => sampleUpload(p, `part${i}.pdf`)));
    const merged = await q.api("/v1/pdf/merge", { json: { url: urls.join(",") } });
    return (await download(merged.body.url)).bytes;
  }

  it("POST /v1/pdf/split2 (the official barcode sample: searchString [[barcode:qrcode,datamatrix /bytescout\\.com/]], form-encoded)", async () => {
    const src = await sampleUpload(await barcodeBatch(), "sample.pdf");
    const r = await samplePost("/v1/pdf/split2", { searchString: SPLIT_TEXT, url: src });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.urls).toHaveLength(2);
    const texts = await Promise.all(r.body.urls.map(async (u: string) => pageTexts((await download(u)).bytes)));
    expect(texts).toEqual([["Batch 1", "Batch 1 continued"], ["Batch 2"]]);
  }, 60_000);

  it("POST /v1/pdf/split2 (the official async barcode sample: the promised url lists the parts)", async () => {
    const src = await sampleUpload(await barcodeBatch(), "sample.pdf");
    const r = await samplePost("/v1/pdf/split2", { async: true, searchString: SPLIT_TEXT, url: src });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await waitForJob(q, r.body.jobId, 60_000)).status).toBe("success");
    const list = JSON.parse((await download(r.body.url)).bytes.toString("utf8")) as string[];
    expect(list).toHaveLength(2);
  }, 60_000);

  it("POST /v1/pdf/split2 (no page matches → one output, the whole file, and a message; invalid regex → 400)", async () => {
    const src = await sampleUpload(batch(), "sample.pdf");
    const none = await q.api("/v1/pdf/split2", { json: { url: src, searchString: "purchase order" } });
    expect(none.status, JSON.stringify(none.body)).toBe(200);
    expect(none.body.urls).toHaveLength(1);
    expect(none.body.message).toMatch(/was not found/);
    expect(pageTexts((await download(none.body.urls[0])).bytes)).toHaveLength(6);
    const bad = await q.api("/v1/pdf/split2", { json: { url: src, searchString: "[0-9", regexSearch: true } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^searchString: not a valid regular expression/);
    const re = await q.api("/v1/pdf/split2", { json: { url: src, searchString: "100[23]$", regexSearch: "True", excludeKeyPages: "true", caseSensitive: false } });
    expect(re.status, JSON.stringify(re.body)).toBe(200);
    expect(re.body.urls).toHaveLength(2);
  });
});

describe("POST /v1/pdf/edit/rotate/auto", () => {
  it("POST /v1/pdf/edit/rotate/auto (the official sample: url and name, form-encoded; text pages and a sideways scan set upright)", async () => {
    const letter = "Dear customer,\nthank you for your order of 3 March.\nThe goods will be shipped within ten days.\nKind regards, the sales team";
    const png = renderPagePng(makePdf({ text: () => `${letter}\n${letter}` }), 0, 150);
    const scan = imageToPdfPages([await sharp(png).rotate(90).png().toBuffer()], 150);
    const merged = await q.api("/v1/pdf/merge", {
      json: { url: `${await sampleUpload(makePdf({ pages: 2, text: () => letter, rotate: (i) => (i ? 180 : 0) }), "text.pdf")},${await sampleUpload(scan, "scan.pdf")}` },
    });
    const src = merged.body.url;
    const r = await samplePost("/v1/pdf/edit/rotate/auto", { url: src, name: "result.pdf" });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.pageCount).toBe(3);
    expect(rotations((await download(r.body.url)).bytes)).toEqual([0, 0, 270]);
    expect(r.body.message).toMatch(/^Turned 2 page\(s\)/);
  }, 120_000);
});

describe("POST /v1/pdf/merge2", () => {
  it("POST /v1/pdf/merge2 (the official async sample's shape: uploaded files, form-encoded, async; a PDF, an image and a spreadsheet merged in order)", async () => {
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#2a6" } }).png().toBuffer();
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([["Item", "Qty"], ["Bolts", 120]]), "Stock");
    const xlsx = Buffer.from(XLSX.write(wb, { type: "buffer", bookType: "xlsx" }) as Uint8Array);
    const urls = [
      await sampleUpload(labelled("P", 1), "sample1.pdf"),
      await sampleUpload(png, "image2.png"),
      await sampleUpload(xlsx, "Input.xlsx"),
    ];
    const r = await samplePost("/v1/pdf/merge2", { async: true, name: "result.pdf", url: urls.join(",") });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const done = await waitForJob(q, r.body.jobId, 120_000);
    expect(done.status, JSON.stringify(done)).toBe("success");
    expect(done.pageCount).toBe(3);
    const out = await download(r.body.url);
    expect(out.headers.get("content-type")).toBe("application/pdf");
    const texts = pageTexts(out.bytes);
    expect(texts[0]).toBe("P1");
    expect(texts[2]).toMatch(/Stock[\s\S]*Bolts[\s\S]*120/);
  }, 120_000);

  it("POST /v1/pdf/merge2 (a format not converted here → 415 naming the input; nothing charged)", async () => {
    const key = await userKey(20);
    const docx = await sampleUpload(Buffer.from("PK\x03\x04not really a document"), "sample.pptx");
    const pdf = await sampleUpload(labelled("P", 1), "sample1.pdf");
    const r = await q.api("/v1/pdf/merge2", { json: { url: `${pdf},${docx}` }, key });
    expect(r.status).toBe(415);
    expect(r.body.message).toMatch(/^url #2 \(sample\.pptx\): presentations/);
    expect((await q.api("/v1/account/credit/balance", { key })).body.remainingCredits).toBe(20);
  });
});
