/**
 * The languages the vocabulary covers and a language guess for a document's text. Business
 * documents carry little prose, where trigram models (franc) cannot tell English from French;
 * their function words ("und", "votre", "the", "uw") still can, so those are counted first
 * and franc decides only long texts the function words leave open. The guess weights
 * vocabulary (a French "avoir" is a credit note only on a French page) and never excludes it.
 */
import { franc } from "franc-min";
import { normalizeText, tokenize } from "@/lib/engine/lexicon/normalize";

export const LANGUAGES = ["en", "de", "fr", "es", "it", "nl", "pt"] as const;
export type Lang = (typeof LANGUAGES)[number];

/** Languages whose nouns join into one written word (Handelsrechnung, creditfactuur). */
export const COMPOUNDING: ReadonlySet<Lang> = new Set<Lang>(["de", "nl"]);

const ISO3: Record<string, Lang> = { eng: "en", deu: "de", fra: "fr", spa: "es", ita: "it", nld: "nl", por: "pt" };

/** Frequent function words per language (folded, two letters or more). Shared words count for each language. */
const FUNCTION_WORDS: Record<Lang, string> = {
  en: "the and of to for with your you is are this that on by from please thank we our will be at as not or all have has it an",
  de: "der die das und mit fur von zu den dem des ist sie wir ihr ihre bitte nicht auf im ein eine einer bei oder uns unser wird sind vom zum zur auch",
  fr: "le la les et des du de pour avec votre vous nous est sur par une un au aux dans ce cette sont pas ou merci notre nos vos",
  es: "el la los las de del para con por su sus es en una un al que se no gracias nuestro usted",
  it: "il lo la gli le di del della per con da che non una un sono al alla dei delle nel nella vostro grazie",
  nl: "de het een en van voor met op te is zijn uw wij niet dat die aan bij naar ook wordt om of door dank",
  pt: "os as de do da dos das para com por um uma no na nos nas que em ao seu sua obrigado nao",
};

const WORD_LANGS = new Map<string, Lang[]>();
for (const lang of LANGUAGES)
  for (const w of FUNCTION_WORDS[lang].split(" ")) WORD_LANGS.set(w, [...(WORD_LANGS.get(w) ?? []), lang]);

/** Below this many letters a guess is noise (a receipt of numbers, a scan with no text). */
const MIN_LETTERS = 40;

/** The document's language among LANGUAGES, or undefined when the text cannot tell. */
export function detectLanguage(text: string): Lang | undefined {
  const sample = text.length > 20000 ? text.slice(0, 20000) : text;
  if ((sample.match(/\p{L}/gu) ?? []).length < MIN_LETTERS) return undefined;
  const counts = new Map<string, number>();
  for (const t of tokenize(normalizeText(sample))) if (WORD_LANGS.has(t.word)) counts.set(t.word, (counts.get(t.word) ?? 0) + 1);
  const score: Record<string, number> = {};
  for (const [w, n] of counts) for (const lang of WORD_LANGS.get(w)!) score[lang] = (score[lang] ?? 0) + Math.min(5, n);
  const ranked = Object.entries(score).sort((a, b) => b[1] - a[1]);
  const [best, bestN] = ranked[0] ?? [undefined, 0];
  const second = ranked[1]?.[1] ?? 0;
  if (best && bestN >= 5 && bestN >= second * 1.3) return best as Lang;
  // Function words leave it open: a long text is franc's to decide, a short one nobody's.
  if (sample.length < 1500) return undefined;
  return ISO3[franc(sample, { only: Object.keys(ISO3), minLength: 10 })];
}
