import type { Rule, Word } from "@/lib/engine/text/types";
import { cellText } from "@/lib/engine/tables/lines";
import { splitWordAt } from "@/lib/engine/text/char-boxes";

/**
 * Bordered tables from ruling lines ("lattice"): rules that touch form a component; its distinct
 * vertical and horizontal positions form a grid; a missing rule between two grid cells makes
 * them one merged cell. A table without an outer frame still works: the extent of the
 * horizontal rules closes the first and last columns (and of vertical rules, the rows).
 */
export interface LatticeTable {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Grid lines. */
  xs: number[];
  ys: number[];
  /** rows × cols texts; a merged cell's text is in its top-left cell, the others are "". */
  rows: string[][];
  /** Words that fell inside the table (to keep them out of whitespace analysis). */
  used: Set<Word>;
  /** The words of each non-empty (possibly merged) cell. */
  cellWords: Word[][];
  /** Merged cells, in the kept grid's coordinates. */
  spans: { row: number; col: number; rowSpan: number; colSpan: number }[];
}

const TOL = 2;
/** Above this many rules a page is a drawing (a chart, hatching), not a table. */
const MAX_RULES = 4000;

export interface LatticeOptions {
  /** Line separator inside a multi-line cell. */
  sep: string;
}

/** Finds bordered tables and fills their cells with the words inside. */
export function findLatticeTables(words: Word[], rules: Rule[], opts: LatticeOptions): LatticeTable[] {
  if (rules.length < 3 || rules.length > MAX_RULES) return [];
  const horiz = rules.filter((r) => r.x1 - r.x0 >= r.y1 - r.y0 && r.x1 - r.x0 > TOL);
  const vert = rules.filter((r) => r.y1 - r.y0 > r.x1 - r.x0 && r.y1 - r.y0 > TOL);
  if (horiz.length === 0 || vert.length === 0) return [];

  // Union-find over rules: a horizontal and a vertical rule that cross (or touch) are joined.
  const all = [...horiz, ...vert];
  const parent = all.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  const union = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[ra] = rb;
  };
  const nh = horiz.length;
  // Sort vertical rules by x to limit the pairs checked.
  const vOrder = vert.map((v, i) => ({ v, i })).sort((a, b) => a.v.x0 - b.v.x0);
  const vxs = vOrder.map((o) => o.v.x0);
  for (let hi = 0; hi < nh; hi++) {
    const h = horiz[hi];
    let lo = lowerBound(vxs, h.x0 - TOL);
    for (; lo < vOrder.length && vxs[lo] <= h.x1 + TOL; lo++) {
      const v = vOrder[lo].v;
      if (h.y0 >= v.y0 - TOL && h.y0 <= v.y1 + TOL) union(hi, nh + vOrder[lo].i);
    }
  }
  const groups = new Map<number, number[]>();
  for (let i = 0; i < all.length; i++) {
    const r = find(i);
    const g = groups.get(r);
    if (g) g.push(i);
    else groups.set(r, [i]);
  }

  const tables: LatticeTable[] = [];
  for (const members of groups.values()) {
    const hs = members.filter((i) => i < nh).map((i) => horiz[i]);
    const vs = members.filter((i) => i >= nh).map((i) => vert[i - nh]);
    if (hs.length < 1 || vs.length < 1 || hs.length + vs.length < 4) continue;
    const t = buildGrid(hs, vs, words, opts);
    if (t) tables.push(t);
  }
  tables.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  return tables;
}

function lowerBound(a: number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Clusters positions closer than TOL into their mean. */
function cluster(values: number[]): number[] {
  const v = [...values].sort((a, b) => a - b);
  const out: number[] = [];
  let start = 0;
  for (let i = 1; i <= v.length; i++) {
    if (i === v.length || v[i] - v[i - 1] > TOL) {
      const part = v.slice(start, i);
      out.push(part.reduce((s, x) => s + x, 0) / part.length);
      start = i;
    }
  }
  return out;
}

function buildGrid(hs: { x0: number; y0: number; x1: number; y1: number }[], vs: typeof hs, words: Word[], opts: LatticeOptions): LatticeTable | null {
  const x0 = Math.min(...hs.map((h) => h.x0), ...vs.map((v) => v.x0));
  const x1 = Math.max(...hs.map((h) => h.x1), ...vs.map((v) => v.x0));
  const y0 = Math.min(...vs.map((v) => v.y0), ...hs.map((h) => h.y0));
  const y1 = Math.max(...vs.map((v) => v.y1), ...hs.map((h) => h.y0));
  // Grid lines: every rule position, plus the outer extent when the frame is missing.
  const xs = cluster([...vs.map((v) => v.x0), x0, x1]);
  const ys = cluster([...hs.map((h) => h.y0), y0, y1]);
  const nCols = xs.length - 1;
  const nRows = ys.length - 1;
  if (nCols < 1 || nRows < 1) return null;

  // The rules on each grid line, found once (not once per cell), in their original order.
  const vsAt = xs.map((x) => vs.filter((v) => Math.abs(v.x0 - x) <= TOL));
  const hsAt = ys.map((y) => hs.filter((h) => Math.abs(h.y0 - y) <= TOL));
  // covered(v-line at xs[c], between ys[r] and ys[r+1])?
  const hasV = (c: number, r: number): boolean => {
    if (c === 0 || c === nCols) return true; // the outer edge always closes the cell
    const a = ys[r];
    const b = ys[r + 1];
    let cov = 0;
    for (const v of vsAt[c]) cov += Math.max(0, Math.min(b, v.y1) - Math.max(a, v.y0));
    return cov >= 0.5 * (b - a);
  };
  const hasH = (r: number, c: number): boolean => {
    if (r === 0 || r === nRows) return true;
    const a = xs[c];
    const b = xs[c + 1];
    let cov = 0;
    for (const h of hsAt[r]) cov += Math.max(0, Math.min(b, h.x1) - Math.max(a, h.x0));
    return cov >= 0.5 * (b - a);
  };

  // Merge grid cells into spanning cells: union-find over (r, c).
  const idx = (r: number, c: number) => r * nCols + c;
  const parent = Array.from({ length: nRows * nCols }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  const union = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    if (ra === rb) return;
    // Keep the smaller index (top-left) as the root.
    if (ra < rb) parent[rb] = ra;
    else parent[ra] = rb;
  };
  for (let r = 0; r < nRows; r++) {
    for (let c = 0; c < nCols; c++) {
      if (c + 1 < nCols && !hasV(c + 1, r)) union(idx(r, c), idx(r, c + 1));
      if (r + 1 < nRows && !hasH(r + 1, c)) union(idx(r, c), idx(r + 1, c));
    }
  }

  // Assign words by their centre; the words of a (merged) cell are listed under its root.
  const cellWords: (Word[] | undefined)[] = new Array(nRows * nCols);
  const filled: number[] = [];
  const used = new Set<Word>();
  const pieces: Word[] = [];
  for (const w of words) {
    const cx = (w.x0 + w.x1) / 2;
    const cy = (w.y0 + w.y1) / 2;
    if (cx < xs[0] || cx > xs[nCols] || cy < ys[0] || cy > ys[nRows]) continue;
    used.add(w);
    // A word drawn across a cell border (text overflowing its cell with no space) is cut there.
    const r = Math.min(nRows - 1, Math.max(0, upperBound(ys, cy) - 1));
    let rest: Word | null = w;
    for (let b = 1; b < nCols && rest; b++) {
      const x = xs[b];
      if (x <= rest.x0 + 1 || x >= rest.x1 - 1 || !hasV(b, r)) continue;
      const parts = splitWordAt(rest, x);
      if (!parts) break;
      pieces.push(parts[0]);
      rest = parts[1];
    }
    if (rest) pieces.push(rest);
  }
  for (const w of pieces) {
    const cx = (w.x0 + w.x1) / 2;
    const cy = (w.y0 + w.y1) / 2;
    const c = Math.min(nCols - 1, Math.max(0, upperBound(xs, cx) - 1));
    const r = Math.min(nRows - 1, Math.max(0, upperBound(ys, cy) - 1));
    const root = find(idx(r, c));
    const list = cellWords[root];
    if (list) list.push(w);
    else {
      cellWords[root] = [w];
      filled.push(root);
    }
  }

  // A lone box (one cell, or a frame around a paragraph) is not a table.
  let roots = 0;
  for (let i = 0; i < parent.length && roots < 2; i++) if (find(i) === i) roots++;
  if (roots < 2) return null;

  let rows: string[][] = [];
  for (let r = 0; r < nRows; r++) {
    const row: string[] = [];
    for (let c = 0; c < nCols; c++) {
      const i = idx(r, c);
      row.push(find(i) === i ? cellText(cellWords[i] ?? [], opts.sep) : "");
    }
    rows.push(row);
  }
  // Drop slivers: rows/columns narrower than 4pt with no text (double rules, thick borders).
  const keepCol = xs.slice(0, -1).map((x, c) => xs[c + 1] - x >= 4 || rows.some((row) => row[c] !== ""));
  const keepRow = ys.slice(0, -1).map((y, r) => ys[r + 1] - y >= 4 || rows[r].some((t) => t !== ""));
  rows = rows.filter((_, r) => keepRow[r]).map((row) => row.filter((_, c) => keepCol[c]));
  const keptXs = [xs[0], ...xs.slice(1).filter((_, c) => keepCol[c])];
  const keptYs = [ys[0], ...ys.slice(1).filter((_, r) => keepRow[r])];
  if (rows.length === 0 || rows[0].length === 0) return null;
  if (used.size === 0) return null;
  // Spans of merged cells, mapped to the kept rows and columns.
  const rowMap: number[] = [];
  const colMap: number[] = [];
  keepRow.reduce((n, k, i) => ((rowMap[i] = k ? n : -1), k ? n + 1 : n), 0);
  keepCol.reduce((n, k, i) => ((colMap[i] = k ? n : -1), k ? n + 1 : n), 0);
  const extent = new Map<number, { r0: number; c0: number; r1: number; c1: number }>();
  for (let r = 0; r < nRows; r++) {
    for (let c = 0; c < nCols; c++) {
      if (rowMap[r] < 0 || colMap[c] < 0) continue;
      const root = find(idx(r, c));
      const e = extent.get(root);
      const rr = rowMap[r];
      const cc = colMap[c];
      if (!e) extent.set(root, { r0: rr, c0: cc, r1: rr, c1: cc });
      else {
        e.r0 = Math.min(e.r0, rr);
        e.c0 = Math.min(e.c0, cc);
        e.r1 = Math.max(e.r1, rr);
        e.c1 = Math.max(e.c1, cc);
      }
    }
  }
  const spans = [...extent.values()]
    .filter((e) => e.r1 > e.r0 || e.c1 > e.c0)
    .map((e) => ({ row: e.r0, col: e.c0, rowSpan: e.r1 - e.r0 + 1, colSpan: e.c1 - e.c0 + 1 }));
  return { x0, y0, x1, y1, xs: keptXs, ys: keptYs, rows, used, cellWords: filled.map((root) => cellWords[root]!), spans };
}

function upperBound(a: number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
