import { describe, expect, it } from "vitest";
import { checkPageSelection, parsePageGroups, parsePages } from "@/lib/engine/pages";
import { pagesPreset } from "@/lib/dashboard/operations/pages-presets";

describe("page selection", () => {
  it.each([
    ["", 0, 4, [[0, 1, 2, 3]]],
    ["0", 0, 4, [[0]]],
    ["1-2", 0, 4, [[1, 2]]],
    ["2-", 0, 4, [[2, 3]]],
    ["!0", 0, 4, [[3]]],
    ["!1", 1, 4, [[3]]],
    ["!3-!1", 0, 4, [[0, 1, 2]]],
    [" 1 - 2 , 4 ", 1, 5, [[0, 1], [3]]],
    ["1,3-", 1, 5, [[0], [2, 3, 4]]],
  ])("%j (base %i, %i pages)", (spec, base, count, expected) => {
    expect(parsePageGroups(spec, count, base as 0 | 1)).toEqual(expected);
  });

  it("flattens without duplicates", () => {
    expect(parsePages("0-2,1,!0", 5, 0)).toEqual([0, 1, 2, 4]);
  });

  it("past the end → 449, malformed → 450", () => {
    expect(() => parsePages("9", 3, 0)).toThrow(expect.objectContaining({ status: 449 }));
    expect(() => parsePages("0", 3, 1)).toThrow(expect.objectContaining({ status: 450 }));
    expect(() => parsePages("a-b", 3, 0)).toThrow(expect.objectContaining({ status: 450 }));
    expect(() => parsePages("3-1", 5, 0)).toThrow(expect.objectContaining({ status: 450 }));
    expect(() => parsePages("1,,2", 5, 0)).toThrow(expect.objectContaining({ status: 450 }));
  });

  it("checks a selection as typed, without the document (the dashboard's page field)", () => {
    expect(checkPageSelection("0, 1-3, 5-, !0, !3-!1", 0)).toBeNull();
    expect(checkPageSelection(" 1 - 2 , 4 ", 1)).toBeNull();
    expect(checkPageSelection("", 1)).toBeNull();
    expect(checkPageSelection("3-1", 0)).toMatch(/"3-1" ends before it starts/);
    expect(checkPageSelection("!1-!3", 0)).toMatch(/ends before it starts/);
    expect(checkPageSelection("a", 0)).toMatch(/not a page/);
    expect(checkPageSelection("1,,2", 0)).toMatch(/empty item/);
    expect(checkPageSelection("0", 1)).toMatch(/start at 1/);
    expect(checkPageSelection("!0", 1)).toMatch(/below !1/);
    // What needs the page count is not judged here.
    expect(checkPageSelection("99", 0)).toBeNull();
    expect(checkPageSelection("!2-3", 0)).toBeNull();
  });

  it("whatever the field accepts parses against a document with the same messages", () => {
    for (const spec of ["3-1", "a", "1,,2", "0"]) {
      const typed = checkPageSelection(spec, 1);
      expect(() => parsePages(spec, 10, 1)).toThrow(typed!);
    }
  });

  it("the helper buttons build selections the reader accepts", () => {
    for (const base of [0, 1] as const) {
      for (const s of [pagesPreset("first", base), pagesPreset("last", base), pagesPreset("range", base, 2, 4), pagesPreset("range", base, 3)]) {
        expect(checkPageSelection(s, base)).toBeNull();
        expect(parsePages(s, 10, base).length).toBeGreaterThan(0);
      }
    }
  });
});
