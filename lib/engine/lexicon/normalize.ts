/**
 * Text normalisation shared by the classifier and the invoice parser (pure, universal): the
 * folded form every vocabulary entry and every document text is compared in, French and
 * Italian elisions, words hyphenated at line ends, and word splitting with offsets.
 */

/**
 * Unicode NFKC (ligatures "ﬁ", full-width digits, superscripts become plain), then case
 * folding, accents removed, ß → ss, typographic quotes and dashes unified, º/° → o (so "N°"
 * reads "no"). Not length-preserving; use foldKeepLength when offsets must survive.
 */
export function fold(text: string): string {
  return text
    .normalize("NFKC")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[\u2018\u2019\u201a\u201b\u2032\u00b4`]/g, "'")
    .replace(/[\u201c\u201d\u201e\u00ab\u00bb]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/\u00df/g, "ss")
    .replace(/[º°]/g, "o")
    .replace(/\u0131/g, "i")
    .toLowerCase();
}

/** fold() character by character, keeping the length so offsets still point into the original. */
export function foldKeepLength(text: string): string {
  let out = "";
  for (const c of text) {
    const f = fold(c);
    const lower = c.toLowerCase();
    const one = f.length === c.length ? f : lower.length === c.length ? lower : c;
    out += one;
  }
  return out;
}

/**
 * French and Italian elided articles and prepositions ("l'", "d'", "qu'", "dell'", "all'",
 * "nell'"...) removed from folded text, so "facture d'acompte" reads "facture acompte" and
 * "l'avoir" reads "avoir". Vocabulary goes through the same function, so both sides agree.
 */
const ELISION =
  /(?<![\p{L}\p{N}])(?:l|d|j|m|n|s|t|c|qu|lorsqu|puisqu|jusqu|quoiqu|presqu|dell|dall|nell|sull|all|coll|quell|quest|un|tutt|senz|anch)'(?=\p{L})/gu;

export function stripElisions(folded: string): string {
  return folded.replace(ELISION, "");
}

/** Conjunctions after a suspended hyphen ("Liefer- und Rechnungsadresse") that must not be joined. */
const NOT_JOINED = new Set(["und", "oder", "bzw", "sowie", "en", "of", "et", "ou", "y", "o", "e", "and", "or"]);

/**
 * Words hyphenated at a line end joined again: "Rech-\nnung" → "Rechnung". Only a letter,
 * a hyphen, the line break and a lower-case letter qualify; a suspended hyphen before a
 * conjunction ("Liefer-\nund Rechnungsadresse") and hyphenated compounds ("E-\nMail",
 * capital after the break) stay.
 */
export function dehyphenate(text: string): string {
  return text.replace(/(\p{L})[-\u00ad\u2010]\s*\r?\n\s*(\p{Ll}+)/gu, (all, a: string, b: string) =>
    NOT_JOINED.has(b) ? all : `${a}${b}`,
  );
}

/** The comparison form of a text: dehyphenated, folded, elisions removed. */
export function normalizeText(text: string): string {
  return stripElisions(fold(dehyphenate(text)));
}

export interface Token {
  /** The folded word (letters and digits; inner apostrophes/hyphens split words). */
  word: string;
  /** Offset in the normalised text. */
  index: number;
}

/** Words of an already normalised text, with their offsets. */
export function tokenize(normalized: string): Token[] {
  const out: Token[] = [];
  for (const m of normalized.matchAll(/[\p{L}\p{N}]+/gu)) out.push({ word: m[0], index: m.index ?? 0 });
  return out;
}

/** The words of any text: normalised, then split. */
export function wordsOf(text: string): string[] {
  return tokenize(normalizeText(text)).map((t) => t.word);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
