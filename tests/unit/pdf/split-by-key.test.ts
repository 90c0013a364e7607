import { describe, expect, test } from "vitest";
import { pageSearchText, parseKeySearch, planKeySplit } from "@/lib/engine/pdf/split-by-key";
import type { PageText, Word } from "@/lib/engine/text/types";

const word = (text: string, lineId: number): Word => ({ text, x0: 0, y0: 0, x1: 1, y1: 1, fontSize: 10, fontName: "F", bold: false, italic: false, color: 0, lineId });
const page = (lines: string[][]): PageText => ({
  index: 0,
  width: 612,
  height: 792,
  rotation: 0,
  rules: [],
  words: lines.flatMap((l, i) => l.map((t) => word(t, i))),
});

describe("parseKeySearch", () => {
  const text = pageSearchText(page([["Acme", "Ltd"], ["Invoice", "Number:", "1001"], ["Total", "42.00"]]));

  test("page text: words by spaces, lines by line breaks", () => {
    expect(text).toBe("Acme Ltd\nInvoice Number: 1001\nTotal 42.00");
  });

  test("plain text: any case by default, white space matches line breaks, caseSensitive", () => {
    const s = parseKeySearch("invoice number");
    expect(s.kind).toBe("text");
    expect(s.kind === "text" && s.test(text)).toBe(true);
    const across = parseKeySearch("Ltd  Invoice");
    expect(across.kind === "text" && across.test(text)).toBe(true);
    const exact = parseKeySearch("invoice number", { caseSensitive: true });
    expect(exact.kind === "text" && exact.test(text)).toBe(false);
    const dots = parseKeySearch("42.0?");
    expect(dots.kind === "text" && dots.test("Total 42.00")).toBe(false); // regex characters are literal
  });

  test("regexSearch: over lines (^ and $ per line)", () => {
    const s = parseKeySearch("^invoice number: \\d{4}$", { regex: true });
    expect(s.kind === "text" && s.test(text)).toBe(true);
    const strict = parseKeySearch("^Invoice number", { regex: true, caseSensitive: true });
    expect(strict.kind === "text" && strict.test(text)).toBe(false);
  });

  test("an invalid expression → 400 naming searchString; empty → 400", () => {
    expect(() => parseKeySearch("([a-z", { regex: true })).toThrow(expect.objectContaining({ status: 400, message: expect.stringMatching(/^searchString: not a valid regular expression/) }));
    expect(() => parseKeySearch("   ")).toThrow(expect.objectContaining({ status: 400 }));
  });

  test("the barcode macro of the official samples, and its other forms", () => {
    const s = parseKeySearch("[[barcode:qrcode,datamatrix /bytescout\\.com/]]");
    expect(s).toMatchObject({ kind: "barcode", types: ["qrcode", "datamatrix"] });
    if (s.kind !== "barcode" || !s.value) throw new Error("no value test");
    expect(s.value("https://BYTESCOUT.com/x")).toBe(true);
    expect(s.value("bytescoutXcom")).toBe(false);
    const plain = parseKeySearch("[[barcode:code128 ABC-1]]");
    expect(plain.kind === "barcode" && plain.value?.("xx abc-1")).toBe(true);
    expect(parseKeySearch("[[barcode:qrcode]]")).toMatchObject({ kind: "barcode", types: ["qrcode"], value: null });
    expect(() => parseKeySearch("[[barcode:qrcode /(/]]")).toThrow(expect.objectContaining({ status: 400 }));
  });
});

describe("planKeySplit", () => {
  const pages = (plan: ReturnType<typeof planKeySplit>) => plan.map((p) => p.pages);
  const names = (plan: ReturnType<typeof planKeySplit>) => plan.map((p) => p.name);

  test("each key page starts a part; pages before the first are a part", () => {
    const plan = planKeySplit(6, [2, 4]);
    expect(pages(plan)).toEqual([[0, 1], [2, 3], [4, 5]]);
    expect(names(plan)).toEqual(["result_page1-2.pdf", "result_page3-4.pdf", "result_page5-6.pdf"]);
  });

  test("a key first page, consecutive key pages, name as base", () => {
    expect(pages(planKeySplit(4, [0, 1, 3]))).toEqual([[0], [1, 2], [3]]);
    expect(names(planKeySplit(3, [0], { name: "batch.pdf" }))).toEqual(["batch_page1-3.pdf"]);
  });

  test("excludeKeyPages leaves the key pages out", () => {
    expect(pages(planKeySplit(7, [0, 3, 4], { excludeKeyPages: true }))).toEqual([[1, 2], [5, 6]]);
    expect(names(planKeySplit(7, [0, 3, 4], { excludeKeyPages: true }))).toEqual(["result_page2-3.pdf", "result_page6-7.pdf"]);
    expect(pages(planKeySplit(2, [0, 1], { excludeKeyPages: true }))).toEqual([]);
  });

  test("no key page: the whole file", () => {
    expect(pages(planKeySplit(3, []))).toEqual([[0, 1, 2]]);
    expect(pages(planKeySplit(3, [], { excludeKeyPages: true }))).toEqual([[0, 1, 2]]);
  });
});
