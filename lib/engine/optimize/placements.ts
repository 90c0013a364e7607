import "server-only";
import type * as mupdf from "mupdf";

/**
 * Where images are drawn: a small content-stream interpreter that follows only what moves
 * images (q, Q, cm, Do, forms and their /Matrix, annotation appearance streams) to find the
 * placed size of every image XObject. The resolution an image needs is decided by its largest
 * placement (ISO 32000-1 §8.3.4: an image occupies the unit square mapped by the CTM).
 */

export type Matrix6 = [number, number, number, number, number, number];

export interface ImagePlacement {
  /** Lowest horizontal resolution (image pixels per placed inch) over all placements. */
  ppiX: number;
  /** Lowest vertical resolution over all placements. */
  ppiY: number;
  /** 0-based pages the image is drawn on (directly or through forms/annotations). */
  pages: Set<number>;
}

const IDENTITY: Matrix6 = [1, 0, 0, 1, 0, 0];
const MAX_FORM_DEPTH = 12;

/** a × b, PDF order: applying a then b. */
export function concat(a: Matrix6, b: Matrix6): Matrix6 {
  return [
    a[0] * b[0] + a[1] * b[2],
    a[0] * b[1] + a[1] * b[3],
    a[2] * b[0] + a[3] * b[2],
    a[2] * b[1] + a[3] * b[3],
    a[4] * b[0] + a[5] * b[2] + b[4],
    a[4] * b[1] + a[5] * b[3] + b[5],
  ];
}

/**
 * Scans every page (contents, nested forms, annotation appearances) and returns the placement
 * summary of each image XObject by object number. Images that are only reached another way
 * (patterns, Type 3 glyphs) are absent: their placed size is unknown.
 */
export function findImagePlacements(doc: mupdf.PDFDocument): Map<number, ImagePlacement> {
  const out = new Map<number, ImagePlacement>();
  const pageCount = doc.countPages();
  for (let p = 0; p < pageCount; p++) {
    let page: mupdf.PDFObject;
    try {
      page = doc.findPage(p);
    } catch {
      continue;
    }
    const scanner = new Scanner(doc, p, out);
    const resources = page.getInheritable("Resources");
    const contents = page.get("Contents");
    const data = readContents(contents);
    if (data) scanner.run(data, resources, IDENTITY, 0, new Set());
    const annots = page.get("Annots");
    if (annots.isArray()) {
      for (let i = 0; i < annots.length; i++) scanner.annotation(annots.get(i));
    }
  }
  return out;
}

function readContents(contents: mupdf.PDFObject): Uint8Array | null {
  const parts: Uint8Array[] = [];
  const add = (o: mupdf.PDFObject) => {
    if (!o.isStream()) return;
    try {
      const buf = o.readStream();
      parts.push(buf.asUint8Array().slice());
      buf.destroy();
    } catch {
      /* an unreadable content stream draws nothing we could measure */
    }
  };
  if (contents.isArray()) for (let i = 0; i < contents.length; i++) add(contents.get(i));
  else add(contents);
  if (parts.length === 0) return null;
  // Content streams of one page are concatenated with whitespace between them (§7.8.2).
  const total = parts.reduce((n, p) => n + p.length + 1, 0);
  const all = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
    all[at++] = 0x0a;
  }
  return all;
}

class Scanner {
  constructor(
    private doc: mupdf.PDFDocument,
    private page: number,
    private out: Map<number, ImagePlacement>,
  ) {}

  annotation(ref: mupdf.PDFObject): void {
    const annot = ref.resolve();
    if (!annot.isDictionary()) return;
    const rect = numbers(annot.get("Rect"), 4);
    if (!rect) return;
    const n = annot.get("AP", "N");
    const forms: mupdf.PDFObject[] = [];
    if (n.isStream()) forms.push(n);
    else if (n.isDictionary()) n.forEach((v) => forms.push(v));
    for (const f of forms) {
      if (!f.isStream()) continue;
      // §12.5.5: the form's BBox, transformed by its Matrix, is mapped onto the annotation Rect.
      const bbox = numbers(f.get("BBox"), 4);
      if (!bbox) continue;
      const m = (numbers(f.get("Matrix"), 6) as Matrix6 | null) ?? IDENTITY;
      const box = transformRect(bbox, m);
      const bw = box[2] - box[0];
      const bh = box[3] - box[1];
      if (bw <= 0 || bh <= 0) continue;
      const rx0 = Math.min(rect[0], rect[2]);
      const ry0 = Math.min(rect[1], rect[3]);
      const sx = Math.abs(rect[2] - rect[0]) / bw;
      const sy = Math.abs(rect[3] - rect[1]) / bh;
      const a: Matrix6 = [sx, 0, 0, sy, rx0 - box[0] * sx, ry0 - box[1] * sy];
      this.form(f, concat(m, a), 1, new Set(), annot.get("Resources"));
    }
  }

  private form(
    form: mupdf.PDFObject,
    ctm: Matrix6,
    depth: number,
    stack: Set<number>,
    parentResources: mupdf.PDFObject,
  ): void {
    if (depth > MAX_FORM_DEPTH) return;
    const num = form.isIndirect() ? form.asIndirect() : -1;
    if (num >= 0 && stack.has(num)) return;
    let data: Uint8Array;
    try {
      const buf = form.readStream();
      data = buf.asUint8Array().slice();
      buf.destroy();
    } catch {
      return;
    }
    const own = form.get("Resources");
    const next = new Set(stack);
    if (num >= 0) next.add(num);
    this.run(data, own.isDictionary() ? own : parentResources, ctm, depth, next);
  }

  run(data: Uint8Array, resources: mupdf.PDFObject, start: Matrix6, depth: number, stack: Set<number>): void {
    const lexer = new Lexer(data);
    let ctm = start;
    const saved: Matrix6[] = [];
    const operands: (number | string | null)[] = [];
    for (;;) {
      const t = lexer.next();
      if (t === undefined) break;
      if (t.kind === "num") operands.push(t.value);
      else if (t.kind === "name") operands.push(t.value);
      else if (t.kind === "other") operands.push(null);
      else {
        const op = t.value;
        if (op === "q") saved.push(ctm);
        else if (op === "Q") ctm = saved.pop() ?? start;
        else if (op === "cm" && operands.length >= 6) {
          const m = operands.slice(-6);
          if (m.every((v) => typeof v === "number")) ctm = concat(m as Matrix6, ctm);
        } else if (op === "Do" && operands.length >= 1) {
          const name = operands[operands.length - 1];
          if (typeof name === "string") this.xobject(name, resources, ctm, depth, stack);
        } else if (op === "BI") lexer.skipInlineImage();
        operands.length = 0;
      }
    }
  }

  private xobject(
    name: string,
    resources: mupdf.PDFObject,
    ctm: Matrix6,
    depth: number,
    stack: Set<number>,
  ): void {
    if (!resources.isDictionary()) return;
    const ref = resources.get("XObject", name);
    if (!ref.isStream()) return;
    const subtype = ref.get("Subtype");
    const kind = subtype.isName() ? subtype.asName() : "";
    if (kind === "Image") {
      if (!ref.isIndirect()) return;
      this.record(ref.asIndirect(), ref, ctm);
    } else if (kind === "Form") {
      const m = (numbers(ref.get("Matrix"), 6) as Matrix6 | null) ?? IDENTITY;
      this.form(ref, concat(m, ctm), depth + 1, stack, resources);
    }
  }

  private record(num: number, image: mupdf.PDFObject, ctm: Matrix6): void {
    const w = num0(image.get("Width"));
    const h = num0(image.get("Height"));
    if (w <= 0 || h <= 0) return;
    // The unit square's x axis is drawn along (a, b), its y axis along (c, d).
    const placedW = Math.hypot(ctm[0], ctm[1]);
    const placedH = Math.hypot(ctm[2], ctm[3]);
    const ppiX = placedW > 1e-6 ? (w * 72) / placedW : Infinity;
    const ppiY = placedH > 1e-6 ? (h * 72) / placedH : Infinity;
    const cur = this.out.get(num);
    if (cur) {
      cur.ppiX = Math.min(cur.ppiX, ppiX);
      cur.ppiY = Math.min(cur.ppiY, ppiY);
      cur.pages.add(this.page);
    } else {
      this.out.set(num, { ppiX, ppiY, pages: new Set([this.page]) });
    }
  }
}

function num0(o: mupdf.PDFObject): number {
  return o.isNumber() ? o.asNumber() : 0;
}

function numbers(o: mupdf.PDFObject, n: number): number[] | null {
  if (!o.isArray() || o.length < n) return null;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const v = o.get(i);
    if (!v.isNumber()) return null;
    out.push(v.asNumber());
  }
  return out;
}

function transformRect(r: number[], m: Matrix6): [number, number, number, number] {
  const pts = [
    [r[0], r[1]],
    [r[2], r[1]],
    [r[0], r[3]],
    [r[2], r[3]],
  ].map(([x, y]) => [x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5]]);
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

type Token =
  | { kind: "num"; value: number }
  | { kind: "name"; value: string }
  | { kind: "op"; value: string }
  | { kind: "other" };

const WS = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) WS[c] = 1;
const DELIM = new Uint8Array(256);
for (const c of "()<>[]{}/%") DELIM[c.charCodeAt(0)] = 1;

/** Just enough of the PDF lexer (§7.2) to walk content streams. */
class Lexer {
  private i = 0;
  constructor(private d: Uint8Array) {}

  next(): Token | undefined {
    const d = this.d;
    const n = d.length;
    for (;;) {
      while (this.i < n && WS[d[this.i]]) this.i++;
      if (this.i >= n) return undefined;
      const c = d[this.i];
      if (c === 0x25 /* % */) {
        while (this.i < n && d[this.i] !== 0x0a && d[this.i] !== 0x0d) this.i++;
        continue;
      }
      if (c === 0x2f /* / */) {
        const s = ++this.i;
        while (this.i < n && !WS[d[this.i]] && !DELIM[d[this.i]]) this.i++;
        return { kind: "name", value: decodeName(d.subarray(s, this.i)) };
      }
      if (c === 0x28 /* ( */) {
        this.skipString();
        return { kind: "other" };
      }
      if (c === 0x3c /* < */) {
        if (d[this.i + 1] === 0x3c) {
          this.i += 2;
          return { kind: "other" };
        }
        while (this.i < n && d[this.i] !== 0x3e) this.i++;
        this.i++;
        return { kind: "other" };
      }
      if (c === 0x3e /* > */) {
        this.i += d[this.i + 1] === 0x3e ? 2 : 1;
        return { kind: "other" };
      }
      if (c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d || c === 0x29) {
        this.i++;
        return { kind: "other" };
      }
      const s = this.i;
      while (this.i < n && !WS[d[this.i]] && !DELIM[d[this.i]]) this.i++;
      if (this.i === s) {
        this.i++;
        return { kind: "other" };
      }
      const word = latin1(d.subarray(s, this.i));
      if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) return { kind: "num", value: Number(word) };
      return { kind: "op", value: word };
    }
  }

  private skipString(): void {
    const d = this.d;
    let depth = 0;
    while (this.i < d.length) {
      const c = d[this.i++];
      if (c === 0x5c /* \ */) this.i++;
      else if (c === 0x28) depth++;
      else if (c === 0x29) {
        depth--;
        if (depth === 0) return;
      }
    }
  }

  /** After BI: skips the inline image dictionary, ID, the data and EI (§8.9.7). */
  skipInlineImage(): void {
    const d = this.d;
    // Find the ID keyword as a separate token.
    for (;;) {
      const t = this.next();
      if (t === undefined) return;
      if (t.kind === "op" && t.value === "ID") break;
    }
    this.i++; // the single white-space character after ID
    // EI must be preceded and followed by white space (or end of data).
    while (this.i < d.length - 1) {
      if (
        d[this.i] === 0x45 &&
        d[this.i + 1] === 0x49 &&
        WS[d[this.i - 1]] &&
        (this.i + 2 >= d.length || WS[d[this.i + 2]] || DELIM[d[this.i + 2]])
      ) {
        this.i += 2;
        return;
      }
      this.i++;
    }
    this.i = d.length;
  }
}

function latin1(b: Uint8Array): string {
  let s = "";
  for (let i = 0; i < b.length; i++) s += String.fromCharCode(b[i]);
  return s;
}

function decodeName(b: Uint8Array): string {
  const s = latin1(b);
  return s.includes("#")
    ? s.replace(/#([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
    : s;
}
