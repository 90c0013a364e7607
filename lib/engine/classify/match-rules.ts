/**
 * Matching of classification rules against a document's text, page by page. Text keywords
 * match as substrings with whitespace runs (line breaks included) treated as one space, so a
 * phrase broken over two lines still matches; regular expressions run over the page text
 * with its line breaks. caseSensitive (default true) applies to text keywords and to regexes
 * without the i flag. Universal: the dashboard can preview matches on text it already has.
 */
import type { ClassRule, RuleKeyword } from "@/lib/engine/classify/parse-rules";

export interface KeywordPosition {
  /** 0-based page index. */
  page: number;
  /** Character offset of the match in that page's text (whitespace runs counted as one). */
  index: number;
  text: string;
}

export interface KeywordMatch {
  keyword: string;
  matched: boolean;
  positions: KeywordPosition[];
}

export interface RuleMatch {
  class: string;
  logic: "OR" | "AND";
  matched: boolean;
  keywords: KeywordMatch[];
}

export interface PageTextInput {
  page: number;
  text: string;
}

const MAX_POSITIONS = 20;

function collapse(text: string): string {
  return text.replace(/\s+/g, " ");
}

function matchKeyword(
  kw: RuleKeyword,
  pages: { page: number; flat: string; flatLower: string; lines: string }[],
  caseSensitive: boolean,
): KeywordMatch {
  const positions: KeywordPosition[] = [];
  if (kw.kind === "text") {
    const needle = collapse(kw.text.trim());
    const n = caseSensitive ? needle : needle.toLowerCase();
    for (const p of pages) {
      const hay = caseSensitive ? p.flat : p.flatLower;
      let at = hay.indexOf(n);
      while (at >= 0 && positions.length < MAX_POSITIONS) {
        positions.push({ page: p.page, index: at, text: p.flat.slice(at, at + n.length) });
        at = hay.indexOf(n, at + Math.max(1, n.length));
      }
    }
  } else {
    const flags = new Set([...kw.flags, "g"]);
    if (!caseSensitive) flags.add("i");
    const re = new RegExp(kw.source, [...flags].join(""));
    for (const p of pages) {
      re.lastIndex = 0;
      for (const m of p.lines.matchAll(re)) {
        if (positions.length >= MAX_POSITIONS) break;
        positions.push({ page: p.page, index: m.index ?? 0, text: m[0] });
        if (m[0] === "") break;
      }
    }
  }
  return { keyword: kw.raw, matched: positions.length > 0, positions };
}

/** Evaluates every rule; `classes` are the matching class names in rule order, without repeats. */
export function matchRules(
  rules: ClassRule[],
  pages: PageTextInput[],
  opts: { caseSensitive?: boolean } = {},
): { classes: string[]; matches: RuleMatch[] } {
  const caseSensitive = opts.caseSensitive ?? true;
  const prepared = pages.map((p) => {
    const lines = p.text.replace(/[ \t\f\v\u00a0]+/g, " ");
    const flat = collapse(p.text);
    return { page: p.page, flat, flatLower: flat.toLowerCase(), lines };
  });
  const matches: RuleMatch[] = [];
  const classes: string[] = [];
  for (const rule of rules) {
    const kws = rule.keywords.map((k) => matchKeyword(k, prepared, caseSensitive));
    const matched = rule.logic === "AND" ? kws.every((k) => k.matched) : kws.some((k) => k.matched);
    matches.push({ class: rule.className, logic: rule.logic, matched, keywords: kws });
    if (matched && !classes.includes(rule.className)) classes.push(rule.className);
  }
  return { classes, matches };
}
