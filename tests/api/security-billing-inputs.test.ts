import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { startQuire, waitForJob, type QuireServer } from "../helpers/quire-server";
import { uploadBytes } from "../helpers/api-client";
import { makePdf } from "../helpers/pdf-fixtures";
import { makeTiff } from "../helpers/convert-fixtures";
import { makeDocx, makeEml } from "../helpers/office-fixtures";
import { startLoopbackServer, type LoopbackServer } from "../helpers/loopback-server";

/**
 * Issue 10 §6 for inputs that are not PDFs: every operation pays for its pages before its output
 * is stored. Images and TIFF frames are counted from their headers and reserved before the work;
 * a printed web page, HTML, CSV, office file or e-mail is checked after rendering and before the
 * output is stored. Short of credits → 402, the balance unchanged, no output file stored; and
 * concurrent spends never take the balance below zero.
 */
let q: QuireServer;
let web: LoopbackServer;

/** HTML that prints as exactly `n` pages ("Page 1" … "Page n"). */
const pagesHtml = (n: number) =>
  `<!doctype html><html><body>${Array.from({ length: n }, (_, i) => `<div style="${i < n - 1 ? "break-after: page;" : ""}">Page ${i + 1}</div>`).join("")}</body></html>`;

beforeAll(async () => {
  web = await startLoopbackServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(pagesHtml(5));
  });
  q = await startQuire({ env: { EGRESS_ALLOW: `127.0.0.1:${web.port}` } });
}, 120_000);
afterAll(async () => {
  await q?.stop();
  await web?.close();
});

async function userKey(credits: number) {
  const email = `b${Math.random().toString(36).slice(2, 8)}@test.local`;
  const r = await q.cli(["create-user", email, "--password", "password123", "--credits", String(credits)]);
  expect(r.code, r.out).toBe(0);
  return /api key:\s+(qk_\S+)/.exec(r.out)![1];
}
const balance = async (key: string) =>
  (await q.api("/v1/account/credit/balance", { key })).body.remainingCredits as number;
/** Files in the store (uploads and outputs alike: one folder each). */
const storedFiles = () => fs.readdirSync(path.join(q.dataDir, "files")).length;

const png = (rgb: [number, number, number]) =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } }).png().toBuffer();
const tiff3 = () =>
  makeTiff([0, 1, 2].map(() => ({ width: 8, height: 8, rgb: [255, 255, 255] as [number, number, number] })));
const longCsv = () => Buffer.from(["Code,Label", ...Array.from({ length: 300 }, (_, i) => `C${i + 1},Item ${i + 1}`)].join("\n"));
const longText = () => Array.from({ length: 400 }, (_, i) => `Line ${i + 1} of a long message.`).join("\n");

interface Case {
  label: string;
  path: string;
  params: (key: string) => Promise<Record<string, unknown>>;
  /** The account's credits: at least the reservation on accept (2), less than the cost. */
  credits: number;
  message: RegExp;
}

const cases: Case[] = [
  {
    label: "images → PDF (3 images, counted before decoding)",
    path: "/v1/pdf/convert/from/image",
    params: async () => {
      const urls: string[] = [];
      for (const c of [[255, 0, 0], [0, 255, 0], [0, 0, 255]] as const) urls.push(await uploadBytes(q, await png([...c]), "c.png", "image/png"));
      return { url: urls.join(",") };
    },
    credits: 3,
    message: /3 pages: this call costs 4 credits and the account has 3/,
  },
  {
    label: "images → PDF (one 3-page TIFF, frames counted from its header)",
    path: "/v1/pdf/convert/from/image",
    params: async () => ({ url: await uploadBytes(q, tiff3(), "three.tif", "image/tiff") }),
    credits: 3,
    message: /3 pages: this call costs 4 credits/,
  },
  {
    label: "barcode reading of a 3-page TIFF",
    path: "/v1/barcode/read/from/url",
    params: async () => ({ url: await uploadBytes(q, tiff3(), "three.tif", "image/tiff") }),
    credits: 3,
    message: /3 pages: this call costs 4 credits/,
  },
  {
    label: "PDF → text of a 3-page TIFF (OCR)",
    path: "/v1/pdf/convert/to/text",
    params: async () => ({ url: await uploadBytes(q, tiff3(), "three.tif", "image/tiff"), inline: true }),
    credits: 3,
    message: /3 pages: this call costs 4 credits/,
  },
  {
    label: "HTML → PDF (5 printed pages, checked after rendering)",
    path: "/v1/pdf/convert/from/html",
    params: async () => ({ html: pagesHtml(5) }),
    credits: 3,
    message: /the result has 5 pages: this call costs 6 credits and the account has 3/,
  },
  {
    label: "web page → PDF (5 printed pages)",
    path: "/v1/pdf/convert/from/url",
    params: async () => ({ url: `${web.origin}/long.html` }),
    credits: 3,
    message: /the result has 5 pages: this call costs 6 credits/,
  },
  {
    label: "CSV → PDF (several pages)",
    path: "/v1/pdf/convert/from/csv",
    params: async () => ({ url: await uploadBytes(q, longCsv(), "long.csv", "text/csv") }),
    credits: 2,
    message: /the result has \d+ pages: this call costs \d+ credits and the account has 2/,
  },
  {
    label: "spreadsheet → PDF (several pages)",
    path: "/v1/xls/convert/to/pdf",
    params: async () => ({ url: await uploadBytes(q, longCsv(), "long.csv", "text/csv") }),
    credits: 2,
    message: /the result has \d+ pages: this call costs \d+ credits/,
  },
  {
    label: "word-processor file → PDF (4 pages)",
    path: "/v1/pdf/convert/from/doc",
    params: async () => ({ url: await uploadBytes(q, makeDocx({ pages: 4 }), "four.docx") }),
    credits: 3,
    message: /the result has 4 pages: this call costs 5 credits/,
  },
  {
    label: "e-mail → PDF (a long message)",
    path: "/v1/pdf/convert/from/email",
    params: async () => ({
      url: await uploadBytes(q, makeEml({ subject: "Long", from: "a@example.com", to: "b@example.com", text: longText() }), "long.eml"),
    }),
    credits: 2,
    message: /the result has \d+ pages: this call costs \d+ credits and the account has 2/,
  },
  {
    label: "merge2 of a 1-page PDF and a 4-page docx (the docx counted as one page until converted)",
    path: "/v1/pdf/merge2",
    params: async () => ({
      url: [await uploadBytes(q, makePdf({ pages: 1 }), "one.pdf"), await uploadBytes(q, makeDocx({ pages: 4 }), "four.docx")].join(","),
    }),
    credits: 3,
    message: /the result has 5 pages: this call costs 6 credits and the account has 3/,
  },
];

describe("every input class pays before its output is stored", () => {
  for (const c of cases) {
    it(`${c.path}: ${c.label}, short of credits → 402, balance unchanged, no output stored`, async () => {
      const key = await userKey(c.credits);
      const params = await c.params(key);
      const filesBefore = storedFiles();
      const r = await q.api(c.path, { json: params, key });
      expect(r.status, JSON.stringify(r.body)).toBe(402);
      expect(r.body.message).toMatch(c.message);
      expect(r.body.message).toMatch(/Nothing was charged/);
      expect(r.body.url).toBeUndefined();
      expect(await balance(key)).toBe(c.credits);
      expect(storedFiles()).toBe(filesBefore);
      const jobs = (await q.api("/v1/jobs", { key })).body.jobs as Array<{ status: string; credits: number }>;
      expect(jobs.map((j) => [j.status, j.credits])).toEqual([["failed", 0]]);
    }, 120_000);
  }

  it("with enough credits the rendered pages are charged in full: HTML → PDF of 5 pages costs 6", async () => {
    const key = await userKey(10);
    const r = await q.api("/v1/pdf/convert/from/html", { json: { html: pagesHtml(5) }, key });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.pageCount).toBe(5);
    expect(r.body.credits).toBe(6);
    expect(r.body.remainingCredits).toBe(4);
    expect(await balance(key)).toBe(4);
  }, 60_000);

  it("async: the job fails with 402, its promised URL holds the error, the balance is unchanged", async () => {
    const key = await userKey(3);
    const a = await q.api("/v1/pdf/convert/from/html", { json: { html: pagesHtml(5), async: true }, key });
    expect(a.status).toBe(200);
    const done = await waitForJob(q, a.body.jobId, 60_000, key);
    expect(done.status).toBe("failed");
    expect(done.errorCode).toBe(402);
    const promised = await (await fetch(a.body.url)).json();
    expect(promised.status).toBe(402);
    expect(await balance(key)).toBe(3);
  }, 60_000);

  it("6 parallel 3-image → PDF calls on 10 credits (reserved before the work): each 200 (4 credits) or 402, the balance never below zero", async () => {
    const key = await userKey(10);
    const urls: string[] = [];
    for (const c of [[255, 0, 0], [0, 255, 0], [0, 0, 255]] as const) urls.push(await uploadBytes(q, await png([...c]), "c.png", "image/png"));
    const filesBefore = storedFiles();
    const results = await Promise.all(
      Array.from({ length: 6 }, () => q.api("/v1/pdf/convert/from/image", { json: { url: urls.join(",") }, key })),
    );
    const ok = results.filter((r) => r.status === 200);
    for (const r of results) expect([200, 402]).toContain(r.status);
    for (const r of ok) expect(r.body.credits).toBe(4);
    expect(ok.length).toBeLessThanOrEqual(2);
    const left = await balance(key);
    expect(left).toBeGreaterThanOrEqual(0);
    expect(left).toBe(10 - 4 * ok.length);
    expect(storedFiles()).toBe(filesBefore + ok.length);
  }, 120_000);

  it("6 parallel 5-page HTML → PDF calls on 20 credits: each 200 (6 credits) or 402, the balance never below zero", async () => {
    const key = await userKey(20);
    const filesBefore = storedFiles();
    const results = await Promise.all(
      Array.from({ length: 6 }, () => q.api("/v1/pdf/convert/from/html", { json: { html: pagesHtml(5) }, key })),
    );
    const ok = results.filter((r) => r.status === 200);
    for (const r of results) expect([200, 402]).toContain(r.status);
    for (const r of ok) expect(r.body.credits).toBe(6);
    expect(ok.length).toBeLessThanOrEqual(3);
    const left = await balance(key);
    expect(left).toBeGreaterThanOrEqual(0);
    expect(left).toBe(20 - 6 * ok.length);
    expect(storedFiles()).toBe(filesBefore + ok.length);
  }, 120_000);
});
