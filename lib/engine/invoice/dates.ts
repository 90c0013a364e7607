/**
 * Dates as printed on invoices in many styles and languages, normalised in form only to ISO
 * 8601 (YYYY-MM-DD). Numeric dates whose day/month order is ambiguous (03/04/2023) follow the
 * document's order hint (judged from its other dates and its locale signals).
 */
import { fold, foldKeepLength } from "@/lib/engine/invoice/text-utils";

export type DateOrder = "DMY" | "MDY";

export interface DateMatch {
  /** ISO 8601 date, e.g. "2023-03-20". */
  iso: string;
  raw: string;
  start: number;
  end: number;
  /** True when a numeric date could be read both ways and the hint decided. */
  ambiguous: boolean;
}

const MONTHS: Record<string, number> = {};
const monthNames: [number, string[]][] = [
  [
    1,
    [
      "january",
      "jan",
      "janvier",
      "janv",
      "januar",
      "jänner",
      "janner",
      "januari",
      "enero",
      "ene",
      "gennaio",
      "gen",
      "janeiro",
      "styczen",
      "sty",
    ],
  ],
  [
    2,
    [
      "february",
      "feb",
      "febr",
      "fevrier",
      "fev",
      "februar",
      "februari",
      "febrero",
      "febbraio",
      "fevereiro",
      "luty",
      "lut",
    ],
  ],
  [3, ["march", "mar", "mars", "marz", "maerz", "maart", "mrt", "marzo", "marco", "marzec"]],
  [4, ["april", "apr", "avril", "avr", "abril", "abr", "aprile", "kwiecien"]],
  [5, ["may", "mai", "mei", "mayo", "maggio", "mag", "maio", "maj"]],
  [6, ["june", "jun", "juin", "juni", "junio", "giugno", "giu", "junho", "czerwiec"]],
  [7, ["july", "jul", "juillet", "juil", "juli", "julio", "luglio", "lug", "julho", "lipiec"]],
  [8, ["august", "aug", "aout", "augustus", "agosto", "ago", "sierpien"]],
  [9, ["september", "sep", "sept", "septembre", "septiembre", "settembre", "set", "setembro", "wrzesien"]],
  [
    10,
    [
      "october",
      "oct",
      "octobre",
      "oktober",
      "okt",
      "octubre",
      "ottobre",
      "ott",
      "outubro",
      "out",
      "pazdziernik",
    ],
  ],
  [11, ["november", "nov", "novembre", "noviembre", "novembro", "listopad"]],
  [
    12,
    [
      "december",
      "dec",
      "decembre",
      "dezember",
      "dez",
      "diciembre",
      "dic",
      "dicembre",
      "dezembro",
      "grudzien",
    ],
  ],
];
for (const [n, names] of monthNames) for (const name of names) MONTHS[fold(name)] = n;

const MONTH_ALT = Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join("|");

// Textual: "20 March 2023", "20-Mar-2023", "20. März 2023", "20 de marzo de 2023", "20th of March, 2023"
const DMY_TEXT = new RegExp(
  `\\b(\\d{1,2})(?:st|nd|rd|th|er|e)?\\.?(?:\\s+of)?[\\s./-]*(?:de\\s+)?(${MONTH_ALT})\\.?(?:\\s+de)?[\\s.,/-]*'?(\\d{4}|\\d{2})\\b`,
  "g",
);
// "March 20, 2023", "Mar 20 2023", "March 20th, 2023"
const MDY_TEXT = new RegExp(`\\b(${MONTH_ALT})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\s*,?\\s*(\\d{4})\\b`, "g");
// "March 2023" (a month, no day) is not a date of an invoice field; not matched.
const YMD_NUM = /\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b/g;
const NUM3 = /\b(\d{1,2})([-/.])(\d{1,2})\2(\d{4}|\d{2})\b/g;
const COMPACT = /\b(20\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])\b/g;

function valid(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1900 || y > 2100) return false;
  const dt = new Date(Date.UTC(y, m - 1, d));
  return dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
}

function year(y: string): number {
  const n = Number(y);
  if (y.length === 2) return n < 70 ? 2000 + n : 1900 + n;
  return n;
}

function iso(y: number, m: number, d: number): string {
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/** Every date in `text`, left to right, without overlaps. */
export function findDates(text: string, order: DateOrder = "DMY"): DateMatch[] {
  const folded = foldKeepLength(text);
  const found: DateMatch[] = [];
  const push = (start: number, raw: string, y: number, m: number, d: number, ambiguous = false) => {
    if (!valid(y, m, d)) return;
    const end = start + raw.length;
    if (found.some((f) => start < f.end && end > f.start)) return;
    found.push({ iso: iso(y, m, d), raw: text.slice(start, end), start, end, ambiguous });
  };
  for (const m of folded.matchAll(YMD_NUM)) push(m.index!, m[0], Number(m[1]), Number(m[2]), Number(m[3]));
  for (const m of folded.matchAll(MDY_TEXT)) push(m.index!, m[0], Number(m[3]), MONTHS[m[1]], Number(m[2]));
  for (const m of folded.matchAll(DMY_TEXT)) push(m.index!, m[0], year(m[3]), MONTHS[m[2]], Number(m[1]));
  for (const m of folded.matchAll(NUM3)) {
    const a = Number(m[1]);
    const b = Number(m[3]);
    const y = year(m[4]);
    if (a > 12 && b <= 12) push(m.index!, m[0], y, b, a);
    else if (b > 12 && a <= 12) push(m.index!, m[0], y, a, b);
    else if (a <= 12 && b <= 12) {
      // German/Dutch dotted dates are always day first.
      const dayFirst = m[2] === "." || order === "DMY";
      push(m.index!, m[0], y, dayFirst ? b : a, dayFirst ? a : b, a !== b && m[2] !== ".");
    }
  }
  for (const m of folded.matchAll(COMPACT)) push(m.index!, m[0], Number(m[1]), Number(m[2]), Number(m[3]));
  return found.sort((x, y) => x.start - y.start);
}

/** The first date in `text`, as ISO 8601. */
export function parseDate(text: string, order: DateOrder = "DMY"): DateMatch | undefined {
  return findDates(text, order)[0];
}

/**
 * The day/month order of a document: decided by its unambiguous numeric dates (13/02/2023 or
 * 02/13/2023), else by locale signals (US dollar, US states → month first), else day first.
 */
export function detectDateOrder(text: string, isUsLocale: boolean): DateOrder {
  let dmy = 0;
  let mdy = 0;
  for (const m of text.matchAll(/\b(\d{1,2})([/-])(\d{1,2})\2(\d{4}|\d{2})\b/g)) {
    const a = Number(m[1]);
    const b = Number(m[3]);
    if (a > 12 && b <= 12) dmy++;
    else if (b > 12 && a <= 12) mdy++;
  }
  if (dmy !== mdy) return dmy > mdy ? "DMY" : "MDY";
  return isUsLocale ? "MDY" : "DMY";
}
