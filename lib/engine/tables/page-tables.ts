import { centreInArea } from "@/lib/engine/text/page-frame";
import type { PageText, Rule, Word } from "@/lib/engine/text/types";
import { findLatticeTables } from "@/lib/engine/tables/lattice";
import { groupLines, joinWords, makeChunks, type TextLine } from "@/lib/engine/tables/lines";
import { detectColumns, fillColumns, groupRows, linesBox } from "@/lib/engine/tables/stream";
import type { Segment, Table, TableOptions } from "@/lib/engine/tables/types";

/**
 * A page's content as segments in reading order: tables (bordered or whitespace) and lines of
 * text between them. `area` (pt, top-left origin) limits the analysis to words whose centre
 * lies inside it.
 */
export function analysePage(
  page: PageText,
  opts: TableOptions = {},
  area?: { x: number; y: number; width: number; height: number },
): Segment[] {
  const mode = opts.mode ?? "ContentGroupsAndBorders";
  // The area is on the page as rendered (a deskewed scan's words are placed there by its ocrFrame).
  const words = page.words.filter((w) => centreInArea(page, w, area));
  const rules = area ? clipRules(page.rules, area) : page.rules;
  const lineOpts = {
    spaceRatio: opts.spaceRatio,
    considerFontColors: opts.considerFontColors,
    considerFontSizes: opts.considerFontSizes,
  };
  const segments: Segment[] = [];
  let rest = words;

  if (mode !== "ContentGroups") {
    const sep = opts.unwrap ? " " : "\n";
    for (const t of findLatticeTables(words, rules, { sep })) {
      if (mode !== "Borders" && mode !== "BorderedTables" && hidesGrid(t.cellWords, lineOpts)) continue;
      segments.push({
        kind: "table",
        table: {
          page: page.index,
          x0: t.x0,
          y0: t.y0,
          x1: t.x1,
          y1: t.y1,
          source: "borders",
          rows: t.rows,
          columnEdges: t.xs,
          rowEdges: t.ys,
          spans: t.spans,
          pages: [page.index],
        },
      });
      rest = rest.filter((w) => !t.used.has(w));
    }
  }
  if (mode === "BorderedTables") return segments;

  const lines = groupLines(rest, lineOpts);
  if (mode === "Borders") {
    for (const l of lines) segments.push(textSegment(page.index, l, false));
    return sortSegments(segments);
  }
  const streamRules = mode === "ContentGroups" ? [] : rules;
  const regions = opts.wholeAreaIsTable ? [{ lines, table: lines.length > 0 }] : findRegions(lines, streamRules);
  for (const region of regions) {
    if (!region.table) {
      for (const l of region.lines) segments.push(textSegment(page.index, l, true));
      continue;
    }
    const table = streamTable(page.index, region.lines, streamRules, opts);
    if (table) segments.push({ kind: "table", table });
  }
  return sortSegments(segments);
}

function sortSegments(segments: Segment[]): Segment[] {
  const top = (s: Segment) => (s.kind === "table" ? s.table.y0 : s.y0);
  const left = (s: Segment) => (s.kind === "table" ? s.table.x0 : s.x0);
  return segments.sort((a, b) => top(a) - top(b) || left(a) - left(b));
}

function textSegment(page: number, l: TextLine, byChunks: boolean): Segment {
  return {
    kind: "text",
    page,
    x0: l.x0,
    y0: l.y0,
    y1: l.y1,
    cells: byChunks ? l.chunks.map((c) => joinWords(c.words)) : [joinWords(l.words)],
  };
}

function clipRules(rules: Rule[], a: { x: number; y: number; width: number; height: number }): Rule[] {
  const out: Rule[] = [];
  for (const r of rules) {
    const x0 = Math.max(r.x0, a.x);
    const x1 = Math.min(r.x1, a.x + a.width);
    const y0 = Math.max(r.y0, a.y);
    const y1 = Math.min(r.y1, a.y + a.height);
    if (x0 <= x1 && y0 <= y1) out.push({ x0, y0, x1, y1 });
  }
  return out;
}

/**
 * A ruled "table" whose cells hold a whitespace-aligned grid of their own (a frame with a few
 * rules around a borderless table) is better read by content groups.
 */
function hidesGrid(cells: Word[][], lineOpts: Parameters<typeof groupLines>[1]): boolean {
  for (const words of cells) {
    if (words.length < 6) continue;
    // Content groups only for a cell of three lines or more (most cells hold one or two).
    const lines = groupLines(words, lineOpts, false);
    if (lines.length >= 3 && lines.filter((l) => makeChunks(l.words, lineOpts ?? {}).length >= 2).length >= 3) return true;
  }
  return false;
}

interface Region {
  lines: TextLine[];
  table: boolean;
}

/**
 * Splits a page's lines into table regions and plain text. Lines are first cut into blocks at
 * unusually large vertical gaps; in a block, the span from the first to the last line with two
 * or more content groups is a table if it has at least two such lines.
 */
function findRegions(lines: TextLine[], rules: Rule[]): Region[] {
  if (lines.length === 0) return [];
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i++) gaps.push(lines[i].y0 - lines[i - 1].y1);
  const positive = gaps.filter((g) => g > 0).sort((a, b) => a - b);
  const medianGap = positive.length ? positive[positive.length >> 1] : 0;
  const blocks: TextLine[][] = [[lines[0]]];
  for (let i = 1; i < lines.length; i++) {
    const h = Math.max(lines[i].fontSize, lines[i - 1].fontSize);
    if (gaps[i - 1] > Math.max(1.2 * h, 2.5 * medianGap)) blocks.push([]);
    blocks[blocks.length - 1].push(lines[i]);
  }
  const regions: Region[] = [];
  for (const block of blocks) {
    const multi = block.map((l) => l.chunks.length >= 2);
    const first = multi.indexOf(true);
    const last = multi.lastIndexOf(true);
    const count = multi.filter(Boolean).length;
    if (first < 0 || count < 2) {
      regions.push({ lines: block, table: false });
      continue;
    }
    const end = Math.max(extendToRule(block, first, last, rules), extendWrapped(block, last));
    if (first > 0) regions.push({ lines: block.slice(0, first), table: false });
    regions.push(...splitByStructure(block.slice(first, end + 1)));
    if (end < block.length - 1) regions.push({ lines: block.slice(end + 1), table: false });
  }
  return regions;
}

/**
 * A table whose rows are closed by horizontal rules keeps the wrapped lines of its last row:
 * lines after the last multi-group line belong to it while no rule has closed the row yet and
 * a rule below closes it.
 */
function extendToRule(block: TextLine[], first: number, last: number, rules: Rule[]): number {
  if (rules.length === 0 || last >= block.length - 1) return last;
  const x0 = Math.min(...block.slice(first, last + 1).map((l) => l.x0));
  const x1 = Math.max(...block.slice(first, last + 1).map((l) => l.x1));
  const below = rules
    .filter((r) => r.y1 - r.y0 <= r.x1 - r.x0 && Math.min(x1, r.x1) - Math.max(x0, r.x0) >= 0.5 * (x1 - x0))
    .filter((r) => r.y0 > block[last].y1)
    .sort((a, b) => a.y0 - b.y0)[0];
  if (below === undefined) return last;
  const left = Math.min(x0, below.x0) - 2;
  const right = Math.max(x1, below.x1) + 2;
  let end = last;
  while (end + 1 < block.length && block[end + 1].y1 <= below.y0 + 1 && block[end + 1].x0 >= left && block[end + 1].x1 <= right) end++;
  return end;
}

/**
 * Wrapped text of the last row: following lines set tight whose every group starts where a
 * group of the last full row starts and ends before that row's next group (inside one column).
 */
function extendWrapped(block: TextLine[], last: number): number {
  const anchor = block[last];
  const starts = anchor.chunks.map((c) => c.x0);
  let end = last;
  for (let i = last + 1; i < block.length; i++) {
    const l = block[i];
    const prev = block[i - 1];
    if (l.y0 - prev.y1 > 0.5 * Math.max(l.fontSize, prev.fontSize)) break;
    const fits = l.chunks.every((c) => {
      const k = starts.findIndex((x) => Math.abs(x - c.x0) <= 2);
      if (k < 0) return false;
      return k === starts.length - 1 || c.x1 < starts[k + 1] - 2;
    });
    if (!fits) break;
    end = i;
  }
  return end;
}

/**
 * A run of single-group lines inside a region (a paragraph between two tables set close
 * together) splits it; one or two (section titles, wrapped cells) do not.
 */
function splitByStructure(lines: TextLine[]): Region[] {
  const out: Region[] = [];
  let start = 0;
  let i = 0;
  while (i < lines.length) {
    if (lines[i].chunks.length >= 2) {
      i++;
      continue;
    }
    let j = i;
    while (j < lines.length && lines[j].chunks.length < 2) j++;
    if (j - i >= 3 && j < lines.length) {
      out.push({ lines: lines.slice(start, i), table: true });
      out.push({ lines: lines.slice(i, j), table: false });
      start = j;
    }
    i = j;
  }
  out.push({ lines: lines.slice(start), table: true });
  return out.map((r) => (r.table && r.lines.filter((l) => l.chunks.length >= 2).length < 2 ? { ...r, table: false } : r));
}

function streamTable(page: number, lines: TextLine[], rules: Rule[], opts: TableOptions): Table | null {
  if (lines.length === 0) return null;
  const columns = detectColumns(lines, opts.autoAlignToHeader !== false);
  if (columns.length === 0) return null;
  const cells = fillColumns(lines, columns);
  // Drop columns nobody filled.
  const used = columns.map((_, c) => cells.some((r) => r[c] !== ""));
  const cols = columns.filter((_, c) => used[c]);
  const grid = cells.map((r) => r.filter((_, c) => used[c]));
  const mode = opts.mode ?? "ContentGroupsAndBorders";
  const { rows, rowLines } = groupRows(lines, grid, {
    grouping: opts.lineGrouping ?? "None",
    unwrap: opts.unwrap === true,
    autoJoin: mode === "ContentGroupsAI" && (opts.lineGrouping ?? "None") === "None",
    considerFontColors: opts.considerFontColors === true,
    rules,
  });
  const box = linesBox(lines);
  const edges = [cols[0].x0];
  for (let i = 1; i < cols.length; i++) edges.push((cols[i - 1].x1 + cols[i].x0) / 2);
  edges.push(cols[cols.length - 1].x1);
  const rowEdges = [box.y0];
  for (let r = 1; r < rowLines.length; r++) {
    const above = lines[rowLines[r - 1][rowLines[r - 1].length - 1]];
    const below = lines[rowLines[r][0]];
    rowEdges.push((above.y1 + below.y0) / 2);
  }
  rowEdges.push(box.y1);
  return { page, ...box, source: "content", rows, columnEdges: edges, rowEdges, spans: [], pages: [page] };
}
