import sharp from "sharp";
import * as XLSX from "@e965/xlsx";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { setEgressPolicyForTests } from "@/lib/egress";
import { shutdownBrowserPool } from "@/lib/engine/browser/browser-pool";
import { findChromium } from "@/lib/engine/browser/chromium-path";
import { anyToPdf } from "@/lib/engine/convert/any-to-pdf";
import { detectKind } from "@/lib/engine/convert/detect-kind";
import { run as merge } from "@/lib/operations/pdf-merge/runner";
import { run as merge2 } from "@/lib/operations/pdf-merge2/runner";
import { makeZip, startServer, type TestServer } from "@/tests/helpers/convert-fixtures";
import { makePdf, pageTexts } from "@/tests/helpers/pdf-fixtures";
import { makeDocx, makeEml } from "@/tests/helpers/office-fixtures";
import { messageOf, runRunner, statusOf, workspace } from "./run-helper";

/** The "any document → PDF" step of merge2, and the merge2 runner on every kind it converts. */

const hasChromium = !!findChromium().path;
const ws = workspace();
let site: TestServer;

const png = () => sharp({ create: { width: 200, height: 100, channels: 3, background: "#3366cc" } }).png().toBuffer();
const xlsx = (rows: (string | number)[][], name = "Prices") => {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), name);
  return Buffer.from(XLSX.write(wb, { type: "buffer", bookType: "xlsx" }) as Uint8Array);
};
const doc = (bytes: Buffer, name: string, contentType = "") => ({ bytes, name, contentType });

beforeAll(async () => {
  site = await startServer({
    "/page": "<!doctype html><html><head><link rel=stylesheet href=/style.css></head><body><p class=x>Served page</p></body></html>",
    "/style.css": { body: ".x { color: #c00 }", headers: { "content-type": "text/css" } },
  });
  setEgressPolicyForTests(`127.0.0.1:${site.port}`);
});
afterAll(async () => {
  setEgressPolicyForTests(undefined);
  await site?.close();
  await shutdownBrowserPool();
  ws.cleanup();
});

describe("detectKind", () => {
  test("from the bytes first, then the name and type", async () => {
    expect(detectKind(doc(makePdf(), "x.bin"))).toBe("pdf");
    expect(detectKind(doc(await png(), "photo.pdf"))).toBe("image");
    expect(detectKind(doc(xlsx([["a"]]), "book.bin"))).toBe("sheet");
    expect(detectKind(doc(Buffer.from("a,b\n1,2\n"), "data.csv"))).toBe("sheet");
    expect(detectKind(doc(Buffer.from("a,b\n1,2\n"), "data", "text/csv; charset=utf-8"))).toBe("sheet");
    expect(detectKind(doc(Buffer.from("<!DOCTYPE html><p>x"), "page"))).toBe("html");
    expect(detectKind(doc(Buffer.from("<p>x</p>"), "page.htm"))).toBe("html");
    expect(detectKind(doc(Buffer.from("hello"), "notes.txt"))).toBe("text");
    expect(detectKind(doc(Buffer.from("{\\rtf1\\ansi hi}"), "letter"))).toBe("office");
    expect(detectKind(doc(makeZip([{ name: "word/document.xml", data: Buffer.from("<w/>") }, { name: "[Content_Types].xml", data: Buffer.from("<T/>") }]), "letter.bin"))).toBe("office");
    expect(detectKind(doc(makeZip([{ name: "word/document.xml", data: Buffer.from("<w/>") }]), "letter.docx"))).toBe("office");
    expect(detectKind(doc(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), "old.doc"))).toBe("office");
    expect(detectKind(doc(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), "old.xls"))).toBe("sheet");
    expect(detectKind(doc(Buffer.from("From: a@b\n\nhi"), "mail.eml"))).toBe("email");
    expect(detectKind(doc(Buffer.from([0, 1, 2, 3, 4, 5]), "blob.bin"))).toBe("unknown");
  });
});

describe.skipIf(!hasChromium)("anyToPdf", () => {
  test("an image becomes one page; a PDF stays as it is", async () => {
    expect(pageTexts(await anyToPdf(doc(await png(), "a.png")))).toEqual([""]);
    const pdf = makePdf({ pages: 2 });
    expect(Buffer.from(await anyToPdf(doc(pdf, "a.pdf"))).equals(pdf)).toBe(true);
  });

  test("a workbook: each sheet's cells as shown, sheet names as headings", async () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([["Item", "Price"], ["Apple", 1.5]]), "Fruit");
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([["Total", 99]]), "Summary");
    const bytes = Buffer.from(XLSX.write(wb, { type: "buffer", bookType: "xlsx" }) as Uint8Array);
    const texts = pageTexts(await anyToPdf(doc(bytes, "book.xlsx")));
    expect(texts).toHaveLength(2);
    expect(texts[0]).toMatch(/Fruit[\s\S]*Item[\s\S]*Price[\s\S]*Apple[\s\S]*1\.5/);
    expect(texts[1]).toMatch(/Summary[\s\S]*Total[\s\S]*99/);
    expect(pageTexts(await anyToPdf(doc(Buffer.from("city,pop\nParis,2100000\n"), "c.csv"))).join()).toMatch(/Paris[\s\S]*2100000/);
  }, 60_000);

  test("HTML: a web page printed from its address, an uploaded file as it is; text as text", async () => {
    const served = await anyToPdf({ ...doc(Buffer.from("ignored"), "page.html", "text/html"), pageUrl: `${site.origin}/page` });
    expect(pageTexts(served)[0]).toBe("Served page");
    const file = await anyToPdf(doc(Buffer.from("<!doctype html><h1>Uploaded <em>HTML</em></h1><script>document.write('<p>scripted</p>')</script>"), "u.html"));
    expect(pageTexts(file)[0]).toMatch(/Uploaded HTML/);
    const text = await anyToPdf(doc(Buffer.from("line one\nline <two> & three\n"), "notes.txt"));
    expect(pageTexts(text)[0]).toBe("line one\nline <two> & three");
  }, 60_000);

  test("presentations and unknown bytes → 415 naming what is supported", async () => {
    const deck = anyToPdf(doc(makeZip([{ name: "ppt/presentation.xml", data: Buffer.from("<p/>") }]), "deck.pptx"));
    expect(await statusOf(deck)).toBe(415);
    expect(await messageOf(anyToPdf(doc(Buffer.from([0, 1, 2, 3]), "x.bin")))).toMatch(/it takes PDF, images/);
  });

  test("a word-processor file (LibreOffice) and an e-mail are converted", async () => {
    const letter = await anyToPdf(doc(makeDocx({ pages: 2 }), "letter.docx"));
    expect(pageTexts(letter)[1]).toMatch(/Page 2/);
    const mail = await anyToPdf(doc(makeEml({ subject: "Merged mail", from: "a@example.com", to: "b@example.com", text: "mail body" }), "m.eml"));
    expect(pageTexts(mail)[0]).toMatch(/Merged mail[\s\S]*mail body/);
  }, 60_000);
});

describe.skipIf(!hasChromium)("pdf-merge2 runner", () => {
  test("a PDF, an image, a spreadsheet and a text file merged in order", async () => {
    const sources = [
      ws.source("a.pdf", makePdf({ pages: 2, text: (i) => `PDF ${i + 1}` })),
      ws.source("photo.png", await png()),
      ws.source("prices.xlsx", xlsx([["Pear", 2]])),
      ws.source("notes.txt", Buffer.from("closing note")),
    ];
    const r = await runRunner(merge2, { url: "x", profiles: { GenerateBookmarks: true } }, sources, ws.dir);
    expect(r.pageCount).toBe(5);
    const texts = pageTexts(r.files[0]);
    expect(texts.slice(0, 3)).toEqual(["PDF 1", "PDF 2", ""]);
    expect(texts[3]).toMatch(/Prices[\s\S]*Pear/);
    expect(texts[4]).toBe("closing note");
  }, 60_000);

  test("an unsupported input → 415 naming it", async () => {
    const sources = [ws.source("a.pdf", makePdf()), ws.source("deck.pptx", makeZip([{ name: "ppt/presentation.xml", data: Buffer.from("<p/>") }]))];
    expect(await messageOf(runRunner(merge2, { url: "x" }, sources, ws.dir))).toMatch(/^url #2 \(deck\.pptx\): presentations/);
  });

  test("merge points an image to merge2 (442)", async () => {
    const sources = [ws.source("a.pdf", makePdf()), ws.source("photo.png", await png())];
    const p = runRunner(merge, { url: "x" }, sources, ws.dir);
    expect(await statusOf(p)).toBe(442);
    expect(await messageOf(runRunner(merge, { url: "x" }, sources, ws.dir))).toMatch(/^url #2 \(photo\.png\): this is an image.*merge2/);
  });
});
