import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startQuire, waitForJob, type QuireServer } from "../helpers/quire-server";
import { download, uploadBytes } from "../helpers/api-client";
import { makePdf, pageTexts } from "../helpers/pdf-fixtures";
import { makeTablePdf, scanOf } from "../helpers/text-fixtures";

/**
 * Search, text edits and searchable PDFs over HTTP: find, find/table, delete-text, replace-text,
 * replace-text-with-image, makesearchable, makeunsearchable. Requests as the public API's
 * samples send them (form-encoded with "True", JSON, GET with a query string).
 */

let q: QuireServer;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quire-api-text-"));

beforeAll(async () => {
  q = await startQuire();
}, 120_000);
afterAll(async () => {
  await q?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const upload = (bytes: Uint8Array, name: string) => uploadBytes(q, bytes, name, "application/octet-stream");

function formPost(p: string, parameters: Record<string, string | number | boolean>) {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(parameters)) form.set(k, typeof v === "boolean" ? (v ? "True" : "False") : String(v));
  return q.api(p, { method: "POST", body: form });
}

function pdftotext(bytes: Uint8Array): string {
  const file = path.join(tmp, `t-${Math.random().toString(36).slice(2)}.pdf`);
  fs.writeFileSync(file, bytes);
  return execFileSync("pdftotext", ["-layout", file, "-"]).toString();
}

const invoices = makePdf({ pages: 3, text: (i) => `Invoice number ${1000 + i}\nTotal due: ${100 * (i + 1)} EUR` });

describe("POST /v1/pdf/find", () => {
  it("POST /v1/pdf/find (the official sample: form-encoded searchString, inline; body[0].left/top in points; credits per page)", async () => {
    const src = await upload(invoices, "sample.pdf");
    const r = await formPost("/v1/pdf/find", { url: src, searchString: "Total due", inline: true });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.body).toHaveLength(3);
    expect(r.body.body.map((m: { pageIndex: number }) => m.pageIndex)).toEqual([0, 1, 2]);
    expect(r.body.body[0].left).toBeCloseTo(72, 0);
    expect(r.body.body[0].top).toBeGreaterThan(70);
    expect(r.body.body[0].top).toBeLessThan(102);
    expect(r.body.url).toBeUndefined();
    expect(r.body.pageCount).toBe(3);
    expect(r.body.credits).toBe(1 + 3);
  });

  it("POST /v1/pdf/find (regexSearch, pages, wordMatchingMode; without inline the list is also a JSON file; invalid regex → 400)", async () => {
    const src = await upload(invoices, "sample.pdf");
    const r = await q.api("/v1/pdf/find", { json: { url: src, searchString: "\\d{4}", regexSearch: "true", pages: "1-", wordMatchingMode: "smartmatch" } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.body.map((m: { text: string }) => m.text)).toEqual(["1001", "1002"]);
    expect(r.body.pageCount).toBe(3);
    expect(r.body.credits).toBe(1 + 2); // the pages searched
    expect(JSON.parse((await download(r.body.url)).bytes.toString())).toEqual(r.body.body);
    const bad = await q.api("/v1/pdf/find", { json: { url: src, searchString: "(", regexSearch: true } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/searchString/);
  });

  it("GET /v1/pdf/find (query string; async job answers the matches in job check)", async () => {
    const src = await upload(invoices, "sample.pdf");
    const r = await q.api(`/v1/pdf/find?url=${encodeURIComponent(src)}&searchString=EUR&async=true&inline=true`, { method: "GET" });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const job = await waitForJob(q, r.body.jobId);
    expect(job.status).toBe("success");
  });
});

describe("POST /v1/pdf/find/table", () => {
  it("POST /v1/pdf/find/table (the official sample: url, pages, password; body.tables[i].PageIndex and rect feed convert/to/csv)", async () => {
    const src = await upload(makeTablePdf(), "sample.pdf");
    const r = await formPost("/v1/pdf/find/table", { url: src, pages: "", password: "", inline: true });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const [t] = r.body.body.tables;
    expect(r.body.body.tables).toHaveLength(1);
    expect(t.PageIndex).toBe(1);
    expect(t.Columns).toHaveLength(3);
    const csv = await q.api("/v1/pdf/convert/to/csv", { json: { url: src, pages: String(t.PageIndex), rect: t.rect, inline: true } });
    expect(csv.status, JSON.stringify(csv.body)).toBe(200);
    expect(csv.body.body).toMatch(/"Apples","3","1\.20"/);
  });
});

describe("text edits", () => {
  it("POST /v1/pdf/edit/delete-text (the official sample: searchString, caseSensitive False, form-encoded; pdftotext no longer finds it)", async () => {
    const src = await upload(invoices, "sample.pdf");
    const r = await formPost("/v1/pdf/edit/delete-text", { url: src, searchString: "total due:", caseSensitive: false, name: "out.pdf" });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.name).toBe("out.pdf");
    expect(r.body.credits).toBe(1 + 3);
    const text = pdftotext((await download(r.body.url)).bytes);
    expect(text).not.toMatch(/Total due/i);
    expect(text).toMatch(/100 EUR/);
    expect(text).toMatch(/Invoice number 1000/);
  });

  it("POST /v1/pdf/edit/replace-text (JSON with searchStrings/replaceStrings; more strings than replacements → 400)", async () => {
    const src = await upload(invoices, "sample.pdf");
    const r = await q.api("/v1/pdf/edit/replace-text", {
      json: { url: src, searchStrings: ["Invoice", "EUR"], replaceStrings: ["Receipt", "USD"], replacementLimit: 0 },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const text = pdftotext((await download(r.body.url)).bytes);
    expect(text).toMatch(/Receipt number 1000/);
    expect(text).toMatch(/300 USD/);
    expect(text).not.toMatch(/Invoice|EUR/);
    const bad = await q.api("/v1/pdf/edit/replace-text", { json: { url: src, searchStrings: ["a", "b"], replaceStrings: ["c"] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(true);
  });

  it("POST /v1/pdf/edit/replace-text-with-image (a data: URI image where the text was)", async () => {
    const src = await upload(invoices, "sample.pdf");
    // A 1×1 PNG.
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
    const r = await q.api("/v1/pdf/edit/replace-text-with-image", {
      json: { url: src, searchString: "Invoice number", replaceImage: `data:image/png;base64,${png}`, pages: "0" },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const texts = pageTexts((await download(r.body.url)).bytes);
    expect(texts[0]).not.toMatch(/Invoice number/);
    expect(texts[1]).toMatch(/Invoice number 1001/);
    expect(r.body.credits).toBe(1 + 1); // pages: "0"
    const missing = await q.api("/v1/pdf/edit/replace-text-with-image", { json: { url: src, searchString: "x" } });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/replaceImage/);
  });
});

describe("searchable PDFs", () => {
  it("POST /v1/pdf/makesearchable (the official sample: url, lang eng, form-encoded; the scan's text is extractable)", async () => {
    const scan = scanOf(makePdf({ pages: 1, text: () => "Searchable scan of a letter" }));
    const src = await upload(scan, "scan.pdf");
    const r = await formPost("/v1/pdf/makesearchable", { url: src, lang: "eng", name: "searchable.pdf" });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.pageCount).toBe(1);
    expect(pdftotext((await download(r.body.url)).bytes)).toMatch(/Searchable scan of a letter/);
    const bad = await formPost("/v1/pdf/makesearchable", { url: src, lang: "zz9" });
    expect(bad.status).toBe(400);
  }, 120_000);

  it("POST /v1/pdf/makeunsearchable (the official sample: url and name; no text is left)", async () => {
    const src = await upload(invoices, "sample.pdf");
    const r = await q.api("/v1/pdf/makeunsearchable", { json: { url: src, name: "unsearchable.pdf" } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.pageCount).toBe(3);
    const bytes = (await download(r.body.url)).bytes;
    expect(pdftotext(bytes).trim()).toBe("");
    expect(pageTexts(bytes)).toEqual(["", "", ""]);
  });
});
