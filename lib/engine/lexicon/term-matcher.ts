/**
 * Finds the document-type vocabulary (document-types.ts) in a line of text: phrases as whole
 * words in order, each word also in its inflected forms, and in German and Dutch single words
 * as compound heads ("Teilrechnung" → "rechnung") or as modifiers ("Rechnungsadresse" is about
 * a "rechnung"). The longest match at a position wins, so "invoice number" is a label and not
 * the title "invoice". Compiled once, pure.
 */
import { HeadIndex, stemsOf } from "@/lib/engine/lexicon/compounds";
import { documentTerms, type Term } from "@/lib/engine/lexicon/document-types";
import { LANGUAGES, type Lang } from "@/lib/engine/lexicon/languages";
import { normalizeText, tokenize } from "@/lib/engine/lexicon/normalize";

export interface TermMatch {
  term: Term;
  /** Token range [start, end) in the line. */
  start: number;
  end: number;
  /** "phrase": the words as listed (or inflected); "compound": a word ending in the term; "modifier": a word starting with it. */
  role: "phrase" | "compound" | "modifier";
  /** The compound's modifier ("handels" in Handelsrechnung) or the modifier's rest ("nummer"). */
  part?: string;
}

interface Compiled {
  term: Term;
  words: string[];
}

interface Index {
  byFirst: Map<string, Compiled[]>;
  heads: Partial<Record<Lang, { index: HeadIndex; byHead: Map<string, Compiled[]> }>>;
}

let compiled: Index | undefined;

function build(): Index {
  const byFirst = new Map<string, Compiled[]>();
  const single: Partial<Record<Lang, Map<string, Compiled[]>>> = {};
  for (const term of documentTerms()) {
    const words = tokenize(normalizeText(term.text)).map((t) => t.word);
    if (words.length === 0) continue;
    const c = { term, words };
    const list = byFirst.get(words[0]) ?? [];
    list.push(c);
    byFirst.set(words[0], list);
    if (words.length === 1 && (term.lang === "de" || term.lang === "nl")) {
      const m = (single[term.lang] ??= new Map());
      m.set(words[0], [...(m.get(words[0]) ?? []), c]);
    }
  }
  const heads: Index["heads"] = {};
  for (const lang of ["de", "nl"] as const) {
    const m = single[lang];
    if (m) heads[lang] = { index: new HeadIndex(m.keys(), lang), byHead: m };
  }
  return { byFirst, heads };
}

/** The forms a token may stand for: itself and itself without a noun ending, in any language. */
function formsOf(word: string): string[] {
  const out = new Set([word]);
  for (const lang of LANGUAGES) for (const s of stemsOf(word, lang)) out.add(s);
  return [...out];
}

function wordMatches(token: string, forms: string[] | undefined, word: string): boolean {
  return token === word || (forms ?? formsOf(token)).includes(word);
}

/**
 * The words of a line as the matcher sees them: normalised, and German/Dutch compounds written
 * with hyphens joined when the joined word ends in a known head ("Pro-forma-Rechnung",
 * "Teil-Gutschrift"); other hyphenated words stay apart ("E-Mail", "Rhein-Main").
 */
export function termTokens(line: string): string[] {
  compiled ??= build();
  const normalized = normalizeText(line);
  const tokens = tokenize(normalized);
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    // Letter-spaced titles ("R E C H N U N G", "I N V O I C E") read as one word.
    let k = i;
    while (k < tokens.length && tokens[k].word.length === 1 && /\p{L}/u.test(tokens[k].word)) k++;
    if (k - i >= 4) {
      out.push(tokens.slice(i, k).map((t) => t.word).join(""));
      i = k - 1;
      continue;
    }
    let j = i;
    while (j + 1 < tokens.length && normalized[tokens[j].index + tokens[j].word.length] === "-" && tokens[j + 1].index === tokens[j].index + tokens[j].word.length + 1) j++;
    if (j > i) {
      const joined = tokens.slice(i, j + 1).map((t) => t.word).join("");
      if (Object.values(compiled.heads).some((h) => h.index.find(joined)) || compiled.byFirst.has(joined)) {
        out.push(joined);
        i = j;
        continue;
      }
    }
    out.push(tokens[i].word);
  }
  return out;
}

/**
 * The terms in one line of text (a row or a cell: phrases do not run across lines). `lang` is
 * the page's language; entries marked strict count only on a page of their language.
 */
export function matchTerms(line: string, lang?: Lang): TermMatch[] {
  compiled ??= build();
  const tokens = termTokens(line);
  const forms = tokens.map(formsOf);
  const allowed = (t: Term) => !t.strict || t.lang === lang;
  const out: TermMatch[] = [];
  for (let i = 0; i < tokens.length; i++) {
    let best: TermMatch | undefined;
    const consider = (m: TermMatch) => {
      const len = m.end - m.start;
      const bestLen = best ? best.end - best.start : 0;
      // Longer first; at equal length a listed phrase beats a compound reading, and a title beats evidence.
      if (
        !best ||
        len > bestLen ||
        (len === bestLen && m.role === "phrase" && best.role !== "phrase") ||
        (len === bestLen && m.role === best.role && m.term.kind === "title" && best.term.kind !== "title")
      )
        best = m;
    };
    for (const f of forms[i]) {
      for (const c of compiled.byFirst.get(f) ?? []) {
        if (!allowed(c.term) || i + c.words.length > tokens.length) continue;
        let ok = true;
        for (let k = 1; k < c.words.length && ok; k++) ok = wordMatches(tokens[i + k], forms[i + k], c.words[k]);
        if (ok) consider({ term: c.term, start: i, end: i + c.words.length, role: "phrase" });
      }
    }
    for (const h of Object.values(compiled.heads)) {
      const hit = h.index.find(tokens[i]);
      if (hit && hit.role === "compound")
        for (const c of h.byHead.get(hit.head) ?? [])
          if (allowed(c.term)) consider({ term: c.term, start: i, end: i + 1, role: "compound", part: hit.modifier });
      if (!best) {
        const mod = h.index.findModifier(tokens[i]);
        if (mod)
          for (const c of h.byHead.get(mod.head) ?? [])
            if (allowed(c.term)) consider({ term: c.term, start: i, end: i + 1, role: "modifier", part: mod.rest });
      }
    }
    if (best) {
      out.push(best);
      i = best.end - 1;
    }
  }
  return out;
}
