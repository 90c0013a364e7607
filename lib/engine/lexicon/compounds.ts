/**
 * German and Dutch compounds and inflections. A title word names a document type when it IS a
 * known head noun or ENDS in one (Handelsrechnung, Teilrechnung, Stornorechnung, creditfactuur,
 * Mietvertrag), with the usual noun endings (Rechnungen, Verträge, facturen). A word that
 * STARTS with a head noun and a linking element (Rechnungs|nummer, factuur|datum) is about that
 * document: a field label, not a title. Pure; words are folded (normalize.ts).
 */
import type { Lang } from "@/lib/engine/lexicon/languages";

/** Noun endings per language (plural and case), tried longest first. */
const ENDINGS: Record<Lang, string[]> = {
  de: ["ern", "en", "er", "es", "e", "n", "s"],
  nl: ["en", "s", "n"],
  en: ["es", "s"],
  fr: ["x", "s"],
  es: ["es", "s"],
  it: [],
  pt: ["es", "s"],
};

/**
 * A modifier that is only a verb particle turns a head into another noun: Ab|rechnung
 * (settlement), Be|rechnung (calculation), Ver|rechnung (offsetting), Vor|schrift. Longer
 * modifiers are real compounds (Teil|rechnung, Handels|rechnung).
 */
const PARTICLES = new Set([
  "ab", "an", "auf", "aus", "be", "bei", "durch", "ein", "ent", "er", "gegen", "her", "hin", "hoch",
  "mit", "nach", "um", "ver", "vor", "wider", "wieder", "zer", "zu", "zuruck", "uber", "unter",
  // Dutch
  "af", "be", "ge", "her", "ont", "op", "uit", "ver", "voor", "toe", "door", "na", "mee",
]);

/** Linking elements between a modifier and the rest (Rechnung|s|nummer, factuur|datum), longest first. */
const LINKS = ["es", "en", "s", "n", "-", ""];

/** The shortest modifier a compound may have (Teil-, Eind-, Stornorechnung). */
const MIN_MODIFIER = 3;
/** The shortest rest after a head used as modifier (Rechnungs|nr). */
const MIN_REST = 2;

export interface HeadHit {
  /** The head noun as listed. */
  head: string;
  /** "word": the word is the head (inflected or not); "compound": it ends in the head. */
  role: "word" | "compound";
  /** The modifier before the head ("handels" in handelsrechnung); "" for role "word". */
  modifier: string;
}

/**
 * An index of head nouns for suffix lookups. `find(word)` tries every suffix of the word
 * against the heads (after removing a noun ending) and keeps the longest head, so
 * "lohnabrechnung" finds "abrechnung" when both are listed, never "rechnung".
 */
export class HeadIndex {
  private readonly heads = new Map<string, string>();

  constructor(
    heads: Iterable<string>,
    private readonly lang: Lang,
  ) {
    for (const h of heads) this.heads.set(h, h);
  }

  has(head: string): boolean {
    return this.heads.has(head);
  }

  /** The head the word is or ends in; undefined when none (or the modifier is a particle). */
  find(word: string): HeadHit | undefined {
    const compounding = this.lang === "de" || this.lang === "nl";
    const stems = stemsOf(word, this.lang);
    let best: HeadHit | undefined;
    for (const stem of stems) {
      const exact = this.heads.get(stem);
      if (exact && (!best || exact.length > best.head.length)) best = { head: exact, role: "word", modifier: "" };
      if (!compounding) continue;
      for (let i = MIN_MODIFIER; i < stem.length - 2; i++) {
        const head = this.heads.get(stem.slice(i));
        if (!head || (best && head.length <= best.head.length)) continue;
        const modifier = stem.slice(0, i).replace(/-$/, "");
        if (PARTICLES.has(modifier)) continue;
        best = { head, role: "compound", modifier };
      }
    }
    return best;
  }

  /**
   * The head the word starts with as a modifier, and the rest: "rechnungsnummer" →
   * {head "rechnung", rest "nummer"}. Only for compounding languages.
   */
  findModifier(word: string): { head: string; rest: string } | undefined {
    if (this.lang !== "de" && this.lang !== "nl") return undefined;
    let best: { head: string; rest: string } | undefined;
    for (let end = word.length - MIN_REST; end >= 3; end--) {
      const head = this.heads.get(word.slice(0, end));
      if (!head) continue;
      for (const link of LINKS) {
        if (!word.startsWith(link, end)) continue;
        const rest = word.slice(end + link.length);
        if (rest.length >= MIN_REST && (!best || head.length > best.head.length)) {
          best = { head, rest };
          break;
        }
      }
    }
    return best;
  }
}

/** The word and its forms without one noun ending (longest ending first), e.g. facturen → factur, facture. */
export function stemsOf(word: string, lang: Lang): string[] {
  const out = [word];
  for (const e of ENDINGS[lang]) if (word.length > e.length + 3 && word.endsWith(e)) out.push(word.slice(0, -e.length));
  // German umlaut plurals fold to the plain vowel (Verträge → vertrage → vertrag).
  if (lang === "de" && word.endsWith("e")) out.push(word.slice(0, -1));
  // Italian plurals replace the final vowel: fattura/fatture, contratto/contratti.
  if (lang === "it" && word.length > 4 && /[ei]$/.test(word)) out.push(word.slice(0, -1) + "a", word.slice(0, -1) + "o");
  return [...new Set(out)];
}
