import "server-only";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import * as mupdf from "mupdf";
import * as opentypeModule from "opentype.js";
import { compress as woff2 } from "wawoff2";
import { factsFor, type FontFacts, type FontTable } from "@/lib/engine/html/page-glyphs";

/**
 * Web fonts for PDF → HTML, one per PDF font (plus variants, below), holding exactly the glyphs
 * the converted pages show.
 *
 * Outlines come from MuPDF, which reads every embedded font format (TrueType, CFF, OpenType,
 * Type 1) and applies the PDF's encodings: each used glyph is drawn by MuPDF's SVG writer and
 * its path copied into a new OpenType (CFF) font built with opentype.js. The new font maps the
 * Unicode text MuPDF gives each glyph to that glyph (so the HTML's text renders with the PDF's
 * glyph shapes even when the embedded font has no usable cmap) and takes its advance widths
 * from the PDF, so a run's length matches the page. A ligature glyph (text "fi") becomes a
 * 'liga' substitution of its characters. Fonts that are not embedded (the standard 14 and
 * others) get the outlines of a metric-compatible font installed on the machine: Liberation
 * Serif/Sans/Mono for Times/Helvetica-Arial/Courier, Carlito for Calibri, Caladea for Cambria
 * (MuPDF's own substitute for characters those lack, such as Symbol and Dingbats).
 *
 * Variants: when one Unicode text is shown with two different glyphs of a font (small caps,
 * alternates, a broken ToUnicode), the second pairing goes into a variant font (qfNv1, ...)
 * that runs using it list first. Type3 fonts, and fonts whose outlines cannot be rebuilt, get
 * no web font: their glyphs stay in the page drawing and their text is transparent.
 *
 * Fonts are WOFF2 (wawoff2) in data: URIs; OpenType when the compressor fails.
 */

type OpenType = { Path: typeof opentypeModule.Path; Glyph: typeof opentypeModule.Glyph; Font: typeof opentypeModule.Font };
// Node loads opentype.js's UMD build (all on the default export), bundlers its ES module.
const ot: OpenType = ((opentypeModule as unknown as OpenType).Font ? opentypeModule : opentypeModule.default) as OpenType;

/** Ascent and descent (em) of every built font; a run's line box puts the baseline at ASCENT. */
export const ASCENT = 0.8;
const UPM = 1000;
const MAX_VARIANTS = 6;

export type Generic = "serif" | "sans" | "mono";

export const STACKS: Record<Generic, string> = {
  serif: "'Liberation Serif','Times New Roman',Times,serif",
  sans: "'Liberation Sans',Arial,Helvetica,sans-serif",
  mono: "'Liberation Mono','Courier New',Courier,monospace",
};

export interface WebFont {
  /** CSS class of the base font; variants add `v1`, `v2`... */
  cls: string;
  bold: boolean;
  italic: boolean;
  generic: Generic;
  /** `${gid}\u0000${text}` → variant index; absent: the pairing cannot be rendered as text. */
  variant: Map<string, number>;
  /** Texts each variant maps (single characters and ligature sequences). */
  maps: Set<string>[];
}

export interface WebFonts {
  /** Per FontTable index; null: no web font (glyphs drawn as paths). */
  fonts: (WebFont | null)[];
  css: string;
  bytes: number;
}

export const pairKey = (gid: number, text: string) => `${gid}\u0000${text}`;

/** Serif, sans or monospaced, bold, italic, from the name and the flags MuPDF read. */
export function fontStyle(name: string, font: mupdf.Font | null): { generic: Generic; bold: boolean; italic: boolean } {
  const n = name.toLowerCase();
  const mono = /courier|mono|consol|typewriter|fixed|menlo|lucidaconsole|cmtt/.test(n) || (font?.isMono() ?? false);
  const serifName = /times|serif|roman|georgia|garamond|cambria|caladea|minion|palatino|book|century|cmr|cmbx|cmti|nimbusrom|termes|bodoni|baskerville|didot|charter/.test(n);
  const serif = !mono && !/sans|arial|helvet|calibri|carlito|verdana|tahoma/.test(n) && (serifName || (font?.isSerif() ?? false));
  return {
    generic: mono ? "mono" : serif ? "serif" : "sans",
    bold: (font?.isBold() ?? false) || /bold|black|heavy|semibold|demi|cmbx/.test(n),
    italic: (font?.isItalic() ?? false) || /italic|oblique|cmti|cmsl/.test(n),
  };
}

const FONT_DIRS = [
  "/usr/share/fonts/truetype/liberation2",
  "/usr/share/fonts/truetype/liberation",
  "/usr/share/fonts/truetype/crosextra",
];

/** The installed metric-compatible font file for a font that is not embedded, or null. */
export function substituteFile(name: string, style: { generic: Generic; bold: boolean; italic: boolean }): string | null {
  const n = name.toLowerCase();
  if (/symbol|dingbat|wingding|zapf/.test(n)) return null;
  const base = /calibri/.test(n) ? "Carlito" : /cambria/.test(n) ? "Caladea" : style.generic === "mono" ? "LiberationMono" : style.generic === "serif" ? "LiberationSerif" : "LiberationSans";
  const suffix = style.bold && style.italic ? "BoldItalic" : style.bold ? "Bold" : style.italic ? "Italic" : "Regular";
  for (const dir of FONT_DIRS) {
    const f = path.join(dir, `${base}-${suffix}.ttf`);
    if (existsSync(f)) return f;
  }
  return null;
}

const substituteFonts = new Map<string, mupdf.Font | null>();
function loadSubstitute(file: string): mupdf.Font | null {
  if (!substituteFonts.has(file)) {
    try {
      substituteFonts.set(file, new mupdf.Font(path.basename(file, ".ttf"), readFileSync(file)));
    } catch {
      substituteFonts.set(file, null);
    }
  }
  return substituteFonts.get(file) ?? null;
}

/**
 * Outlines (SVG path data in em units, y up) of glyphs of a font, drawn by MuPDF's SVG writer.
 * `type3` when the font's glyphs are drawings rather than outlines.
 */
export function glyphOutlines(font: mupdf.Font, gids: number[]): { paths: Map<number, string>; type3: boolean } {
  const text = new mupdf.Text();
  const buf = new mupdf.Buffer();
  try {
    gids.forEach((g, i) => text.showGlyph(font, [1, 0, 0, 1, i * 2, 0], g, 0, 0));
    const writer = new mupdf.DocumentWriter(buf, "svg", "text=path");
    try {
      const dev = writer.beginPage([0, 0, 100, 100]);
      try {
        dev.fillText(text, mupdf.Matrix.identity, mupdf.ColorSpace.DeviceGray, [0], 1);
        writer.endPage();
      } finally {
        dev.destroy();
      }
      writer.close();
    } finally {
      writer.destroy();
    }
    const svg = buf.asString();
    const paths = new Map<number, string>();
    for (const m of svg.matchAll(/<path id="font_\d+_(\d+)" d="([^"]*)"/g)) paths.set(Number(m[1]), m[2]);
    return { paths, type3: /<g id="font_/.test(svg) };
  } finally {
    text.destroy();
    buf.destroy();
  }
}

/** SVG path data (absolute or relative M L H V C S Q T Z) → an opentype.js path scaled by `k`. */
export function svgPathToOpenType(d: string, k: number): opentypeModule.Path | null {
  const p = new ot.Path();
  const tok = d.match(/[MmLlHhVvCcSsQqTtZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g) ?? [];
  let i = 0;
  let cmd = "";
  let x = 0, y = 0, sx = 0, sy = 0, cx = 0, cy = 0;
  let ok = true;
  const num = () => {
    const v = Number(tok[i++]);
    if (!Number.isFinite(v) || Math.abs(v * k) > 30000) ok = false;
    return v;
  };
  const isNum = () => i < tok.length && !/^[A-Za-z]$/.test(tok[i]);
  while (i < tok.length && ok) {
    if (/^[A-Za-z]$/.test(tok[i])) cmd = tok[i++];
    else if (!cmd) return null;
    const rel = cmd !== cmd.toUpperCase();
    const C = cmd.toUpperCase();
    if (C === "Z") {
      p.close();
      x = sx;
      y = sy;
      continue;
    }
    do {
      const bx = rel ? x : 0;
      const by = rel ? y : 0;
      if (C === "M") {
        x = bx + num();
        y = by + num();
        p.moveTo(x * k, y * k);
        sx = x;
        sy = y;
        cmd = rel ? "l" : "L";
      } else if (C === "L") {
        x = bx + num();
        y = by + num();
        p.lineTo(x * k, y * k);
      } else if (C === "H") {
        x = bx + num();
        p.lineTo(x * k, y * k);
      } else if (C === "V") {
        y = by + num();
        p.lineTo(x * k, y * k);
      } else if (C === "C" || C === "S") {
        let x1: number, y1: number;
        if (C === "C") {
          x1 = bx + num();
          y1 = by + num();
        } else {
          x1 = 2 * x - cx;
          y1 = 2 * y - cy;
        }
        const x2 = bx + num();
        const y2 = by + num();
        x = bx + num();
        y = by + num();
        p.curveTo(x1 * k, y1 * k, x2 * k, y2 * k, x * k, y * k);
        cx = x2;
        cy = y2;
      } else if (C === "Q" || C === "T") {
        let x1: number, y1: number;
        if (C === "Q") {
          x1 = bx + num();
          y1 = by + num();
        } else {
          x1 = 2 * x - cx;
          y1 = 2 * y - cy;
        }
        x = bx + num();
        y = by + num();
        p.quadTo(x1 * k, y1 * k, x * k, y * k);
        cx = x1;
        cy = y1;
      } else {
        return null; // arcs and unknown commands: MuPDF does not write them for glyphs
      }
      if (C !== "C" && C !== "S" && C !== "Q" && C !== "T") {
        cx = x;
        cy = y;
      }
    } while (isNum() && ok);
  }
  return ok ? p : null;
}

/** A text that a font's cmap (one character) or a ligature (several) can show. */
function renderable(text: string): boolean {
  return text !== "" && !/[\s\u0000-\u001f\u007f-\u009f\ufffd]/.test(text);
}

/** Builds the web fonts for every font of the table. */
export async function buildWebFonts(table: FontTable, facts: Map<string, FontFacts>, opts: { woff2?: boolean } = {}): Promise<WebFonts> {
  const fonts: (WebFont | null)[] = [];
  const css: string[] = [];
  let bytes = 0;
  for (let i = 0; i < table.entries.length; i++) {
    try {
      const built = await buildOne(table, i, facts, opts.woff2 !== false);
      fonts.push(built?.font ?? null);
      if (built) {
        css.push(...built.css);
        bytes += built.bytes;
      }
    } catch {
      // A font that opentype.js or the compressor cannot take: its glyphs are drawn as paths.
      fonts.push(null);
    }
  }
  return { fonts, css: css.join("\n"), bytes };
}

async function buildOne(table: FontTable, index: number, facts: Map<string, FontFacts>, useWoff2: boolean): Promise<{ font: WebFont; css: string[]; bytes: number } | null> {
  const entry = table.entries[index];
  const fact = factsFor(facts, entry.font.getName());
  if (fact.type3) return null;
  const style = fontStyle(entry.name, entry.font);
  const subFile = fact.embedded ? null : substituteFile(entry.name, style);
  const sub = subFile ? loadSubstitute(subFile) : null;

  // Variants: each (glyph, text) pairing goes into the first variant where its text is free.
  const variant = new Map<string, number>();
  const cmaps: Map<string, number>[] = [];
  for (const [gid, texts] of entry.uses) {
    for (const t of texts) {
      if (!renderable(t)) continue;
      let v = 0;
      while (v < cmaps.length && cmaps[v].has(t) && cmaps[v].get(t) !== gid) v++;
      if (v >= MAX_VARIANTS) continue;
      if (v === cmaps.length) cmaps.push(new Map());
      cmaps[v].set(t, gid);
      variant.set(pairKey(gid, t), v);
    }
  }
  if (cmaps.length === 0) return null;

  // Outline sources: the font itself, or the substitute by character where it has one.
  const own = new Set<number>();
  const fromSub = new Map<string, number>(); // text → substitute glyph id
  for (const cmap of cmaps) {
    for (const [t, gid] of cmap) {
      const cps = [...t];
      const sg = sub && cps.length === 1 ? sub.encodeCharacter(cps[0].codePointAt(0)!) : 0;
      if (sg > 0) fromSub.set(t, sg);
      else own.add(gid);
    }
  }
  const ownOutlines = own.size ? glyphOutlines(entry.font, [...own]) : { paths: new Map<number, string>(), type3: false };
  if (ownOutlines.type3) return null;
  const subOutlines = sub && fromSub.size ? glyphOutlines(sub, [...new Set(fromSub.values())]).paths : new Map<number, string>();

  const out: string[] = [];
  let bytes = 0;
  const maps: Set<string>[] = [];
  const familyBase = `qf${index}`;
  const cls = `f${index}`;
  const weight = style.bold ? "700" : "400";
  const fstyle = style.italic ? "italic" : "normal";
  for (let v = 0; v < cmaps.length; v++) {
    const glyphs = [new ot.Glyph({ name: ".notdef", advanceWidth: 500, path: new ot.Path() })];
    const indexOf = new Map<string, number>(); // single character → glyph index
    const ligatures: { chars: string[]; index: number }[] = [];
    const mapped = new Set<string>();
    for (const [t, gid] of cmaps[v]) {
      const sg = fromSub.get(t);
      const d = sg !== undefined ? subOutlines.get(sg) : ownOutlines.paths.get(gid);
      const p = d === undefined || d === "" ? new ot.Path() : svgPathToOpenType(d, UPM);
      if (!p) {
        variant.delete(pairKey(gid, t));
        continue;
      }
      const cps = [...t];
      const advanceWidth = Math.max(0, Math.round(table.advance(index, gid) * UPM));
      if (cps.length === 1) {
        glyphs.push(new ot.Glyph({ name: `g${gid}u${cps[0].codePointAt(0)!.toString(16)}`, unicode: cps[0].codePointAt(0)!, advanceWidth, path: p }));
        indexOf.set(t, glyphs.length - 1);
      } else {
        glyphs.push(new ot.Glyph({ name: `g${gid}l${ligatures.length}`, advanceWidth, path: p }));
        ligatures.push({ chars: cps, index: glyphs.length - 1 });
      }
      mapped.add(t);
    }
    const font = new ot.Font({
      familyName: v === 0 ? familyBase : `${familyBase}v${v}`,
      styleName: "Regular",
      unitsPerEm: UPM,
      ascender: Math.round(ASCENT * UPM),
      descender: -Math.round((1 - ASCENT) * UPM),
      glyphs,
    });
    for (const lig of ligatures) {
      const parts = lig.chars.map((c) => indexOf.get(c));
      if (parts.every((x) => x !== undefined)) font.substitution.addLigature("liga", { sub: parts as number[], by: lig.index });
      else mapped.delete(lig.chars.join(""));
    }
    const otf = new Uint8Array(font.toArrayBuffer());
    let data: Uint8Array = otf;
    let format = "opentype";
    let mime = "font/otf";
    if (useWoff2) {
      try {
        data = await woff2(otf);
        format = "woff2";
        mime = "font/woff2";
      } catch {
        data = otf;
      }
    }
    bytes += data.byteLength;
    maps.push(mapped);
    const family = v === 0 ? familyBase : `${familyBase}v${v}`;
    out.push(`@font-face{font-family:${family};src:url(data:${mime};base64,${Buffer.from(data).toString("base64")}) format("${format}");font-weight:${weight};font-style:${fstyle}}`);
    const families = v === 0 ? familyBase : `${family},${familyBase}`;
    out.push(`.${v === 0 ? cls : `${cls}v${v}`}{font-family:${families},${STACKS[style.generic]};font-weight:${weight};font-style:${fstyle}}`);
  }
  return { font: { cls, bold: style.bold, italic: style.italic, generic: style.generic, variant, maps }, css: out, bytes };
}
