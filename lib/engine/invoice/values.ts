/**
 * Typed readers for label values: identifiers, free text, contacts, tax ids, IBAN and BIC.
 * Each returns the value and the character range it came from, or undefined when the text
 * is not a value of that type (so the caller can try the next candidate).
 */
import { checkTaxId, repairIban, validBic, validIban } from "@/lib/engine/invoice/validate";
import { findAmounts } from "@/lib/engine/invoice/amounts";
import { findDates } from "@/lib/engine/invoice/dates";
import { fold, hasDigit, hasLetter } from "@/lib/engine/invoice/text-utils";

export interface ValueHit {
  value: string;
  start: number;
  end: number;
}

const ID_NOISE = /^(?:#|no\.?|nr\.?|n[°º]\.?|number|nummer|num\.?|:|-|–|\.)$/i;
const STOP_WORDS = new Set(
  "the of and for from to date datum du dated on le la de der die das van het een a an is at by in".split(
    " ",
  ),
);

/** An identifier: the first token with a digit (or a code-like token), cleaned of "#"/"No.". */
export function readId(text: string, allowNoDigit = false): ValueHit | undefined {
  const tokens = [...text.matchAll(/\S+/g)];
  for (let i = 0; i < tokens.length && i < 5; i++) {
    let tok = tokens[i][0];
    let start = tokens[i].index ?? 0;
    if (ID_NOISE.test(tok)) continue;
    const lead = /^[#:]+|^(?:no|nr|n[°º])[.:]?(?=\S)/i.exec(tok);
    if (lead && hasDigit(tok.slice(lead[0].length))) {
      start += lead[0].length;
      tok = tok.slice(lead[0].length);
    }
    tok = tok.replace(/^[("'[]+/, "").replace(/[)\]"',;:.]+$/, "");
    if (tok === "") continue;
    if (STOP_WORDS.has(fold(tok))) return undefined;
    if (tok.length > 40) return undefined;
    const digits = hasDigit(tok);
    if (!digits && !(allowNoDigit && /^[A-Z0-9][A-Z0-9_\-/.]{3,}$/.test(tok))) return undefined;
    // A date or an amount with currency is not an identifier.
    const d = findDates(tok);
    if (d.length > 0 && d[0].raw.length >= tok.length - 1) return undefined;
    if (/^[$€£¥₹]/.test(tok) || /^\d{1,3}(?:[.,]\d{3})*[.,]\d{2}$/.test(tok)) return undefined;
    return { value: tok, start, end: start + tok.length };
  }
  return undefined;
}

/** Free text (terms, names, notes): trimmed, with a letter or digit, at most `max` characters. */
export function readText(text: string, max = 120): ValueHit | undefined {
  const m = /^[\s:#\-–.]*(.*?)[\s,;:]*$/.exec(text);
  if (!m) return undefined;
  const value = m[1];
  if (value === "" || value.length > max || !(hasLetter(value) || hasDigit(value))) return undefined;
  const start = text.indexOf(value);
  return { value, start, end: start + value.length };
}

export const EMAIL_RE = /[A-Za-z0-9][\w.+-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;
const PHONE_RE = /(?:\+|00)?\(?\d[\d\s().\-/]{5,}\d/;
const WEB_RE =
  /\b(?:https?:\/\/)?(?:www\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|co|de|fr|nl|be|uk|eu|es|it|ch|at|in|us|biz|info|app|dev|shop|store)(?:\/\S*)?\b/i;

export function readEmail(text: string): ValueHit | undefined {
  const m = EMAIL_RE.exec(text);
  return m ? { value: m[0], start: m.index, end: m.index + m[0].length } : undefined;
}

/** A phone number: 7 to 15 digits with the usual separators, not a date. */
export function readPhone(text: string): ValueHit | undefined {
  for (const m of text.matchAll(new RegExp(PHONE_RE, "g"))) {
    const raw = m[0].trim();
    const digits = raw.replace(/\D/g, "");
    if (digits.length < 7 || digits.length > 15) continue;
    if (findDates(raw).some((d) => d.raw.length >= raw.length - 2)) continue;
    const start = (m.index ?? 0) + m[0].indexOf(raw);
    return { value: raw, start, end: start + raw.length };
  }
  return undefined;
}

export function readWebsite(text: string): ValueHit | undefined {
  if (EMAIL_RE.test(text)) {
    const rest = text.replace(EMAIL_RE, (s) => " ".repeat(s.length));
    const m = WEB_RE.exec(rest);
    return m ? { value: m[0], start: m.index, end: m.index + m[0].length } : undefined;
  }
  const m = WEB_RE.exec(text);
  return m ? { value: m[0], start: m.index, end: m.index + m[0].length } : undefined;
}

/** An IBAN printed in groups or as one token, validated by its check digits. */
export function readIban(text: string): ValueHit | undefined {
  const re = /\b[A-Z]{2}[0-9OIS]{2}(?:[ ]?[A-Z0-9]){10,30}\b/g;
  for (const m of text.toUpperCase().matchAll(re)) {
    // Try the longest prefix of the match that validates (the next word may have been swallowed).
    const raw = m[0];
    for (let end = raw.length; end >= 14; end--) {
      if (end < raw.length && raw[end] !== " ") continue;
      const iban = validIban(raw.slice(0, end));
      if (iban) return { value: iban, start: m.index ?? 0, end: (m.index ?? 0) + end };
    }
    for (let end = raw.length; end >= 14; end--) {
      if (end < raw.length && raw[end] !== " ") continue;
      const iban = repairIban(raw.slice(0, end));
      if (iban) return { value: iban, start: m.index ?? 0, end: (m.index ?? 0) + end };
    }
  }
  return undefined;
}

export function readBic(text: string): ValueHit | undefined {
  for (const m of text.matchAll(/\b[A-Z0-9]{8}(?:[A-Z0-9]{3})?\b/gi)) {
    if (!/^[A-Z]{6}/i.test(m[0])) continue;
    if (m[0] !== m[0].toUpperCase()) continue;
    const bic = validBic(m[0]);
    if (bic) return { value: bic, start: m.index ?? 0, end: (m.index ?? 0) + m[0].length };
  }
  return undefined;
}

/**
 * A tax identifier after a label: the run of id-like tokens ("DE 232 446 240", "FR60421938861",
 * "06AABCO6063D1ZQ"). A value in a known format must pass its check digits.
 */
export function readTaxId(text: string): ValueHit | undefined {
  const m = /[A-Z0-9][A-Z0-9 .\-/]{3,30}[A-Z0-9]/i.exec(
    text.replace(/^[\s:#/\-–.]*(?:tin|no|nr|id)?[\s:#.]*/i, (s) => " ".repeat(s.length)),
  );
  if (!m) return undefined;
  let raw = m[0];
  // Stop at a second label or a word without digits that follows the id.
  const parts = raw.split(/\s+/);
  const keep: string[] = [];
  for (const p of parts) {
    // Words before the id ("KvK Rotterdam 24330087") are skipped, except a country prefix ("DE 232...").
    if (keep.length === 0 && !hasDigit(p) && !/^[A-Z]{2,3}$/.test(p)) continue;
    if (keep.length > 0 && !hasDigit(p) && !/^(?:B\d{2}|MVA|MWST|TVA|IVA)$/i.test(p)) break;
    keep.push(p);
  }
  if (keep.length === 0) return undefined;
  const first = raw.indexOf(keep[0]);
  raw = keep.join(" ");
  const at = m.index + Math.max(0, first);
  if (!hasDigit(raw) || raw.replace(/\D/g, "").length < 4) return undefined;
  const check = checkTaxId(raw);
  if (check && !check.valid) {
    // A run may include a trailing number that is not part of the id; try shorter runs.
    for (let n = keep.length - 1; n >= 1; n--) {
      const shorter = keep.slice(0, n).join(" ");
      const c2 = checkTaxId(shorter);
      if (c2?.valid) return { value: shorter, start: at, end: at + shorter.length };
    }
    return undefined;
  }
  return { value: raw, start: at, end: at + raw.length };
}

/** True when the text is mostly an amount (so it is not a name or an address line). */
export function isAmountLike(text: string): boolean {
  const a = findAmounts(text);
  const covered = a.reduce((s, x) => s + (x.end - x.start), 0);
  return covered >= text.replace(/\s/g, "").length * 0.6;
}
