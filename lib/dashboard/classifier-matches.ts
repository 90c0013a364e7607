/**
 * Normalises the classifier's match details (profile IncludeMatchDetails: true → top-level
 * `matches`) into one shape for the viewer. Accepted: an array of rule results, or an object
 * keyed by class name; keyword hits may be strings, or objects with page/text/box.
 */
export interface KeywordHit {
  page?: number;
  text?: string;
  x?: number;
  y?: number;
  width?: number;
  height?: number;
}

export interface KeywordMatch {
  keyword: string;
  matched: boolean;
  hits: KeywordHit[];
}

export interface RuleMatch {
  className: string;
  logic: string;
  matched: boolean;
  line?: number;
  keywords: KeywordMatch[];
}

function toHits(v: unknown): KeywordHit[] {
  if (!Array.isArray(v)) return [];
  return v.map((h) => (typeof h === "string" ? { text: h } : typeof h === "number" ? { page: h } : (h as KeywordHit)));
}

function toKeyword(k: unknown): KeywordMatch {
  if (typeof k === "string") return { keyword: k, matched: true, hits: [] };
  const o = (k ?? {}) as Record<string, unknown>;
  const hits = toHits(o.hits ?? o.occurrences ?? o.locations ?? o.positions);
  const keyword = String(o.keyword ?? o.pattern ?? o.text ?? "");
  const matched = typeof o.matched === "boolean" ? o.matched : hits.length > 0 || Number(o.count ?? 0) > 0;
  return { keyword, matched, hits };
}

export function normalizeMatches(raw: unknown): RuleMatch[] {
  if (!raw) return [];
  const list: unknown[] = Array.isArray(raw)
    ? raw
    : typeof raw === "object"
      ? Object.entries(raw as Record<string, unknown>).map(([cls, v]) => ({ class: cls, ...(Array.isArray(v) ? { keywords: v } : (v as object)) }))
      : [];
  return list.map((r) => {
    const o = (r ?? {}) as Record<string, unknown>;
    const keywords = Array.isArray(o.keywords) ? o.keywords.map(toKeyword) : [];
    const matchedKeywords = Array.isArray(o.matchedKeywords) ? (o.matchedKeywords as unknown[]).map(toKeyword) : [];
    const all = keywords.length ? keywords : matchedKeywords;
    const className = String(o.class ?? o.className ?? o.name ?? "");
    const logic = String(o.logic ?? "OR").toUpperCase();
    const matched = typeof o.matched === "boolean" ? o.matched : logic === "AND" ? all.length > 0 && all.every((k) => k.matched) : all.some((k) => k.matched);
    return { className, logic, matched, line: typeof o.line === "number" ? o.line : undefined, keywords: all };
  });
}
