import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import ExcelJS from "exceljs";
import { startQuire, waitForJob, type QuireServer } from "../helpers/quire-server";
import { download, uploadBytes } from "../helpers/api-client";
import { makeTablesPdf, type PageSpec } from "../helpers/extract-fixtures";
import { oversizedPng } from "../helpers/oversized-image";

let q: QuireServer;
let src: string;

/** Page 1: a title and two text columns; page 2: a small table. */
const pages: PageSpec[] = [
  {
    texts: [
      { x: 72, y: 60, text: "Two column report with a wide title", size: 16 },
      ...[1, 2, 3].flatMap((i) => [
        { x: 72, y: 100 + i * 16, text: `left text ${i} of the page` },
        { x: 320, y: 100 + i * 16, text: `right text ${i} of the page` },
      ]),
    ],
  },
  { tables: [{ x: 72, y: 100, cols: [100, 80], rows: [["Name", "Total"], ["Bolts", "1,250.00"]] }] },
];

beforeAll(async () => {
  q = await startQuire();
  src = await uploadBytes(q, makeTablesPdf(pages), "report.pdf", "application/pdf");
}, 180_000);
afterAll(async () => {
  await q?.stop();
});

describe("PDF → text, data and images over HTTP", () => {
  it("POST /v1/pdf/convert/to/text (layout, inline; credits per page)", async () => {
    const r = await q.api("/v1/pdf/convert/to/text", { json: { url: src, inline: "true", pages: "0" } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.pageCount).toBe(1);
    expect(r.body.credits).toBe(2);
    expect(r.body.body).toMatch(/left text 2 of the page {2,}right text 2 of the page/);
  });

  it("POST /v1/pdf/convert/to/csv and /text (40 pages read by two sandbox processes; charged once per page)", async () => {
    const many = makeTablesPdf(
      Array.from({ length: 40 }, (_, i) => ({
        texts: [{ x: 72, y: 60, text: `Ledger page ${i + 1}`, size: 14 }],
        tables: [{ x: 72, y: 100, cols: [100, 80], rows: [["Item", "Total"], [`Item ${i + 1}`, `${i + 1}.00`]] }],
      })),
    );
    const url = await uploadBytes(q, many, "ledger.pdf", "application/pdf");
    const csv = await q.api("/v1/pdf/convert/to/csv", { json: { url, inline: true } });
    expect(csv.status, JSON.stringify(csv.body)).toBe(200);
    expect(csv.body.pageCount).toBe(40);
    expect(csv.body.credits).toBe(41);
    const body = csv.body.body as string;
    expect(body.indexOf('"Ledger page 1"')).toBeLessThan(body.indexOf('"Ledger page 21"'));
    expect(body).toContain('"Item 40","40.00"');
    const text = await q.api("/v1/pdf/convert/to/text", { json: { url, inline: true } });
    expect(text.status, JSON.stringify(text.body)).toBe(200);
    expect(text.body.credits).toBe(41);
    const pagesText = (text.body.body as string).split("\f");
    expect(pagesText).toHaveLength(40);
    expect(pagesText[39]).toContain("Ledger page 40");
  });

  it("POST /v1/pdf/convert/to/text-simple (reading order, file output, lineEnding)", async () => {
    const r = await q.api("/v1/pdf/convert/to/text-simple", { json: { url: src, lineending: "lf", name: "plain" } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.name).toBe("plain.txt");
    const text = (await download(r.body.url)).bytes.toString("utf8");
    const lines = text.split("\n");
    expect(lines.slice(0, 7)).toEqual([
      "Two column report with a wide title",
      "left text 1 of the page",
      "left text 2 of the page",
      "left text 3 of the page",
      "right text 1 of the page",
      "right text 2 of the page",
      "right text 3 of the page",
    ]);
    expect(text).toContain("\fName Total");
  });

  it("POST /v1/pdf/convert/to/json (inline object) and /json-meta", async () => {
    const r = await q.api("/v1/pdf/convert/to/json", { json: { url: src, inline: true, pages: "1" } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.body.document.page[0].row[0].column.map((c: any) => c.text["#text"])).toEqual(["Name", "Total"]);
    expect(r.body.urls).toBeUndefined();
    const m = await q.api("/v1/pdf/convert/to/json-meta", { json: { url: src } });
    expect(m.status, JSON.stringify(m.body)).toBe(200);
    const doc = JSON.parse((await download(m.body.url)).bytes.toString("utf8"));
    expect(doc.document.info.PageCount).toBe(2);
  });

  it("POST /v1/pdf/convert/to/json2 (table cells) and /xml", async () => {
    const r = await q.api("/v1/pdf/convert/to/json2", { json: { url: src, inline: true, pages: "1" } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.body.document.pageCount).toBe(2);
    const row = r.body.body.document.page[0].row[1];
    expect(row.table).toBe(1);
    expect(row.column[1].text).toBe("1,250.00");
    expect(row.column[1].fontSize).toBe(10);
    const x = await q.api("/v1/pdf/convert/to/xml", { json: { url: src, inline: true } });
    expect(x.status, JSON.stringify(x.body)).toBe(200);
    expect(x.body.body).toContain(">right text 3 of the page</text>");
    expect(x.body.body.match(/<page /g)).toHaveLength(2);
  });

  it("POST /v1/pdf/convert/to/xlsx and /xls (async job)", async () => {
    const r = await q.api("/v1/pdf/convert/to/xlsx", { json: { url: src, pages: "1" } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.name).toBe("report.xlsx");
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await download(r.body.url)).bytes as unknown as ArrayBuffer);
    expect(wb.worksheets[0].getCell("B2").value).toBe(1250);
    const a = await q.api("/v1/pdf/convert/to/xls", { json: { url: src, async: true } });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    const done = await waitForJob(q, a.body.jobId);
    expect(done.status).toBe("success");
    const xls = (await download(a.body.url)).bytes;
    expect(xls.subarray(0, 4).toString("hex")).toBe("d0cf11e0");
  });

  it("POST /v1/pdf/convert/to/png (one URL per page, 150 dpi)", async () => {
    const r = await q.api("/v1/pdf/convert/to/png", { json: { url: src } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.urls).toHaveLength(2);
    expect(r.body.pageCount).toBe(2);
    expect(r.body.credits).toBe(3);
    const m = await sharp((await download(r.body.urls[1])).bytes).metadata();
    expect([m.format, m.width, m.height]).toEqual(["png", 1275, 1650]);
  });

  it("POST /v1/pdf/convert/to/jpg and /webp (profiles as a string, rect, inline)", async () => {
    const r = await q.api("/v1/pdf/convert/to/jpg", { json: { url: src, pages: "0", rect: "0 0 306 396", profiles: "{ 'RenderingResolution': 100, 'JPEGQuality': 60 }" } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const m = await sharp((await download(r.body.urls[0])).bytes).metadata();
    expect([m.format, m.width, m.height]).toEqual(["jpeg", 425, 550]);
    const w = await q.api("/v1/pdf/convert/to/webp", { json: { url: src, inline: true, pages: "1" } });
    expect(w.status, JSON.stringify(w.body)).toBe(200);
    expect(w.body.urls).toHaveLength(1);
    expect((await sharp(Buffer.from(w.body.body, "base64")).metadata()).format).toBe("webp");
  });

  it("POST /v1/pdf/convert/to/tiff (one multi-page file)", async () => {
    const r = await q.api("/v1/pdf/convert/to/tiff", { json: { url: src, profiles: { RenderingResolution: 72 } } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.name).toBe("report.tiff");
    const bytes = (await download(r.body.url)).bytes;
    const m = await sharp(bytes).metadata();
    expect([m.format, m.pages, m.width, m.height]).toEqual(["tiff", 2, 612, 792]);
  });

  it("POST /v1/pdf/convert/to/png (pages past the end → 449, bad rect → 454)", async () => {
    const r = await q.api("/v1/pdf/convert/to/png", { json: { url: src, pages: "5" } });
    expect(r.status).toBe(449);
    expect(r.body.error).toBe(true);
    const b = await q.api("/v1/pdf/convert/to/png", { json: { url: src, rect: "5000 5000 10 10" } });
    expect(b.status).toBe(454);
  });

  it("POST /v1/pdf/convert/to/xlsx (an image over IMAGE_MAX_PIXELS → 413 from its header, nothing charged)", async () => {
    const big = await uploadBytes(q, await oversizedPng(20_000, 20_000), "huge.png", "image/png");
    const before = (await q.api("/v1/account/credit/balance")).body.remainingCredits;
    for (const path of ["/v1/pdf/convert/to/text", "/v1/pdf/convert/to/json2", "/v1/pdf/convert/to/xlsx"]) {
      const r = await q.api(path, { json: { url: big } });
      expect(r.status, JSON.stringify(r.body)).toBe(413);
      expect(r.body.message).toContain("IMAGE_MAX_PIXELS");
    }
    expect((await q.api("/v1/account/credit/balance")).body.remainingCredits).toBe(before);
  });
});
