import "server-only";
import type { Word } from "@/lib/engine/text/types";
import type { FontTable, Glyph } from "@/lib/engine/html/page-glyphs";
import { ASCENT, pairKey, type WebFonts } from "@/lib/engine/html/web-fonts";
import { BOX_FAMILY, boxTextWidth } from "@/lib/engine/html/box-font";

/**
 * The page's words (lib/engine/text) joined to the glyphs that drew them, and cut into runs
 * that one HTML span can show: same font (and font variant), same glyph matrix, one baseline,
 * spacing that letter-spacing can reproduce.
 */

/** Glyphs of each word, in drawing order. A glyph belongs to the word whose box holds its middle. */
export function assignGlyphs(words: Word[], glyphs: Glyph[], table: FontTable): Map<Word, Glyph[]> {
  const CELL = 24;
  const grid = new Map<string, Word[]>();
  const M = 1;
  for (const w of words) {
    for (let gx = Math.floor((w.x0 - M) / CELL); gx <= Math.floor((w.x1 + M) / CELL); gx++) {
      for (let gy = Math.floor((w.y0 - M) / CELL); gy <= Math.floor((w.y1 + M) / CELL); gy++) {
        const key = `${gx},${gy}`;
        const list = grid.get(key);
        if (list) list.push(w);
        else grid.set(key, [w]);
      }
    }
  }
  const out = new Map<Word, Glyph[]>();
  for (const g of glyphs) {
    if (!g.text || /^\s+$/.test(g.text)) continue;
    const S = Math.hypot(g.c, g.d);
    if (!(S > 0)) continue;
    const adv = table.advance(g.font, g.gid, g.wmode);
    // Middle of the glyph: half an advance along the baseline, a third of an em up.
    const mx = g.x + (g.a * adv) / 2 + g.c * 0.3;
    const my = g.y + (g.b * adv) / 2 + g.d * 0.3;
    const cands = grid.get(`${Math.floor(mx / CELL)},${Math.floor(my / CELL)}`);
    if (!cands) continue;
    let best: Word | null = null;
    let bestScore = Infinity;
    for (const w of cands) {
      if (mx < w.x0 - M || mx > w.x1 + M || my < w.y0 - M || my > w.y1 + M) continue;
      const score = (w.text.includes(g.text) ? 0 : 1e6) + (w.x1 - w.x0) * (w.y1 - w.y0);
      if (score < bestScore) {
        best = w;
        bestScore = score;
      }
    }
    if (!best) continue;
    const list = out.get(best);
    if (list) list.push(g);
    else out.set(best, [g]);
  }
  return out;
}

export interface TextRun {
  glyphs: Glyph[];
  text: string;
  font: number;
  /** Web-font variant, or -1: shown as transparent text over the glyphs drawn as paths. */
  variant: number;
}

/**
 * Runs of a word, or null when the word cannot be shown from its glyphs (its text is not the
 * glyphs' text, e.g. right-to-left words, or vertical writing): then the word is placed by its
 * box and its glyphs are drawn as paths.
 */
export function wordRuns(word: Word, glyphs: Glyph[], table: FontTable, fonts: WebFonts | null): TextRun[] | null {
  const shown = glyphs.filter((g) => g.kind === "fill");
  if (shown.length === 0 || shown.length !== glyphs.filter((g) => g.kind !== "invisible").length) return null;
  if (shown.some((g) => g.wmode !== 0)) return null;
  const joined = shown.map((g) => g.text).join("");
  if (joined !== word.text && joined.normalize("NFKC") !== word.text.normalize("NFKC")) return null;
  const runs: TextRun[] = [];
  let cur: TextRun | null = null;
  for (const g of shown) {
    const wf = fonts?.fonts[g.font] ?? null;
    const v = wf ? (wf.variant.get(pairKey(g.gid, g.text)) ?? -1) : -1;
    if (cur && continues(cur, g, v, table, fonts)) {
      cur.glyphs.push(g);
      cur.text += g.text;
      if (cur.variant === 0 && v > 0) cur.variant = v;
    } else {
      cur = { glyphs: [g], text: g.text, font: g.font, variant: v };
      runs.push(cur);
    }
  }
  return runs;
}

function continues(run: TextRun, g: Glyph, v: number, table: FontTable, fonts: WebFonts | null): boolean {
  const first = run.glyphs[0];
  const last = run.glyphs[run.glyphs.length - 1];
  if (g.font !== run.font) return false;
  if ((v < 0) !== (run.variant < 0)) return false;
  if (v >= 0 && v !== run.variant) {
    // A base-font glyph may join a variant run (and the reverse) when the variant does not map its text.
    const wf = fonts!.fonts[g.font]!;
    const other = v === 0 ? run.variant : v;
    const base = v === 0 ? [g] : run.glyphs;
    if (run.variant !== 0 && v !== 0) return false;
    if (base.some((x) => wf.maps[other]?.has(x.text))) return false;
  }
  const S = Math.hypot(first.c, first.d);
  const tol = 0.01 * S;
  if (Math.abs(g.a - first.a) > tol || Math.abs(g.b - first.b) > tol || Math.abs(g.c - first.c) > tol || Math.abs(g.d - first.d) > tol) return false;
  const ux = Math.hypot(first.a, first.b);
  if (!(ux > 0)) return false;
  // Along the baseline (em): where the previous glyph ends vs where this one starts.
  const ex = (first.a / ux) * 1;
  const ey = (first.b / ux) * 1;
  const along = ((g.x - first.x) * ex + (g.y - first.y) * ey) / ux;
  const lastAlong = ((last.x - first.x) * ex + (last.y - first.y) * ey) / ux;
  const gap = along - (lastAlong + table.advance(last.font, last.gid));
  if (Math.abs(gap) > 0.25) return false;
  // Across the baseline: the same line.
  const across = ((g.x - first.x) * -ey + (g.y - first.y) * ex) / S;
  return Math.abs(across) < 0.05;
}

/**
 * Where Chromium puts the baseline below the top of a span with line-height 1: the font's
 * ascent and descent are rounded to whole pixels and the half-leading left over is floored
 * (measured; other browsers land within half a pixel of it).
 */
export function baselineOffset(size: number): number {
  const a = Math.round(ASCENT * size);
  const d = Math.round((1 - ASCENT) * size);
  return a + Math.floor((size - a - d) / 2);
}

const px = (n: number) => `${Math.round(n * 100) / 100}px`;
const num = (n: number) => String(Math.round(n * 1000) / 1000);
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * One run as an absolutely positioned span: the line box's top at the baseline minus the
 * fonts' ascent (every built font has ascent 0.8 em and descent 0.2 em, line-height 1), the
 * glyph matrix as a CSS transform about the baseline start, letter-spacing for the PDF's
 * character spacing. `s` = CSS px per point; (offX, offY) = the containing box's position;
 * `transparent` for text whose glyphs the drawing shows: set in the box font (box-font.ts),
 * scaled to the glyphs' extent along the baseline.
 */
export function runSpan(
  run: TextRun,
  table: FontTable,
  fonts: WebFonts | null,
  s: number,
  offX: number,
  offY: number,
  color: string | null,
  fallbackFamily: string,
  transparent: boolean,
): string {
  const g0 = run.glyphs[0];
  const S = Math.hypot(g0.c, g0.d);
  const ux = Math.hypot(g0.a, g0.b);
  const size = Math.round(S * s * 100) / 100;
  const ascent = baselineOffset(size);
  const parts = [`left:${px(g0.x * s - offX)}`, `top:${px(g0.y * s - ascent - offY)}`, `font-size:${px(size)}`];
  const ex = g0.a / ux;
  const ey = g0.b / ux;
  // Along the baseline from the run's pen position, in em of the run's horizontal size.
  const along = (g: Glyph) => ((g.x - g0.x) * ex + (g.y - g0.y) * ey) / ux;
  // Transparent text (its glyphs are in the drawing) is set in the box font, whose width is known
  // for any characters, and scaled along the baseline to the glyphs' extent (box-font.ts).
  let fit = 1;
  if (transparent) {
    const last = run.glyphs[run.glyphs.length - 1];
    const extent = along(last) + table.advance(last.font, last.gid);
    const natural = boxTextWidth(run.text);
    if (natural > 0 && extent > 0) fit = extent / natural;
  } else if (run.glyphs.length > 1) {
    // Letter-spacing: least squares over the glyphs' pen positions vs the font's advances.
    let natural = 0;
    let num1 = 0;
    let den = 0;
    run.glyphs.forEach((g, i) => {
      if (i > 0) {
        const p = along(g);
        num1 += i * (p - natural);
        den += i * i;
      }
      natural += table.advance(g.font, g.gid);
    });
    const delta = den > 0 ? num1 / den : 0;
    if (Math.abs(delta) > 0.002) parts.push(`letter-spacing:${num(delta)}em`);
  }
  // Matrix in CSS terms: text direction (a, b)/S, the downward em axis -(c, d)/S.
  const m = [g0.a / S, g0.b / S, -g0.c / S, -g0.d / S];
  const turned = Math.abs(m[0] - 1) > 0.002 || Math.abs(m[1]) > 0.002 || Math.abs(m[2]) > 0.002 || Math.abs(m[3] - 1) > 0.002;
  const scaled = Math.abs(fit - 1) > 0.002;
  if (turned || scaled) {
    const t = [turned ? `matrix(${m.map(num).join(",")},0,0)` : "", scaled ? `scaleX(${num(fit)})` : ""].filter(Boolean).join(" ");
    parts.push(`transform-origin:0 ${ascent}px`, `transform:${t}`);
  }
  const wf = fonts?.fonts[run.font] ?? null;
  let cls = "r";
  if (transparent) parts.push(`font-family:${BOX_FAMILY}`, "color:transparent");
  else {
    if (run.variant >= 0 && wf) cls += ` ${run.variant === 0 ? wf.cls : `${wf.cls}v${run.variant}`}`;
    else parts.push(`font-family:${fallbackFamily}`);
    if (color) parts.push(`color:${color}`);
  }
  return `<span class="${cls}" style="${parts.join(";")}">${esc(run.text)}</span>`;
}
