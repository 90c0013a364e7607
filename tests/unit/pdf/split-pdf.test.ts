import * as mupdf from "mupdf";
import { describe, expect, test } from "vitest";
import { QuireError } from "@/lib/core/errors";
import { listFields } from "@/lib/engine/pdf/list-fields";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { extractPages, planSplit, splitBaseName, splitPdf } from "@/lib/engine/pdf/split-pdf";
import { encryptPdf, makeFormPdf, makePdf, makePdfDocument, pageTexts } from "@/tests/helpers/pdf-fixtures";

const statusOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as QuireError).status;
  }
  return undefined;
};

describe("planSplit", () => {
  test("empty pages: every page on its own", () => {
    expect(planSplit(3, undefined)).toEqual([
      { pages: [0], name: "result_page1.pdf" },
      { pages: [1], name: "result_page2.pdf" },
      { pages: [2], name: "result_page3.pdf" },
    ]);
    expect(planSplit(2, "  ").map((p) => p.name)).toEqual(["result_page1.pdf", "result_page2.pdf"]);
  });

  test.each([
    ["1-2,3", 5, [[0, 1], [2]], ["result_page1-2.pdf", "result_page3.pdf"]],
    ["3-", 5, [[2, 3, 4]], ["result_page3-5.pdf"]],
    ["!1", 5, [[4]], ["result_page5.pdf"]],
    ["!3-!1", 5, [[2, 3, 4]], ["result_page3-5.pdf"]],
    ["1, 4 - 5", 5, [[0], [3, 4]], ["result_page1.pdf", "result_page4-5.pdf"]],
    ["2,2", 5, [[1], [1]], ["result_page2.pdf", "result_page2(2).pdf"]],
  ])("pages %s of %i", (pages, count, groups, names) => {
    const plan = planSplit(count, pages);
    expect(plan.map((p) => p.pages)).toEqual(groups);
    expect(plan.map((p) => p.name)).toEqual(names);
  });

  test("a caller name becomes the base: doc.pdf → doc_page1-2.pdf", () => {
    expect(planSplit(3, "1-2,3", "doc.pdf").map((p) => p.name)).toEqual(["doc_page1-2.pdf", "doc_page3.pdf"]);
    expect(splitBaseName("../x/report")).toBe("report");
    expect(splitBaseName("")).toBe("result");
    expect(splitBaseName("a:b?.PDF")).toBe("ab");
  });

  test.each([
    ["6", 5, 449],
    ["4-9", 5, 449],
    ["!6", 5, 449],
    ["0", 5, 450],
    ["3-1", 5, 450],
    ["a", 5, 450],
    ["1,,2", 5, 450],
    ["1,1,1", 2, 450],
  ])("pages %s of %i → %i", (pages, count, status) => {
    expect(statusOf(() => planSplit(count, pages))).toBe(status);
  });
});

describe("extractPages / splitPdf", () => {
  test("each part holds exactly its pages, in order", () => {
    const doc = openPdf(makePdf({ pages: 6 }));
    const parts = planSplit(6, "1-2,3,!2-");
    const out: { name: string; texts: string[] }[] = [];
    splitPdf(doc, parts, (part, bytes) => out.push({ name: part.name, texts: pageTexts(bytes) }));
    doc.destroy();
    expect(out).toEqual([
      { name: "result_page1-2.pdf", texts: ["Page 1", "Page 2"] },
      { name: "result_page3.pdf", texts: ["Page 3"] },
      { name: "result_page5-6.pdf", texts: ["Page 5", "Page 6"] },
    ]);
  });

  test("keeps page size, rotation and the descriptive metadata", () => {
    const doc = openPdf(
      makePdf({
        pages: 2,
        size: (i) => (i === 0 ? [300, 400] : [500, 600]),
        rotate: 90,
        info: { Title: "T" },
      }),
    );
    const part = new mupdf.PDFDocument(Buffer.from(extractPages(doc, [1])));
    doc.destroy();
    const page = part.findPage(0);
    expect(page.get("MediaBox").toString()).toBe("[0 0 500 600]");
    expect(page.get("Rotate").asNumber()).toBe(90);
    expect(part.getMetaData("info:Title")).toBe("T");
  });

  test("links to pages inside a part are kept and re-pointed; links outside are dropped", () => {
    const src = makePdfDocument({ pages: 4 });
    const p0 = src.loadPage(0);
    p0.createLink([72, 72, 200, 100], "#page=2");
    p0.createLink([72, 120, 200, 140], "#page=4");
    p0.createLink([72, 160, 200, 180], "https://example.com/");
    const bytes = Buffer.from(src.saveToBuffer("").asUint8Array());
    src.destroy();
    const doc = openPdf(bytes);
    const part = new mupdf.PDFDocument(Buffer.from(extractPages(doc, [0, 1])));
    doc.destroy();
    expect(part.countPages()).toBe(2);
    expect(
      part
        .loadPage(0)
        .getLinks()
        .map((l) => l.getURI()),
    ).toEqual(["#page=2", "https://example.com/"]);
    // Only this part's objects were written: no stray copy of the source page tree.
    expect(part.countObjects()).toBeLessThan(20);
  });

  test("form widgets keep their fields in a trimmed AcroForm", async () => {
    const doc = openPdf(await makeFormPdf());
    const second = openPdf(extractPages(doc, [1]));
    const first = openPdf(extractPages(doc, [0]));
    doc.destroy();
    expect(listFields(second).map((f) => [f.FieldName, f.Type, f.Value, f.PageIndex])).toEqual([
      ["country", "ComboBox", "Germany", 0],
      ["fruits", "ListBox", "Banana", 0],
      ["submit", "PushButton", "", 0],
      ["signature", "Signature", "", 0],
    ]);
    expect(listFields(first).map((f) => f.FieldName)).toEqual(["name", "address.city", "agree", "color"]);
    expect(listFields(first).find((f) => f.FieldName === "color")?.Value).toBe("green");
    // Appearance streams come along as streams, with their content.
    const widget = first.findPage(0).get("Annots", 0);
    const normal = widget.get("AP", "N");
    expect(normal.isStream()).toBe(true);
    expect(normal.readStream().asString()).toMatch(/BT[\s\S]*Tj[\s\S]*ET/);
  });

  test("an encrypted source gives readable, unencrypted parts", () => {
    const doc = openPdf(encryptPdf(makePdf({ pages: 3 }), { userPassword: "pw" }), "pw");
    const part = extractPages(doc, [2]);
    doc.destroy();
    expect(pageTexts(part)).toEqual(["Page 3"]);
    expect(new mupdf.PDFDocument(Buffer.from(part)).needsPassword()).toBe(false);
  });

  test("500 pages into 500 files quickly", () => {
    const doc = openPdf(makePdf({ pages: 500 }));
    const started = performance.now();
    let files = 0;
    splitPdf(doc, planSplit(500, ""), () => files++);
    const ms = performance.now() - started;
    doc.destroy();
    expect(files).toBe(500);
    expect(ms).toBeLessThan(3000);
  });
});
