/**
 * Real-world files of the shared developer corpus (/work/shared/corpus, see its README):
 * py-pdf's sample files with their recorded page counts, and qpdf's deliberately damaged PDFs,
 * which must each open (recovered) or fail with a clean 442, never crash. Skipped where the
 * corpus is not present.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import * as mupdf from "mupdf";
import { describe, expect, test } from "vitest";
import { QuireError } from "@/lib/core/errors";
import { extractAttachments } from "@/lib/engine/pdf/extract-attachments";
import { listFields } from "@/lib/engine/pdf/list-fields";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { readInfo } from "@/lib/engine/pdf/read-info";
import { extractPages } from "@/lib/engine/pdf/split-pdf";

const CORPUS = process.env.QUIRE_CORPUS ?? "/work/shared/corpus";
const INFO_DIR = path.join(CORPUS, "pdf-info");
const BROKEN_DIR = path.join(CORPUS, "broken-pdfs");

interface SampleFile {
  path: string;
  producer: string | null;
  encrypted: boolean;
  pages: number;
  forms: number;
  annotations: Record<string, number>;
}

const samples: SampleFile[] = existsSync(path.join(INFO_DIR, "files.json"))
  ? (JSON.parse(readFileSync(path.join(INFO_DIR, "files.json"), "utf8")).data as SampleFile[]).filter((f) =>
      existsSync(path.join(INFO_DIR, f.path)),
    )
  : [];

/**
 * The one sample whose /Pages object is missing: Quire rebuilds its 3 pages from the page
 * objects (178, 1 and 43, the only /Type /Page dictionaries in the bytes; the file is cut short
 * inside object 78). The recorded 4 and poppler's 4 come from the linearization dictionary's
 * /N; poppler cannot load any of those pages (it reports each as 0 × 0 pt).
 */
const LOST_PAGE_TREE = "017-unreadable-meta-data/unreadablemetadata.pdf";

describe.skipIf(samples.length === 0)("py-pdf sample files", () => {
  test.each(samples.map((s) => [s.path, s] as const))("%s", (_name, sample) => {
    const password = sample.encrypted ? "openpassword" : undefined;
    const doc = openPdf(readFileSync(path.join(INFO_DIR, sample.path)), password);
    try {
      const info = readInfo(doc);
      expect(info.Encrypted).toBe(sample.encrypted);
      if (sample.path === LOST_PAGE_TREE) {
        expect(info.PageCount).toBe(3);
        return;
      }
      expect(info.PageCount).toBe(sample.pages);
      if (!sample.encrypted) expect(info.Producer).toBe(sample.producer ?? "");
      const widgets = sample.annotations.Widget ?? 0;
      if (widgets > 0) expect(listFields(doc).length).toBeGreaterThan(0);
      // Splitting into single pages keeps every annotation and every page's size.
      let annotations = 0;
      for (let i = 0; i < info.PageCount; i++) {
        const part = new mupdf.PDFDocument(Buffer.from(extractPages(doc, [i])));
        expect(part.countPages()).toBe(1);
        const annots = part.findPage(0).get("Annots");
        annotations += annots.isArray() ? annots.length : 0;
        expect(part.loadPage(0).getBounds()).toEqual(doc.loadPage(i).getBounds());
        part.destroy();
      }
      const expected = Object.values(sample.annotations).reduce((a, b) => a + b, 0);
      expect(annotations).toBeGreaterThanOrEqual(expected);
    } finally {
      doc.destroy();
    }
  });

  test.skipIf(!samples.some((s) => s.path.startsWith("025-")))(
    "the attachment sample yields its file",
    () => {
      const sample = samples.find((s) => s.path.startsWith("025-"))!;
      const doc = openPdf(readFileSync(path.join(INFO_DIR, sample.path)));
      const atts = extractAttachments(doc);
      doc.destroy();
      expect(atts.map((a) => [a.name, a.contentType])).toEqual([["image.png", "image/png"]]);
      expect(Buffer.from(atts[0].bytes.subarray(0, 4)).toString("hex")).toBe("89504e47");
    },
  );

  test.skipIf(!samples.some((s) => s.encrypted))("the encrypted sample needs its password", () => {
    const sample = samples.find((s) => s.encrypted)!;
    const bytes = readFileSync(path.join(INFO_DIR, sample.path));
    expect(() => openPdf(bytes)).toThrow(/encrypted/);
    expect(() => openPdf(bytes, "nope")).toThrow(/wrong password/);
    const owner = openPdf(bytes, "permissionpassword");
    expect(readInfo(owner).PageCount).toBe(sample.pages);
    owner.destroy();
  });
});

const brokenCases: { file: string; defect: string }[] = existsSync(path.join(BROKEN_DIR, "cases.json"))
  ? JSON.parse(readFileSync(path.join(BROKEN_DIR, "cases.json"), "utf8")).cases
  : [];

/** Files MuPDF cannot recover a page from: not a PDF, or the page tree inside a self-containing object stream. */
const UNRECOVERABLE = new Set(["bad1.pdf", "bad40.pdf"]);

describe.skipIf(brokenCases.length === 0)("qpdf's damaged PDFs", () => {
  test.each(brokenCases.map((c) => [c.file, c.defect] as const))(
    "%s (%s) opens or fails with 442",
    (file) => {
      const bytes = readFileSync(path.join(BROKEN_DIR, file));
      let doc: mupdf.PDFDocument;
      try {
        doc = openPdf(bytes);
      } catch (e) {
        expect(e).toBeInstanceOf(QuireError);
        expect((e as QuireError).status).toBe(442);
        expect(UNRECOVERABLE.has(file)).toBe(true);
        return;
      }
      try {
        expect(UNRECOVERABLE.has(file)).toBe(false);
        const info = readInfo(doc);
        expect(info.PageCount).toBeGreaterThan(0);
        listFields(doc);
        extractAttachments(doc);
        for (let i = 0; i < info.PageCount; i++)
          expect(extractPages(doc, [i]).byteLength).toBeGreaterThan(100);
      } finally {
        doc.destroy();
      }
    },
  );
});
