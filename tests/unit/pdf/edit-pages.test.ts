import * as mupdf from "mupdf";
import { describe, expect, test } from "vitest";
import { QuireError } from "@/lib/core/errors";
import { deletePages, normalizeAngle, rotatePages, savePdf } from "@/lib/engine/pdf/edit-pages";
import { listFields } from "@/lib/engine/pdf/list-fields";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { encryptPdf, makeFormPdf, makePdf, makePdfWithAttachments, pageTexts } from "@/tests/helpers/pdf-fixtures";

function edit(bytes: Uint8Array, fn: (doc: mupdf.PDFDocument) => void, password?: string, garbage = true): Buffer {
  const doc = openPdf(bytes, password);
  try {
    fn(doc);
    return Buffer.from(savePdf(doc, garbage));
  } finally {
    doc.destroy();
  }
}

describe("deletePages", () => {
  test("removes the pages, keeps the rest in order", () => {
    const out = edit(makePdf({ pages: 5 }), (d) => deletePages(d, [0, 2, 4]));
    expect(pageTexts(out)).toEqual(["Page 2", "Page 4"]);
  });

  test("bookmarks to deleted pages go, the others point at the moved pages", () => {
    const src = makePdf({ pages: 4, bookmarks: [{ title: "one", page: 0 }, { title: "three", page: 2 }, { title: "four", page: 3 }] });
    const doc = new mupdf.PDFDocument(edit(src, (d) => deletePages(d, [0, 1])));
    try {
      expect(doc.loadOutline()?.map((o) => [o.title, o.page])).toEqual([
        ["three", 0],
        ["four", 1],
      ]);
    } finally {
      doc.destroy();
    }
  });

  test("form fields on kept pages keep their values; fields only on deleted pages go", async () => {
    const form = await makeFormPdf();
    const first = openPdf(edit(form, (d) => deletePages(d, [1])));
    const second = openPdf(edit(form, (d) => deletePages(d, [0])));
    try {
      expect(listFields(first).map((f) => f.FieldName).sort()).toEqual(["address.city", "agree", "color", "name"]);
      expect(listFields(second).map((f) => [f.FieldName, f.Value, f.PageIndex])).toEqual(
        expect.arrayContaining([
          ["country", "Germany", 0],
          ["fruits", "Banana", 0],
          ["signature", "", 0],
        ]),
      );
      expect(listFields(second).map((f) => f.FieldName)).not.toContain("name");
    } finally {
      first.destroy();
      second.destroy();
    }
  });

  test("attachments, catalog entries and metadata survive; orphaned page content is dropped", () => {
    const src = makePdfWithAttachments([{ name: "notes.txt", data: "keep me" }], { pages: 40, info: { Title: "T" } });
    const withCatalog = edit(src, (d) => {
      const root = d.getTrailer().get("Root");
      root.put("PageMode", d.newName("UseAttachments"));
      root.put("Lang", d.newString("de-DE"));
    }, undefined, false);
    const out = edit(withCatalog, (d) => deletePages(d, Array.from({ length: 39 }, (_, i) => i + 1)));
    const doc = openPdf(out);
    try {
      expect(doc.countPages()).toBe(1);
      expect(doc.getMetaData("info:Title")).toBe("T");
      expect(Object.keys(doc.getEmbeddedFiles())).toHaveLength(1);
      expect(doc.getTrailer().get("Root", "PageMode").asName()).toBe("UseAttachments");
      expect(doc.getTrailer().get("Root", "Lang").asString()).toBe("de-DE");
    } finally {
      doc.destroy();
    }
    expect(out.length).toBeLessThan(src.length);
  });

  test("an encrypted input stays encrypted with the same password", () => {
    const src = encryptPdf(makePdf({ pages: 3 }), { userPassword: "u", ownerPassword: "o" });
    const out = edit(src, (d) => deletePages(d, [1]), "u");
    expect(() => openPdf(out)).toThrow(QuireError);
    expect(pageTexts(out, "u")).toEqual(["Page 1", "Page 3"]);
  });

  test("deleting every page → 450", () => {
    const doc = openPdf(makePdf({ pages: 2 }));
    try {
      expect(() => deletePages(doc, [0, 1])).toThrow(expect.objectContaining({ status: 450 }));
    } finally {
      doc.destroy();
    }
  });
});

describe("rotatePages", () => {
  test.each([
    [90, 0, 90],
    [180, 90, 270],
    [270, 180, 90],
    [-90, 0, 270],
    [450, 0, 90],
  ])("angle %i on a page at %i → %i", (angle, start, want) => {
    const src = makePdf({ pages: 2, rotate: start as 0 | 90 | 180 | 270 });
    const doc = new mupdf.PDFDocument(edit(src, (d) => rotatePages(d, [0], angle), undefined, false));
    try {
      expect(doc.findPage(0).get("Rotate").asNumber()).toBe(want);
      expect(doc.findPage(1).getInheritable("Rotate").asNumber()).toBe(start);
    } finally {
      doc.destroy();
    }
  });

  test("an inherited /Rotate counts as the page's current rotation", () => {
    const doc = openPdf(makePdf({ pages: 2 }));
    try {
      const tree = doc.getTrailer().get("Root", "Pages");
      tree.put("Rotate", 90);
      for (const i of [0, 1]) doc.findPage(i).delete("Rotate");
      rotatePages(doc, [0, 1], 90);
      expect([0, 1].map((i) => doc.findPage(i).get("Rotate").asNumber())).toEqual([180, 180]);
      expect(doc.loadPage(0).getBounds()).toEqual([0, 0, 612, 792]);
    } finally {
      doc.destroy();
    }
  });

  test("normalizeAngle", () => {
    expect([0, 90, 360, -90, -180, 630].map(normalizeAngle)).toEqual([0, 90, 0, 270, 180, 270]);
  });
});
