import { afterAll, describe, expect, test } from "vitest";
import { shutdownOcr } from "@/lib/engine/ocr/pool";
import { run } from "@/lib/operations/pdf-split2/runner";
import { encryptPdf, makePdf, pageTexts } from "@/tests/helpers/pdf-fixtures";
import { PdfMerger } from "@/lib/engine/pdf/merge-pdfs";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { barcodePage } from "@/tests/helpers/barcode-fixtures";
import { imageToPdfPages, renderPagePng } from "@/tests/helpers/extract-fixtures";
import { messageOf, runRunner, statusOf, workspace } from "./run-helper";

/** pdf-split2 runner: text and regex key pages, excludeKeyPages, OCR of scanned pages, errors. */

const ws = workspace();
afterAll(async () => {
  ws.cleanup();
  await shutdownOcr();
});

/** Three invoices of 2, 1 and 3 pages: the first page of each says "INVOICE NUMBER 100n". */
const batch = makePdf({
  pages: 6,
  text: (i) => ({ 0: "INVOICE NUMBER 1001", 2: "Invoice Number 1002", 3: "INVOICE NUMBER 1003" })[i] ?? `Details page ${i + 1}`,
});

describe("pdf-split2 runner", () => {
  test("the official sample's searchString: a part per invoice; pageCount is the source's", async () => {
    const r = await runRunner(run, { url: "x", searchString: "invoice number" }, [ws.source("sample.pdf", batch)], ws.dir);
    expect(r.outputs?.map((o) => o.name)).toEqual(["result_page1-2.pdf", "result_page3.pdf", "result_page4-6.pdf"]);
    expect(r.files.map((f) => pageTexts(f).length)).toEqual([2, 1, 3]);
    expect(pageTexts(r.files[2])[0]).toBe("INVOICE NUMBER 1003");
    expect(r.pageCount).toBe(6);
    expect(r.multiple).toBe(true);
    expect(r.message).toMatch(/found on page\(s\) 1, 3, 4: 3 part\(s\)/);
  });

  test("caseSensitive, regexSearch, excludeKeyPages, name", async () => {
    const exact = await runRunner(run, { url: "x", searchString: "Invoice Number", caseSensitive: true }, [ws.source("s.pdf", batch)], ws.dir);
    expect(exact.outputs?.map((o) => o.name)).toEqual(["result_page1-2.pdf", "result_page3-6.pdf"]);
    const re = await runRunner(run, { url: "x", searchString: "100[13]$", regexSearch: true, excludeKeyPages: true, name: "inv.pdf" }, [ws.source("s.pdf", batch)], ws.dir);
    expect(re.outputs?.map((o) => o.name)).toEqual(["inv_page2-3.pdf", "inv_page5-6.pdf"]);
    expect(pageTexts(re.files[0])).toEqual(["Details page 2", "Invoice Number 1002"]);
  });

  test("no page matches: one output, the whole file, and a message", async () => {
    const r = await runRunner(run, { url: "x", searchString: "purchase order" }, [ws.source("s.pdf", batch)], ws.dir);
    expect(r.outputs).toHaveLength(1);
    expect(pageTexts(r.files[0])).toHaveLength(6);
    expect(r.message).toMatch(/^"purchase order" was not found on any of the 6 page\(s\)/);
  });

  test("an invalid regex → 400; a password-protected source needs its password (441)", async () => {
    const p = runRunner(run, { url: "x", searchString: "(unclosed", regexSearch: true }, [ws.source("s.pdf", batch)], ws.dir);
    expect(await statusOf(p)).toBe(400);
    const locked = [ws.source("l.pdf", encryptPdf(batch, { userPassword: "pw" }))];
    expect(await statusOf(runRunner(run, { url: "x", searchString: "invoice number" }, locked, ws.dir))).toBe(441);
    const ok = await runRunner(run, { url: "x", searchString: "invoice number", password: "pw" }, locked, ws.dir);
    expect(ok.outputs).toHaveLength(3);
  });

  test("scanned pages are read by OCR (lang)", async () => {
    const text = makePdf({ pages: 3, text: (i) => (i === 1 ? "INVOICE NUMBER 2002" : `Scanned sheet ${i + 1}`) });
    const scan = imageToPdfPages([0, 1, 2].map((i) => renderPagePng(text, i, 200)), 200);
    const r = await runRunner(run, { url: "x", searchString: "invoice number", lang: "eng" }, [ws.source("scan.pdf", scan)], ws.dir);
    expect(r.outputs?.map((o) => o.name)).toEqual(["result_page1.pdf", "result_page2-3.pdf"]);
    expect(await messageOf(runRunner(run, { url: "x", searchString: "x", lang: "klingon" }, [ws.source("scan.pdf", scan)], ws.dir))).toMatch(/^lang: /);
  }, 120_000);
});

/** Pages in order, merged into one PDF. */
function join(pages: Uint8Array[]): Buffer {
  const m = new PdfMerger();
  try {
    for (const p of pages) {
      const d = openPdf(p);
      m.add(d, "p.pdf");
      d.destroy();
    }
    return Buffer.from(m.finish());
  } finally {
    m.destroy();
  }
}

describe("pdf-split2 runner, barcode macro", () => {
  test("[[barcode:qrcode,datamatrix /bytescout\\.com/]] (the official samples' form): pages with such a code start parts", async () => {
    const pdf = join([
      await barcodePage([{ bcid: "qrcode", text: "https://bytescout.com/a" }], "Cover A"),
      makePdf({ text: () => "A continued" }),
      await barcodePage([{ bcid: "qrcode", text: "https://example.org/not-a-key" }], "Not a key"),
      await barcodePage([{ bcid: "datamatrix", text: "www.bytescout.com/b" }], "Cover B"),
      await barcodePage([{ bcid: "code128", text: "bytescout.com" }], "Wrong type"),
    ]);
    const r = await runRunner(run, { url: "x", searchString: "[[barcode:qrcode,datamatrix /bytescout\\.com/]]" }, [ws.source("sample.pdf", pdf)], ws.dir);
    expect(r.outputs?.map((o) => o.name)).toEqual(["result_page1-3.pdf", "result_page4-5.pdf"]);
    expect(r.message).toMatch(/found on page\(s\) 1, 4/);
    const any = await runRunner(run, { url: "x", searchString: "[[barcode:code128]]", excludeKeyPages: true }, [ws.source("sample.pdf", pdf)], ws.dir);
    expect(any.outputs?.map((o) => o.name)).toEqual(["result_page1-4.pdf"]);
    expect(await statusOf(runRunner(run, { url: "x", searchString: "[[barcode:nosuchcode]]" }, [ws.source("sample.pdf", pdf)], ws.dir))).toBe(400);
  }, 60_000);
});
