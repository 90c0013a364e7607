import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import * as mupdf from "mupdf";
import { afterAll, describe, expect, test } from "vitest";
import { run as deleteText } from "@/lib/operations/pdf-edit-delete-text/runner";
import { run as replaceText } from "@/lib/operations/pdf-edit-replace-text/runner";
import { run as replaceWithImage } from "@/lib/operations/pdf-edit-replace-text-with-image/runner";
import { encryptPdf, makePdf, pageTexts } from "@/tests/helpers/pdf-fixtures";
import { allStreamsText, makeFormXObjectPdf } from "@/tests/helpers/text-fixtures";
import { messageOf, runRunner, statusOf, workspace } from "../pages/run-helper";

/** pdf-edit-delete-text, -replace-text, -replace-text-with-image: true removal, checked with pdftotext. */

const ws = workspace("quire-text-edit-");
afterAll(() => ws.cleanup());

const pdf = makePdf({ pages: 2, text: (i) => `Secret code ABC-${i + 1}\nKeep this line\nSecret again` });

/** Text as poppler's pdftotext reads it (a second, independent extractor). */
function pdftotext(bytes: Uint8Array): string {
  const file = path.join(ws.dir, `check-${Math.random().toString(36).slice(2)}.pdf`);
  fs.writeFileSync(file, bytes);
  return execFileSync("pdftotext", ["-layout", file, "-"]).toString();
}

/** Word boxes of a page (MuPDF), to check where a replacement landed. */
function wordBox(bytes: Uint8Array, pageIndex: number, text: string) {
  const doc = new mupdf.PDFDocument(Buffer.from(bytes));
  try {
    const st = doc.loadPage(pageIndex).toStructuredText("preserve-whitespace");
    const hits = st.search(text, undefined) as unknown as number[][][];
    if (!hits.length) return null;
    const q = hits[0][0];
    return { x0: Math.min(q[0], q[4]), y0: Math.min(q[1], q[3]), x1: Math.max(q[2], q[6]), y1: Math.max(q[5], q[7]) };
  } finally {
    doc.destroy();
  }
}

describe("pdf-edit-delete-text runner", () => {
  test("the text is gone from the content (pdftotext), the rest of the line and page stays", async () => {
    const r = await runRunner(deleteText, { url: "x", searchString: "Secret" }, [ws.source("a.pdf", pdf)], ws.dir);
    const text = pdftotext(r.files[0]);
    expect(text).not.toMatch(/Secret/);
    expect(text).toMatch(/code ABC-1/);
    expect(text).toMatch(/code ABC-2/);
    expect(text).toMatch(/Keep this line/);
    expect(text).toMatch(/again/);
    expect(allStreamsText(r.files[0])).not.toMatch(/Secret/);
    expect(r.pageCount).toBe(2);
    expect(r.message).toMatch(/4 occurrence/);
  });

  test("text drawn by a Form XObject is removed too, and no stream of the file holds it any more", async () => {
    const pdf = makeFormXObjectPdf();
    expect(allStreamsText(pdf)).toMatch(/secret/);
    const r = await runRunner(deleteText, { url: "x", searchString: "secret" }, [ws.source("x.pdf", pdf)], ws.dir);
    expect(pdftotext(r.files[0])).not.toMatch(/secret/);
    expect(pdftotext(r.files[0])).toMatch(/in a form/);
    expect(allStreamsText(r.files[0])).not.toMatch(/secret/);
  });

  test("searchStrings, regex, pages and replacementLimit", async () => {
    const r = await runRunner(deleteText, { url: "x", searchStrings: ["ABC-\\d", "Keep"], regex: true, pages: "1" }, [ws.source("a.pdf", pdf)], ws.dir);
    const [p0, p1] = pageTexts(r.files[0]);
    expect(p0).toMatch(/ABC-1/);
    expect(p1).not.toMatch(/ABC-2|Keep/);
    expect(r.pageCount).toBe(2);
    expect(r.pagesProcessed).toBe(1);
    const limited = await runRunner(deleteText, { url: "x", searchString: "Secret", replacementLimit: 1 }, [ws.source("a.pdf", pdf)], ws.dir);
    expect(pdftotext(limited.files[0]).match(/Secret/g)).toHaveLength(3);
  });

  test("rotated and cropped pages: the redaction lands on the text in the page's own frame", async () => {
    const rotated = makePdf({ pages: 1, rotate: 90, text: () => "Remove me but keep me" });
    const r = await runRunner(deleteText, { url: "x", searchString: "Remove me" }, [ws.source("r.pdf", rotated)], ws.dir);
    expect(pageTexts(r.files[0])[0]).toBe("but keep me");
    // A replacement follows the text's direction on the rotated page and reads on the same line.
    const rr = await runRunner(replaceText, { url: "x", searchString: "Remove", replaceString: "Leave" }, [ws.source("r.pdf", rotated)], ws.dir);
    expect(pdftotext(rr.files[0])).toMatch(/Leave\s+me but keep me/);
    const doc = new mupdf.PDFDocument(makePdf({ pages: 1, text: () => "Cropped secret here" }));
    const crop = doc.newArray();
    for (const v of [36, 36, 500, 740]) crop.push(v);
    doc.findPage(0).put("CropBox", crop);
    const cropped = Buffer.from(doc.saveToBuffer("").asUint8Array());
    doc.destroy();
    const c = await runRunner(deleteText, { url: "x", searchString: "secret" }, [ws.source("c.pdf", cropped)], ws.dir);
    expect(pageTexts(c.files[0])[0]).toMatch(/^Cropped\s+here$/);
  });

  test("case sensitivity: default exact case", async () => {
    const r = await runRunner(deleteText, { url: "x", searchString: "secret" }, [ws.source("a.pdf", pdf)], ws.dir);
    expect(pdftotext(r.files[0]).match(/Secret/g)).toHaveLength(4);
    const any = await runRunner(deleteText, { url: "x", searchString: "secret", caseSensitive: false }, [ws.source("a.pdf", pdf)], ws.dir);
    expect(pdftotext(any.files[0])).not.toMatch(/Secret/);
  });

  test("bad input: no search → 400, invalid regex → 400, wrong password → 441", async () => {
    expect(await statusOf(runRunner(deleteText, { url: "x" }, [ws.source("a.pdf", pdf)], ws.dir))).toBe(400);
    expect(await statusOf(runRunner(deleteText, { url: "x", searchString: "(", regex: true }, [ws.source("a.pdf", pdf)], ws.dir))).toBe(400);
    expect(await messageOf(runRunner(deleteText, { url: "x", searchStrings: ["ok", "[x"], regex: true }, [ws.source("a.pdf", pdf)], ws.dir))).toMatch(
      /^searchStrings\[1\]: not a valid regular expression/,
    );
    const locked = encryptPdf(pdf, { userPassword: "u", ownerPassword: "o" });
    expect(await statusOf(runRunner(deleteText, { url: "x", searchString: "Secret", password: "bad" }, [ws.source("l.pdf", locked)], ws.dir))).toBe(441);
    const ok = await runRunner(deleteText, { url: "x", searchString: "Secret", password: "o" }, [ws.source("l.pdf", locked)], ws.dir);
    expect(pageTexts(ok.files[0], "o")[0]).not.toMatch(/Secret/);
  });
});

describe("pdf-edit-replace-text runner", () => {
  test("the new text sits where the old one was, in the same size; the old one is gone", async () => {
    const before = wordBox(pdf, 0, "ABC-1")!;
    const r = await runRunner(replaceText, { url: "x", searchString: "ABC-1", replaceString: "XYZ-9" }, [ws.source("a.pdf", pdf)], ws.dir);
    const text = pdftotext(r.files[0]);
    expect(text).not.toMatch(/ABC-1/);
    expect(text).toMatch(/Secret code XYZ-9/);
    const after = wordBox(r.files[0], 0, "XYZ-9")!;
    expect(after.x0).toBeCloseTo(before.x0, 0);
    expect(after.y0).toBeCloseTo(before.y0, 0);
    expect(after.y1 - after.y0).toBeCloseTo(before.y1 - before.y0, 0);
  });

  test("searchStrings with replaceStrings pair up in order", async () => {
    const r = await runRunner(replaceText, { url: "x", searchStrings: ["Secret", "Keep"], replaceStrings: ["Public", "Drop"] }, [ws.source("a.pdf", pdf)], ws.dir);
    const text = pdftotext(r.files[0]);
    expect(text).toMatch(/Public code ABC-1/);
    expect(text).toMatch(/Drop this line/);
    expect(text).toMatch(/Public again/);
    expect(text).not.toMatch(/Secret|Keep/);
  });

  test("more search strings than replacements → 400", async () => {
    const p = runRunner(replaceText, { url: "x", searchStrings: ["a", "b"], replaceStrings: ["c"] }, [ws.source("a.pdf", pdf)], ws.dir);
    expect(await messageOf(p)).toMatch(/2 search string\(s\) but 1 replacement/);
    expect(await statusOf(runRunner(replaceText, { url: "x", searchString: "a" }, [ws.source("a.pdf", pdf)], ws.dir))).toBe(400);
  });

  test("makeUnsearchable: no text at all is left", async () => {
    const r = await runRunner(replaceText, { url: "x", searchString: "Secret", replaceString: "Open", makeUnsearchable: true }, [ws.source("a.pdf", pdf)], ws.dir);
    expect(pdftotext(r.files[0]).trim()).toBe("");
  });
});

describe("pdf-edit-replace-text-with-image runner", () => {
  test("the text is gone and an image is drawn in its box", async () => {
    // A 4×2 red PNG as a data: URI.
    const png = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, 4, 2], false);
    png.clear(0);
    const uri = `data:image/png;base64,${Buffer.from(png.asPNG()).toString("base64")}`;
    const r = await runRunner(replaceWithImage, { url: "x", searchString: "ABC-1", replaceImage: uri }, [ws.source("a.pdf", pdf)], ws.dir);
    expect(pdftotext(r.files[0])).not.toMatch(/ABC-1/);
    const doc = new mupdf.PDFDocument(Buffer.from(r.files[0]));
    try {
      const images: number[][] = [];
      doc.loadPage(0).run(
        new mupdf.Device({
          fillImage(_img: mupdf.Image, ctm: mupdf.Matrix) {
            images.push([...ctm]);
          },
        }),
        mupdf.Matrix.identity,
      );
      expect(images).toHaveLength(1);
      const before = wordBox(pdf, 0, "ABC-1")!;
      const [a, , , d, e, f] = images[0];
      expect(e).toBeCloseTo(before.x0, 0);
      // 2:1 image fitted into the box's height or width, whichever limits it.
      expect(Math.abs(a)).toBeCloseTo(2 * Math.abs(d), 1);
      expect(f).toBeGreaterThanOrEqual(before.y0 - 1);
    } finally {
      doc.destroy();
    }
  });
});
