import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import zlib from "node:zlib";
import * as XLSX from "@e965/xlsx";
import { startQuire, waitForJob, type QuireServer } from "../helpers/quire-server";
import { download, uploadBytes } from "../helpers/api-client";
import { readPdf, renderPdfPage } from "../helpers/convert-fixtures";
import { startLoopbackServer, type LoopbackServer } from "../helpers/loopback-server";

/** A PNG whose header claims width×height (the guard must refuse before decoding any pixel). */
function pngHeaderOnly(width: number, height: number) {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const idat = zlib.deflateSync(Buffer.alloc(1024));
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", ihdr), chunk("IDAT", idat), chunk("IEND", Buffer.alloc(0))]);
}

let q: QuireServer;
let site: LoopbackServer;
let canary: LoopbackServer;

beforeAll(async () => {
  canary = await startLoopbackServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<p>SECRET-CANARY</p>");
  });
  site = await startLoopbackServer((req, res) => {
    if (req.url === "/page") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(`<html><head><title>Quire test page</title></head><body style="background:#ff0000">
        <h1>Hello from the web</h1>
        <iframe src="${canary.origin}/"></iframe><img src="${canary.origin}/x.png">
        <script>fetch("${canary.origin}/xhr").catch(()=>{})</script></body></html>`);
      return;
    }
    res.writeHead(404);
    res.end();
  });
  // Only the test site is allow-listed; the canary (also loopback) stays forbidden.
  q = await startQuire({ env: { EGRESS_ALLOW: `127.0.0.1:${site.port}` } });
}, 180_000);
afterAll(async () => {
  await q?.stop();
  await site?.close();
  await canary?.close();
});

describe("conversion operations over HTTP", () => {
  it("POST /v1/pdf/convert/from/url (A4 landscape with header/footer; forbidden requests blocked)", async () => {
    const r = await q.api("/v1/pdf/convert/from/url", {
      json: {
        url: `${site.origin}/page`,
        paperSize: "A4",
        orientation: "Landscape",
        printBackground: "true",
        footer: '<div style="font-size:10px">Page <span class="pageNumber"></span> of <span class="totalPages"></span></div>',
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.pageCount).toBeGreaterThanOrEqual(1);
    const pdf = (await download(r.body.url)).bytes;
    const doc = readPdf(pdf);
    expect(doc.sizes[0][0]).toBeCloseTo(841.89, 0);
    expect(doc.texts[0]).toContain("Hello from the web");
    expect(doc.texts[0]).toContain("Page 1 of");
    expect(doc.texts.join(" ")).not.toContain("SECRET-CANARY");
    const px = renderPdfPage(pdf, 0, 36).pixel(200, 150);
    expect(px[0]).toBeGreaterThan(200);
    expect(px[1]).toBeLessThan(60);
    expect(canary.connections).toBe(0);
  }, 90_000);

  it("POST /v1/pdf/convert/from/url (a private address → 403, nothing sent)", async () => {
    const r = await q.api("/v1/pdf/convert/from/url", { json: { url: `${canary.origin}/` } });
    expect(r.status).toBe(403);
    expect(canary.connections).toBe(0);
  });

  it("POST /v1/pdf/convert/from/image (two images → two pages sized to the images)", async () => {
    const png = await sharp({ create: { width: 200, height: 100, channels: 3, background: { r: 0, g: 0, b: 255 } } }).png().toBuffer();
    const jpg = await sharp({ create: { width: 300, height: 300, channels: 3, background: { r: 0, g: 200, b: 0 } } })
      .jpeg()
      .withMetadata({ density: 150 })
      .toBuffer();
    const a = await uploadBytes(q, png, "a.png", "image/png");
    const b = await uploadBytes(q, jpg, "b.jpg", "image/jpeg");
    const r = await q.api("/v1/pdf/convert/from/image", { json: { url: `${a},${b}`, name: "images.pdf" } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.pageCount).toBe(2);
    const pdf = (await download(r.body.url)).bytes;
    const doc = readPdf(pdf);
    expect(doc.sizes[0]).toEqual([200, 100]); // no density in the PNG → 72 dpi: 1 px = 1 pt
    expect(doc.sizes[1]).toEqual([144, 144]); // 300 px at 150 dpi = 2 in = 144 pt
  });

  it("POST /v1/pdf/convert/from/image (a 20000×20000 image → clear 4xx; not an image → 415)", async () => {
    const huge = pngHeaderOnly(20000, 20000);
    const u = await uploadBytes(q, huge, "huge.png", "image/png");
    const r = await q.api("/v1/pdf/convert/from/image", { json: { url: u } });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(r.body.message).toMatch(/pixel|large/i);
    const txt = await uploadBytes(q, Buffer.from("not an image at all"), "x.txt", "text/plain");
    const bad = await q.api("/v1/pdf/convert/from/image", { json: { url: txt } });
    expect([415, 442]).toContain(bad.status);
  }, 60_000);

  it("POST /v1/xls/convert/to/csv (worksheetIndex, inline body, file output)", async () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([["name", "qty"], ["apple", 3]]), "First");
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([["city"], ["Paris"], ["Oslo"]]), "Second");
    const bytes = XLSX.write(wb, { type: "buffer", bookType: "xlsx" }) as Buffer;
    const u = await uploadBytes(q, bytes, "book.xlsx");
    const inline = await q.api("/v1/xls/convert/to/csv", { json: { url: u, worksheetIndex: "2", inline: true } });
    expect(inline.status, JSON.stringify(inline.body)).toBe(200);
    expect(inline.body.body.trim().split(/\r?\n/)).toEqual(["city", "Paris", "Oslo"]);
    const file = await q.api("/v1/xls/convert/to/csv", { json: { url: u } });
    const csv = (await download(file.body.url)).bytes.toString("utf8");
    expect(csv).toContain("apple");
    const past = await q.api("/v1/xls/convert/to/csv", { json: { url: u, worksheetIndex: "9" } });
    expect(past.status).toBeGreaterThanOrEqual(400);
    const asyncJob = await q.api("/v1/xls/convert/to/csv", { json: { url: u, async: true } });
    expect((await waitForJob(q, asyncJob.body.jobId)).status).toBe("success");
  });
});
