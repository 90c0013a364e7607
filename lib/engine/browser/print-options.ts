import { QuireError } from "@/lib/core/errors";

/**
 * Print settings of web page → PDF (public API: `margins`, `paperSize`, `orientation`): parsed from the
 * caller's strings into CSS pixels (96 per inch), which is what Chromium's printToPDF takes.
 * Pure functions, so the contract tests and the renderer share them.
 */

const pxPerUnit: Record<string, number> = { px: 1, in: 96, cm: 96 / 2.54, mm: 96 / 25.4, pt: 96 / 72 };

const inch = (w: number, h: number) => ({ width: w * 96, height: h * 96 });
const mm = (w: number, h: number) => ({ width: (w * 96) / 25.4, height: (h * 96) / 25.4 });

/** Named paper sizes of the public API, portrait, in CSS px: US sizes in inches, A sizes per ISO 216 in mm. */
const paperSizes: Record<string, { width: number; height: number }> = {
  Letter: inch(8.5, 11),
  Legal: inch(8.5, 14),
  Tabloid: inch(11, 17),
  Ledger: inch(17, 11),
  A0: mm(841, 1189),
  A1: mm(594, 841),
  A2: mm(420, 594),
  A3: mm(297, 420),
  A4: mm(210, 297),
  A5: mm(148, 210),
  A6: mm(105, 148),
};

/** Largest page side we print (200 in, the classic PDF viewer limit of 14 400 pt). */
const MAX_SIDE_PX = 200 * 96;
const MIN_SIDE_PX = 0.5 * 96;

export interface Margins {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** Page size in CSS px after orientation. */
export interface PaperSize {
  width: number;
  height: number;
}

/**
 * Parses one length: a number with an optional unit (px, mm, cm, in; pt also accepted).
 * A bare number is in px, as in CSS. Returns CSS px.
 */
export function parseLength(text: string, field: string): number {
  const m = /^([0-9]*\.?[0-9]+)\s*(px|mm|cm|in|pt)?$/i.exec(text.trim());
  if (!m) {
    throw new QuireError(
      454,
      `${field}: "${text}" is not a length; use a number with px, mm, cm or in, e.g. 10mm or 0.5in.`,
    );
  }
  return Number(m[1]) * pxPerUnit[(m[2] ?? "px").toLowerCase()];
}

/**
 * Parses `margins`: one value for all sides, or CSS shorthand with two, three or four values
 * (the public API's form is `{top} {right} {bottom} {left}`). Empty/absent → `fallback`.
 */
export function parseMargins(text: string | undefined, fallback: Margins): Margins {
  const parts = (text ?? "")
    .trim()
    .split(/[\s,]+/)
    .filter(Boolean);
  if (parts.length === 0) return { ...fallback };
  if (parts.length > 4) {
    throw new QuireError(
      454,
      `margins: "${text}" has ${parts.length} values; give one, or four as "top right bottom left".`,
    );
  }
  const v = parts.map((p) => parseLength(p, "margins"));
  const [top, right = top, bottom = top, left = right] = v;
  return { top, right, bottom, left };
}

/**
 * Parses `paperSize`: a name (Letter, Legal, Tabloid, Ledger, A0–A6; any case) or custom
 * `<width> <height>` with optional units. Default A4. `landscape` swaps the sides.
 */
export function parsePaperSize(text: string | undefined, landscape: boolean): PaperSize {
  const raw = (text ?? "").trim() || "A4";
  const named = Object.keys(paperSizes).find((k) => k.toLowerCase() === raw.toLowerCase());
  let width: number;
  let height: number;
  if (named) {
    ({ width, height } = paperSizes[named]);
  } else {
    const parts = raw.split(/\s*[x×,]\s*|\s+/i).filter(Boolean);
    if (parts.length !== 2) {
      throw new QuireError(
        454,
        `paperSize: "${raw}" is not a known size; use Letter, Legal, Tabloid, Ledger, A0–A6, or "<width> <height>" such as "210mm 297mm".`,
      );
    }
    width = parseLength(parts[0], "paperSize");
    height = parseLength(parts[1], "paperSize");
  }
  for (const side of [width, height]) {
    if (side < MIN_SIDE_PX || side > MAX_SIDE_PX) {
      throw new QuireError(
        454,
        `paperSize: each side must be between 0.5 in and 200 in; "${raw}" is outside that range.`,
      );
    }
  }
  return landscape ? { width: height, height: width } : { width, height };
}

/** Fails when the margins leave no printable area on the page. */
export function checkMarginsFit(margins: Margins, paper: PaperSize): void {
  const minContent = 24; // a quarter inch: Chromium refuses margins that swallow the page
  if (
    margins.left + margins.right > paper.width - minContent ||
    margins.top + margins.bottom > paper.height - minContent
  ) {
    throw new QuireError(
      454,
      "margins: the margins are larger than the page; make them smaller or choose a larger paperSize.",
    );
  }
}
