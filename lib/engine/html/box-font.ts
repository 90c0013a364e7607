import "server-only";

/**
 * A font for transparent text whose width is known in advance, whatever the characters.
 *
 * Transparent text marks where words are drawn (glyphs kept in the drawing: right-to-left
 * words, Type3 fonts, glyphs without a usable Unicode; OCR words over a scan), so that they can
 * be selected, searched and copied. In a local font stack its width is a guess: characters the
 * stack lacks (Arabic, Hebrew, U+FFFD…) are set in whatever fallback font the browser picks, and
 * the selection lands beside the glyphs. This font maps every character (cmap format 13: one
 * glyph for whole ranges of code points) to one empty glyph of advance 0.5 em, ascent 0.8 em and
 * descent 0.2 em (the same vertical metrics as the web fonts, web-fonts.ts), and has no layout
 * tables: a character advances 0.5 em, except combining marks and other zero-width characters,
 * which text shaping sets at zero width. A span of text in it is scaled to the width of its
 * glyphs (boxTextWidth).
 */

export const BOX_FAMILY = "quire-box";
/** Advance of every spacing character (em). */
export const BOX_ADVANCE = 0.5;

const UPM = 1000;

/** Width in em of `text` set in the box font. */
export function boxTextWidth(text: string): number {
  let n = 0;
  for (const ch of text.normalize("NFC")) if (!ZERO_WIDTH.test(ch)) n++;
  return n * BOX_ADVANCE;
}

/** Characters shaping gives no advance: combining marks, format characters (ZWJ, bidi marks), control characters. */
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\p{Cc}]$/u;

function table(size: number, fill: (v: DataView) => void): Uint8Array {
  const b = new Uint8Array(size);
  fill(new DataView(b.buffer));
  return b;
}

function checksum(b: Uint8Array): number {
  const padded = new Uint8Array((b.length + 3) & ~3);
  padded.set(b);
  const v = new DataView(padded.buffer);
  let sum = 0;
  for (let i = 0; i < padded.length; i += 4) sum = (sum + v.getUint32(i)) >>> 0;
  return sum;
}

function nameTable(names: Record<number, string>): Uint8Array {
  const entries = Object.entries(names).map(([id, s]) => {
    const bytes = new Uint8Array(s.length * 2);
    const v = new DataView(bytes.buffer);
    for (let i = 0; i < s.length; i++) v.setUint16(2 * i, s.charCodeAt(i));
    return { id: Number(id), bytes };
  });
  const header = 6 + 12 * entries.length;
  const total = header + entries.reduce((s, e) => s + e.bytes.length, 0);
  return table(total, (v) => {
    v.setUint16(2, entries.length);
    v.setUint16(4, header);
    let off = 0;
    entries.forEach((e, i) => {
      const r = 6 + 12 * i;
      v.setUint16(r, 3);
      v.setUint16(r + 2, 1);
      v.setUint16(r + 4, 0x409);
      v.setUint16(r + 6, e.id);
      v.setUint16(r + 8, e.bytes.length);
      v.setUint16(r + 10, off);
      new Uint8Array(v.buffer).set(e.bytes, header + off);
      off += e.bytes.length;
    });
  });
}

/**
 * A GSUB table with the Arabic shaping features and no lookups. A font without them gets
 * HarfBuzz's fallback shaping, which joins letters into the ligatures of the presentation
 * forms the cmap maps (بي, لا…), one glyph for several characters; with the features present
 * nothing is substituted and every letter keeps its advance.
 */
function gsub(): Uint8Array {
  const features = ["fina", "init", "isol", "liga", "medi", "rlig"];
  const scripts = ["DFLT", "arab"];
  const langSys = 6 + 2 * features.length;
  const scriptTable = 4 + langSys; // Script: default LangSys offset, count 0; then the LangSys
  const scriptList = 2 + 6 * scripts.length + scriptTable * scripts.length;
  const featureList = 2 + 6 * features.length + 4 * features.length;
  const size = 10 + scriptList + featureList + 2;
  return table(size, (v) => {
    v.setUint16(0, 1);
    v.setUint16(4, 10);
    v.setUint16(6, 10 + scriptList);
    v.setUint16(8, 10 + scriptList + featureList);
    // ScriptList
    let o = 10;
    v.setUint16(o, scripts.length);
    scripts.forEach((tag, i) => {
      const r = o + 2 + 6 * i;
      for (let k = 0; k < 4; k++) v.setUint8(r + k, tag.charCodeAt(k));
      const at = 2 + 6 * scripts.length + scriptTable * i;
      v.setUint16(r + 4, at);
      const st = o + at;
      v.setUint16(st, 4); // default LangSys right after the Script table's header
      v.setUint16(st + 2, 0);
      const ls = st + 4;
      v.setUint16(ls, 0);
      v.setUint16(ls + 2, 0xffff);
      v.setUint16(ls + 4, features.length);
      features.forEach((_, f) => v.setUint16(ls + 6 + 2 * f, f));
    });
    // FeatureList: each feature without lookups
    o = 10 + scriptList;
    v.setUint16(o, features.length);
    features.forEach((tag, i) => {
      const r = o + 2 + 6 * i;
      for (let k = 0; k < 4; k++) v.setUint8(r + k, tag.charCodeAt(k));
      v.setUint16(r + 4, 2 + 6 * features.length + 4 * i);
    });
    // LookupList: empty (the table was zero-filled)
  });
}

let cached: Uint8Array | null = null;

/** The font as a TrueType file (about 700 bytes). */
export function boxFont(): Uint8Array {
  if (cached) return cached;
  const adv = BOX_ADVANCE * UPM;
  const asc = 800;
  const desc = 200;
  // Glyph 0 (.notdef): a rectangle; glyph 1: empty, the one every character maps to.
  const glyf = table(36, (v) => {
    v.setInt16(0, 1);
    v.setInt16(2, 0);
    v.setInt16(4, 0);
    v.setInt16(6, 400);
    v.setInt16(8, 700);
    v.setUint16(10, 3); // end point of the contour
    v.setUint16(12, 0); // no instructions
    for (let i = 0; i < 4; i++) v.setUint8(14 + i, 1); // on-curve, long coordinates
    [0, 400, 0, -400].forEach((d, i) => v.setInt16(18 + 2 * i, d));
    [0, 0, 700, 0].forEach((d, i) => v.setInt16(26 + 2 * i, d));
  });
  const loca = table(6, (v) => {
    v.setUint16(0, 0);
    v.setUint16(2, 18);
    v.setUint16(4, 18);
  });
  // cmap: format 13 (Windows, UCS-4), every code point but controls and surrogates → glyph 1.
  // U+25CC (dotted circle) is left out: shaping inserts it before a mark without a letter
  // (a broken cluster) only when the font has it, which would add an advance.
  const groups: [number, number][] = [
    [0x20, 0x7e],
    [0xa0, 0x25cb],
    [0x25cd, 0xd7ff],
    [0xe000, 0x10ffff],
  ];
  const sub = table(16 + 12 * groups.length, (v) => {
    v.setUint16(0, 13);
    v.setUint32(4, 16 + 12 * groups.length);
    v.setUint32(12, groups.length);
    groups.forEach(([a, b], i) => {
      v.setUint32(16 + 12 * i, a);
      v.setUint32(20 + 12 * i, b);
      v.setUint32(24 + 12 * i, 1);
    });
  });
  const cmap = new Uint8Array(12 + sub.length);
  const cv = new DataView(cmap.buffer);
  cv.setUint16(2, 1);
  cv.setUint16(4, 3);
  cv.setUint16(6, 10);
  cv.setUint32(8, 12);
  cmap.set(sub, 12);
  const head = table(54, (v) => {
    v.setUint32(0, 0x00010000);
    v.setUint32(4, 0x00010000);
    v.setUint32(12, 0x5f0f3cf5);
    v.setUint16(16, 0x000b);
    v.setUint16(18, UPM);
    v.setInt16(36, 0);
    v.setInt16(38, -desc);
    v.setInt16(40, adv);
    v.setInt16(42, asc);
    v.setUint16(46, 8);
    v.setInt16(48, 2);
    v.setInt16(50, 0); // short loca
  });
  const hhea = table(36, (v) => {
    v.setUint32(0, 0x00010000);
    v.setInt16(4, asc);
    v.setInt16(6, -desc);
    v.setUint16(10, adv);
    v.setInt16(16, adv);
    v.setInt16(18, 1);
    v.setUint16(34, 2);
  });
  const hmtx = table(8, (v) => {
    v.setUint16(0, adv);
    v.setUint16(4, adv);
  });
  const maxp = table(32, (v) => {
    v.setUint32(0, 0x00010000);
    v.setUint16(4, 2);
    v.setUint16(6, 4);
    v.setUint16(8, 1);
    v.setUint16(14, 2);
  });
  const os2 = table(96, (v) => {
    v.setUint16(0, 4);
    v.setInt16(2, adv);
    v.setUint16(4, 400);
    v.setUint16(6, 5);
    v.setInt16(26, 50);
    v.setInt16(28, 300);
    new Uint8Array(v.buffer).set([0x51, 0x55, 0x49, 0x52], 58); // vendor "QUIR"
    v.setUint16(62, 0x00c0); // REGULAR | USE_TYPO_METRICS
    v.setUint16(64, 0x20);
    v.setUint16(66, 0xffff);
    v.setInt16(68, asc);
    v.setInt16(70, -desc);
    v.setUint16(74, asc);
    v.setUint16(76, desc);
    v.setUint32(78, 1);
    v.setInt16(86, 500);
    v.setInt16(88, 700);
    v.setUint16(92, 32);
  });
  const name = nameTable({ 1: "Quire Box", 2: "Regular", 3: "Quire Box", 4: "Quire Box", 6: "QuireBox-Regular" });
  const post = table(32, (v) => {
    v.setUint32(0, 0x00030000);
    v.setInt16(8, -100);
    v.setInt16(10, 50);
  });
  const tables: [string, Uint8Array][] = [
    ["GSUB", gsub()],
    ["OS/2", os2],
    ["cmap", cmap],
    ["glyf", glyf],
    ["head", head],
    ["hhea", hhea],
    ["hmtx", hmtx],
    ["loca", loca],
    ["maxp", maxp],
    ["name", name],
    ["post", post],
  ];
  const n = tables.length;
  let off = 12 + 16 * n;
  const layout = tables.map(([tag, data]) => {
    const o = off;
    off += (data.length + 3) & ~3;
    return { tag, data, offset: o };
  });
  const out = new Uint8Array(off);
  const v = new DataView(out.buffer);
  const log2 = Math.floor(Math.log2(n));
  v.setUint32(0, 0x00010000);
  v.setUint16(4, n);
  v.setUint16(6, 16 * 2 ** log2);
  v.setUint16(8, log2);
  v.setUint16(10, 16 * n - 16 * 2 ** log2);
  layout.forEach(({ tag, data, offset }, i) => {
    const r = 12 + 16 * i;
    for (let k = 0; k < 4; k++) v.setUint8(r + k, tag.charCodeAt(k));
    v.setUint32(r + 4, checksum(data));
    v.setUint32(r + 8, offset);
    v.setUint32(r + 12, data.length);
    out.set(data, offset);
  });
  const headAt = layout.find((t) => t.tag === "head")!.offset;
  v.setUint32(headAt + 8, (0xb1b0afba - checksum(out)) >>> 0);
  cached = out;
  return out;
}

/** The @font-face rule of the box font (a data: URI, so the HTML stays one file). */
export function boxFontFace(): string {
  return `@font-face{font-family:${BOX_FAMILY};src:url(data:font/ttf;base64,${Buffer.from(boxFont()).toString("base64")}) format("truetype")}`;
}
