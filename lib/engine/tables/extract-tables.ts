import type { PageText } from "@/lib/engine/text/types";
import { analysePage } from "@/lib/engine/tables/page-tables";
import type { Segment, Table, TableOptions } from "@/lib/engine/tables/types";

export interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Segments (tables and text lines) of several pages in reading order, with tables continued
 * on the next page joined into one (see joinContinuedTables).
 */
export function analysePages(pages: PageText[], opts: TableOptions = {}, area?: Area): Segment[] {
  const perPage = pages.map((p) => analysePage(p, opts, area));
  return joinContinuedTables(perPage);
}

/** Text lines allowed between the end of a table and its continuation (running footer/header). */
const MAX_BETWEEN_LINES = 4;

/**
 * Joins the last table of a page with the first table of the next page when they line up
 * (same columns, or columns that map one to one by position). A repeated header row is
 * dropped. Page furniture between them (a footer, a running header) moves after the table.
 */
export function joinContinuedTables(perPage: Segment[][]): Segment[] {
  const out: Segment[] = [];
  let open: Table | null = null; // the last table output, while it may still continue
  let trailing = 0; // text segments output after it
  const lastTable = (segs: Segment[]) => segs.map((s) => s.kind).lastIndexOf("table");
  for (const segments of perPage) {
    const first = segments.findIndex((s) => s.kind === "table");
    if (open && first >= 0 && first <= MAX_BETWEEN_LINES && trailing <= MAX_BETWEEN_LINES) {
      const next = (segments[first] as TableSegment).table;
      const mapping = columnMapping(open, next);
      if (mapping) {
        appendTable(open, next, mapping);
        const remaining = [...segments.slice(0, first), ...segments.slice(first + 1)];
        out.push(...remaining);
        const last = lastTable(remaining);
        if (last < 0) trailing += remaining.length;
        else {
          open = (remaining[last] as TableSegment).table;
          trailing = remaining.length - 1 - last;
        }
        continue;
      }
    }
    out.push(...segments);
    const last = lastTable(segments);
    if (last >= 0) {
      open = (segments[last] as TableSegment).table;
      trailing = segments.length - 1 - last;
    } else open = null;
  }
  return out;
}

type TableSegment = Extract<Segment, { kind: "table" }>;

/** For each column of `next`, the column of `prev` it continues; null when they don't line up. */
export function columnMapping(prev: Table, next: Table): number[] | null {
  const pc = prev.columnEdges.length - 1;
  const nc = next.columnEdges.length - 1;
  if (pc < 2 || nc < 1 || nc > pc) return null;
  const width = Math.min(prev.x1 - prev.x0, next.x1 - next.x0);
  const overlap = Math.min(prev.x1, next.x1) - Math.max(prev.x0, next.x0);
  if (width <= 0 || overlap < 0.6 * width) return null;
  if (nc === pc) {
    // Same count: accept if every inner edge is close, or the tables have the same source.
    const close = prev.columnEdges.every((e, i) => Math.abs(e - next.columnEdges[i]) < 30);
    if (close || prev.source === next.source) return next.columnEdges.slice(1).map((_, i) => i);
    return null;
  }
  // Fewer columns on the continuation (an empty column): map by centre.
  const map: number[] = [];
  for (let i = 0; i < nc; i++) {
    const cx = (next.columnEdges[i] + next.columnEdges[i + 1]) / 2;
    const j = prev.columnEdges.findIndex((e, k) => k < pc && cx >= e && cx < prev.columnEdges[k + 1]);
    if (j < 0) return null;
    if (map.length && j <= map[map.length - 1]) return null;
    map.push(j);
  }
  return map;
}

function appendTable(prev: Table, next: Table, mapping: number[]): void {
  const width = prev.rows[0]?.length ?? 0;
  let rows = next.rows.map((r) => {
    const row = new Array<string>(width).fill("");
    r.forEach((t, i) => (row[mapping[i]] = t));
    return row;
  });
  const header = prev.rows[0];
  if (header && rows.length && rows[0].every((t, i) => norm(t) === norm(header[i]))) rows = rows.slice(1);
  prev.rows.push(...rows);
  prev.pages.push(...next.pages.filter((p) => !prev.pages.includes(p)));
}

function norm(s: string): string {
  return s.replace(/\s+/g, " ").trim().toLowerCase();
}

/** Rows of the CSV for segments: a table's rows padded to its width; text lines as their cells. */
export function segmentRows(segments: Segment[]): string[][] {
  const rows: string[][] = [];
  for (const s of segments) {
    if (s.kind === "text") rows.push(s.cells);
    else rows.push(...s.table.rows);
  }
  return rows;
}

/** RFC 4180 CSV with every cell quoted and CR LF after each row (the public API's format). */
export function toCsv(rows: string[][]): string {
  const lines = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    let line = "";
    for (let k = 0; k < r.length; k++) {
      if (!(k in r)) line += k ? "," : ""; // a hole stays empty, unquoted, as Array#join leaves it
      else line += (k ? ',"' : '"') + csvCell(r[k]) + '"';
    }
    lines[i] = line + "\r\n";
  }
  return lines.join("");
}

/** Characters a cell may not keep as they are: quotes (doubled) and control characters other than line breaks. */
const NEEDS_CLEANING = /["\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f]/;

function csvCell(c: string): string {
  return NEEDS_CLEANING.test(c) ? clean(c).replace(/"/g, '""') : c;
}

function clean(s: string): string {
  // Control characters other than line breaks make spreadsheets choke.
  return s.replace(/[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f]/g, "");
}
