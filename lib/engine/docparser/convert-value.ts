import type { DataType } from "./template";

/**
 * Turns matched text into the field's data type. Numbers follow the template's culture (en-US:
 * 1,234.56; de-DE/fr-FR and most of Europe: 1.234,56) unless the text itself says otherwise
 * (both separators present: the last one is the decimal mark). Dates follow `dateFormat`
 * (dd, d, MM, M, MMM, MMMM, yy, yyyy) or, without one, ISO or the culture's day/month order,
 * month names in English, German, French and Spanish; they are answered as yyyy-MM-ddT00:00:00.
 * Text that does not convert is kept as text.
 */

const commaDecimalCultures = /^(de|fr|es|it|nl|pt|pl|cs|sk|da|sv|nb|no|fi|ru|tr|hu|ro|el|bg|hr|sl|lt|lv|et|uk)\b/i;

export function parseDecimal(text: string, culture = "en-US"): number | null {
  let t = text.replace(/[^\d,.\-+()'’ ]/g, "").replace(/[ '’]/g, "");
  const negative = /^\(.*\)$/.test(t) || /^-|-$/.test(t);
  t = t.replace(/[()+-]/g, "");
  if (!/\d/.test(t)) return null;
  const lastComma = t.lastIndexOf(",");
  const lastDot = t.lastIndexOf(".");
  let decimal: "," | "." | null;
  if (lastComma >= 0 && lastDot >= 0) decimal = lastComma > lastDot ? "," : ".";
  else if (lastComma >= 0) decimal = commaDecimalCultures.test(culture) || !/^\d{1,3}(,\d{3})+$/.test(t) ? "," : null;
  else if (lastDot >= 0) decimal = commaDecimalCultures.test(culture) && /^\d{1,3}(\.\d{3})+$/.test(t) ? null : ".";
  else decimal = null;
  const group = decimal === "," ? "." : ",";
  t = t.split(group).join("");
  if (decimal === ",") t = t.replace(",", ".");
  if (decimal === null) t = t.replace(/[.,]/g, "");
  const n = Number(t);
  if (!Number.isFinite(n)) return null;
  return negative ? -n : n;
}

const monthNames: Record<string, number> = {};
[
  ["january", "jan", "januar", "janvier", "janv", "enero", "ene", "jänner"],
  ["february", "feb", "februar", "février", "fevrier", "févr", "fevr", "febrero"],
  ["march", "mar", "märz", "maerz", "mars", "marzo", "mär"],
  ["april", "apr", "avril", "avr", "abril", "abr"],
  ["may", "mai", "mayo"],
  ["june", "jun", "juni", "juin", "junio"],
  ["july", "jul", "juli", "juillet", "juil", "julio"],
  ["august", "aug", "août", "aout", "agosto", "ago"],
  ["september", "sep", "sept", "septembre", "septiembre"],
  ["october", "oct", "oktober", "okt", "octobre", "octubre"],
  ["november", "nov", "novembre", "noviembre"],
  ["december", "dec", "dezember", "dez", "décembre", "decembre", "déc", "diciembre", "dic"],
].forEach((names, i) => names.forEach((n) => (monthNames[n] = i + 1)));

function iso(y: number, m: number, d: number): string | null {
  if (y < 100) y += y < 70 ? 2000 : 1900;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}T00:00:00`;
}

function month(word: string): number | undefined {
  return monthNames[word.toLowerCase().replace(/\.$/, "")];
}

export function parseDate(text: string, format?: string, culture = "en-US"): string | null {
  const t = text.trim();
  if (format) {
    // The format's tokens become groups, in order.
    const order: string[] = [];
    const source = format.replace(/yyyy|yy|MMMM|MMM|MM|M|dd|d|[.*+?^${}()|[\]\\]/g, (tok) => {
      if (/^[yMd]+$/.test(tok)) {
        order.push(tok);
        return tok.startsWith("MMM") ? "(\\p{L}+\\.?)" : tok === "yyyy" ? "(\\d{4})" : tok.length === 2 ? "(\\d{1,2})" : "(\\d{1,2})";
      }
      return "\\" + tok;
    });
    const m = new RegExp(`^${source}$`, "u").exec(t);
    if (m) {
      let y = 0;
      let mo = 0;
      let d = 1;
      order.forEach((tok, i) => {
        const v = m[i + 1];
        if (tok.startsWith("y")) y = Number(v);
        else if (tok.startsWith("MMM")) mo = month(v) ?? 0;
        else if (tok.startsWith("M")) mo = Number(v);
        else d = Number(v);
      });
      const r = iso(y, mo, d);
      if (r) return r;
    }
  }
  let m = /^(\d{4})[-./](\d{1,2})[-./](\d{1,2})/.exec(t);
  if (m) return iso(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[-./](\d{1,2})[-./](\d{2,4})$/.exec(t);
  if (m) {
    const a = Number(m[1]);
    const b = Number(m[2]);
    const monthFirst = /^en-US|^en-CA|^en-PH/i.test(culture) ? a <= 12 || b > 12 : a <= 12 && b > 12;
    return monthFirst ? iso(Number(m[3]), a, b) : iso(Number(m[3]), b, a);
  }
  m = /^(\d{1,2})\.?\s+(\p{L}+\.?)\s+(\d{2,4})$/u.exec(t);
  if (m && month(m[2])) return iso(Number(m[3]), month(m[2])!, Number(m[1]));
  m = /^(\p{L}+\.?)\s+(\d{1,2}),?\s+(\d{2,4})$/u.exec(t);
  if (m && month(m[1])) return iso(Number(m[3]), month(m[1])!, Number(m[2]));
  return null;
}

export function convertValue(text: string, type: DataType, culture: string, dateFormat?: string): string | number | boolean {
  const t = text.trim();
  switch (type) {
    case "decimal":
      return parseDecimal(t, culture) ?? t;
    case "integer": {
      const n = parseDecimal(t, culture);
      return n === null ? t : Math.trunc(n);
    }
    case "date":
      return parseDate(t, dateFormat, culture) ?? t;
    case "boolean":
      return /^(true|yes|y|1|x|✓|✔|ja|oui|sí|si)$/i.test(t) ? true : /^(false|no|n|0|nein|non)$/i.test(t) ? false : t;
    default:
      return t;
  }
}
