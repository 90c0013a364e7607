/**
 * Highlighting for the rules editor (pure). Problems come from the engine's own parser
 * (`parseRules` in lib/engine/classify/parse-rules.ts), so the editor and POST /v1/pdf/classifier
 * never disagree; this file only colours a line: class, logic, keywords, /regex/, comments.
 */
export type TokenKind = "class" | "logic" | "keyword" | "regex" | "comma" | "comment" | "space";
export interface Token {
  kind: TokenKind;
  text: string;
}

/**
 * Splits a line on the commas the parser splits on: not inside a /regex/ (a field that starts
 * with "/" after the class) and not inside a "quoted" field.
 */
export function splitRuleLine(line: string): string[] {
  const parts: string[] = [];
  let cur = "";
  let mode: "plain" | "regex" | "quote" = "plain";
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (mode === "regex" && c === "\\") {
      cur += c + (line[i + 1] ?? "");
      i++;
      continue;
    }
    if (mode === "plain" && cur.trim() === "" && parts.length > 0 && c === "/") mode = "regex";
    else if (mode === "plain" && cur.trim() === "" && c === '"') mode = "quote";
    else if (mode === "regex" && c === "/" && /^[A-Za-z]*\s*(,|$)/.test(line.slice(i + 1))) mode = "plain";
    else if (mode === "quote" && c === '"') mode = line[i + 1] === '"' ? mode : "plain";
    if (c === "," && mode === "plain") {
      parts.push(cur);
      cur = "";
    } else cur += c;
  }
  parts.push(cur);
  return parts;
}

const REGEX = /^\/(.*)\/([A-Za-z]*)$/s;

/** Tokens of one line, for the highlighted view (whitespace kept so columns line up). */
export function tokenizeRuleLine(line: string): Token[] {
  if (/^\s*(#|\/\/)/.test(line)) return [{ kind: "comment", text: line }];
  if (!line.trim()) return [{ kind: "space", text: line }];
  const tokens: Token[] = [];
  splitRuleLine(line).forEach((p, i) => {
    if (i > 0) tokens.push({ kind: "comma", text: "," });
    const lead = /^\s*/.exec(p)![0];
    const trail = /\s*$/.exec(p.slice(lead.length))![0];
    const core = p.slice(lead.length, p.length - trail.length);
    let kind: TokenKind = "keyword";
    if (i === 0) kind = "class";
    else if (i === 1 && /^(and|or)$/i.test(core)) kind = "logic";
    else if (REGEX.test(core)) kind = "regex";
    if (lead) tokens.push({ kind: "space", text: lead });
    if (core) tokens.push({ kind, text: core });
    if (trail) tokens.push({ kind: "space", text: trail });
  });
  return tokens;
}
