import { describe, expect, it } from "vitest";
import { formatRuleErrors, parseRules } from "@/lib/engine/classify/parse-rules";
import { matchRules } from "@/lib/engine/classify/match-rules";

const PAGES = [
  { page: 0, text: "ACME Inc.  TAX INVOICE\nInvoice No: 4411\nAmount Due  $120.00" },
  { page: 1, text: "Terms and conditions\nThis agreement is signed by both parties." },
];

const classes = (rules: string, caseSensitive = true) =>
  matchRules(parseRules(rules).rules, PAGES, { caseSensitive }).classes;

describe("parseRules", () => {
  it("reads class, logic and keywords; OR is the default", () => {
    const { rules, errors } = parseRules(
      "Invoice, OR, invoice, amount due\nContract, AND, agreement, signed\nQuote, quotation, estimate",
    );
    expect(errors).toEqual([]);
    expect(rules.map((r) => [r.className, r.logic, r.keywords.map((k) => k.raw), r.line])).toEqual([
      ["Invoice", "OR", ["invoice", "amount due"], 1],
      ["Contract", "AND", ["agreement", "signed"], 2],
      ["Quote", "OR", ["quotation", "estimate"], 3],
    ]);
  });

  it("reads /regex/ keywords with flag i; backslashes as sent", () => {
    const { rules } = parseRules("Invoice, OR, /Invoice\\s+No:\\s*\\d+/, /tax invoice/i");
    expect(rules[0].keywords).toEqual([
      { kind: "regex", raw: "/Invoice\\s+No:\\s*\\d+/", source: "Invoice\\s+No:\\s*\\d+", flags: "" },
      { kind: "regex", raw: "/tax invoice/i", source: "tax invoice", flags: "i" },
    ]);
  });

  it("keeps commas inside regexes and quoted keywords", () => {
    const { rules } = parseRules('Amount, OR, /\\d{1,3}(,\\d{3})*\\.\\d{2}/, "Smith, John"');
    expect(rules[0].keywords.map((k) => k.raw)).toEqual(["/\\d{1,3}(,\\d{3})*\\.\\d{2}/", "Smith, John"]);
  });

  it("reads the legacy form Class,kw1|kw2 and | between keywords", () => {
    const { rules } = parseRules("Amazon,Amazon Web Services|AWS\r\nAcme,OR,ACME Inc.|1540 Long Street");
    expect(rules.map((r) => [r.className, r.logic, r.keywords.map((k) => k.raw)])).toEqual([
      ["Amazon", "OR", ["Amazon Web Services", "AWS"]],
      ["Acme", "OR", ["ACME Inc.", "1540 Long Street"]],
    ]);
  });

  it("ignores blank and comment lines (# or //) but counts them in line numbers", () => {
    const { rules, errors } = parseRules("# finance\n// more\n\nInvoice, OR, invoice\nBad, OR, /(/");
    expect(rules.map((r) => [r.className, r.line])).toEqual([["Invoice", 4]]);
    expect(errors[0].line).toBe(5);
  });

  it("names the line and the problem", () => {
    const { errors } = parseRules(
      "A, OR, x\n\nBad, OR, /[a/\n, OR, y\nNone, AND\nFlag, OR, /x/g\nOpen, OR, /abc",
    );
    expect(errors).toEqual([
      { line: 3, message: expect.stringMatching(/^invalid regex \/\[a\/: .*(class|terminated)/i) },
      { line: 4, message: "the class name (first field) is empty" },
      { line: 5, message: expect.stringMatching(/class "None" has no keywords/) },
      { line: 6, message: expect.stringMatching(/unknown flag "g"/) },
      { line: 7, message: expect.stringMatching(/unterminated regex/) },
    ]);
    expect(formatRuleErrors(errors)).toMatch(
      /^rulescsv line 3: invalid regex \/\[a\/: .* \(and 4 more problems\)\.$/,
    );
  });
});

describe("matchRules", () => {
  it("OR matches on any keyword, AND needs all; classes in rule order", () => {
    expect(
      classes(
        "Contract, AND, agreement, signed\nInvoice, OR, nothing, Invoice No\nMissing, AND, agreement, warranty",
      ),
    ).toEqual(["Contract", "Invoice"]);
  });

  it("is case-sensitive by default; caseSensitive false or the i flag ignore case", () => {
    expect(classes("A, OR, tax invoice")).toEqual([]);
    expect(classes("A, OR, tax invoice", false)).toEqual(["A"]);
    expect(classes("A, OR, /tax invoice/")).toEqual([]);
    expect(classes("A, OR, /tax invoice/i")).toEqual(["A"]);
  });

  it("matches phrases across line breaks and regexes across lines", () => {
    expect(classes("A, OR, 4411 Amount Due")).toEqual(["A"]);
    expect(classes("A, OR, /No:\\s*\\d{4}\\s+Amount/")).toEqual(["A"]);
  });

  it("lists a class once even when several lines name it", () => {
    expect(classes("Finance, OR, Invoice\nFinance, OR, agreement")).toEqual(["Finance"]);
  });

  it("reports which keywords matched where (IncludeMatchDetails)", () => {
    const { matches } = matchRules(
      parseRules("Invoice, AND, Invoice, /\\$\\d+\\.\\d{2}/, refund").rules,
      PAGES,
    );
    expect(matches[0]).toEqual({
      class: "Invoice",
      logic: "AND",
      matched: false,
      keywords: [
        { keyword: "Invoice", matched: true, positions: [{ page: 0, index: 22, text: "Invoice" }] },
        {
          keyword: "/\\$\\d+\\.\\d{2}/",
          matched: true,
          positions: [{ page: 0, index: 50, text: "$120.00" }],
        },
        { keyword: "refund", matched: false, positions: [] },
      ],
    });
  });
});
