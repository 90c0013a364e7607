/**
 * The document parser's expression macros (`{{Name}}`) as regular-expression source. Expressions
 * are regular expressions in which macros stand for common things to find; `{{Name}}` that is not
 * a macro is an error naming it. The set follows the public template guide's macros.
 */
const macros: Record<string, string> = {
  // Spacing and line anchors
  Space: "[ \\t]",
  Spaces: "[ \\t]+",
  SpacesOptional: "[ \\t]*",
  OptionalSpaces: "[ \\t]*",
  Tab: "\\t",
  LineStart: "^",
  LineEnd: "$",
  NewLine: "\\r?\\n",
  EndOfPage: "$(?![\\s\\S])",
  // Characters
  Digit: "\\d",
  Digits: "\\d+",
  Letter: "\\p{L}",
  Letters: "\\p{L}+",
  LettersOrDigits: "[\\p{L}\\d]+",
  LettersOrDigitsOrSymbols: "\\S+",
  Symbol: "[^\\p{L}\\d\\s]",
  Symbols: "[^\\p{L}\\d\\s]+",
  AnyCharacter: "[\\s\\S]",
  AnyCharacters: "[\\s\\S]*?",
  AnythingOnLine: ".*",
  Anything: "[\\s\\S]*?",
  Word: "\\S+",
  Sentence: "\\S+(?:[ \\t]+\\S+)*",
  SentenceWithSingleSpaces: "\\S+(?: \\S+)*",
  SentenceWithDoubleSpaces: "\\S+(?: {1,2}\\S+)*",
  // Numbers and money
  Integer: "[-+]?\\d+",
  Number: "[-+]?(?:\\d{1,3}(?:[,. '’]\\d{3})+|\\d+)(?:[.,]\\d+)?",
  Decimal: "[-+]?(?:\\d{1,3}(?:[,. '’]\\d{3})+|\\d+)[.,]\\d+",
  Currency: "[-+]?[$€£¥₹]?[ ]?(?:\\d{1,3}(?:[,. '’]\\d{3})+|\\d+)(?:[.,]\\d{2})?(?:[ ]?[$€£¥₹])?",
  Percent: "[-+]?\\d+(?:[.,]\\d+)?[ ]?%",
  // Dates and times
  Date: "(?:\\d{1,4}[./-]\\d{1,2}[./-]\\d{1,4}|\\d{1,2}\\.?[ ]\\p{L}{3,}\\.?[ ]\\d{2,4}|\\p{L}{3,}\\.?[ ]\\d{1,2},?[ ]\\d{2,4})",
  SmartDate: "(?:\\d{1,4}[./-]\\d{1,2}[./-]\\d{1,4}|\\d{1,2}\\.?[ ]\\p{L}{3,}\\.?[ ]\\d{2,4}|\\p{L}{3,}\\.?[ ]\\d{1,2},?[ ]\\d{2,4})",
  Time: "\\d{1,2}:\\d{2}(?::\\d{2})?(?:[ ]?[AaPp][Mm])?",
  // Identifiers
  Email: "[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+",
  Phone: "\\+?\\(?\\d[\\d ()./-]{6,}\\d",
  Url: "https?://\\S+",
  IBAN: "[A-Z]{2}\\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?",
  ZipCode: "\\d{5}(?:-\\d{4})?",
};

export const macroNames = Object.keys(macros);

/** Expands `{{Name}}` macros; the error names the unknown macro. */
export function expandMacros(expression: string): { source: string } | { error: string } {
  let unknown: string | undefined;
  const source = expression.replace(/{{\s*([A-Za-z][A-Za-z0-9]*)\s*}}/g, (_m, name: string) => {
    const hit = macros[name] ?? macros[Object.keys(macros).find((k) => k.toLowerCase() === name.toLowerCase()) ?? ""];
    if (hit === undefined) {
      unknown ??= name;
      return "";
    }
    return `(?:${hit})`;
  });
  if (unknown) return { error: `unknown macro {{${unknown}}} (known: ${macroNames.join(", ")})` };
  return { source };
}

/**
 * A template expression → a RegExp: macros expanded, a leading inline flag group such as `(?s)`,
 * `(?i)` or `(?m)` turned into flags (JavaScript has no inline flags), always Unicode and
 * multi-line (`^`/`$` at line ends). An invalid expression reports why.
 */
export function compileExpression(expression: string, extraFlags = ""): { regex: RegExp } | { error: string } {
  const expanded = expandMacros(expression);
  if ("error" in expanded) return expanded;
  let source = expanded.source;
  const flags = new Set(["u", "m", ...extraFlags]);
  const inline = /^\(\?([imsx]+)\)/.exec(source);
  if (inline) {
    for (const f of inline[1]) if (f !== "x") flags.add(f);
    source = source.slice(inline[0].length);
  }
  try {
    return { regex: new RegExp(source, [...flags].join("")) };
  } catch (e) {
    return { error: `invalid expression: ${(e as Error).message.replace(/^Invalid regular expression: /, "")}` };
  }
}
