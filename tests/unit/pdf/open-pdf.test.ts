import { afterEach, describe, expect, test, vi } from "vitest";
import { QuireError } from "@/lib/core/errors";
import { openPdf, openPdfWithAccess, recentMupdfLog } from "@/lib/engine/pdf/open-pdf";
import { encryptPdf, makeDamagedPdf, makePdf } from "@/tests/helpers/pdf-fixtures";

function statusOf(fn: () => unknown): number | undefined {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(QuireError);
    return (e as QuireError).status;
  }
  return undefined;
}

afterEach(() => vi.restoreAllMocks());

describe("openPdf", () => {
  test("opens a plain PDF", () => {
    const doc = openPdf(makePdf({ pages: 3 }));
    expect(doc.countPages()).toBe(3);
    doc.destroy();
  });

  test.each(["random", "truncated", "html", "no-pages", "empty"] as const)("%s bytes → 442", (kind) => {
    expect(statusOf(() => openPdf(makeDamagedPdf(kind)))).toBe(442);
  });

  test("442 message says the file is not a PDF", () => {
    expect(() => openPdf(makeDamagedPdf("html"))).toThrow(/not a PDF or is damaged beyond repair/);
  });

  test("a PDF cut in half is repaired, not refused", () => {
    const full = makePdf({ pages: 3 });
    const doc = openPdf(full.subarray(0, Math.floor(full.length * 0.9)));
    expect(doc.countPages()).toBeGreaterThan(0);
    doc.destroy();
  });

  test("a lost page tree counts the page objects that exist, not the linearization dictionary's /N", () => {
    // Like py-pdf's unreadablemetadata.pdf: a linearized file cut short, its /Pages object and
    // one page lost. /N (4) is what the file once had; poppler reports that figure with every
    // page 0 × 0 pt (it cannot load any of them); only three page objects are in the bytes.
    const page = (n: number, text: string) => {
      const content = `BT /F1 12 Tf 20 100 Td (${text}) Tj ET`;
      return (
        `${n} 0 obj\n<</Type/Page/MediaBox[0 0 200 200]/Parent 9 0 R/Contents ${n + 1} 0 R/Resources<</Font<</F1<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>>>>>>>\nendobj\n` +
        `${n + 1} 0 obj\n<</Length ${content.length}>>\nstream\n${content}\nendstream\nendobj\n`
      );
    };
    const pdf = Buffer.from(
      "%PDF-1.4\n1 0 obj\n<</Linearized 1/L 5000/O 3/E 900/N 4/T 4000/H [100 50]>>\nendobj\n" +
        "2 0 obj\n<</Type/Catalog/Pages 9 0 R>>\nendobj\n" +
        page(3, "First") + page(5, "Second") + page(7, "Third") +
        "trailer\n<</Root 2 0 R/Size 10>>\n%%EOF\n",
    );
    const doc = openPdf(pdf);
    try {
      expect(doc.countPages()).toBe(3);
      const texts = [0, 1, 2].map((i) => {
        const p = doc.loadPage(i);
        const st = p.toStructuredText("preserve-whitespace");
        const t = st.asText().trim();
        st.destroy();
        p.destroy();
        return t;
      });
      expect(texts).toEqual(["First", "Second", "Third"]);
    } finally {
      doc.destroy();
    }
  });

  test("damaged files do not print MuPDF warnings", () => {
    const out = vi.spyOn(process.stdout, "write");
    const err = vi.spyOn(process.stderr, "write");
    const log = vi.spyOn(console, "log");
    const cerr = vi.spyOn(console, "error");
    const full = makePdf({ pages: 2 });
    openPdf(full.subarray(0, Math.floor(full.length * 0.9))).destroy();
    expect(statusOf(() => openPdf(makeDamagedPdf("truncated")))).toBe(442);
    for (const spy of [out, err, log, cerr]) expect(spy).not.toHaveBeenCalled();
    expect(recentMupdfLog().length).toBeGreaterThan(0);
  });

  test("encrypted without a password → 441 asking for it", () => {
    const enc = encryptPdf(makePdf(), { userPassword: "secret" });
    expect(statusOf(() => openPdf(enc))).toBe(441);
    expect(() => openPdf(enc, "")).toThrow(/send its password in `password`/);
  });

  test("wrong password → 441 wrong password", () => {
    const enc = encryptPdf(makePdf(), { userPassword: "secret" });
    expect(statusOf(() => openPdf(enc, "nope"))).toBe(441);
    expect(() => openPdf(enc, "nope")).toThrow(/wrong password/);
  });

  test("user and owner passwords both open; the owner one is told apart", () => {
    const enc = encryptPdf(makePdf({ pages: 2 }), {
      userPassword: "user",
      ownerPassword: "boss",
      permissions: ["print"],
    });
    const asUser = openPdfWithAccess(enc, "user");
    expect(asUser.access).toBe("user");
    expect(asUser.doc.hasPermission("assemble")).toBe(false);
    asUser.doc.destroy();
    const asOwner = openPdfWithAccess(enc, "boss");
    expect(asOwner.access).toBe("owner");
    expect(asOwner.doc.hasPermission("assemble")).toBe(true);
    asOwner.doc.destroy();
  });

  test("empty user password opens without a password; a wrong one is ignored", () => {
    const enc = encryptPdf(makePdf(), { userPassword: "", ownerPassword: "boss", permissions: [] });
    expect(openPdfWithAccess(enc).access).toBe("empty");
    expect(openPdfWithAccess(enc, "whatever").access).toBe("empty");
    expect(openPdfWithAccess(enc, "boss").access).toBe("owner");
  });

  test("an unencrypted PDF ignores a password", () => {
    expect(openPdfWithAccess(makePdf(), "x").access).toBe("none");
  });
});
