import * as mupdf from "mupdf";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { listFields } from "@/lib/engine/pdf/list-fields";
import { PdfMerger, type MergeOptions } from "@/lib/engine/pdf/merge-pdfs";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { makeFormPdf, makePdf, makePdfDocument, pageTexts } from "@/tests/helpers/pdf-fixtures";

/** Merges the given PDFs (bytes) through PdfMerger, as the runner does. */
function merge(inputs: { bytes: Uint8Array; title?: string }[], options: MergeOptions = {}) {
  const merger = new PdfMerger(options);
  try {
    inputs.forEach((input, i) => {
      const doc = openPdf(input.bytes);
      try {
        merger.add(doc, input.title ?? `input-${i + 1}.pdf`);
      } finally {
        doc.destroy();
      }
    });
    return { bytes: merger.finish(), renamed: [...merger.renamedFields] };
  } finally {
    merger.destroy();
  }
}

function outlineOf(bytes: Uint8Array) {
  const doc = new mupdf.PDFDocument(Buffer.from(bytes));
  try {
    type Item = { title?: string; page?: number; down?: Item[] };
    const strip = (items: Item[] | null | undefined): unknown[] =>
      (items ?? []).map((i) => ({ title: i.title, page: i.page, ...(i.down?.length ? { down: strip(i.down) } : {}) }));
    return strip(doc.loadOutline());
  } finally {
    doc.destroy();
  }
}

describe("PdfMerger", () => {
  test("the output's page tree is one flat /Kids array: each page's /Parent is the root, /Count the pages, and qpdf finds no fault", () => {
    const inputs = Array.from({ length: 12 }, (_, n) => ({ bytes: makePdf({ pages: 3, text: (i) => `F${n + 1}-${i + 1}` }) }));
    const { bytes } = merge(inputs);
    expect(pageTexts(bytes).map((t) => t.trim())).toEqual(inputs.flatMap((_, n) => [1, 2, 3].map((i) => `F${n + 1}-${i}`)));
    const doc = new mupdf.PDFDocument(Buffer.from(bytes));
    try {
      const root = doc.getTrailer().get("Root", "Pages");
      const kids = root.get("Kids");
      expect(root.get("Count").asNumber()).toBe(36);
      expect(kids.length).toBe(36);
      for (let i = 0; i < kids.length; i++) expect(kids.get(i).get("Parent").asIndirect()).toBe(root.asIndirect());
    } finally {
      doc.destroy();
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "merge-tree-"));
    try {
      fs.writeFileSync(path.join(dir, "m.pdf"), bytes);
      const r = spawnSync("qpdf", ["--check", path.join(dir, "m.pdf")], { encoding: "utf8" });
      if (r.error) return; // qpdf not installed: the checks above stand
      expect(r.status, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toMatch(/No syntax or stream encoding errors/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("pages of every input, in order", () => {
    const a = makePdf({ pages: 2, text: (i) => `A${i + 1}` });
    const b = makePdf({ pages: 3, text: (i) => `B${i + 1}` });
    const { bytes } = merge([{ bytes: a }, { bytes: b }, { bytes: a }]);
    expect(pageTexts(bytes)).toEqual(["A1", "A2", "B1", "B2", "B3", "A1", "A2"]);
  });

  test("keeps page sizes and rotation", () => {
    const a = makePdf({ size: [300, 400], rotate: 90 });
    const b = makePdf({ size: [842, 595] });
    const doc = new mupdf.PDFDocument(Buffer.from(merge([{ bytes: a }, { bytes: b }]).bytes));
    try {
      expect(doc.findPage(0).get("Rotate").asNumber()).toBe(90);
      expect(doc.loadPage(0).getBounds()).toEqual([0, 0, 400, 300]);
      expect(doc.loadPage(1).getBounds()).toEqual([0, 0, 842, 595]);
    } finally {
      doc.destroy();
    }
  });

  test("bookmarks of every input point at the merged pages", () => {
    const a = makePdf({ pages: 2, bookmarks: [{ title: "Intro", page: 0, children: [{ title: "Detail", page: 1 }] }] });
    const b = makePdf({ pages: 3, bookmarks: [{ title: "Chapter B", page: 2 }] });
    expect(outlineOf(merge([{ bytes: a }, { bytes: b }]).bytes)).toEqual([
      { title: "Intro", page: 0, down: [{ title: "Detail", page: 1 }] },
      { title: "Chapter B", page: 4 },
    ]);
  });

  test("GenerateBookmarks: one bookmark per input holding its own", () => {
    const a = makePdf({ pages: 2, bookmarks: [{ title: "Intro", page: 1 }] });
    const b = makePdf({ pages: 1 });
    const outline = outlineOf(merge([{ bytes: a, title: "first.pdf" }, { bytes: b, title: "second – ü.pdf" }], { generateBookmarks: true }).bytes);
    expect(outline).toEqual([
      { title: "first.pdf", page: 0, down: [{ title: "Intro", page: 1 }] },
      { title: "second – ü.pdf", page: 2 },
    ]);
  });

  test("named destinations of bookmarks and links become explicit", () => {
    const doc = makePdfDocument({ pages: 3 });
    let bytes: Buffer;
    try {
      // A /Names /Dests tree entry "target" → page 3, an outline item and a link that name it.
      const dests = doc.newDictionary();
      const arr = doc.newArray();
      arr.push(doc.newString("target"));
      const d = doc.newArray();
      d.push(doc.findPage(2));
      d.push(doc.newName("Fit"));
      arr.push(d);
      dests.put("Names", arr);
      const names = doc.newDictionary();
      names.put("Dests", doc.addObject(dests));
      doc.getTrailer().get("Root").put("Names", doc.addObject(names));
      const outlines = doc.addObject(doc.newDictionary());
      const item = doc.addObject(doc.newDictionary());
      item.put("Title", doc.newString("Named"));
      item.put("Parent", outlines);
      item.put("Dest", doc.newString("target"));
      outlines.put("First", item);
      outlines.put("Last", item);
      outlines.put("Count", 1);
      doc.getTrailer().get("Root").put("Outlines", outlines);
      const page = doc.findPage(0);
      const link = doc.addObject(doc.newDictionary());
      link.put("Type", doc.newName("Annot"));
      link.put("Subtype", doc.newName("Link"));
      link.put("Rect", [72, 72, 200, 100]);
      link.put("Dest", doc.newName("target"));
      // The old-style /Dests dictionary of the catalog (PDF 1.1) names it too.
      const oldDests = doc.newDictionary();
      oldDests.put("target", d);
      doc.getTrailer().get("Root").put("Dests", doc.addObject(oldDests));
      const annots = doc.newArray();
      annots.push(link);
      page.put("Annots", annots);
      const buf = doc.saveToBuffer("");
      bytes = Buffer.from(buf.asUint8Array());
      buf.destroy();
    } finally {
      doc.destroy();
    }
    const merged = merge([{ bytes: makePdf({ pages: 2 }) }, { bytes }]).bytes;
    expect(outlineOf(merged)).toEqual([{ title: "Named", page: 4 }]);
    const out = new mupdf.PDFDocument(Buffer.from(merged));
    try {
      const links = out.loadPage(2).getLinks();
      expect(links).toHaveLength(1);
      expect(out.resolveLink(links[0])).toBe(4);
    } finally {
      out.destroy();
    }
  });

  test("form fields of every input; clashing names renamed so each field keeps its value", async () => {
    const form = await makeFormPdf();
    const { bytes, renamed } = merge([{ bytes: form }, { bytes: makePdf() }, { bytes: form }]);
    expect(renamed.map((r) => r.to)).toContain("name_3");
    const doc = openPdf(bytes);
    try {
      const fields = listFields(doc);
      const names = fields.map((f) => f.FieldName);
      for (const n of ["name", "name_3", "address.city", "address_3.city", "agree", "agree_3", "color", "color_3", "signature", "signature_3"]) {
        expect(names).toContain(n);
      }
      expect(fields.find((f) => f.FieldName === "name_3")).toMatchObject({ Value: "Alice", PageIndex: 3 });
      expect(fields.find((f) => f.FieldName === "country_3")).toMatchObject({ Value: "Germany", PageIndex: 4 });
      // Filling one input's field leaves the other's alone: they are separate fields.
      const widget = doc.loadPage(3).getWidgets().find((w) => w.getName() === "name_3")!;
      widget.setTextValue("Bob");
      const first = doc.loadPage(0).getWidgets().find((w) => w.getName() === "name")!;
      expect(first.getValue()).toBe("Alice");
    } finally {
      doc.destroy();
    }
  });

  test("RenameMatchingFieldsDuringMerge false keeps the names", async () => {
    const form = await makeFormPdf();
    const { bytes, renamed } = merge([{ bytes: form }, { bytes: form }], { renameFields: false });
    expect(renamed).toEqual([]);
    const doc = openPdf(bytes);
    try {
      const names = listFields(doc).map((f) => f.FieldName);
      expect(names.filter((n) => n === "name")).toHaveLength(2);
      expect(names.some((n) => n.endsWith("_2"))).toBe(false);
    } finally {
      doc.destroy();
    }
  });

  test("the first input's title and author carry over", () => {
    const a = makePdf({ info: { Title: "Annual report", Author: "Ada" } });
    const b = makePdf({ info: { Title: "Other" } });
    const doc = openPdf(merge([{ bytes: a }, { bytes: b }]).bytes);
    try {
      expect(doc.getMetaData("info:Title")).toBe("Annual report");
      expect(doc.getMetaData("info:Author")).toBe("Ada");
    } finally {
      doc.destroy();
    }
  });
});
