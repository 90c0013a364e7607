import type { Rule, Word } from "@/lib/engine/text/types";
import { bbox, joinWords, type Chunk, type TextLine } from "@/lib/engine/tables/lines";
import type { LineGrouping } from "@/lib/engine/tables/types";

/**
 * Whitespace ("content groups") tables: columns from the x-extents of content groups across
 * lines, aligned to the header row (the row with the most groups) unless told otherwise; then
 * multi-line rows are joined by the line-grouping rule asked for.
 */

export interface Column {
  x0: number;
  x1: number;
}

export interface StreamGrid {
  columns: Column[];
  /** One entry per line: the text of each column. */
  cells: string[][];
  lines: TextLine[];
}

/** Columns of a set of lines. */
export function detectColumns(lines: TextLine[], autoAlignToHeader: boolean): Column[] {
  if (autoAlignToHeader) {
    const cols = columnsFromHeader(lines);
    if (cols) return cols;
  }
  return columnsByCoverage(lines);
}

/** Tabula-style: every group's x-extent, overlapping extents merged. */
function columnsByCoverage(lines: TextLine[]): Column[] {
  const spans = lines.flatMap((l) => l.chunks.map((c) => ({ x0: c.x0, x1: c.x1 }))).sort((a, b) => a.x0 - b.x0);
  const cols: Column[] = [];
  for (const s of spans) {
    const last = cols[cols.length - 1];
    if (last && s.x0 <= last.x1) last.x1 = Math.max(last.x1, s.x1);
    else cols.push({ ...s });
  }
  return cols;
}

/**
 * Columns from the header: the lines with the most groups (a count seen at least twice when
 * there is one, so one odd line does not decide) fix the columns; other lines' groups join the
 * column they overlap, open a new column in clear space, or span several columns as a merged cell.
 */
function columnsFromHeader(lines: TextLine[]): Column[] | null {
  const counts = new Map<number, number>();
  for (const l of lines) counts.set(l.chunks.length, (counts.get(l.chunks.length) ?? 0) + 1);
  let k = 0;
  for (const [n, f] of counts) if (n >= 2 && f >= 2 && n > k) k = n;
  if (k === 0) k = Math.max(...lines.map((l) => l.chunks.length));
  if (k < 2) return null;
  const seeds = lines.filter((l) => l.chunks.length === k);
  const cols: Column[] = [];
  for (let i = 0; i < k; i++) {
    cols.push({ x0: Math.min(...seeds.map((l) => l.chunks[i].x0)), x1: Math.max(...seeds.map((l) => l.chunks[i].x1)) });
  }
  for (let i = 1; i < k; i++) if (cols[i].x0 <= cols[i - 1].x1) return null; // seeds disagree
  // Other lines, most groups first: new columns in clear space.
  const others = lines.filter((l) => l.chunks.length !== k).sort((a, b) => b.chunks.length - a.chunks.length);
  for (const l of others) {
    for (const c of l.chunks) {
      const ov = overlapping(cols, c);
      if (ov.length === 1) {
        const col = cols[ov[0]];
        const prev = cols[ov[0] - 1];
        const next = cols[ov[0] + 1];
        // Grow the column, but never into its neighbours.
        if (!prev || c.x0 > prev.x1) col.x0 = Math.min(col.x0, c.x0);
        if (!next || c.x1 < next.x0) col.x1 = Math.max(col.x1, c.x1);
      } else if (ov.length === 0) {
        const minGap = 1.0 * Math.max(...c.words.map((w) => w.fontSize));
        let pos = 0;
        while (pos < cols.length && cols[pos].x0 < c.x0) pos++;
        const gapL = pos > 0 ? c.x0 - cols[pos - 1].x1 : Infinity;
        const gapR = pos < cols.length ? cols[pos].x0 - c.x1 : Infinity;
        if (gapL >= minGap && gapR >= minGap) cols.splice(pos, 0, { x0: c.x0, x1: c.x1 });
      }
    }
  }
  return cols;
}

function overlapping(cols: Column[], c: { x0: number; x1: number }): number[] {
  const out: number[] = [];
  for (let i = 0; i < cols.length; i++) if (c.x0 < cols[i].x1 + 0.5 && c.x1 > cols[i].x0 - 0.5) out.push(i);
  return out;
}

function nearest(cols: Column[], c: { x0: number; x1: number }): number {
  let best = 0;
  let bestD = Infinity;
  const cx = (c.x0 + c.x1) / 2;
  for (let i = 0; i < cols.length; i++) {
    const d = cx < cols[i].x0 ? cols[i].x0 - cx : cx > cols[i].x1 ? cx - cols[i].x1 : 0;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

/** Places each line's groups into the columns; a group spanning columns is split at word gaps that line up with column gaps, else kept whole in its first column. */
export function fillColumns(lines: TextLine[], cols: Column[]): string[][] {
  return lines.map((l) => {
    const parts: Word[][] = cols.map(() => []);
    for (const c of l.chunks) {
      for (const [col, words] of placeChunk(cols, c)) parts[col].push(...words);
    }
    return parts.map((ws) => (ws.length ? joinWords(ws) : ""));
  });
}

function placeChunk(cols: Column[], c: Chunk): [number, Word[]][] {
  const ov = overlapping(cols, c);
  if (ov.length === 1) return [[ov[0], c.words]];
  if (ov.length === 0) return [[nearest(cols, c), c.words]];
  // Try to split between words where a column gap falls.
  const out: [number, Word[]][] = [];
  let curCol = -1;
  for (const w of c.words) {
    const col = nearest(cols, w);
    if (col !== curCol) {
      if (curCol !== -1) {
        const prevWord = out[out.length - 1][1].at(-1)!;
        // The break must fall in the gap between the two columns (both words inside their own).
        const ok = col > curCol && prevWord.x1 <= cols[curCol].x1 + 1 && w.x0 >= cols[col].x0 - 1 && wordInside(cols[col], w);
        if (!ok) return [[ov[0], c.words]]; // a merged cell: keep it whole in its first column
      }
      out.push([col, []]);
      curCol = col;
    }
    out[out.length - 1][1].push(w);
  }
  return out;
}

function wordInside(col: Column, w: Word): boolean {
  return w.x0 >= col.x0 - 1 && w.x0 <= col.x1;
}

/** True when a horizontal rule separates line b from line a above it (over ≥ 30% of the width). */
export function separated(a: TextLine, b: TextLine, rules: Rule[], x0: number, x1: number): boolean {
  const top = (a.y0 + a.y1) / 2;
  const bottom = (b.y0 + b.y1) / 2;
  for (const r of rules) {
    if (r.y1 - r.y0 > r.x1 - r.x0) continue;
    const y = (r.y0 + r.y1) / 2;
    if (y <= top || y >= bottom) continue;
    const cover = Math.min(x1, r.x1) - Math.max(x0, r.x0);
    if (cover >= 0.3 * (x1 - x0)) return true;
  }
  return false;
}

export interface GroupOptions {
  grouping: LineGrouping;
  unwrap: boolean;
  /** ContentGroupsAI without an explicit grouping: join wrapped continuation lines. */
  autoJoin: boolean;
  considerFontColors: boolean;
  rules: Rule[];
}

/**
 * Joins lines into rows. GroupByRows: a line continues the row above when its key (first)
 * column is empty, or when it sits tight under it and only fills cells the row above fills.
 * GroupByColumns: lines set tight together (no extra spacing, no rule) form one row, cell by cell.
 * JoinOrphanedRows: a line with one filled cell joins the row above unless a rule or a gap
 * separates them. A horizontal rule always starts a new row.
 */
export function groupRows(lines: TextLine[], cells: string[][], opts: GroupOptions): { rows: string[][]; rowLines: number[][] } {
  if (lines.length === 0) return { rows: [], rowLines: [] };
  const grouping = opts.grouping;
  const x0 = Math.min(...lines.map((l) => l.x0));
  const x1 = Math.max(...lines.map((l) => l.x1));
  if (grouping === "None") {
    const bands = ruleBands(lines, opts.rules, x0, x1);
    if (bands) return joinBands(cells, bands, opts.unwrap ? " " : "\n");
    if (!opts.autoJoin) return { rows: cells.map((r) => [...r]), rowLines: cells.map((_, i) => [i]) };
  }
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i++) gaps.push(lines[i].y0 - lines[i - 1].y1);
  const sortedGaps = [...gaps].sort((a, b) => a - b);
  const tight = sortedGaps.length ? sortedGaps[Math.floor(sortedGaps.length * 0.25)] : 0;
  const keyCol = cells[0].findIndex((_, c) => cells.filter((r) => r[c] !== "").length >= cells.length * 0.5);
  const sep = grouping === "GroupByRows" ? (opts.unwrap ? " " : "\n") : grouping === "GroupByColumns" ? "\n" : " ";

  const rows: string[][] = [[...cells[0]]];
  const rowLines: number[][] = [[0]];
  let prevFilled = filled(cells[0]);
  for (let i = 1; i < lines.length; i++) {
    const row = cells[i];
    const gap = gaps[i - 1];
    const size = Math.max(lines[i].fontSize, lines[i - 1].fontSize);
    const isTight = gap <= Math.max(tight, 0) + 0.3 * size;
    const sepBefore = separated(lines[i - 1], lines[i], opts.rules, x0, x1);
    const colourChange = opts.considerFontColors && lines[i].words[0].color !== lines[i - 1].words[0].color;
    const f = filled(row);
    let join = false;
    if (!sepBefore && !colourChange) {
      if (grouping === "GroupByRows") {
        const keyEmpty = keyCol >= 0 && row[keyCol] === "";
        const subset = f.length < prevFilled.length && f.every((c) => prevFilled.includes(c));
        join = keyEmpty || (isTight && subset);
      } else if (grouping === "GroupByColumns") {
        join = isTight;
      } else if (grouping === "JoinOrphanedRows") {
        join = f.length === 1 && isTight;
      } else if (opts.autoJoin) {
        // Wrapped text: tight under the row above, key column empty, only cells the row above has.
        const keyEmpty = keyCol >= 0 && row[keyCol] === "";
        join = isTight && keyEmpty && f.length > 0 && f.every((c) => prevFilled.includes(c)) && gap < 0.5 * size;
      }
    }
    if (join) {
      const target = rows[rows.length - 1];
      row.forEach((t, c) => {
        if (t !== "") target[c] = target[c] === "" ? t : target[c] + sep + t;
      });
      prevFilled = filled(target);
      rowLines[rowLines.length - 1].push(i);
    } else {
      rows.push([...row]);
      rowLines.push([i]);
      prevFilled = f;
    }
  }
  return { rows, rowLines };
}

/**
 * Rows closed by horizontal rules (a ruled table without column lines): the band index of each
 * line, when rules cut the lines into at least three bands of row size (so a header rule alone,
 * as in booktabs tables, does not glue the whole body into one row).
 */
function ruleBands(lines: TextLine[], rules: Rule[], x0: number, x1: number): number[] | null {
  if (rules.length === 0 || lines.length < 3) return null;
  const band: number[] = [0];
  for (let i = 1; i < lines.length; i++) band.push(band[i - 1] + (separated(lines[i - 1], lines[i], rules, x0, x1) ? 1 : 0));
  const n = band[band.length - 1] + 1;
  if (n < 3 || n === lines.length) return null;
  const sizes = new Array<number>(n).fill(0);
  for (const b of band) sizes[b]++;
  const sorted = [...sizes].sort((a, b) => a - b);
  if (sorted[sorted.length >> 1] > 3 || sorted[sorted.length - 1] > 10) return null;
  return band;
}

function joinBands(cells: string[][], band: number[], sep: string): { rows: string[][]; rowLines: number[][] } {
  const rows: string[][] = [];
  const rowLines: number[][] = [];
  cells.forEach((row, i) => {
    if (i === 0 || band[i] !== band[i - 1]) {
      rows.push([...row]);
      rowLines.push([i]);
    } else {
      rowLines[rowLines.length - 1].push(i);
      const target = rows[rows.length - 1];
      row.forEach((t, c) => {
        if (t !== "") target[c] = target[c] === "" ? t : target[c] + sep + t;
      });
    }
  });
  return { rows, rowLines };
}

function filled(row: string[]): number[] {
  const out: number[] = [];
  row.forEach((t, i) => t !== "" && out.push(i));
  return out;
}

/** Box of lines. */
export function linesBox(lines: TextLine[]) {
  return bbox(lines);
}
