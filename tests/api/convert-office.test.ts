import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as XLSX from "@e965/xlsx";
import { startQuire, waitForJob, type QuireServer } from "../helpers/quire-server";
import { download, uploadBytes } from "../helpers/api-client";
import { readPdf } from "../helpers/convert-fixtures";
import { makeDocx, makeDocxBomb, makeEml, makeEncryptedOffice, makeMsg } from "../helpers/office-fixtures";

/**
 * The conversions to PDF (LibreOffice, HTML, CSV, e-mail) and the spreadsheet text outputs over
 * real HTTP, and the hostile inputs: each a clear 4xx within its limit, the server still serving.
 */
let q: QuireServer;

function book(): Buffer {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([["Alpha sheet"], [1]]), "One");
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([["name", "qty"], ["apple", 3], ["pear", 5]]), "Two");
  return XLSX.write(wb, { type: "buffer", bookType: "xlsx" }) as Buffer;
}

beforeAll(async () => {
  q = await startQuire({
    env: { WEBPAGE_TIMEOUT_MS: "6000", WEBPAGE_LOAD_TIMEOUT_MS: "4000", EMAIL_MAX_BYTES: String(1024 * 1024) },
  });
}, 180_000);
afterAll(async () => {
  await q?.stop();
});

async function stillHealthy() {
  const r = await q.api("/v1/xls/convert/to/json", { json: { url: await uploadBytes(q, Buffer.from("a\r\n1\r\n"), "ok.csv"), inline: true } });
  expect(r.status).toBe(200);
  expect(JSON.parse(r.body.body)).toEqual([{ a: "1" }]);
}

describe("conversions to PDF and from spreadsheets over HTTP", () => {
  it("POST /v1/pdf/convert/from/doc (5-page docx → 5 pages, 6 credits; async too)", async () => {
    const u = await uploadBytes(q, makeDocx({ pages: 5 }), "five.docx");
    const r = await q.api("/v1/pdf/convert/from/doc", { json: { url: u, name: "five" } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.pageCount).toBe(5);
    expect(r.body.credits).toBe(6);
    expect(r.body.name).toBe("five.pdf");
    const pdf = readPdf((await download(r.body.url)).bytes);
    expect(pdf.pageCount).toBe(5);
    expect(pdf.texts[4]).toContain("Page 5");
    const job = await q.api("/v1/pdf/convert/from/doc", { json: { url: u, async: "true" } });
    expect((await waitForJob(q, job.body.jobId)).status).toBe("success");
  }, 90_000);

  it("POST /v1/pdf/convert/from/doc (zip-bomb docx → 413, password-protected → 442, workbook → 415; server healthy)", async () => {
    const bomb = await q.api("/v1/pdf/convert/from/doc", { json: { url: await uploadBytes(q, makeDocxBomb(), "bomb.docx") } });
    expect(bomb.status, JSON.stringify(bomb.body)).toBe(413);
    expect(bomb.body.error).toBe(true);
    const locked = await q.api("/v1/pdf/convert/from/doc", { json: { url: await uploadBytes(q, makeEncryptedOffice(), "locked.docx") } });
    expect(locked.status).toBe(442);
    expect(locked.body.message).toMatch(/password-protected/);
    const sheet = await q.api("/v1/pdf/convert/from/doc", { json: { url: await uploadBytes(q, book(), "book.xlsx") } });
    expect(sheet.status).toBe(415);
    await stillHealthy();
  }, 90_000);

  it("POST /v1/xls/convert/to/pdf (worksheetIndex as a string, autosize)", async () => {
    const u = await uploadBytes(q, book(), "book.xlsx");
    const one = await q.api("/v1/xls/convert/to/pdf", { json: { url: u, worksheetindex: "2" } });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    const text = readPdf((await download(one.body.url)).bytes).texts.join("\n");
    expect(text).toContain("apple");
    expect(text).not.toContain("Alpha sheet");
    const auto = await q.api("/v1/xls/convert/to/pdf", { json: { url: u, autosize: "true" } });
    expect(auto.status).toBe(200);
    expect(auto.body.pageCount).toBe(2);
    const past = await q.api("/v1/xls/convert/to/pdf", { json: { url: u, worksheetIndex: "7" } });
    expect(past.status).toBe(454);
  }, 90_000);

  it("POST /v1/pdf/convert/from/html (print options, templateData; templateId prints a stored template; endless page → 408, server healthy)", async () => {
    const r = await q.api("/v1/pdf/convert/from/html", {
      json: { html: "<h1>Invoice {{no}}</h1>", templateData: '{"no":"A-17"}', paperSize: "A5", margins: "10mm", name: "inv.pdf" },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const pdf = readPdf((await download(r.body.url)).bytes);
    expect(pdf.texts[0]).toContain("Invoice A-17");
    expect(Math.abs(pdf.sizes[0][0] - 419.5)).toBeLessThan(1); // A5: 148 mm
    // A stored template: the built-in invoice (id 1) with data given as an object, and the account's own.
    const builtin = await q.api("/v1/pdf/convert/from/html", {
      json: { templateId: 1, templateData: { invoiceNumber: "Q-77", invoiceDate: "2026-11-24", total: "9.99", items: [{ description: "Pen", quantity: 1, price: "9.99", amount: "9.99" }] } },
    });
    expect(builtin.status, JSON.stringify(builtin.body)).toBe(200);
    const builtinText = readPdf((await download(builtin.body.url)).bytes).texts[0];
    expect(builtinText).toContain("Q-77");
    expect(builtinText).toContain("Pen");
    const own = await q.api("/v1/templates/html/new/update", { json: { title: "Letter", body: "<p>Dear {{name}}, your order {{order}} shipped.</p>" } });
    const letter = await q.api("/v1/pdf/convert/from/html", { json: { templateId: String(own.body.id), templateData: '{"name":"Ada","order":"#12"}' } });
    expect(readPdf((await download(letter.body.url)).bytes).texts[0]).toContain("Dear Ada, your order #12 shipped.");
    const unknown = await q.api("/v1/pdf/convert/from/html", { json: { templateId: 99999 } });
    expect(unknown.status).toBe(404);
    const empty = await q.api("/v1/pdf/convert/from/html", { json: { html: "" } });
    expect(empty.status).toBe(400);
    const t = Date.now();
    const loop = await q.api("/v1/pdf/convert/from/html", { json: { html: "<p>x</p><script>for(;;){}</script>" } });
    expect(loop.status).toBe(408);
    expect(Date.now() - t).toBeLessThan(30_000);
    await stillHealthy();
  }, 90_000);

  it("POST /v1/pdf/convert/from/csv (the header on every page)", async () => {
    const lines = ["Code,Label"];
    for (let i = 1; i <= 120; i++) lines.push(`C${i},Item ${i}`);
    const r = await q.api("/v1/pdf/convert/from/csv", { json: { url: await uploadBytes(q, Buffer.from(lines.join("\n")), "t.csv", "text/csv") } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const pdf = readPdf((await download(r.body.url)).bytes);
    expect(pdf.pageCount).toBeGreaterThan(1);
    for (const text of pdf.texts) expect(text).toMatch(/Code\s+Label/);
  }, 60_000);

  it("POST /v1/pdf/convert/from/email (.eml and .msg; a message over EMAIL_MAX_BYTES → 413)", async () => {
    const eml = makeEml({
      subject: "Hello over HTTP",
      from: "ann@example.com",
      to: "bob@example.com",
      text: "Message body",
      attachments: [{ name: "n.txt", mime: "text/plain", data: Buffer.from("attached words") }],
    });
    const r = await q.api("/v1/pdf/convert/from/email", { json: { url: await uploadBytes(q, eml, "m.eml"), embedAttachments: false } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.pageCount).toBe(2);
    const pdf = readPdf((await download(r.body.url)).bytes);
    expect(pdf.texts[0]).toContain("Hello over HTTP");
    expect(pdf.texts[1]).toContain("attached words");
    const msg = makeMsg({ subject: "MSG subject", senderName: "Ann", senderEmail: "ann@example.com", to: "bob@example.com", body: "MSG body" });
    const m = await q.api("/v1/pdf/convert/from/email", { json: { url: await uploadBytes(q, msg, "m.msg") } });
    expect(m.status, JSON.stringify(m.body)).toBe(200);
    expect(readPdf((await download(m.body.url)).bytes).texts[0]).toContain("MSG body");
    const big = makeEml({ subject: "big", from: "a@example.com", to: "b@example.com", text: "y".repeat(2 * 1024 * 1024) });
    const tooBig = await q.api("/v1/pdf/convert/from/email", { json: { url: await uploadBytes(q, big, "big.eml") } });
    expect(tooBig.status).toBe(413);
    await stillHealthy();
  }, 90_000);

  it("POST /v1/xls/convert/to/html, /json, /txt, /xml (worksheetIndex, inline and file)", async () => {
    const u = await uploadBytes(q, book(), "book.xlsx");
    const html = await q.api("/v1/xls/convert/to/html", { json: { url: u, worksheetIndex: "2", inline: true } });
    expect(html.status, JSON.stringify(html.body)).toBe(200);
    expect(html.body.body).toContain("<th>name</th>");
    const json = await q.api("/v1/xls/convert/to/json", { json: { url: u, worksheetIndex: "2", inline: "true" } });
    expect(JSON.parse(json.body.body)).toEqual([{ name: "apple", qty: "3" }, { name: "pear", qty: "5" }]);
    const txt = await q.api("/v1/xls/convert/to/txt", { json: { url: u, worksheetIndex: "2" } });
    expect((await download(txt.body.url)).bytes.toString("utf8")).toBe("name   qty\r\napple  3\r\npear   5\r\n");
    const xml = await q.api("/v1/xls/convert/to/xml", { json: { url: u } });
    expect(xml.status).toBe(200);
    const file = await download(xml.body.url);
    expect(file.bytes.toString("utf8")).toContain('<sheet name="One">');
  }, 60_000);
});
