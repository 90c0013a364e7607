/**
 * Where a document comes from, read only from evidence that cannot be mistaken: VAT ids
 * (country prefix and the country's format, check digits when they hold), IBANs (country
 * code, length and the mod-97 check), phone numbers in international form (+49, 0049 beside
 * a phone label), national company and tax ids with check digits (CNPJ, SIRET, ABN...), a
 * country named on an address line or labelled ("Land: DE"), a postal code together with a
 * place or state it belongs to, and the currency as weak support. A five-digit number is
 * not a US ZIP code unless a US state stands beside it.
 *
 * weighCountry answers one country only when the evidence agrees: VAT ids, IBANs, phones and
 * national ids (the "strong" kinds) that point to two countries mean no answer, unless one
 * side is explicitly the customer's ("Your VAT ID", "USt-IdNr. des Kunden").
 */
import { checkVAT, countries as vatCountries } from "jsvat";
import { getCountrySpecifications, isValidIBAN } from "ibantools";
import { CA_PROVINCES, COUNTRY_NAMES, US_STATES, countriesIn, countryOf } from "@/lib/engine/lexicon/countries";
import { fold } from "@/lib/engine/lexicon/normalize";
import { US_STATE_NAMES, placeCountries } from "@/lib/engine/lexicon/places";

export type CountryEvidenceKind =
  "vat" | "iban" | "phone" | "nationalId" | "countryCode" | "countryName" | "postal" | "currency";

/** Kinds a country answer must never contradict. */
export const STRONG_KINDS: ReadonlySet<CountryEvidenceKind> = new Set(["vat", "iban", "phone", "nationalId"]);

export interface CountryEvidence {
  kind: CountryEvidenceKind;
  /** ISO codes this evidence allows (one, or a few: +1 is the US or Canada). */
  countries: string[];
  weight: number;
  /** The text that was read. */
  text: string;
  /** Index of the input line it was read on. */
  line: number;
  /** "buyer": the line says it is the customer's (Your VAT ID, Kunden-Nr., client). */
  party?: "buyer";
}

export interface EvidenceLine {
  text: string;
  /** The label before or above the text, when the caller knows it ("Your VAT ID:"). */
  label?: string;
  /** True for lines of the issuer's own block (letterhead, footer); their evidence counts more. */
  issuer?: boolean;
}

const EUROZONE = ["DE", "FR", "NL", "BE", "LU", "AT", "IT", "ES", "PT", "IE", "FI", "GR", "SK", "SI", "EE", "LV", "LT", "MT", "CY", "HR", "MC"];

/** Dialling codes → countries; longest code first when read. */
const DIALLING: Record<string, string[]> = {
  "1": ["US", "CA"], "7": ["RU"], "20": ["EG"], "27": ["ZA"], "30": ["GR"], "31": ["NL"], "32": ["BE"], "33": ["FR"],
  "34": ["ES"], "36": ["HU"], "39": ["IT"], "40": ["RO"], "41": ["CH"], "43": ["AT"], "44": ["GB"], "45": ["DK"],
  "46": ["SE"], "47": ["NO"], "48": ["PL"], "49": ["DE"], "51": ["PE"], "52": ["MX"], "54": ["AR"], "55": ["BR"],
  "56": ["CL"], "57": ["CO"], "60": ["MY"], "61": ["AU"], "62": ["ID"], "63": ["PH"], "64": ["NZ"], "65": ["SG"],
  "66": ["TH"], "81": ["JP"], "82": ["KR"], "84": ["VN"], "86": ["CN"], "90": ["TR"], "91": ["IN"], "92": ["PK"],
  "94": ["LK"], "212": ["MA"], "234": ["NG"], "254": ["KE"], "351": ["PT"], "352": ["LU"], "353": ["IE"],
  "354": ["IS"], "356": ["MT"], "357": ["CY"], "358": ["FI"], "359": ["BG"], "370": ["LT"], "371": ["LV"],
  "372": ["EE"], "377": ["MC"], "380": ["UA"], "381": ["RS"], "385": ["HR"], "386": ["SI"], "420": ["CZ"],
  "421": ["SK"], "423": ["LI"], "852": ["HK"], "880": ["BD"], "886": ["TW"], "966": ["SA"], "971": ["AE"],
  "972": ["IL"], "974": ["QA"],
};

const VAT_LABEL = /\b(?:vat|tva|ust|mwst|btw|iva|uid|nif|cif|nipc|gst|moms|alv|dic|nip|pvm|p\s?iva|partita iva|tax\s?id|tax\s?(?:reg|no|number)|steuer|umsatzsteuer|identification|identifikation|ident|intracom\w*|n[o°]\s?tva)\b/;
const PHONE_LABEL = /\b(?:tel|tel[eé]?fono?|telephone|t[eé]l[eé]phone|telefoon|telefon|telefone|phone|fon|fone|fax|mobil\w*|handy|gsm|cel(?:ular)?|cell|whatsapp|ph|t)\b\.?/;
const BUYER_CUE = new RegExp(
  [
    // Nouns for the customer and the headings of the customer's block.
    "\\b(?:customer|client|cliente|buyer|recipient|bill(?:ed)? to|sold to|ship to|invoice to|deliver to|kunde\\w*|empf[aä]nger|k[aä]ufer|kaeufer|rechnungsempf\\w*|leistungsempf\\w*|acheteur|destinataire|comprador|destinatario|acquirente|committente|klant\\w*|afnemer|tomador|adquirente|preneur)\\b",
    // "Your VAT ID", "Ihre USt-IdNr.", "Votre n° TVA", "Uw btw-nummer": the reader's own ids.
    "\\b(?:your|ihre?|votre|vos|uw|su|vuestro|vostr[oa]|seu|sua)\\s+(?:n[o°]\\.?\\s*(?:de\\s+)?)?(?:vat|tax|ust|tva|btw|iva|nif|uid|steuer|umsatzsteuer|customer|kunden)",
  ].join("|"),
);

/** The issuer's own service lines ("Customer service", "Kundenservice", "service client") are not the customer's. */
const SERVICE = /\b(?:customer|client|kunden|klanten)\s*-?\s*(?:service|support|care|hotline|center|centre|dienst|portal)|\bservice\s+(?:client|clientele)|atencion al cliente|servizio clienti|apoio ao cliente|kundenservice|kundendienst|klantenservice|kundenbetreuung/;

function isBuyer(line: EvidenceLine): boolean {
  const context = fold(`${line.label ?? ""} ${line.text}`);
  return BUYER_CUE.test(context) && !SERVICE.test(context);
}

/** VAT ids: an EU (or Swiss/Norwegian) prefix and a value in that country's format. */
function readVatIds(text: string, labelled: boolean): { code: string; value: string; weight: number; span: [number, number] }[] {
  const out: { code: string; value: string; weight: number; span: [number, number] }[] = [];
  const re =
    /(?<![A-Za-z0-9])(AT|BE|BG|CY|CZ|DE|DK|EE|EL|ES|FI|FR|GB|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK|XI|CHE|NO)[ .:-]{0,2}([0-9A-Z](?:[0-9A-Z]|[ .-](?=[0-9A-Z])){7,17})/g;
  for (const m of text.matchAll(re)) {
    const compact = (m[1] + m[2]).replace(/[ .-]/g, "");
    // The value may run into the next word ("DE811907980 Tel"): the longest prefix in format wins.
    for (let len = compact.length; len >= m[1].length + 8; len--) {
      const candidate = compact.slice(0, len);
      const r = checkVAT(candidate, vatCountries);
      if (!r.isValidFormat || !r.country) continue;
      const code = r.country.isoCode.short === "EL" ? "GR" : r.country.isoCode.short;
      if (!COUNTRY_NAMES[code]) break;
      out.push({
        code,
        value: candidate,
        weight: r.isValid ? 4 : labelled ? 3 : 1,
        span: [m.index ?? 0, (m.index ?? 0) + m[0].length],
      });
      break;
    }
  }
  return out;
}

let ibanLengths: Record<string, number> | undefined;

/** IBANs: country code, that country's length, and the mod-97 check. */
function readIbans(text: string, labelled: boolean): { code: string; value: string; weight: number; span: [number, number] }[] {
  if (!ibanLengths) {
    ibanLengths = {};
    for (const [cc, spec] of Object.entries(getCountrySpecifications())) if (spec.chars) ibanLengths[cc] = spec.chars;
  }
  const out: { code: string; value: string; weight: number; span: [number, number] }[] = [];
  for (const m of text.matchAll(/(?<![A-Za-z0-9])([A-Z]{2})(\d{2})((?:[ ]?[A-Z0-9]){10,32})/g)) {
    const cc = m[1];
    const want = ibanLengths[cc];
    if (!want) continue;
    const compact = (m[1] + m[2] + m[3]).replace(/ /g, "");
    if (compact.length < want) continue;
    const iban = compact.slice(0, want);
    const valid = isValidIBAN(iban);
    if (!valid && !labelled) continue;
    if (!COUNTRY_NAMES[cc]) continue;
    out.push({ code: cc, value: iban, weight: valid ? 3.5 : 2, span: [m.index ?? 0, (m.index ?? 0) + m[0].length] });
  }
  return out;
}

/** International phone numbers: +CC or, beside a phone label, 00CC. */
function readPhones(text: string, labelled: boolean): { codes: string[]; value: string }[] {
  const out: { codes: string[]; value: string }[] = [];
  for (const m of text.matchAll(/(?<![\w+/.-])(\+|00)\s?\(?\s?(\d[\d\s\-./()]{6,22}\d)/g)) {
    if (m[1] === "00" && !labelled) continue;
    const digits = m[2].replace(/\D/g, "");
    for (const n of [3, 2, 1]) {
      const codes = DIALLING[digits.slice(0, n)];
      if (!codes) continue;
      const rest = digits.length - n;
      if (rest >= 6 && rest <= 13) out.push({ codes, value: m[0].trim() });
      break;
    }
  }
  return out;
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function cnpjValid(d: string): boolean {
  if (d.length !== 14 || /^(\d)\1+$/.test(d)) return false;
  const calc = (len: number) => {
    const w = len === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    const s = w.reduce((acc, wi, i) => acc + wi * Number(d[i]), 0) % 11;
    return s < 2 ? 0 : 11 - s;
  };
  return calc(12) === Number(d[12]) && calc(13) === Number(d[13]);
}

function cpfValid(d: string): boolean {
  if (d.length !== 11 || /^(\d)\1+$/.test(d)) return false;
  const calc = (len: number) => {
    let s = 0;
    for (let i = 0; i < len; i++) s += Number(d[i]) * (len + 1 - i);
    const r = (s * 10) % 11;
    return r === 10 ? 0 : r;
  };
  return calc(9) === Number(d[9]) && calc(10) === Number(d[10]);
}

function abnValid(d: string): boolean {
  if (d.length !== 11) return false;
  const w = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  const digits = d.split("").map(Number);
  digits[0] -= 1;
  return digits.reduce((acc, x, i) => acc + x * w[i], 0) % 89 === 0;
}

/** National company and tax ids whose format (and check digits) belong to one country. */
function readNationalIds(text: string): { code: string; value: string; weight: number }[] {
  const out: { code: string; value: string; weight: number }[] = [];
  for (const m of text.matchAll(/(?<!\d)(\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2})(?!\d)/g))
    if (cnpjValid(m[1].replace(/\D/g, ""))) out.push({ code: "BR", value: m[1], weight: 3 });
  for (const m of text.matchAll(/(?<![\d.])(\d{3}\.\d{3}\.\d{3}-\d{2})(?!\d)/g))
    if (cpfValid(m[1].replace(/\D/g, ""))) out.push({ code: "BR", value: m[1], weight: 2.5 });
  for (const m of text.matchAll(/\b(?:CNPJ|CPF)\b\s*[:nº°.]*\s*([\d./-]{11,18})/gi)) {
    const d = m[1].replace(/\D/g, "");
    if (d.length === 14 || d.length === 11) out.push({ code: "BR", value: m[0], weight: 2 });
  }
  for (const m of text.matchAll(/\b(SIRET|SIREN)\b\s*[:n°o.]*\s*(\d[\d ]{7,18}\d)/gi)) {
    const d = m[2].replace(/\D/g, "");
    if ((d.length === 9 || d.length === 14) && luhn(d)) out.push({ code: "FR", value: m[0], weight: 3 });
    else if (d.length === 9 || d.length === 14) out.push({ code: "FR", value: m[0], weight: 2 });
  }
  for (const m of text.matchAll(/\b(HRB|HRA)\s?\d{2,6}\b/g)) out.push({ code: "DE", value: m[0], weight: 2 });
  for (const m of text.matchAll(/\b(?:KvK|KVK|K\.v\.K\.)[\s\-:.nr]*(\d{8})\b/g)) out.push({ code: "NL", value: m[0], weight: 2.5 });
  for (const m of text.matchAll(/\bABN\b[\s:.#]*(\d{2}\s?\d{3}\s?\d{3}\s?\d{3})\b/g))
    if (abnValid(m[1].replace(/\D/g, ""))) out.push({ code: "AU", value: m[0], weight: 3 });
  for (const m of text.matchAll(/\b(\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z])\b/g)) out.push({ code: "IN", value: m[1], weight: 3 });
  for (const m of text.matchAll(/\b(?:P\.?\s?IVA|Partita\s+IVA)\b[\s:.]*(\d{11})\b/gi))
    out.push({ code: "IT", value: m[0], weight: luhn(m[1]) ? 3 : 2 });
  for (const m of text.matchAll(/\b(?:N\.?I\.?F\.?|C\.?I\.?F\.?)\b[\s:.]*([A-Z]\d{7}[0-9A-J]|\d{8}[A-Z])\b/g)) {
    const r = checkVAT(`ES${m[1]}`, vatCountries);
    if (r.isValidFormat) out.push({ code: "ES", value: m[0], weight: r.isValid ? 3 : 2 });
  }
  for (const m of text.matchAll(/\b(?:NIF|NIPC)\b[\s:.]*(\d{9})\b/g)) {
    const r = checkVAT(`PT${m[1]}`, vatCountries);
    if (r.isValid) out.push({ code: "PT", value: m[0], weight: 2.5 });
  }
  for (const m of text.matchAll(/\bEIN\b[\s:#.]*(\d{2}-\d{7})\b/g)) out.push({ code: "US", value: m[0], weight: 2.5 });
  return out;
}

const STATE_NAME_ZIP = new RegExp(
  `(?<![a-z])(?:${Object.keys(US_STATE_NAMES).join("|")}),?\\s+\\d{5}(?:-\\d{4})?(?![\\d-])`,
  "g",
);

/** Postal codes beside the place or state they belong to. */
function readPostal(text: string): { codes: string[]; value: string; weight: number }[] {
  const out: { codes: string[]; value: string; weight: number }[] = [];
  // US: "Oakland, CA 94607", "Scranton PA 18540-1234", "Austin, Texas 78701".
  for (const m of text.matchAll(/([A-Za-z][A-Za-z.' -]*?),?\s+([A-Z]{2})\.?\s+(\d{5})(?:-\d{4})?(?![\d-])/g))
    if (US_STATES.has(m[2]) && /[a-z]/i.test(m[1]) && !/^[A-Z]{2}$/.test(m[1].trim()))
      out.push({ codes: ["US"], value: m[0].trim(), weight: 2.5 });
  const f = fold(text);
  for (const m of f.matchAll(STATE_NAME_ZIP)) out.push({ codes: ["US"], value: m[0], weight: 2.5 });
  // Canada: "Toronto, ON M5V 2T6".
  for (const m of text.matchAll(/\b([A-Z]{2})\s+([A-Z]\d[A-Z])\s?(\d[A-Z]\d)\b/g))
    if (CA_PROVINCES.has(m[1])) out.push({ codes: ["CA"], value: m[0], weight: 2.5 });
  // United Kingdom: "London SW1A 1AA" (the postcode's own format, with a place on the line).
  for (const m of text.matchAll(/\b([A-Z]{1,2}\d[A-Z\d]?)\s(\d[ABD-HJLNP-UW-Z]{2})\b/g))
    if (/[A-Za-z]{3,}/.test(text.replace(m[0], ""))) out.push({ codes: ["GB"], value: m[0], weight: 2 });
  // Netherlands: "1016 DV Amsterdam".
  for (const m of text.matchAll(/\b([1-9]\d{3})\s?([A-RT-Z][A-Z])\s+([A-Z][A-Za-z'-]{2,})/g))
    if (!/^(SA|SD|SS)$/.test(m[2])) out.push({ codes: ["NL"], value: m[0], weight: 2 });
  // Brazil: CEP 01311-000 with a state ("São Paulo - SP") or the CEP label.
  for (const m of text.matchAll(/\b(\d{5}-\d{3})\b/g))
    if (/\bCEP\b|[-/]\s?(?:AC|AL|AP|AM|BA|CE|DF|ES|GO|MA|MT|MS|MG|PA|PB|PR|PE|PI|RJ|RN|RS|RO|RR|SC|SP|SE|TO)\b/.test(text))
      out.push({ codes: ["BR"], value: m[0], weight: 2 });
  // Portugal: "1000-001 Lisboa"; Poland: "00-950 Warszawa"; Luxembourg: "L-1234 Luxembourg".
  for (const m of text.matchAll(/(?<![\d-])(\d{4}-\d{3})\s+([A-Z][\p{L}]{2,})/gu)) out.push({ codes: ["PT"], value: m[0], weight: 2 });
  for (const m of text.matchAll(/(?<![\d-])(\d{2}-\d{3})\s+([A-Z][\p{L}]{2,})/gu)) out.push({ codes: ["PL"], value: m[0], weight: 1.5 });
  for (const m of text.matchAll(/\bL-(\d{4})\s+[A-Z]/g)) out.push({ codes: ["LU"], value: m[0], weight: 2 });
  // Country-letter prefixes: "D-80331 München", "CH-8001 Zürich", "F-75008 Paris".
  const PREFIX: Record<string, [string, number]> = {
    D: ["DE", 5], DE: ["DE", 5], A: ["AT", 4], AT: ["AT", 4], CH: ["CH", 4], F: ["FR", 5], FR: ["FR", 5],
    B: ["BE", 4], BE: ["BE", 4], I: ["IT", 5], IT: ["IT", 5], E: ["ES", 5], ES: ["ES", 5], NL: ["NL", 4],
    DK: ["DK", 4], S: ["SE", 5], N: ["NO", 4], FIN: ["FI", 5], FI: ["FI", 5],
  };
  for (const m of text.matchAll(/(?<![A-Za-z0-9-])(D|DE|A|AT|CH|F|FR|B|BE|I|IT|E|ES|NL|DK|S|N|FIN|FI)-(\d{4,5})\s+[A-ZÄÖÜÉ]/g)) {
    const [code, len] = PREFIX[m[1]];
    if (m[2].length === len) out.push({ codes: [code], value: m[0], weight: 2 });
  }
  // Bare codes only with a known place that has such codes: "80786 München", "75013 Paris".
  for (const m of f.matchAll(/(?<![\d.,/-])(\d{4,5})\s+([a-z][a-z' -]{2,40})/g)) {
    const codes = placeCountries(m[1], m[2]);
    if (codes.length > 0) out.push({ codes, value: m[0].trim(), weight: 2 });
  }
  return out;
}

const AUTHORITIES: [RegExp, string][] = [
  [/\bInternal Revenue Service\b/i, "US"],
  [/\bHM Revenue (?:&|and) Customs\b|\bHMRC\b/, "GB"],
  [/\bFinanzamt\b|\bBundeszentralamt f(?:ü|ue)r Steuern\b/i, "DE"],
  [/\bDirection g[ée]n[ée]rale des finances publiques\b|\bDGFiP\b/i, "FR"],
  [/\bAgencia Tributaria\b/i, "ES"],
  [/\bAgenzia delle Entrate\b/i, "IT"],
  [/\bBelastingdienst\b/i, "NL"],
  [/\bReceita Federal\b/i, "BR"],
  [/\bAutoridade Tribut[áa]ria e Aduaneira\b/i, "PT"],
];

/** Countries named on the line: an address line that is the name, or ends in it, counts more. */
function readCountryNames(text: string): { kind: "countryName" | "countryCode"; code: string; value: string; weight: number }[] {
  const out: { kind: "countryName" | "countryCode"; code: string; value: string; weight: number }[] = [];
  const whole = countryOf(text.replace(/^[\s\-–•·,]+/, ""));
  if (whole && text.trim().length > 2) {
    out.push({ kind: "countryName", code: whole, value: text.trim(), weight: 2.5 });
    return out;
  }
  const f = fold(text);
  for (const c of countriesIn(text)) {
    const after = f.slice(c.index + c.name.length).trim();
    const before = f.slice(0, c.index);
    // "75013 Paris, France", "Hamburg - Deutschland", "Germany" closing an address line.
    const closesAddress = after === "" || /^[.,;)]*$/.test(after);
    const inAddress = closesAddress && /(\d|,|-|–|·|•)\s*$/.test(before.trim() + " ");
    out.push({ kind: "countryName", code: c.code, value: c.name, weight: inAddress ? 2 : closesAddress ? 1 : 0.5 });
  }
  // National authorities named on forms and notices.
  for (const [re, code] of AUTHORITIES) if (re.test(text)) out.push({ kind: "countryName", code, value: re.source, weight: 2 });
  // ISO codes as a label's value ("Land: DE", "Country: US") or closing an address ("75018 PARIS, FR").
  for (const m of text.matchAll(/\b(?:land|country|l[aä]ndercode|landescode|pays|pa[ií]s|paese|nazione|country code)\s*[:-]?\s*([A-Z]{2})\b/gi))
    if (COUNTRY_NAMES[m[1]]) out.push({ kind: "countryCode", code: m[1], value: m[0], weight: 2 });
  for (const m of text.matchAll(/\d{4,5}\s+[A-Za-zÀ-ÿ][\p{L} .'-]+,\s*([A-Z]{2})\s*$/gu))
    if (COUNTRY_NAMES[m[1]]) out.push({ kind: "countryCode", code: m[1], value: m[0], weight: 1.5 });
  return out;
}

/** A postal code of any of the usual shapes (12345, 1234 AB, SW1A 1AA, 01310-100, 1100-053). */
const POSTAL_SHAPE = /(?<![\d.,])\d{4,5}(?![\d.,])|\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b|\b\d{5}-\d{3}\b|\b\d{4}-\d{3}\b|\b\d{4}\s?[A-Z]{2}\b/;

const COUNTRY_LABEL = /(?:^|\s)(?:land|country|l[aä]ndercode|landescode|pays|pa[ií]s|paese|nazione|country code|codigo do pais)\s*:?$/;

/** Currencies of one country (weak: companies invoice in foreign currencies). */
function readCurrencies(text: string): { codes: string[]; value: string }[] {
  const out: { codes: string[]; value: string }[] = [];
  const add = (re: RegExp, codes: string[]) => {
    const m = re.exec(text);
    if (m) out.push({ codes, value: m[0] });
  };
  add(/£\s?\d|\bGBP\b/, ["GB"]);
  add(/\bCHF\b|\bFr\.\s?\d/, ["CH", "LI"]);
  add(/R\$\s?\d|\bBRL\b/, ["BR"]);
  add(/₹|\bINR\b|\bRs\.?\s?\d/, ["IN"]);
  add(/\bUS\$|\bUSD\b/, ["US"]);
  add(/\bzł|\bPLN\b/, ["PL"]);
  add(/\bSEK\b/, ["SE"]);
  add(/\bDKK\b/, ["DK"]);
  add(/\bNOK\b/, ["NO"]);
  add(/\bCAD\b|\bC\$/, ["CA"]);
  add(/\bAUD\b|\bA\$/, ["AU"]);
  add(/€|\bEUR\b/, EUROZONE);
  return out;
}

/** Every piece of country evidence on the given lines. */
export function countryEvidence(lines: EvidenceLine[]): CountryEvidence[] {
  const out: CountryEvidence[] = [];
  const seen = new Set<string>();
  const push = (e: CountryEvidence) => {
    const key = `${e.kind}|${e.text.replace(/\s+/g, "")}|${e.countries.join(",")}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(e);
  };
  lines.forEach((line, i) => {
    const text = line.text;
    if (!/[A-Za-z0-9€£₹$]/.test(text)) return;
    const context = fold(`${line.label ?? ""} ${text}`);
    const party = isBuyer(line) ? ("buyer" as const) : undefined;
    const ibans = readIbans(text, /\biban\b/.test(context));
    for (const b of ibans) push({ kind: "iban", countries: [b.code], weight: b.weight, text: b.value, line: i, party });
    // An IBAN's first characters look like a VAT id ("DE89 3704..."): read VAT ids around them.
    let masked = text;
    for (const b of ibans) masked = masked.slice(0, b.span[0]) + " ".repeat(b.span[1] - b.span[0]) + masked.slice(b.span[1]);
    for (const v of readVatIds(masked, VAT_LABEL.test(context)))
      push({ kind: "vat", countries: [v.code], weight: v.weight, text: v.value, line: i, party });
    for (const p of readPhones(masked, PHONE_LABEL.test(context)))
      push({ kind: "phone", countries: p.codes, weight: 2.5, text: p.value, line: i, party });
    for (const n of readNationalIds(masked))
      push({ kind: "nationalId", countries: [n.code], weight: n.weight, text: n.value, line: i, party });
    for (const p of readPostal(text)) push({ kind: "postal", countries: p.codes, weight: p.weight, text: p.value, line: i, party });
    // A code standing alone under its label: "Land:" | "DE", "Ländercode:" | "DK".
    const code = text.trim();
    if (/^[A-Z]{2}$/.test(code) && COUNTRY_NAMES[code] && COUNTRY_LABEL.test(fold(line.label ?? "").trim()))
      push({ kind: "countryCode", countries: [code], weight: 2, text: `${line.label} ${code}`, line: i, party });
    for (const c of readCountryNames(text)) {
      // A country name is an address line only below (or beside) a postal code; in a table or
      // a list of countries it is a mention.
      const nearAddress = [0, 1, 2, 3].some((k) => i - k >= 0 && POSTAL_SHAPE.test(lines[i - k].text));
      const weight = c.kind === "countryName" && c.weight >= 2 && !nearAddress ? 1 : c.weight;
      push({ kind: c.kind, countries: [c.code], weight, text: c.value, line: i, party });
    }
    for (const c of readCurrencies(text)) push({ kind: "currency", countries: c.codes, weight: 0.3, text: c.value, line: i });
  });
  return out;
}

export interface CountryAnswer {
  /** ISO code, when the evidence agrees. */
  code?: string;
  /** English name of `code`. */
  country?: string;
  /** Why: "agreed", "conflict", "weak" or "none". */
  reason: "agreed" | "conflict" | "weak" | "none";
  scores: Record<string, number>;
}

const MIN_SCORE = 2;

function intersect(sets: string[][]): string[] {
  if (sets.length === 0) return [];
  return sets.reduce((acc, s) => acc.filter((c) => s.includes(c)));
}

/**
 * One country from the evidence, or none. Strong evidence (VAT, IBAN, phone, national ids)
 * that is not marked as the customer's must agree; the customer's own ids never outvote the
 * issuer's. Without strong evidence, addresses and postal codes decide, the issuer's block
 * first; a tie or a split is no answer.
 */
export function weighCountry(evidence: CountryEvidence[], issuerLines: ReadonlySet<number> = new Set()): CountryAnswer {
  const scores: Record<string, number> = {};
  for (const e of evidence) {
    const w = e.weight * (e.party === "buyer" ? 0.3 : 1) * (issuerLines.has(e.line) ? 1.5 : 1);
    for (const c of e.countries) scores[c] = Math.round(((scores[c] ?? 0) + w / e.countries.length) * 100) / 100;
  }
  const answer = (code: string | undefined, reason: CountryAnswer["reason"]): CountryAnswer =>
    code ? { code, country: COUNTRY_NAMES[code], reason, scores } : { reason, scores };
  const strong = evidence.filter((e) => STRONG_KINDS.has(e.kind) && e.weight >= 1.5);
  const own = strong.filter((e) => e.party !== "buyer");
  const theirs = strong.filter((e) => e.party === "buyer");
  const medium = evidence.filter((e) => !STRONG_KINDS.has(e.kind) && e.kind !== "currency");
  const bestOf = (allowed: string[], list: CountryEvidence[]): string | undefined => {
    const s: Record<string, number> = {};
    for (const e of list)
      for (const c of e.countries)
        if (allowed.includes(c)) s[c] = (s[c] ?? 0) + (e.weight * (issuerLines.has(e.line) ? 1.5 : 1)) / e.countries.length;
    const ranked = Object.entries(s).sort((a, b) => b[1] - a[1]);
    if (ranked.length === 0) return undefined;
    if (ranked.length > 1 && ranked[1][1] >= ranked[0][1] * 0.67) return undefined;
    return ranked[0][0];
  };
  if (own.length > 0) {
    const agreed = intersect(own.map((e) => e.countries));
    if (agreed.length === 0) return answer(undefined, "conflict");
    if (agreed.length === 1) return answer(agreed[0], "agreed");
    const pick = bestOf(agreed, medium);
    return pick ? answer(pick, "agreed") : answer(undefined, "weak");
  }
  const all = Object.keys(COUNTRY_NAMES);
  // Only the customer's ids: an address may name the issuer's country, but never against them.
  const allowed = theirs.length > 0 ? intersect(theirs.map((e) => e.countries)) : all;
  if (medium.length === 0) return answer(undefined, evidence.length > 0 ? "weak" : "none");
  // The customer's address says where the customer is, not where the document comes from:
  // it can split the issuer's evidence, never stand in for it.
  const s: Record<string, number> = {};
  for (const e of medium)
    for (const c of e.countries)
      if (e.party !== "buyer") s[c] = (s[c] ?? 0) + (e.weight * (issuerLines.has(e.line) ? 1.5 : 1)) / e.countries.length;
  const ranked = Object.entries(s).sort((a, b) => b[1] - a[1]);
  if (ranked.length === 0) return answer(undefined, "weak");
  const [top, topScore] = ranked[0];
  const second = ranked[1]?.[1] ?? 0;
  if (topScore < MIN_SCORE) return answer(undefined, "weak");
  if (second >= topScore * 0.67) return answer(undefined, "conflict");
  if (!allowed.includes(top)) return answer(undefined, "conflict");
  return answer(top, "agreed");
}
