import { describe, expect, it } from "vitest";
import { tokenizeRuleLine, splitRuleLine } from "@/lib/dashboard/rules/rules-syntax";
import { parseRules } from "@/lib/engine/classify/parse-rules";
import { readMatches } from "@/lib/dashboard/rules/classifier-matches";
import { matchRules } from "@/lib/engine/classify/match-rules";

describe("rules syntax (lib/dashboard/rules-syntax)", () => {
  it("splits on the commas the engine's parser splits on", () => {
    expect(splitRuleLine("x, /a{1,2}/, b")).toEqual(["x", " /a{1,2}/", " b"]);
    expect(splitRuleLine('x, "a, b", c')).toEqual(["x", ' "a, b"', " c"]);
    expect(splitRuleLine("x, /a\\/b/i, c")).toEqual(["x", " /a\\/b/i", " c"]);
  });
  it("the editor's problems are the engine's (parseRules), by line", () => {
    const { errors } = parseRules("invoice, OR, invoice, /inv(oice/\nreceipt\n\n# comment\ncontract, AND");
    expect(errors.map((x) => x.line)).toEqual([1, 2, 5]);
    expect(errors[0]!.message).toMatch(/^invalid regex \/inv\(oice\//);
    expect(errors[1]!.message).toMatch(/"receipt" has no keywords/);
  });
  it("tokenizes class, logic, keywords and regex", () => {
    const kinds = tokenizeRuleLine("invoice, AND, total, /inv/i").filter((t) => t.kind !== "space" && t.kind !== "comma").map((t) => t.kind);
    expect(kinds).toEqual(["class", "logic", "keyword", "regex"]);
  });
  it("reads the classifier's real match details", () => {
    const { rules } = parseRules("# c\ninvoice, AND, invoice, /total/i\nreceipt, receipt");
    const { matches } = matchRules(rules, [{ page: 0, text: "invoice\nno 4\nTotal 12.00" }]);
    const read = readMatches(JSON.parse(JSON.stringify(matches)), rules.map((r) => r.line));
    expect(read.map((r) => [r.className, r.logic, r.matched, r.line])).toEqual([["invoice", "AND", true, 2], ["receipt", "OR", false, 3]]);
    expect(read[0]!.keywords[1]).toMatchObject({ keyword: "/total/i", matched: true, positions: [{ page: 0, text: "Total" }] });
    expect(readMatches(undefined)).toEqual([]);
  });
});
