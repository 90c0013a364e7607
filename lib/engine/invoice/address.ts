/**
 * Postal addresses from the lines of an address block, in the formats of the countries whose
 * invoices are common: US/Canada/Australia ("City, ST 12345"), UK postcodes, Dutch
 * ("3012 CN Rotterdam"), continental Europe ("75008 Paris", "D-63571 Gelnhausen"), India
 * ("Lucknow 226010 Uttar Pradesh"), and comma-separated one-line addresses. Values are kept
 * as printed; nothing is inferred (no country from a postcode).
 */
import type { InvoiceAddress } from "@/lib/engine/invoice/types";
import { AU_STATES, CA_PROVINCES, COUNTRY_NAMES, US_STATES, countryOf } from "@/lib/engine/invoice/countries";
import { fold } from "@/lib/engine/invoice/text-utils";

const STREET_WORDS =
  /\b(?:st|street|ave|avenue|rd|road|blvd|boulevard|lane|ln|dr|drive|way|court|ct|place|pl|suite|ste|floor|fl|hwy|highway|pkwy|parkway|sq|square|terrace|ter|cir|circle|straat|str|strasse|weg|laan|plein|gracht|kade|rue|chemin|allee|impasse|quai|via|viale|calle|avenida|piazza|building|bldg|unit|apt|box|po box|postfach|bus|road|marg|nagar|cross|main)\b\.?/i;

/** True when a line reads like a street line ("4557 De Silva St", "Weena 664", "27 rue Henri"). */
export function isStreetLike(line: string): boolean {
  const f = fold(line);
  if (STREET_WORDS.test(f)) return true;
  return /^\d+[a-z]?\s+\p{L}/u.test(f) || /\p{L}{3,}\s+\d+[a-z]?(?:[-/]\d+)?$/u.test(f);
}

export interface CityLine {
  city?: string;
  state?: string;
  postalCode?: string;
  country?: string;
}

function clean(s: string | undefined): string | undefined {
  const t = s?.replace(/^[\s,;–-]+|[\s,;–-]+$/g, "").trim();
  return t ? t : undefined;
}

function countryPart(s: string | undefined): string | undefined {
  const t = clean(s)?.replace(/^\(|\)$/g, "");
  if (!t) return undefined;
  if (countryOf(t)) return t;
  if (/^[A-Z]{2}$/.test(t) && COUNTRY_NAMES[t]) return t;
  return undefined;
}

/** Parses a "city line" (postcode, city, state, maybe country). Undefined when it is not one. */
export function parseCityLine(raw: string): CityLine | undefined {
  const line = raw.replace(/\s+/g, " ").trim();
  let m: RegExpExecArray | null;
  // US: "Fremont CA 94538", "Seattle, WA 98109-5210, US"
  m = /^(.+?)[,\s]+([A-Z]{2})\.?,?\s+(\d{5}(?:-\d{4})?)(?:[,\s]+(.+))?$/.exec(line);
  if (m && US_STATES.has(m[2]) && !/\d/.test(m[1]) && (m[4] === undefined || countryPart(m[4]))) {
    return { city: clean(m[1]), state: m[2], postalCode: m[3], country: countryPart(m[4]) };
  }
  // Canada: "Toronto, ON M5V 2T6"
  m = /^(.+?)[,\s]+([A-Z]{2}),?\s+([A-Z]\d[A-Z]\s?\d[A-Z]\d)(?:[,\s]+(.+))?$/.exec(line);
  if (m && CA_PROVINCES.has(m[2]) && !/\d/.test(m[1])) {
    return { city: clean(m[1]), state: m[2], postalCode: m[3], country: countryPart(m[4]) };
  }
  // Australia: "Sydney NSW 2000"
  m = /^(.+?)[,\s]+(NSW|VIC|QLD|SA|WA|TAS|ACT|NT),?\s+(\d{4})(?:[,\s]+(.+))?$/.exec(line);
  if (m && AU_STATES.has(m[2]) && !/\d/.test(m[1])) {
    return { city: clean(m[1]), state: m[2], postalCode: m[3], country: countryPart(m[4]) };
  }
  // Netherlands: "3012 CN Rotterdam"
  m = /^(?:NL-?)?(\d{4}\s?[A-Z]{2})\s+([\p{L}][\p{L}'. -]+?)(?:[,\s]+(.+))?$/u.exec(line);
  if (m && !/^(?:SA|SD|SS)$/.test(m[1].slice(-2)) && !STREET_WORDS.test(fold(m[2]))) {
    const country = countryPart(m[3]);
    if (m[3] === undefined || country) return { city: clean(m[2]), postalCode: m[1], country };
  }
  // UK: "London SW1A 1AA"
  m = /^(.+?)[,\s]+([A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2})(?:[,\s]+(.+))?$/.exec(line);
  if (m && !/\d/.test(m[1]) && (m[3] === undefined || countryPart(m[3]))) {
    return { city: clean(m[1]), postalCode: m[2], country: countryPart(m[3]) };
  }
  // Continental Europe: "75008 Paris", "D-63571 Gelnhausen", "1010 Wien", "00-950 Warszawa"
  m =
    /^(?:([A-Z]{1,3})\s?[-–]\s?)?(\d{4,5}|\d{2}-\d{3}|\d{3}\s\d{2})\s+([\p{L}][\p{L}'.()\s-]*?(?:\s+\d{1,2})?)(?:[,\s]+([\p{L}][\p{L} ]+))?$/u.exec(
      line,
    );
  if (m) {
    const country = countryPart(m[4]);
    const city = country ? m[3] : m[4] ? `${m[3]} ${m[4]}` : m[3];
    // "Frankfurt am Main", "Offenbach am Main": a river after the city, not the Indian "main road".
    if (!STREET_WORDS.test(fold(city).replace(/(?<=\s)main\b/g, ""))) return { city: clean(city), postalCode: m[2], country };
  }
  // India: "Lucknow 226010 Uttar Pradesh", "New Delhi - 110001", "Bangalore-560068"
  m = /^([\p{L}][\p{L} .]+?)\s*[-–,]?\s*(\d{3}\s?\d{3})(?:[,\s]+([\p{L}][\p{L} ]+))?$/u.exec(line);
  if (m && !STREET_WORDS.test(fold(m[1])) && !countryOf(m[1])) {
    const country = countryPart(m[3]);
    return {
      city: clean(m[1]),
      postalCode: m[2].replace(/\s/g, ""),
      state: country ? undefined : clean(m[3]),
      country,
    };
  }
  // "City 12345" or "City, 12345"
  m = /^([\p{L}][\p{L} .'-]+?),?\s+(\d{4,6})$/u.exec(line);
  if (m && !STREET_WORDS.test(fold(m[1]))) return { city: clean(m[1]), postalCode: m[2] };
  return undefined;
}

/** A comma-separated tail "Yuen Long, N.T., 0000, HK" read right to left. */
function parseCommaParts(parts: string[]): CityLine | undefined {
  const p = parts
    .flatMap((s) => s.split(/\s+[-–]\s+(?=\d)/))
    .map((s) => s.trim())
    .filter(Boolean);
  if (p.length < 2) return undefined;
  const out: CityLine = {};
  let i = p.length - 1;
  const isPostal = (x: string) =>
    /^(?:[A-Z0-9]{2,4}\s?[A-Z0-9]{3}|\d{3,6}(?:-\d{3,4})?)$/.test(x) && /\d/.test(x);
  // Country and postcode at the end, in either order ("India - 560067", "0000, HK").
  for (let k = 0; k < 2 && i >= 0; k++) {
    const c = countryPart(p[i]);
    if (c && !out.country) {
      out.country = c;
      i--;
    } else if (isPostal(p[i]) && !out.postalCode) {
      out.postalCode = p[i];
      i--;
    }
  }
  const stateLike = (x: string) =>
    /^[A-Z]{2,3}$/.test(x) || /^[A-Z][A-Za-z]?\.[A-Z]\.?$/.test(x) || x.length <= 4;
  if (
    i >= 1 &&
    (stateLike(p[i]) ||
      (/^[\p{L} ]+$/u.test(p[i]) && /^[\p{L} ]+$/u.test(p[i - 1]) && !isStreetLike(p[i - 1])))
  ) {
    out.state = p[i];
    i--;
  }
  if (i < 0 || /\d/.test(p[i]) || isStreetLike(p[i])) return undefined;
  out.city = p[i];
  if (!out.postalCode && !out.state && !out.country) return undefined;
  return out;
}

export interface ParsedAddress {
  address: InvoiceAddress;
  /** Indices of the lines used. */
  used: number[];
}

/**
 * Reads an address from block lines (name and contact lines already removed). Street lines
 * are those before the city line; a country line after it sets the country.
 */
export function parseAddress(lines: string[]): ParsedAddress | undefined {
  if (lines.length === 0) return undefined;
  const address: InvoiceAddress = {};
  const used: number[] = [];
  // Country alone on a line (usually the last).
  let countryIdx = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (countryOf(lines[i])) {
      countryIdx = i;
      address.country = lines[i].replace(/[.,;]+$/, "").trim();
      used.push(i);
      break;
    }
  }
  let cityIdx = -1;
  for (let i = (countryIdx >= 0 ? countryIdx : lines.length) - 1; i >= 0; i--) {
    const line = lines[i];
    const whole = parseCityLine(line);
    if (whole && !(i === 0 && lines.length > 1 && isStreetLike(line) && !whole.state)) {
      Object.assign(address, dropUndefined({ ...whole, country: whole.country ?? address.country }));
      cityIdx = i;
      break;
    }
    if (line.includes(",")) {
      const parts = line.split(",");
      for (let k = 1; k < parts.length; k++) {
        const tail = parts.slice(k).join(",");
        const parsed = parseCityLine(tail.trim()) ?? parseCommaParts(parts.slice(k));
        if (parsed) {
          Object.assign(address, dropUndefined({ ...parsed, country: parsed.country ?? address.country }));
          const street = parts.slice(0, k).join(",").trim().replace(/,$/, "");
          lines = [...lines];
          lines[i] = street;
          cityIdx = i;
          if (street) {
            const before = lines.slice(0, i).filter((l) => l.trim() !== "");
            address.streetAddress = [...before, street].join(", ");
            for (let j = 0; j <= i; j++) used.push(j);
            return { address, used: [...new Set(used)].sort((a, b) => a - b) };
          }
          break;
        }
      }
      if (cityIdx >= 0) break;
      const parsed = parseCommaParts(parts);
      if (parsed && i > 0) {
        Object.assign(address, dropUndefined({ ...parsed, country: parsed.country ?? address.country }));
        cityIdx = i;
        break;
      }
    }
  }
  if (cityIdx >= 0) {
    used.push(cityIdx);
    const street = lines
      .slice(0, cityIdx)
      .map((l) => l.trim())
      .filter(Boolean);
    if (street.length > 0) {
      address.streetAddress = street.join(", ");
      for (let j = 0; j < cityIdx; j++) used.push(j);
    }
  } else {
    const rest = lines
      .filter((_, i) => i !== countryIdx)
      .map((l) => l.trim())
      .filter(Boolean);
    if (
      rest.length > 0 &&
      rest.length <= 3 &&
      rest.join(", ").length <= 120 &&
      rest.some((l) => /\d/.test(l) && isStreetLike(l))
    ) {
      address.streetAddress = rest.join(", ");
      for (let j = 0; j < lines.length; j++) used.push(j);
    }
  }
  if (Object.keys(address).length === 0) return undefined;
  return { address, used: [...new Set(used)].sort((a, b) => a - b) };
}

function dropUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** True when a line reads like a city line or a country (used to recognise address blocks). */
export function isAddressLine(line: string): boolean {
  if (parseCityLine(line) !== undefined || countryOf(line) !== undefined) return true;
  // A one-line address: "17 Canal Street, Manchester M1 3HE".
  return (
    line.includes(",") &&
    /\d/.test(line) &&
    line.length < 90 &&
    parseAddress([line])?.address.city !== undefined
  );
}
