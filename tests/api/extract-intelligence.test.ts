import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startQuire, waitForJob, type QuireServer } from "../helpers/quire-server";
import { download, uploadBytes } from "../helpers/api-client";
import { expectedCsv, makeTablesPdf, renderPagePng } from "../helpers/extract-fixtures";
import { SPECS, invoicePdf } from "../helpers/invoice-fixtures";
import { makePdf } from "../helpers/pdf-fixtures";

let q: QuireServer;
const rows = [
  ["Item", "Qty", "Price"],
  ["Apples", "3", "1.20"],
  ["Pears", "12", "0.80"],
  ["Plums", "7", "2.50"],
];
let tableUrl: string;

beforeAll(async () => {
  q = await startQuire({ env: { SYNC_TIMEOUT_MS: "180000" } });
  tableUrl = await uploadBytes(q, makeTablesPdf([{ tables: [{ x: 72, y: 100, cols: [150, 80, 80], rows, borders: "all" }] }]), "table.pdf");
}, 120_000);
afterAll(async () => q?.stop());

describe("extraction over HTTP", () => {
  it("POST /v1/pdf/convert/to/csv (inline: every cell quoted, CRLF rows)", async () => {
    const r = await q.api("/v1/pdf/convert/to/csv", { json: { url: tableUrl, inline: "true" } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.pageCount).toBe(1);
    expect(r.body.body).toBe(expectedCsv(rows));
  });

  it("POST /v1/pdf/convert/to/csv (file output; pages past the end → 449; damaged → 442)", async () => {
    const r = await q.api("/v1/pdf/convert/to/csv", { json: { url: tableUrl, name: "fruit.csv" } });
    expect(r.status).toBe(200);
    const file = await download(r.body.url);
    expect(file.bytes.toString("utf8")).toBe(expectedCsv(rows));
    expect(file.headers.get("content-disposition")).toContain("fruit.csv");
    expect((await q.api("/v1/pdf/convert/to/csv", { json: { url: tableUrl, pages: "3" } })).status).toBe(449);
    const bad = await uploadBytes(q, Buffer.from("%PDF-1.4 garbage"), "bad.pdf");
    expect((await q.api("/v1/pdf/convert/to/csv", { json: { url: bad } })).status).toBe(442);
  });

  it("POST /v1/pdf/convert/to/csv (a scanned page is OCRed; unknown lang → 400 naming installed ones)", async () => {
    const png = renderPagePng(makePdf({ pages: 1, text: () => "Invoice total 1234" }), 0, 300);
    const scan = await uploadBytes(q, png, "scan.png", "image/png");
    const r = await q.api("/v1/pdf/convert/to/csv", { json: { url: scan, inline: true } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.body).toMatch(/Invoice/);
    expect(r.body.body).toMatch(/1234/);
    const lang = await q.api("/v1/pdf/convert/to/csv", { json: { url: scan, lang: "xyz" } });
    expect(lang.status).toBe(400);
    expect(lang.body.message).toMatch(/eng/);
  }, 120_000);

  it("POST /v1/pdf/convert/to/html (inline HTML with the text and a table; async)", async () => {
    const r = await q.api("/v1/pdf/convert/to/html", { json: { url: tableUrl, inline: true } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.body).toMatch(/<html/i);
    expect(r.body.body).toContain("Apples");
    // The document's fonts travel inside the HTML; the lightweight output has none.
    expect(r.body.body).toMatch(/@font-face\{font-family:qf0;src:url\(data:font\/woff2;base64,/);
    const light = await q.api("/v1/pdf/convert/to/html", { json: { url: tableUrl, inline: true, profiles: { EmbedFonts: false, VectorGraphics: false } } });
    expect(light.status).toBe(200);
    expect(light.body.body).toContain("Apples");
    expect(light.body.body).not.toContain("@font-face");
    const a = await q.api("/v1/pdf/convert/to/html", { json: { url: tableUrl, async: true } });
    const done = await waitForJob(q, a.body.jobId);
    expect(done.status).toBe("success");
    expect((await download(done.url)).bytes.toString("utf8")).toContain("Pears");
  });
});

describe("document intelligence over HTTP", () => {
  it("POST /v1/ai-invoice-parser (created → job check success with the invoice body)", async () => {
    const src = await uploadBytes(q, await invoicePdf(SPECS.usClassic), "invoice.pdf");
    const r = await q.api("/v1/ai-invoice-parser", { json: { url: src, customField: "deliveryDate" } });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("created");
    expect(r.body.error).toBe(false);
    expect(r.body.jobId).toBeTruthy();
    const done = await waitForJob(q, r.body.jobId, 120_000);
    expect(done.status, JSON.stringify(done)).toBe("success");
    expect(done.body.vendor.name).toBe("Brightline Supply Inc.");
    expect(done.body.customer.billTo.name).toBe("Cedar Creek Dental LLC");
    expect(done.body.invoice.invoiceNo).toBeTruthy();
    expect(done.body.paymentDetails.total).toBeTruthy();
    expect(done.body.lineItems[0][0]).toMatchObject({ description: "Widget type 1", total: "43.00" });
    expect(done.pageCount).toBe(1);
  }, 150_000);

  it("POST /v1/pdf/classifier (custom rules: OR, AND, regex; invalid regex → 400 naming the line)", async () => {
    const src = await uploadBytes(q, await invoicePdf(SPECS.usClassic), "invoice.pdf");
    const rulescsv = "Invoice, OR, invoice, bill\nDental, AND, Cedar, Dental\nNever, AND, invoice, zebra\nAmount, OR, /total\\s+due/i";
    const r = await q.api("/v1/pdf/classifier", { json: { url: src, rulescsv, caseSensitive: "false" } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const classes = r.body.body.classes.map((c: { class: string }) => c.class);
    expect(classes).toContain("Invoice");
    expect(classes).toContain("Dental");
    expect(classes).not.toContain("Never");
    const bad = await q.api("/v1/pdf/classifier", { json: { url: src, rulescsv: "Good, OR, a\nBad, OR, /[unclosed/" } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/line 2/i);
  }, 120_000);

  it("POST /v1/pdf/classifier (built-in: an invoice is classified as invoice)", async () => {
    const src = await uploadBytes(q, await invoicePdf(SPECS.usClassic), "invoice.pdf");
    const r = await q.api("/v1/pdf/classifier", { json: { url: src } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.body.classes[0].class.toLowerCase()).toContain("invoice");
  }, 120_000);
});
