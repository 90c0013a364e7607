import { describe, expect, it } from "vitest";
import { parsePageGroups, parsePages } from "@/lib/engine/pages";

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
});
