/**
 * Classification rules of POST /v1/pdf/classifier (`rulescsv`), universal and dependency-free
 * so the dashboard's rules editor shows errors per line as the user types.
 *
 * One class per line: `className, logic, keyword1, keyword2, ...`
 * - logic is OR (the default, may be left out) or AND;
 * - a keyword is text, or a regular expression `/expression/` with optional flag `i`
 *   (also m, s, u); backslashes are taken as sent (in JSON they arrive doubled and decode to one);
 * - text keywords may hold several alternatives joined by `|` (the legacy form
 *   `Class,kw1|kw2|kw3` is the same rule with OR logic);
 * - fields may be quoted CSV-style ("a, b") to keep a comma inside a keyword;
 * - blank lines and comment lines (starting with # or //) are ignored.
 */
export type RuleLogic = "OR" | "AND";

export type RuleKeyword =
  { kind: "text"; raw: string; text: string } | { kind: "regex"; raw: string; source: string; flags: string };

export interface ClassRule {
  className: string;
  logic: RuleLogic;
  keywords: RuleKeyword[];
  /** 1-based line number in the rules text. */
  line: number;
}

export interface RuleError {
  line: number;
  message: string;
}

export interface ParsedRules {
  rules: ClassRule[];
  errors: RuleError[];
  /** Lines that parse but likely mean something else (a logic word that is not AND or OR). */
  warnings: RuleError[];
}

/** Words people write as the logic field that the format does not have: they are read as keywords. */
const NOT_LOGIC = /^(xor|not|nand|nor|all|any|and not|or not|&&|\|\|)$/i;

const ALLOWED_FLAGS = new Set(["i", "m", "s", "u"]);

interface Field {
  value: string;
  regex?: { source: string; flags: string };
  quoted: boolean;
}

/** Splits one line into fields; throws a message for an unterminated regex or quote. */
function splitFields(line: string): Field[] {
  const fields: Field[] = [];
  let i = 0;
  const n = line.length;
  while (i <= n) {
    while (i < n && (line[i] === " " || line[i] === "\t")) i++;
    if (i < n && line[i] === "/" && fields.length > 0) {
      // A regex runs to the next unescaped "/" (outside [...]) followed by flags and a comma or
      // the end; failing that, to any such "/" (so "/[a/" is reported as an invalid regex).
      const findClose = (classAware: boolean): number => {
        let j = i + 1;
        let inClass = false;
        while (j < n) {
          const c = line[j];
          if (c === "\\") {
            j += 2;
            continue;
          }
          if (classAware && c === "[") inClass = true;
          else if (classAware && c === "]") inClass = false;
          else if (c === "/" && !inClass && /^([A-Za-z]*)\s*(,|$)/.test(line.slice(j + 1))) return j;
          j++;
        }
        return -1;
      };
      let close = findClose(true);
      if (close < 0) close = findClose(false);
      if (close < 0)
        throw new Error(
          `unterminated regex ${line.slice(i).trim()} (a regex is written /expression/ or /expression/i)`,
        );
      const flagsMatch = /^([A-Za-z]*)\s*(,|$)/.exec(line.slice(close + 1))!;
      fields.push({
        value: line.slice(i, close + 1 + flagsMatch[1].length),
        regex: { source: line.slice(i + 1, close), flags: flagsMatch[1] },
        quoted: false,
      });
      i = close + 1 + flagsMatch[0].length;
      if (flagsMatch[2] === "") break;
      continue;
    }
    if (i < n && line[i] === '"') {
      let j = i + 1;
      let value = "";
      let closed = false;
      while (j < n) {
        if (line[j] === '"') {
          if (line[j + 1] === '"') {
            value += '"';
            j += 2;
            continue;
          }
          closed = true;
          j++;
          break;
        }
        value += line[j++];
      }
      if (!closed) throw new Error(`unterminated quote in ${line.slice(i).trim()}`);
      while (j < n && (line[j] === " " || line[j] === "\t")) j++;
      if (j < n && line[j] !== ",") throw new Error(`unexpected text after the quoted field "${value}"`);
      fields.push({ value, quoted: true });
      i = j + 1;
      if (j >= n) break;
      continue;
    }
    const comma = line.indexOf(",", i);
    const end = comma < 0 ? n : comma;
    fields.push({ value: line.slice(i, end).trim(), quoted: false });
    if (comma < 0) break;
    i = comma + 1;
  }
  return fields;
}

/** Parses the rules text; every problem is reported with its 1-based line number. */
export function parseRules(text: string): ParsedRules {
  const rules: ClassRule[] = [];
  const errors: RuleError[] = [];
  const warnings: RuleError[] = [];
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
  lines.forEach((raw, idx) => {
    const line = idx + 1;
    if (raw.trim() === "" || /^\s*(?:#|\/\/)/.test(raw)) return;
    let fields: Field[];
    try {
      fields = splitFields(raw);
    } catch (e) {
      errors.push({ line, message: (e as Error).message });
      return;
    }
    const className = fields[0]?.value.trim() ?? "";
    if (className === "") {
      errors.push({ line, message: "the class name (first field) is empty" });
      return;
    }
    let rest = fields.slice(1);
    let logic: RuleLogic = "OR";
    if (rest.length > 0 && !rest[0].regex && !rest[0].quoted && /^(or|and)$/i.test(rest[0].value.trim())) {
      logic = rest[0].value.trim().toUpperCase() as RuleLogic;
      rest = rest.slice(1);
    } else if (rest.length > 0 && !rest[0].regex && !rest[0].quoted && NOT_LOGIC.test(rest[0].value.trim())) {
      const word = rest[0].value.trim();
      warnings.push({ line, message: `"${word}" is not a logic word (use AND or OR): it is matched as a keyword; quote it ("${word}") if that is meant` });
    }
    const keywords: RuleKeyword[] = [];
    let bad = false;
    for (const f of rest) {
      if (f.regex) {
        const { source, flags } = f.regex;
        const unknown = [...flags].filter((c) => !ALLOWED_FLAGS.has(c));
        if (unknown.length > 0) {
          errors.push({
            line,
            message: `regex ${f.value}: unknown flag "${unknown.join("")}" (use i for case-insensitive)`,
          });
          bad = true;
          continue;
        }
        if (source === "") {
          errors.push({ line, message: "empty regex //" });
          bad = true;
          continue;
        }
        try {
          new RegExp(source, flags);
        } catch (e) {
          const why = (e as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, "");
          errors.push({ line, message: `invalid regex ${f.value}: ${why}` });
          bad = true;
          continue;
        }
        keywords.push({ kind: "regex", raw: f.value, source, flags: [...new Set(flags)].join("") });
        continue;
      }
      // Text keyword; "|" joins alternatives (legacy "Class,kw1|kw2").
      const parts = f.quoted ? [f.value] : f.value.split("|");
      for (const p of parts) {
        const t = p.trim();
        if (t !== "") keywords.push({ kind: "text", raw: t, text: t });
      }
    }
    if (bad) return;
    if (keywords.length === 0) {
      errors.push({
        line,
        message: `class "${className}" has no keywords; write ${className}, OR, keyword1, keyword2`,
      });
      return;
    }
    rules.push({ className, logic, keywords, line });
  });
  return { rules, errors, warnings };
}

/** The first error as one message for a 400 answer: "line 3: invalid regex /[a/: ...". */
export function formatRuleErrors(errors: RuleError[]): string {
  const first = errors[0];
  const more =
    errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length > 2 ? "s" : ""})` : "";
  return `rulescsv line ${first.line}: ${first.message}${more}.`;
}
