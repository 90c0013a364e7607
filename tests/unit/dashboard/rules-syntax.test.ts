import { describe, expect, it } from "vitest";
import { lintRules, tokenizeRuleLine, splitRuleLine } from "@/lib/dashboard/rules-syntax";
import { checkPages } from "@/lib/dashboard/pages-syntax";

describe("rules syntax (lib/dashboard/rules-syntax)", () => {
  it("names each problem with its line", () => {
    const p = lintRules("invoice, OR, invoice, /inv(oice/\nreceipt\n\n# comment\ncontract, AND");
    expect(p.map((x) => x.line)).toEqual([1, 2, 5]);
    expect(p[0]!.message).toMatch(/^Regex \/inv\(oice\//);
    expect(p[1]!.message).toMatch(/"receipt" has no keywords/);
    expect(p[2]!.message).toMatch(/logic but no keywords/);
  });
  it("accepts valid rules, the legacy | form, and commas inside a regex", () => {
    expect(lintRules("invoice, OR, invoice, /inv(oice)?/i\nreceipt,total|paid\nx, /a{1,2}/")).toEqual([]);
    expect(splitRuleLine("x, /a{1,2}/, b")).toEqual(["x", " /a{1,2}/", " b"]);
  });
  it("flags duplicate classes and bad flags", () => {
    expect(lintRules("a, x\na, y").at(0)?.message).toMatch(/already defined on line 1/);
    expect(lintRules("a, /x/g").at(0)?.message).toMatch(/only flag allowed is i/);
  });
  it("tokenizes class, logic, keywords and regex", () => {
    const kinds = tokenizeRuleLine("invoice, AND, total, /inv/i").filter((t) => t.kind !== "space" && t.kind !== "comma").map((t) => t.kind);
    expect(kinds).toEqual(["class", "logic", "keyword", "regex"]);
  });
  it("checks page selections", () => {
    expect(checkPages("0, 1-3, 5-, !0")).toBeNull();
    expect(checkPages("3-1")).toMatch(/ends before/);
    expect(checkPages("a")).toMatch(/not a page/);
  });
});
