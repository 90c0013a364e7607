import { QuireError } from "@/lib/core/errors";

export interface Rgba {
  r: number;
  g: number;
  b: number;
  /** Opacity 0..1 (1 = opaque). */
  alpha: number;
}

/**
 * Parses `RRGGBB`, `AARRGGBB` (AA = opacity, FF opaque, 00 invisible, as .NET's ARGB) or
 * `RGB`, each with an optional leading `#`. Components come back in 0..1.
 */
export function parseColor(value: string, field: string): Rgba {
  const hex = value.trim().replace(/^#/, "");
  if (!/^[0-9a-fA-F]+$/.test(hex) || ![3, 6, 8].includes(hex.length)) {
    throw new QuireError(
      454,
      `${field}: "${value}" is not a colour; use RRGGBB or AARRGGBB in hex, e.g. #FF0000 or #80FF0000.`,
    );
  }
  const full = hex.length === 3 ? hex.replace(/./g, (c) => c + c) : hex;
  const n = (i: number) => Number.parseInt(full.slice(i, i + 2), 16) / 255;
  if (full.length === 8) return { alpha: n(0), r: n(2), g: n(4), b: n(6) };
  return { r: n(0), g: n(2), b: n(4), alpha: 1 };
}

/** A number for a content stream: at most 4 decimals, no exponent. */
export function fmt(v: number): string {
  if (!Number.isFinite(v)) return "0";
  const r = Math.round(v * 10000) / 10000;
  return Object.is(r, -0) ? "0" : String(r);
}
