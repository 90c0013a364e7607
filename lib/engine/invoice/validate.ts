/**
 * Check digits and shapes of the identifiers found on invoices: IBAN (ISO 13616 mod 97), BIC
 * (ISO 9362 shape), ABA routing numbers, and tax identifiers where a public format exists
 * (EU VAT numbers with their national check digits where cheap, GSTIN, ABN, Swiss UID, EIN).
 */

/** IBAN length per country (SWIFT IBAN registry). */
const IBAN_LENGTHS: Record<string, number> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MR: 27,
  MT: 31,
  MU: 30,
  NL: 18,
  NO: 15,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  SA: 24,
  SC: 31,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
  SD: 18,
  LY: 25,
  BI: 27,
  DJ: 27,
  RU: 33,
  SO: 23,
  NI: 28,
  MN: 20,
  FK: 18,
  OM: 23,
  YE: 30,
  HN: 28,
};

/** ISO 3166-1 alpha-2 codes (for BIC country checks). */
export const COUNTRY_CODES = new Set(
  (
    "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ " +
    "CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR " +
    "GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO " +
    "JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR " +
    "MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO " +
    "RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV " +
    "TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW"
  ).split(" "),
);

function mod97(digits: string): number {
  let rem = 0;
  for (let i = 0; i < digits.length; i += 7) rem = Number(String(rem) + digits.slice(i, i + 7)) % 97;
  return rem;
}

/** The IBAN in electronic form (no spaces, upper case) when its length and check digits are right. */
export function validIban(raw: string): string | undefined {
  const iban = raw.replace(/[\s.-]/g, "").toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(iban)) return undefined;
  const len = IBAN_LENGTHS[iban.slice(0, 2)];
  if (len !== undefined && iban.length !== len) return undefined;
  if (len === undefined && !COUNTRY_CODES.has(iban.slice(0, 2))) return undefined;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  const digits = rearranged.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  return mod97(digits) === 1 ? iban : undefined;
}

/** BBAN structure (a = letters, n = digits, c = either) of common IBAN countries, for OCR repair. */
const BBAN_FORMATS: Record<string, string> = {
  NL: "4a10n",
  GB: "4a14n",
  IE: "4a14n",
  DE: "18n",
  FR: "10n11c2n",
  BE: "12n",
  ES: "20n",
  IT: "1a10n12c",
  AT: "16n",
  CH: "5n12c",
  LU: "3n13c",
  PT: "21n",
  DK: "14n",
  FI: "14n",
  SE: "20n",
  NO: "11n",
  PL: "24n",
  CZ: "20n",
};
const TO_LETTER: Record<string, string> = { "0": "O", "1": "I", "2": "Z", "5": "S", "6": "G", "8": "B" };
const TO_DIGIT: Record<string, string> = {
  O: "0",
  D: "0",
  Q: "0",
  I: "1",
  L: "1",
  Z: "2",
  S: "5",
  G: "6",
  B: "8",
};

/**
 * An IBAN misread by OCR ("RAB0" for "RABO"): letters and digits confused where the
 * country's BBAN format says which one belongs, accepted only if the check digits then pass.
 */
export function repairIban(raw: string): string | undefined {
  const iban = raw.replace(/[\s.-]/g, "").toUpperCase();
  const cc = iban.slice(0, 2);
  const fmt = BBAN_FORMATS[cc];
  if (!fmt) return undefined;
  const kinds: string[] = [];
  for (const m of fmt.matchAll(/(\d+)([anc])/g)) for (let i = 0; i < Number(m[1]); i++) kinds.push(m[2]);
  const head = iban.slice(2, 4).replace(/[A-Z]/g, (c) => TO_DIGIT[c] ?? c);
  const bban = iban.slice(4);
  if (bban.length !== kinds.length) return undefined;
  const fixed = [...bban]
    .map((c, i) => (kinds[i] === "a" ? (TO_LETTER[c] ?? c) : kinds[i] === "n" ? (TO_DIGIT[c] ?? c) : c))
    .join("");
  return validIban(cc + head + fixed);
}

/** The BIC (8 or 11 characters: bank, country, location, branch) when its shape is right. */
export function validBic(raw: string): string | undefined {
  const bic = raw.replace(/\s/g, "").toUpperCase();
  if (!/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/.test(bic)) return undefined;
  if (!COUNTRY_CODES.has(bic.slice(4, 6))) return undefined;
  // Location "0"/"1" as second char are test/passive BICs; still valid shapes. Reject obvious words.
  if (/^(?:INVOICE|ACCOUNT|PAYMENT|BALANCE|DISCOUNT|SHIPPING|CUSTOMER|SUBTOTAL|TOTAL)/.test(bic))
    return undefined;
  return bic;
}

/** ABA routing number (US): 9 digits with the 3-7-1 weighted check. */
export function validAbaRouting(raw: string): string | undefined {
  const d = raw.replace(/\D/g, "");
  if (d.length !== 9) return undefined;
  const n = d.split("").map(Number);
  const sum = 3 * (n[0] + n[3] + n[6]) + 7 * (n[1] + n[4] + n[7]) + (n[2] + n[5] + n[8]);
  return sum % 10 === 0 ? d : undefined;
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let v = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      v *= 2;
      if (v > 9) v -= 9;
    }
    sum += v;
  }
  return sum % 10 === 0;
}

function deVatValid(d: string): boolean {
  // ISO 7064 MOD 11,10 over the first 8 digits.
  let product = 10;
  for (let i = 0; i < 8; i++) {
    let sum = (Number(d[i]) + product) % 10;
    if (sum === 0) sum = 10;
    product = (2 * sum) % 11;
  }
  let check = 11 - product;
  if (check === 10) check = 0;
  return check === Number(d[8]);
}

function gstinValid(g: string): boolean {
  const chars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const v = chars.indexOf(g[i]) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(v / 36) + (v % 36);
  }
  return chars[(36 - (sum % 36)) % 36] === g[14];
}

function abnValid(d: string): boolean {
  const w = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  let sum = 0;
  for (let i = 0; i < 11; i++) sum += (Number(d[i]) - (i === 0 ? 1 : 0)) * w[i];
  return sum % 89 === 0;
}

function chUidValid(d: string): boolean {
  const w = [5, 4, 3, 2, 7, 6, 5, 4];
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(d[i]) * w[i];
  const check = 11 - (sum % 11);
  return check !== 10 && (check === 11 ? 0 : check) === Number(d[8]);
}

const EU_VAT: Record<string, RegExp> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  GR: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^\d[A-Z0-9+*]\d{5}[A-Z]{1,2}$/,
  IT: /^\d{11}$/,
  LT: /^(?:\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^\d{2,10}$/,
  SE: /^\d{10}01$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
  GB: /^(?:\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
  XI: /^(?:\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
  NO: /^\d{9}(?:MVA)?$/,
};

export interface TaxIdCheck {
  /** The identifier as printed, trimmed. */
  text: string;
  /** What it looks like: "EU VAT", "GSTIN", "ABN", "CHE UID", "EIN"... */
  kind: string;
  /** false when a known format's check digits fail. */
  valid: boolean;
}

/**
 * Recognises a tax identifier with a known format. Returns undefined for text in no known
 * format (callers keep a labelled value as printed), or the check with `valid: false` when a
 * known format's check digits fail.
 */
export function checkTaxId(raw: string): TaxIdCheck | undefined {
  const text = raw.trim().replace(/[.,;]$/, "");
  const compact = text.replace(/[\s.\-/]/g, "").toUpperCase();
  const gst = /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;
  if (gst.test(compact)) return { text, kind: "GSTIN", valid: gstinValid(compact) };
  const che = /^CHE(\d{9})(?:MWST|TVA|IVA|VAT)?$/.exec(compact);
  if (che) return { text, kind: "CHE UID", valid: chUidValid(che[1]) };
  const eu = /^([A-Z]{2})([A-Z0-9+*]{2,13})$/.exec(compact);
  if (eu && EU_VAT[eu[1]]) {
    const [, cc, rest] = eu;
    if (!EU_VAT[cc].test(rest)) return { text, kind: "EU VAT", valid: false };
    let ok = true;
    if (cc === "DE") ok = deVatValid(rest);
    else if (cc === "IT") ok = luhnValid(rest);
    else if (cc === "BE") ok = 97 - (Number(rest.slice(0, 8)) % 97) === Number(rest.slice(8));
    else if (cc === "FR" && /^\d{2}$/.test(rest.slice(0, 2))) {
      ok = Number(rest.slice(0, 2)) === (12 + 3 * (Number(rest.slice(2)) % 97)) % 97;
    }
    return { text, kind: "EU VAT", valid: ok };
  }
  if (/^\d{2}-\d{7}$/.test(text)) return { text, kind: "EIN", valid: true };
  if (/^\d{11}$/.test(compact) && /^\d{2}\s?\d{3}\s?\d{3}\s?\d{3}$/.test(text)) {
    return { text, kind: "ABN", valid: abnValid(compact) };
  }
  return undefined;
}

/** Unlabelled tax identifiers worth picking out of running text (EU VAT, GSTIN, Swiss UID). */
export const TAX_ID_PATTERN =
  /\b(?:(?:AT|BE|BG|CY|CZ|DE|DK|EE|EL|ES|FI|FR|GB|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK|XI)\s?[A-Z0-9+*](?:[ .]?[A-Z0-9+*]){5,12}|\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]|CHE[-\s]?\d{3}\.?\d{3}\.?\d{3}(?:\s?(?:MWST|TVA|IVA))?)\b/g;
