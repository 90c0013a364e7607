/**
 * Country names as printed in addresses (in every supported language from i18n-iso-countries,
 * plus native spellings and common short forms), the subdivision codes that appear in North
 * American and Australian address lines, and dialling codes. The evidence that ties a
 * document to a country (VAT ids, IBANs, phones, postal codes with their place) is read in
 * country-evidence.ts.
 */
import isoCountries from "i18n-iso-countries";
import { LANGUAGES } from "@/lib/engine/lexicon/languages";
import { fold } from "@/lib/engine/lexicon/normalize";

/** ISO 3166-1 alpha-2 → English name. */
export const COUNTRY_NAMES: Record<string, string> = {
  US: "United States",
  GB: "United Kingdom",
  FR: "France",
  DE: "Germany",
  NL: "Netherlands",
  BE: "Belgium",
  LU: "Luxembourg",
  CH: "Switzerland",
  AT: "Austria",
  IT: "Italy",
  ES: "Spain",
  PT: "Portugal",
  IE: "Ireland",
  DK: "Denmark",
  SE: "Sweden",
  NO: "Norway",
  FI: "Finland",
  IS: "Iceland",
  PL: "Poland",
  CZ: "Czechia",
  SK: "Slovakia",
  HU: "Hungary",
  RO: "Romania",
  BG: "Bulgaria",
  GR: "Greece",
  HR: "Croatia",
  SI: "Slovenia",
  EE: "Estonia",
  LV: "Latvia",
  LT: "Lithuania",
  MT: "Malta",
  CY: "Cyprus",
  CA: "Canada",
  MX: "Mexico",
  BR: "Brazil",
  AR: "Argentina",
  CL: "Chile",
  CO: "Colombia",
  PE: "Peru",
  AU: "Australia",
  NZ: "New Zealand",
  IN: "India",
  CN: "China",
  JP: "Japan",
  KR: "South Korea",
  SG: "Singapore",
  HK: "Hong Kong",
  TW: "Taiwan",
  MY: "Malaysia",
  ID: "Indonesia",
  TH: "Thailand",
  VN: "Vietnam",
  PH: "Philippines",
  AE: "United Arab Emirates",
  SA: "Saudi Arabia",
  QA: "Qatar",
  IL: "Israel",
  TR: "Turkey",
  ZA: "South Africa",
  NG: "Nigeria",
  KE: "Kenya",
  EG: "Egypt",
  MA: "Morocco",
  RU: "Russia",
  UA: "Ukraine",
  PK: "Pakistan",
  BD: "Bangladesh",
  LK: "Sri Lanka",
  RS: "Serbia",
  MC: "Monaco",
  LI: "Liechtenstein",
};

const ALIASES: Record<string, string> = {
  "united states of america": "US",
  usa: "US",
  "u.s.a.": "US",
  "u.s.a": "US",
  "u.s.": "US",
  "etats-unis": "US",
  "vereinigte staaten": "US",
  "verenigde staten": "US",
  "estados unidos": "US",
  "stati uniti": "US",
  uk: "GB",
  "u.k.": "GB",
  "great britain": "GB",
  england: "GB",
  scotland: "GB",
  wales: "GB",
  "northern ireland": "GB",
  "royaume-uni": "GB",
  "vereinigtes konigreich": "GB",
  "verenigd koninkrijk": "GB",
  "reino unido": "GB",
  "regno unito": "GB",
  deutschland: "DE",
  allemagne: "DE",
  duitsland: "DE",
  alemania: "DE",
  germania: "DE",
  alemanha: "DE",
  "the netherlands": "NL",
  nederland: "NL",
  holland: "NL",
  "pays-bas": "NL",
  niederlande: "NL",
  "paises bajos": "NL",
  "paesi bassi": "NL",
  belgique: "BE",
  belgie: "BE",
  belgien: "BE",
  belgica: "BE",
  belgio: "BE",
  schweiz: "CH",
  suisse: "CH",
  svizzera: "CH",
  zwitserland: "CH",
  suiza: "CH",
  osterreich: "AT",
  oesterreich: "AT",
  autriche: "AT",
  oostenrijk: "AT",
  italia: "IT",
  italie: "IT",
  italien: "IT",
  espana: "ES",
  espagne: "ES",
  spanien: "ES",
  spanje: "ES",
  spagna: "ES",
  danmark: "DK",
  sverige: "SE",
  norge: "NO",
  suomi: "FI",
  polska: "PL",
  "czech republic": "CZ",
  "ceska republika": "CZ",
  magyarorszag: "HU",
  romania: "RO",
  hellas: "GR",
  hrvatska: "HR",
  slovenija: "SI",
  slovensko: "SK",
  eesti: "EE",
  latvija: "LV",
  lietuva: "LT",
  eire: "IE",
  "republic of ireland": "IE",
  irlande: "IE",
  frankrijk: "FR",
  frankreich: "FR",
  francia: "FR",
  franca: "FR",
  "people's republic of china": "CN",
  prc: "CN",
  nippon: "JP",
  "republic of korea": "KR",
  korea: "KR",
  "hong kong sar": "HK",
  "hong kong s.a.r.": "HK",
  uae: "AE",
  "u.a.e.": "AE",
  turkiye: "TR",
  "russian federation": "RU",
  bharat: "IN",
  "viet nam": "VN",
  brasil: "BR",
  mexique: "MX",
  méxico: "MX",
};

const NAME_TO_CODE = new Map<string, string>();
for (const [code, name] of Object.entries(COUNTRY_NAMES)) NAME_TO_CODE.set(fold(name), code);
for (const [alias, code] of Object.entries(ALIASES)) NAME_TO_CODE.set(fold(alias), code);
// The same countries' names in every supported language ("Allemagne", "Duitsland", "Estados
// Unidos da América"); two-letter aliases ("US") are codes, not names, and stay out.
for (const lang of LANGUAGES) {
  const names = isoCountries.getNames(lang, { select: "all" }) as Record<string, string[]>;
  for (const code of Object.keys(COUNTRY_NAMES))
    for (const n of names[code] ?? []) if (n.replace(/\W/g, "").length > 2 && !NAME_TO_CODE.has(fold(n))) NAME_TO_CODE.set(fold(n), code);
}

/** Every known name of a country (folded), for readers that scan text themselves. */
export function countryNames(): ReadonlyMap<string, string> {
  return NAME_TO_CODE;
}

/** The ISO code of a text that is exactly a country name ("Nederland", "USA", "United States"). */
export function countryOf(text: string): string | undefined {
  const t = fold(text)
    .replace(/[.,;]+$/, "")
    .trim();
  return NAME_TO_CODE.get(t);
}

let namesRe: RegExp | undefined;

/** Country names found as whole words in a longer text, with their codes. */
export function countriesIn(text: string): { code: string; name: string; index: number }[] {
  if (!namesRe) {
    const names = [...NAME_TO_CODE.keys()]
      .filter((n) => n.length >= 4 || /^(usa|uae|uk)$/.test(n))
      .sort((a, b) => b.length - a.length)
      .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    namesRe = new RegExp(`(?<![a-z])(?:${names.join("|")})(?![a-z])`, "g");
  }
  const f = fold(text);
  const out: { code: string; name: string; index: number }[] = [];
  for (const m of f.matchAll(namesRe)) out.push({ code: NAME_TO_CODE.get(m[0])!, name: m[0], index: m.index ?? 0 });
  return out;
}

export const US_STATES = new Set(
  "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR GU VI AS MP".split(
    " ",
  ),
);
export const CA_PROVINCES = new Set("AB BC MB NB NL NS NT NU ON PE QC SK YT".split(" "));
export const AU_STATES = new Set("NSW VIC QLD SA WA TAS ACT NT".split(" "));

/** International dialling codes → country, for phone numbers printed with "+". */
export const PHONE_CODES: [string, string][] = [
  ["+1", "US"],
  ["+44", "GB"],
  ["+33", "FR"],
  ["+49", "DE"],
  ["+31", "NL"],
  ["+32", "BE"],
  ["+352", "LU"],
  ["+41", "CH"],
  ["+43", "AT"],
  ["+39", "IT"],
  ["+34", "ES"],
  ["+351", "PT"],
  ["+353", "IE"],
  ["+45", "DK"],
  ["+46", "SE"],
  ["+47", "NO"],
  ["+358", "FI"],
  ["+48", "PL"],
  ["+420", "CZ"],
  ["+36", "HU"],
  ["+40", "RO"],
  ["+30", "GR"],
  ["+61", "AU"],
  ["+64", "NZ"],
  ["+91", "IN"],
  ["+86", "CN"],
  ["+81", "JP"],
  ["+82", "KR"],
  ["+65", "SG"],
  ["+852", "HK"],
  ["+971", "AE"],
  ["+966", "SA"],
  ["+972", "IL"],
  ["+90", "TR"],
  ["+27", "ZA"],
  ["+55", "BR"],
  ["+52", "MX"],
  ["+7", "RU"],
  ["+380", "UA"],
];
