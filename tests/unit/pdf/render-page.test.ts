import { describe, expect, test } from "vitest";
import { QuireError } from "@/lib/core/errors";
import { renderPdfPage } from "@/lib/engine/pdf/render-page";
import { makePdf } from "@/tests/helpers/pdf-fixtures";

describe("renderPdfPage", () => {
  test("renders a PNG of the page at the dpi asked", () => {
    const pdf = makePdf({ pages: 2 });
    const r = renderPdfPage(pdf, 1, { dpi: 72 });
    expect([r.width, r.height]).toEqual([612, 792]);
    expect(Buffer.from(r.png.subarray(0, 8)).toString("hex")).toBe("89504e470d0a1a0a");
    const big = renderPdfPage(pdf, 0, { dpi: 144 });
    expect([big.width, big.height]).toEqual([1224, 1584]);
  });

  test("a page past the end → 449, a silly dpi → 454", () => {
    const pdf = makePdf();
    expect(() => renderPdfPage(pdf, 1)).toThrow(QuireError);
    try {
      renderPdfPage(pdf, 1);
    } catch (e) {
      expect((e as QuireError).status).toBe(449);
    }
    try {
      renderPdfPage(pdf, 0, { dpi: 5000 });
    } catch (e) {
      expect((e as QuireError).status).toBe(454);
    }
  });
});
