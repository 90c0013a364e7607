import { findDates } from "@/lib/engine/invoice/dates";

/**
 * Money amounts as printed on invoices: "$ 1,234.50", "1.234,50 €", "EUR 12,00", "(45.00)",
 * "100.00-", "1'250.00". Normalised in form only: a plain decimal with a dot, no grouping, no
 * currency, the decimals as printed ("42.00" stays "42.00").
 */

export interface AmountMatch {
  /** Normalised text, e.g. "1234.50" or "-45.00". */
  text: string;
  value: number;
  /** The characters matched, as printed. */
  raw: string;
  start: number;
  end: number;
  /** ISO 4217 code when a symbol or code sits next to the number. */
  currency?: string;
  isPercent: boolean;
  /** True when the number has a decimal part (amounts usually do; counts and ids do not). */
  hasDecimals: boolean;
}

/** Decimal separator hint for the whole document ("," in most of Europe). */
export type DecimalMark = "." | ",";

const SYMBOLS: Record<string, string> = {
  $: "USD",
  US$: "USD",
  "€": "EUR",
  "£": "GBP",
  "¥": "JPY",
  "₹": "INR",
  "₩": "KRW",
  "₽": "RUB",
  "₺": "TRY",
  "₪": "ILS",
  "₫": "VND",
  "₱": "PHP",
  "฿": "THB",
  zł: "PLN",
  Kč: "CZK",
  R$: "BRL",
  A$: "AUD",
  C$: "CAD",
  CA$: "CAD",
  AU$: "AUD",
  NZ$: "NZD",
  S$: "SGD",
  HK$: "HKD",
  Rs: "INR",
  "Rs.": "INR",
  "₨": "INR",
  Fr: "CHF",
  "Fr.": "CHF",
  kr: "SEK",
};

/** ISO 4217 codes that commonly appear on invoices. */
export const CURRENCY_CODES = new Set(
  "USD EUR GBP INR JPY CNY RMB CAD AUD NZD CHF SEK NOK DKK PLN CZK HUF RON BGN HRK RUB TRY ILS AED SAR QAR KWD BHD OMR ZAR NGN KES EGP MAD BRL MXN ARS CLP COP PEN SGD HKD TWD KRW THB VND PHP IDR MYR PKR BDT LKR ISK UAH".split(
    " ",
  ),
);

const SYMBOL_RE =
  "(?:US\\$|CA\\$|AU\\$|NZ\\$|HK\\$|R\\$|A\\$|C\\$|S\\$|[$€£¥₹₩₽₺₪₫₱฿₨]|Rs\\.?|zł|Kč|Fr\\.?|kr)";
const CODE_RE = `(?:${[...CURRENCY_CODES].join("|")})`;
// Groups of three separated by a plain space count only before a decimal comma ("19 597,15",
// the French way); elsewhere a space separates two numbers.
const NUMBER_RE =
  "(\\d{1,3}(?: \\d{3})+(?=,\\d{2}(?!\\d))|\\d{1,3}(?:[,.'\\u00a0\\u202f\\u2009]\\d{3})+|\\d+)(?:([.,])(\\d{1,4}))?";

// prefix: sign/paren, currency; number; suffix: currency, %, trailing minus, paren
const AMOUNT_RE = new RegExp(
  `(?<![\\p{L}\\d.,/-])(\\(|-|−|–)?\\s?(${SYMBOL_RE}|${CODE_RE})?\\s?(-|−)?\\s?${NUMBER_RE}(?![\\d])(?:\\s?(%|${SYMBOL_RE}|${CODE_RE}(?![\\p{L}])))?(\\)|-(?![\\d]))?`,
  "gu",
);

// Dates and times are masked before amounts are searched, so "03/20/2023" yields no amount.
const DATE_MASK_RE =
  /\b\d{1,4}[./-]\d{1,2}[./-]\d{1,4}\b|\b\d{1,2}:\d{2}(?::\d{2})?\b|\b\d{1,2}(?:st|nd|rd|th)?[ .-]+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?[ .,-]+\d{2,4}\b/gi;

function mask(text: string): string {
  let out = text.replace(DATE_MASK_RE, (m) => " ".repeat(m.length));
  for (const d of findDates(text))
    out = out.slice(0, d.start) + " ".repeat(d.end - d.start) + out.slice(d.end);
  return out;
}

/**
 * Every amount-like number in `text`, left to right. `decimal` breaks the tie of a lone
 * separator followed by three digits ("1.234": thousands in a ","-decimal document).
 */
export function findAmounts(text: string, decimal: DecimalMark = "."): AmountMatch[] {
  const masked = mask(text);
  const out: AmountMatch[] = [];
  for (const m of masked.matchAll(AMOUNT_RE)) {
    const [raw, lead, cur1, sign2, intPart, sep, decPart, suffix, trail] = m;
    const start = m.index ?? 0;
    const parsed = normaliseNumber(intPart, sep, decPart, decimal);
    if (!parsed) continue;
    const isPercent = suffix === "%";
    const negative =
      lead === "-" ||
      lead === "−" ||
      lead === "–" ||
      sign2 !== undefined ||
      (lead === "(" && trail === ")") ||
      trail === "-";
    // A leading hyphen right after a word char is a separator ("INV-2023"), not a sign.
    let rawText = raw;
    if (lead === "(" && trail !== ")") rawText = raw.slice(1);
    const curToken = cur1 ?? (suffix && suffix !== "%" ? suffix : undefined);
    const currency = curToken
      ? (SYMBOLS[curToken] ?? (CURRENCY_CODES.has(curToken) ? curToken : undefined))
      : undefined;
    const normText = (negative && parsed.value !== 0 ? "-" : "") + parsed.text;
    out.push({
      text: normText,
      value: negative ? -parsed.value : parsed.value,
      raw: rawText.trim(),
      start,
      end: start + raw.length,
      currency,
      isPercent,
      hasDecimals: parsed.hasDecimals,
    });
  }
  return out;
}

function normaliseNumber(
  intPart: string,
  sep: string | undefined,
  decPart: string | undefined,
  decimal: DecimalMark,
): { text: string; value: number; hasDecimals: boolean } | null {
  const groupSeps = intPart.match(/[,.'\u00a0\u202f\u2009 ]/g) ?? [];
  let intDigits = intPart.replace(/[^\d]/g, "");
  let decDigits = decPart ?? "";
  if (groupSeps.length > 0) {
    const distinct = new Set(groupSeps);
    if (sep && distinct.has(sep) && distinct.size === 1 && !decPart) return null;
    if (sep && distinct.has(sep)) {
      // "1,234,56": the same mark as grouping and decimal: not a number we trust.
      return null;
    }
    if (
      !sep &&
      distinct.size === 1 &&
      groupSeps.length === 1 &&
      (groupSeps[0] === "," || groupSeps[0] === ".")
    ) {
      // "1,234" or "1.234": grouping unless the document writes decimals with this mark.
      if (groupSeps[0] === decimal) {
        const [a, b] = intPart.split(groupSeps[0]);
        intDigits = a;
        decDigits = b;
      }
    }
  } else if (sep && decDigits.length === 3 && sep !== decimal) {
    // "1.234" alone in a ","-decimal document, or "1,234" in a "."-decimal one: grouping.
    intDigits = intDigits + decDigits;
    decDigits = "";
  }
  intDigits = intDigits.replace(/^0+(?=\d)/, "");
  if (intDigits.length > 15) return null;
  const text = decDigits ? `${intDigits}.${decDigits}` : intDigits;
  return { text, value: Number(text), hasDecimals: decDigits.length > 0 };
}

/** The document's decimal mark, judged from how numbers with two decimals are written. */
export function detectDecimalMark(text: string): DecimalMark {
  const comma = (text.match(/\d,\d{2}(?!\d)/g) ?? []).length;
  const dot = (text.match(/\d\.\d{2}(?!\d)/g) ?? []).length;
  return comma > dot ? "," : ".";
}

/** The money amount of a value text: the last non-percent amount (totals print the amount last). */
export function pickAmount(text: string, decimal: DecimalMark = "."): AmountMatch | undefined {
  // Long digit runs without decimals or currency are identifiers, not amounts.
  const all = findAmounts(text, decimal).filter(
    (a) => !a.isPercent && (a.hasDecimals || a.currency || Math.abs(a.value) < 1e7),
  );
  if (all.length === 0) return undefined;
  const withDecimals = all.filter((a) => a.hasDecimals || a.currency);
  return (withDecimals.length > 0 ? withDecimals : all).at(-1);
}

/** The currency printed in `text` (symbol or ISO code), if any. */
export function findCurrency(text: string): string | undefined {
  const counts = new Map<string, number>();
  for (const a of findAmounts(text))
    if (a.currency) counts.set(a.currency, (counts.get(a.currency) ?? 0) + 1);
  for (const m of text.matchAll(new RegExp(`(?<![\\p{L}])(${CODE_RE})(?![\\p{L}])`, "gu"))) {
    counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
  }
  for (const [sym, code] of Object.entries(SYMBOLS)) {
    if (/^[A-Za-z]/.test(sym)) continue;
    if (text.includes(sym)) counts.set(code, (counts.get(code) ?? 0) + 0.5);
  }
  let best: string | undefined;
  let bestN = 0;
  for (const [code, n] of counts)
    if (n > bestN) {
      best = code;
      bestN = n;
    }
  return best;
}
