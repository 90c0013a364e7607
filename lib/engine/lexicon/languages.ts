/**
 * The languages the vocabulary covers and a language guess for a document's text. The guess
 * is franc's trigram model restricted to these languages; it weights vocabulary (a French
 * "avoir" is a credit note only on a French page) and never excludes it.
 */
import { franc } from "franc-min";

export const LANGUAGES = ["en", "de", "fr", "es", "it", "nl", "pt"] as const;
export type Lang = (typeof LANGUAGES)[number];

/** Languages whose nouns join into one written word (Handelsrechnung, creditfactuur). */
export const COMPOUNDING: ReadonlySet<Lang> = new Set<Lang>(["de", "nl"]);

const ISO3: Record<string, Lang> = { eng: "en", deu: "de", fra: "fr", spa: "es", ita: "it", nld: "nl", por: "pt" };

/** Below this many letters a guess is noise (a receipt of numbers, a scan with no text). */
const MIN_LETTERS = 40;

/** The document's language among LANGUAGES, or undefined when the text is too short to tell. */
export function detectLanguage(text: string): Lang | undefined {
  const sample = text.length > 6000 ? text.slice(0, 6000) : text;
  if ((sample.match(/\p{L}/gu) ?? []).length < MIN_LETTERS) return undefined;
  const code = franc(sample, { only: Object.keys(ISO3), minLength: 10 });
  return ISO3[code];
}
