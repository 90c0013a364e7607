/**
 * Month names and date shapes of the supported languages, for readers that only need to know
 * that a text holds a date (the classifier) and for the invoice parser's date reading.
 */

/** Month names and usual abbreviations per month (folded, 1-based index = position + 1). */
export const MONTHS: string[][] = [
  ["january", "jan", "januar", "janvier", "janv", "enero", "ene", "gennaio", "gen", "januari", "janeiro"],
  ["february", "feb", "februar", "fevrier", "fevr", "fev", "febrero", "febbraio", "februari", "fevereiro"],
  ["march", "mar", "marz", "maerz", "mars", "marzo", "maart", "marco", "mrt"],
  ["april", "apr", "avril", "avr", "abril", "abr", "aprile"],
  ["may", "mai", "mayo", "maggio", "mag", "mei", "maio"],
  ["june", "jun", "juni", "juin", "junio", "giugno", "giu", "junho"],
  ["july", "jul", "juli", "juillet", "juil", "julio", "luglio", "lug", "julho"],
  ["august", "aug", "aout", "agosto", "ago", "augustus"],
  ["september", "sep", "sept", "septembre", "septiembre", "settembre", "set", "setembro"],
  ["october", "oct", "oktober", "okt", "octobre", "octubre", "ottobre", "ott", "outubro", "out"],
  ["november", "nov", "novembre", "noviembre", "novembro"],
  ["december", "dec", "dezember", "dez", "decembre", "diciembre", "dic", "dicembre", "dezembro"],
];

const MONTH_ALT = [...new Set(MONTHS.flat())].sort((a, b) => b.length - a.length).join("|");

/**
 * Dates in folded text: 31.12.2024, 12/31/24, 2024-12-31, 31 décembre 2024, December 31, 2024,
 * 2 de marzo de 2022.
 */
export const DATE_RE = new RegExp(
  [
    "(?<![\\d.,/-])\\d{1,2}[./-]\\d{1,2}[./-](?:\\d{4}|\\d{2})(?![\\d./-])",
    "(?<![\\d.,/-])\\d{4}[./-]\\d{1,2}[./-]\\d{1,2}(?![\\d./-])",
    `(?<![a-z0-9])\\d{1,2}\\.?\\s*(?:de\\s+)?(?:${MONTH_ALT})\\.?,?\\s*(?:de\\s+)?\\d{4}(?!\\d)`,
    `(?<![a-z])(?:${MONTH_ALT})\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{4}(?!\\d)`,
  ].join("|"),
  "g",
);
