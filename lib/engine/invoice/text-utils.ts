/** Small text helpers shared by the invoice analysis (pure, universal). */

/** Lower-case, accents removed, typographic variants unified: the form labels are matched in. */
export function fold(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[\u2018\u2019\u201a\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201e]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/\u00df/g, "ss")
    .replace(/[º°]/g, "o")
    .toLowerCase();
}

/** fold() character by character, keeping the length so offsets still point into the original. */
export function foldKeepLength(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const f = fold(c);
    out += f.length === 1 ? f : c.toLowerCase().length === 1 ? c.toLowerCase() : c;
  }
  return out;
}

/** Collapses runs of whitespace and trims. */
export function squash(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** "Unit Price (EUR)" → "unitPriceEur"; "Qty." → "qty"; empty when nothing usable is left. */
export function camelCase(text: string): string {
  const parts = fold(text)
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
    .split(" ")
    .filter(Boolean);
  if (parts.length === 0) return "";
  const out = parts.map((p, i) => (i === 0 ? p : p[0].toUpperCase() + p.slice(1))).join("");
  return /^[0-9]/.test(out) ? `col${out}` : out;
}

/** "deliveryDate" → ["delivery", "date"]; "PO_number" → ["po", "number"]. */
export function splitCamel(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/[_\-.]+/g, " ")
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** True when the text holds at least one letter (any script). */
export function hasLetter(text: string): boolean {
  return /\p{L}/u.test(text);
}

export function hasDigit(text: string): boolean {
  return /\d/.test(text);
}
