/**
 * The classifier's match details (profile IncludeMatchDetails: true → top-level `matches`,
 * lib/engine/classify/match-rules.ts) read for the viewer. Rule sets give, per rule,
 * {class, logic, matched, keywords: [{keyword, matched, positions: [{page, index, text}]}]}
 * (page 0-based); the built-in classification gives one entry with logic "builtin" and scores.
 */
import type { KeywordMatch, RuleMatch as EngineRuleMatch } from "@/lib/engine/classify/match-rules";

export type { KeywordMatch };

export interface RuleMatch {
  className: string;
  logic: string;
  matched: boolean;
  /** 1-based line of the rule in the rules text, when the caller knows it. */
  line?: number;
  keywords: KeywordMatch[];
  /** Built-in classification: score per document type. */
  scores?: Record<string, number>;
}

type RawMatch = Partial<Omit<EngineRuleMatch, "logic">> & { logic?: string; scores?: Record<string, number> };

/** `matches` as a list for the viewer; `lines` (from parseRules) numbers the rules in order. */
export function readMatches(raw: unknown, lines?: number[]): RuleMatch[] {
  if (!Array.isArray(raw)) return [];
  return (raw as RawMatch[]).map((m, i) => ({
    className: String(m.class ?? ""),
    logic: String(m.logic ?? "OR"),
    matched: m.matched === true,
    line: lines?.[i],
    keywords: Array.isArray(m.keywords) ? m.keywords.map((k) => ({ keyword: String(k.keyword), matched: k.matched === true, positions: Array.isArray(k.positions) ? k.positions : [] })) : [],
    scores: m.scores && typeof m.scores === "object" ? m.scores : undefined,
  }));
}
