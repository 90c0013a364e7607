import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as mupdf from "mupdf";
import { startQuire, waitForJob, type QuireServer } from "../helpers/quire-server";
import { download, uploadBytes } from "../helpers/api-client";
import { makePdf } from "../helpers/pdf-fixtures";
import { renderPagePng } from "../helpers/extract-fixtures";
import { scanOf } from "../helpers/text-fixtures";

/**
 * POST /v1/textsense/job/build over HTTP, as the public API's clients call it (inputUri + options.
 * extraJobs.option): always a background job; its output is JSON with word boxes, text, or a
 * searchable PDF; pageRange is 1-based; bad options are refused at submit.
 */

let q: QuireServer;
let scan: string;

const job = (outputType: string, extra: Record<string, unknown> = {}) => ({
  extraJobs: { type: "textSense", option: { reqType: "Document", reqOption: {}, outputType, ...extra } },
});

beforeAll(async () => {
  q = await startQuire();
  const pdf = makePdf({ pages: 2, text: (i) => (i === 0 ? "First page of the scan" : "Quarterly report totals") });
  scan = await uploadBytes(q, scanOf(pdf, 200), "scan.pdf");
}, 120_000);
afterAll(async () => q?.stop());

describe("POST /v1/textsense/job/build", () => {
  it("JSON: answers a jobId at once; the job's file holds the chosen page's lines and words with boxes; 1 + 1 page charged", async () => {
    const before = (await q.api("/v1/account/credit/balance")).body.remainingCredits;
    const r = await q.api("/v1/textsense/job/build", { json: { inputUri: scan, options: job("json", { pageRange: "2" }) } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.status).toBe("created");
    expect(r.body.jobId).toBeTruthy();
    const done = await waitForJob(q, r.body.jobId, 120_000);
    expect(done.status, JSON.stringify(done)).toBe("success");
    expect(done.url).toMatch(/result\.json/);
    const file = await download(done.url);
    expect(file.headers.get("content-type")).toMatch(/application\/json/);
    const out = JSON.parse(file.bytes.toString("utf8"));
    expect(out.pageCount).toBe(2);
    expect(out.pages).toHaveLength(1);
    const page = out.pages[0];
    expect(page).toMatchObject({ page: 2, width: 612, height: 792, ocr: true });
    expect(page.lines[0].text).toMatch(/Quarterly report totals/);
    const word = page.lines[0].words.find((w: { text: string }) => w.text === "Quarterly");
    // Drawn at x = 72 pt, 24 pt type with its baseline 72 pt below the top.
    expect(word.box[0]).toBeGreaterThan(66);
    expect(word.box[0]).toBeLessThan(78);
    expect(word.box[1]).toBeGreaterThan(45);
    expect(word.box[1] + word.box[3]).toBeLessThan(82);
    expect(word.confidence).toBeGreaterThan(0.5);
    expect((await q.api("/v1/account/credit/balance")).body.remainingCredits).toBe(before - 2);
  });

  it("text from an image, and a searchable PDF whose text layer reads the scan", async () => {
    const png = renderPagePng(makePdf({ pages: 1, text: () => "Invoice number 4711" }), 0, 200);
    const image = await uploadBytes(q, png, "page.png");
    const t = await q.api("/v1/textsense/job/build", { json: { inputUri: image, options: JSON.stringify(job("txt")) } });
    const textJob = await waitForJob(q, t.body.jobId, 120_000);
    expect(textJob.status, JSON.stringify(textJob)).toBe("success");
    expect((await download(textJob.url)).bytes.toString("utf8")).toMatch(/Invoice number 4711/);

    const p = await q.api("/v1/textsense/job/build", { json: { inputUri: scan, name: "searchable", options: job("pdf") } });
    const pdfJob = await waitForJob(q, p.body.jobId, 120_000);
    expect(pdfJob.status, JSON.stringify(pdfJob)).toBe("success");
    expect(pdfJob.url).toMatch(/searchable\.pdf/);
    const doc = mupdf.Document.openDocument((await download(pdfJob.url)).bytes, "application/pdf");
    try {
      expect(doc.countPages()).toBe(2);
      expect(doc.loadPage(0).toStructuredText("preserve-whitespace").asText()).toMatch(/First page of the scan/);
      expect(doc.loadPage(1).toStructuredText("preserve-whitespace").asText()).toMatch(/Quarterly report totals/);
    } finally {
      doc.destroy();
    }
  });

  it("refuses at submit: no inputUri (400), an unknown outputType or a 0-based pageRange (454), nothing charged", async () => {
    const before = (await q.api("/v1/account/credit/balance")).body.remainingCredits;
    const none = await q.api("/v1/textsense/job/build", { json: { options: job("json") } });
    expect(none.status).toBe(400);
    const badType = await q.api("/v1/textsense/job/build", { json: { inputUri: scan, options: job("docx") } });
    expect(badType.status).toBe(454);
    expect(badType.body.message).toMatch(/options\.extraJobs\.option\.outputType/);
    const badRange = await q.api("/v1/textsense/job/build", { json: { inputUri: scan, options: job("json", { pageRange: "0-1" }) } });
    expect(badRange.status).toBe(454);
    expect(badRange.body.message).toMatch(/pageRange/);
    expect((await q.api("/v1/account/credit/balance")).body.remainingCredits).toBe(before);
  });
});
