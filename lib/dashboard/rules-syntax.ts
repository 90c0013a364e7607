/**
 * Classification rules (`className, logic, keyword...` per line; seed: POST /v1/pdf/classifier)
 * for the editor: tokens for highlighting and problems per line (pure). The engine's own parser
 * decides in the end; this one mirrors its rules so errors show as you type.
 */
export type TokenKind = "class" | "logic" | "keyword" | "regex" | "comma" | "comment" | "error" | "space";
export interface Token {
  kind: TokenKind;
  text: string;
}
export interface RuleProblem {
  line: number;
  message: string;
}

/** Splits a line on commas that are not inside a /regex/. */
export function splitRuleLine(line: string): string[] {
  const parts: string[] = [];
  let cur = "";
  let inRegex = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "\\" && inRegex) {
      cur += c + (line[i + 1] ?? "");
      i++;
      continue;
    }
    if (c === "/" && (inRegex || cur.trim() === "")) inRegex = !inRegex;
    if (c === "," && !inRegex) {
      parts.push(cur);
      cur = "";
    } else cur += c;
  }
  parts.push(cur);
  return parts;
}

const REGEX = /^\/(.*)\/([a-z]*)$/s;

/** Tokens of one line, for the highlighted view (whitespace kept so columns line up). */
export function tokenizeRuleLine(line: string): Token[] {
  if (/^\s*(#|\/\/)/.test(line)) return [{ kind: "comment", text: line }];
  if (!line.trim()) return [{ kind: "space", text: line }];
  const parts = splitRuleLine(line);
  const tokens: Token[] = [];
  parts.forEach((p, i) => {
    if (i > 0) tokens.push({ kind: "comma", text: "," });
    const lead = /^\s*/.exec(p)![0];
    const trail = /\s*$/.exec(p.slice(lead.length))![0];
    const core = p.slice(lead.length, p.length - trail.length);
    if (lead) tokens.push({ kind: "space", text: lead });
    let kind: TokenKind = "keyword";
    if (i === 0) kind = parts.length === 1 && core.includes("|") ? "class" : "class";
    else if (i === 1 && /^(and|or)$/i.test(core)) kind = "logic";
    else if (REGEX.test(core)) kind = "regex";
    if (i === 0 && parts.length === 1) {
      // Legacy form: Class,kw1|kw2 has a comma; a lone word is an error the linter names.
      kind = "error";
    }
    if (core) tokens.push({ kind, text: core });
    if (trail) tokens.push({ kind: "space", text: trail });
  });
  return tokens;
}

/** Problems of a rule set, by 1-based line. */
export function lintRules(text: string): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const seen = new Map<string, number>();
  text.split(/\r?\n/).forEach((line, idx) => {
    const n = idx + 1;
    if (!line.trim() || /^\s*(#|\/\/)/.test(line)) return;
    const parts = splitRuleLine(line).map((p) => p.trim());
    const cls = parts[0] ?? "";
    if (!cls) return problems.push({ line: n, message: "The line starts with a comma: give the class name first." });
    if (parts.length < 2) return problems.push({ line: n, message: `"${cls}" has no keywords: write ${cls}, OR, keyword1, keyword2` });
    let kws = parts.slice(1);
    if (/^(and|or)$/i.test(kws[0]!)) kws = kws.slice(1);
    else if (parts.length === 2 && parts[1]!.includes("|")) kws = parts[1]!.split("|").map((s) => s.trim());
    if (!kws.length) return problems.push({ line: n, message: `"${cls}" has a logic but no keywords.` });
    for (const k of kws) {
      if (!k) {
        problems.push({ line: n, message: "Empty keyword between commas." });
        continue;
      }
      const m = REGEX.exec(k);
      if (m) {
        if (/[^i]/.test(m[2]!)) problems.push({ line: n, message: `Regex ${k}: the only flag allowed is i.` });
        try {
          new RegExp(m[1]!, m[2]!.includes("i") ? "i" : "");
        } catch (e) {
          problems.push({ line: n, message: `Regex ${k}: ${(e as Error).message.replace(/^Invalid regular expression: (\/.*\/[a-z]*: )?/, "")}` });
        }
      } else if (k.startsWith("/") && k.length > 1) {
        problems.push({ line: n, message: `Keyword ${k} starts like a regex but has no closing /.` });
      }
    }
    const key = cls.toLowerCase();
    if (seen.has(key)) problems.push({ line: n, message: `Class "${cls}" is already defined on line ${seen.get(key)}; the first one wins.` });
    else seen.set(key, n);
  });
  return problems;
}
