import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import * as mupdf from "mupdf";
import { afterAll, describe, expect, test } from "vitest";
import { run as makeSearchable } from "@/lib/operations/pdf-makesearchable/runner";
import { run as makeUnsearchable } from "@/lib/operations/pdf-makeunsearchable/runner";
import { run as find } from "@/lib/operations/pdf-find/runner";
import { makeFormPdf, makePdf, pageTexts } from "@/tests/helpers/pdf-fixtures";
import { scanOf } from "@/tests/helpers/text-fixtures";
import { runRunner, statusOf, workspace } from "../pages/run-helper";

/** pdf-makesearchable (OCR text layer in render mode 3) and pdf-makeunsearchable (pages as pictures). */

const ws = workspace("quire-searchable-");
afterAll(() => ws.cleanup());

const original = makePdf({ pages: 2, text: (i) => `Quarterly report ${i + 1}\nRevenue grew strongly` });
const scan = scanOf(original);

function pdftotext(bytes: Uint8Array): string {
  const file = path.join(ws.dir, `check-${Math.random().toString(36).slice(2)}.pdf`);
  fs.writeFileSync(file, bytes);
  return execFileSync("pdftotext", [file, "-"]).toString();
}

/** Box of the first occurrence of `text` on a page (MuPDF search, top-left origin). */
function boxOf(bytes: Uint8Array, pageIndex: number, text: string) {
  const doc = new mupdf.PDFDocument(Buffer.from(bytes));
  try {
    const hits = doc.loadPage(pageIndex).toStructuredText("preserve-whitespace").search(text, undefined) as unknown as number[][][];
    if (!hits.length) return null;
    const q = hits[0][0];
    return { x0: q[0], y0: q[1], x1: q[2], y1: q[5] };
  } finally {
    doc.destroy();
  }
}

/** The content-stream text render modes used on a page. */
function renderModes(bytes: Uint8Array, pageIndex: number): string[] {
  const doc = new mupdf.PDFDocument(Buffer.from(bytes));
  try {
    const contents = doc.findPage(pageIndex).get("Contents").resolve();
    const streams = contents.isArray() ? Array.from({ length: contents.length }, (_, i) => contents.get(i)) : [contents];
    return streams.flatMap((s) => [...s.readStream().asString().matchAll(/(\d) Tr/g)].map((m) => m[1]));
  } finally {
    doc.destroy();
  }
}

describe("pdf-makesearchable runner", () => {
  test("a scan gets an invisible text layer whose words sit on the printed words", async () => {
    expect(pdftotext(scan).trim()).toBe("");
    const r = await runRunner(makeSearchable, { url: "x", lang: "eng" }, [ws.source("scan.pdf", scan)], ws.dir);
    const text = pdftotext(r.files[0]);
    expect(text).toMatch(/Quarterly report 1/);
    expect(text).toMatch(/Revenue grew strongly/);
    expect(renderModes(r.files[0], 0)).toEqual(["3"]);
    const printed = boxOf(original, 0, "Revenue")!;
    const layer = boxOf(r.files[0], 0, "Revenue")!;
    expect(Math.abs(layer.x0 - printed.x0)).toBeLessThan(3);
    expect(Math.abs(layer.x1 - printed.x1)).toBeLessThan(3);
    expect(Math.abs((layer.y0 + layer.y1) / 2 - (printed.y0 + printed.y1) / 2)).toBeLessThan(6);
    // Find answers boxes on the printed words of the now searchable scan.
    const found = await runRunner(find, { url: "x", searchString: "grew", inline: true }, [ws.source("s.pdf", r.files[0])], ws.dir);
    const hits = found.fields!.body as { pageIndex: number; left: number }[];
    expect(hits.map((h) => h.pageIndex)).toEqual([0, 1]);
    expect(Math.abs(hits[0].left - boxOf(original, 0, "grew")!.x0)).toBeLessThan(3);
    expect(r.pageCount).toBe(2);
    expect(r.message).toMatch(/2 page/);
  }, 120_000);

  test("pages with text are left alone; pages and rect limit the layer", async () => {
    const r = await runRunner(makeSearchable, { url: "x", pages: "1", rect: "0 90 612 100" }, [ws.source("scan.pdf", scan)], ws.dir);
    const [p0, p1] = pageTexts(r.files[0]);
    expect(p0).toBe("");
    expect(p1).toMatch(/Revenue grew strongly/);
    expect(p1).not.toMatch(/Quarterly/);
    const text = await runRunner(makeSearchable, { url: "x" }, [ws.source("text.pdf", original)], ws.dir);
    expect(text.message).toMatch(/0 word\(s\) recognised on 0 page\(s\); 2 page\(s\) already had a text layer/);
    expect(pageTexts(text.files[0])).toEqual(pageTexts(original));
  }, 120_000);

  test("a scan lying sideways is read turned upright; its words sit on the printed (sideways) words", async () => {
    const sideways = makePdf({ pages: 1, rotate: 90, text: () => "Sideways scanned letter\nwith two lines of text" });
    const scanned = scanOf(sideways);
    const r = await runRunner(makeSearchable, { url: "x" }, [ws.source("side.pdf", scanned)], ws.dir);
    expect(pdftotext(r.files[0])).toMatch(/Sideways scanned letter/);
    const printed = boxOf(sideways, 0, "scanned")!;
    const layer = boxOf(r.files[0], 0, "scanned")!;
    const centre = (b: { x0: number; y0: number; x1: number; y1: number }) => [(b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2];
    const [px, py] = centre(printed);
    const [lx, ly] = centre(layer);
    expect(Math.hypot(px - lx, py - ly)).toBeLessThan(6);
  }, 120_000);

  test("an unknown language → 400", async () => {
    expect(await statusOf(runRunner(makeSearchable, { url: "x", lang: "xx1" }, [ws.source("scan.pdf", scan)], ws.dir))).toBe(400);
  });
});

describe("pdf-makeunsearchable runner", () => {
  test("no text is left; page count, sizes and rotation stay", async () => {
    const rotated = makePdf({ pages: 3, text: (i) => `Unsearchable page ${i + 1}`, rotate: (i) => (i === 1 ? 90 : 0), size: (i) => (i === 2 ? [300, 400] : [612, 792]) });
    const r = await runRunner(makeUnsearchable, { url: "x" }, [ws.source("a.pdf", rotated)], ws.dir);
    expect(pdftotext(r.files[0]).trim()).toBe("");
    const doc = new mupdf.PDFDocument(Buffer.from(r.files[0]));
    try {
      expect(doc.countPages()).toBe(3);
      expect(doc.loadPage(1).getBounds()).toEqual([0, 0, 792, 612]);
      expect(doc.loadPage(2).getBounds()).toEqual([0, 0, 300, 400]);
      expect(doc.findPage(1).get("Rotate").asNumber()).toBe(90);
    } finally {
      doc.destroy();
    }
    // The picture still shows the text: OCR of the result reads it back.
    const back = await runRunner(makeSearchable, { url: "x", pages: "0" }, [ws.source("u.pdf", r.files[0])], ws.dir);
    expect(pageTexts(back.files[0])[0]).toMatch(/Unsearchable page/);
  }, 120_000);

  test("form fields become part of the picture: their values are no longer text, the form is gone", async () => {
    const form = await makeFormPdf();
    expect(pdftotext(form)).toMatch(/Alice/);
    const r = await runRunner(makeUnsearchable, { url: "x" }, [ws.source("f.pdf", form)], ws.dir);
    expect(pdftotext(r.files[0]).trim()).toBe("");
    const doc = new mupdf.PDFDocument(Buffer.from(r.files[0]));
    try {
      expect(doc.getTrailer().get("Root").get("AcroForm").isNull()).toBe(true);
      expect(doc.findPage(0).get("Annots").isNull()).toBe(true);
    } finally {
      doc.destroy();
    }
  });

  test("pages selects what is rendered", async () => {
    const r = await runRunner(makeUnsearchable, { url: "x", pages: "0" }, [ws.source("a.pdf", makePdf({ pages: 2 }))], ws.dir);
    expect(pageTexts(r.files[0])).toEqual(["", "Page 2"]);
    expect(r.pagesProcessed).toBe(1);
    const huge = runRunner(makeUnsearchable, { url: "x", profiles: { RenderResolution: 600 } }, [ws.source("big.pdf", makePdf({ size: [5000, 5000] }))], ws.dir);
    expect(await statusOf(huge)).toBe(413);
  });
});
