import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as mupdf from "mupdf";
import { setEgressPolicyForTests } from "@/lib/egress";
import { shutdownBrowserPool } from "@/lib/engine/browser/browser-pool";
import { findChromium } from "@/lib/engine/browser/chromium-path";
import { renderUrlToPdf } from "@/lib/engine/browser/render-url-to-pdf";
import { anyToPdf } from "@/lib/engine/convert/any-to-pdf";
import { csvToPdf } from "@/lib/engine/convert/csv-to-pdf";
import { emailToPdf } from "@/lib/engine/email/email-to-pdf";
import { run as runHtml } from "@/lib/operations/pdf-convert-from-html/runner";
import { makeTempDir, readPdf, startServer, type TestServer } from "@/tests/helpers/convert-fixtures";
import { makeDocx, makeEml, makeMsg } from "@/tests/helpers/office-fixtures";

/**
 * HTML, CSV and e-mail → PDF through Chromium: print options, the header row on every page,
 * header fields and attachments of a message, and the guards (egress, time cap, size cap).
 */
const hasChromium = !!findChromium().path;

function embeddedFiles(pdf: Uint8Array): string[] {
  const doc = mupdf.Document.openDocument(pdf, "application/pdf").asPDF()!;
  try {
    const names: string[] = [];
    const tree = doc.getTrailer().get("Root", "Names", "EmbeddedFiles", "Names");
    if (tree.isArray()) for (let i = 0; i < tree.length; i += 2) names.push(tree.get(i).asString());
    return names;
  } finally {
    doc.destroy();
  }
}

describe.skipIf(!hasChromium)("to PDF by Chromium", () => {
  let site: TestServer;
  let canary: TestServer;
  beforeAll(async () => {
    canary = await startServer({ "/pixel.png": { headers: { "content-type": "image/png" }, body: "x" } });
    site = await startServer({ "/style.css": { headers: { "content-type": "text/css" }, body: "h1 { color: rgb(0, 0, 255); }" } });
    setEgressPolicyForTests(`127.0.0.1:${site.port}`);
  });
  afterAll(async () => {
    setEgressPolicyForTests(undefined);
    await shutdownBrowserPool();
    await site.close();
    await canary.close();
  });

  it("from/html: paper, orientation, footer, templateData; allowed resources load, forbidden ones never connect", async () => {
    const { dir, cleanup } = makeTempDir();
    try {
      const result = await runHtml({
        params: {
          html: `<html><head><link rel="stylesheet" href="${site.origin}/style.css"></head><body><h1>Hello {{name}}</h1><img src="${canary.origin}/pixel.png"></body></html>`,
          templateData: '{"name":"Ada"}',
          paperSize: "Letter",
          orientation: "Landscape",
          footer: '<div style="font-size:8px">Page <span class="pageNumber"></span></div>',
        },
        sources: [],
        workDir: dir,
        fetchUrl: async () => {
          throw new Error("unused");
        },
        log: () => {},
      });
      expect(result.pageCount).toBe(1);
      const fs = await import("node:fs");
      const pdf = readPdf(fs.readFileSync(result.outputs![0].path));
      expect(pdf.sizes[0]).toEqual([792, 612]);
      expect(pdf.texts[0]).toContain("Hello Ada");
      expect(pdf.texts[0]).toContain("Page 1");
      expect(site.requests).toContain("GET /style.css");
      expect(canary.connections()).toBe(0);
    } finally {
      cleanup();
    }
  });

  it("from/html: a page that loops for ever hits the time cap (408), and the browser still prints afterwards", async () => {
    const t = Date.now();
    await expect(
      renderUrlToPdf({
        url: "about:blank",
        html: "<body><p>loop</p><script>for(;;){}</script></body>",
        limits: { totalTimeoutMs: 4000, loadTimeoutMs: 3000 },
      }),
    ).rejects.toMatchObject({ status: 408 });
    expect(Date.now() - t).toBeLessThan(15_000);
    const ok = await renderUrlToPdf({ url: "about:blank", html: "<p>after the loop</p>" });
    expect(readPdf(ok.pdf).texts[0]).toContain("after the loop");
  });

  it("from/csv: the header row repeats on every page", async () => {
    const lines = ["Id,Name,Amount"];
    for (let i = 1; i <= 150; i++) lines.push(`${i},"Name, ${i}",${(i * 1.5).toFixed(2)}`);
    const { pdf, rows, columns } = await csvToPdf(Buffer.from(lines.join("\r\n")));
    expect(rows).toBe(151);
    expect(columns).toBe(3);
    const r = readPdf(pdf);
    expect(r.pageCount).toBeGreaterThan(1);
    for (const text of r.texts) expect(text).toMatch(/Id\s+Name\s+Amount/);
    expect(r.texts.join("\n")).toContain("Name, 150");
  });

  it("from/email (.eml): header fields, body, cid image inline, attachments converted and embedded", async () => {
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
      "base64",
    );
    const eml = makeEml({
      subject: "Quarterly report",
      from: "Ann Example <ann@example.com>",
      to: "bob@example.com",
      text: "plain body",
      html: `<p>Dear Bob, <b>see attached</b>.</p><img src="cid:logo@x"><img src="${canary.origin}/pixel.png"><script>document.write("SCRIPT RAN")</script>`,
      attachments: [
        { name: "logo.png", mime: "image/png", data: png, cid: "logo@x" },
        { name: "notes.txt", mime: "text/plain", data: Buffer.from("Attached notes text") },
        { name: "letter.docx", mime: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", data: makeDocx({ pages: 2 }) },
        { name: "blob.bin", mime: "application/octet-stream", data: Buffer.from([0, 1, 2, 3]) },
      ],
    });
    const result = await emailToPdf(eml, { convertAttachment: (a) => anyToPdf(a, { depth: 1 }) });
    const r = readPdf(result.pdf);
    expect(r.texts[0]).toContain("From:");
    expect(r.texts[0]).toContain("ann@example.com");
    expect(r.texts[0]).toContain("Subject:");
    expect(r.texts[0]).toContain("Quarterly report");
    expect(r.texts[0]).toContain("Dear Bob");
    expect(r.texts[0]).toContain("notes.txt");
    expect(r.texts.join("\n")).not.toContain("SCRIPT RAN");
    expect(result.converted).toEqual(["notes.txt", "letter.docx"]);
    expect(r.pageCount).toBe(1 + 1 + 2);
    expect(r.texts.join("\n")).toContain("Attached notes text");
    expect(r.texts.join("\n")).toContain("Page 2");
    expect(embeddedFiles(result.pdf).sort()).toEqual(["blob.bin", "letter.docx", "notes.txt"]);
    expect(canary.connections()).toBe(0);
  });

  it("from/email (.msg): embedAttachments and convertAttachments off → the message alone", async () => {
    const msg = makeMsg({
      subject: "Outlook hello",
      senderName: "Ann",
      senderEmail: "ann@example.com",
      to: "bob@example.com",
      body: "Body of the Outlook message",
      attachments: [{ name: "a.txt", mime: "text/plain", data: Buffer.from("attached") }],
    });
    const result = await emailToPdf(msg, { embedAttachments: false, convertAttachments: false, convertAttachment: (a) => anyToPdf(a) });
    const r = readPdf(result.pdf);
    expect(r.pageCount).toBe(1);
    expect(r.texts[0]).toContain("Outlook hello");
    expect(r.texts[0]).toContain("Body of the Outlook message");
    expect(r.texts[0]).toContain("Ann <ann@example.com>");
    expect(embeddedFiles(result.pdf)).toEqual([]);
  });

  it("from/email: a message over the size cap → 413 before parsing; not an e-mail → 415", async () => {
    const big = makeEml({ subject: "big", from: "a@example.com", to: "b@example.com", text: "x".repeat(3 * 1024 * 1024) });
    await expect(emailToPdf(big, { maxBytes: 1024 * 1024 })).rejects.toMatchObject({ status: 413 });
    await expect(emailToPdf(Buffer.from("\u0000\u0001binary"))).rejects.toMatchObject({ status: 415 });
  });
});
