/**
 * Options and results of table analysis (lib/engine/tables). Pure data: no MuPDF here, so the
 * analysis can be unit-tested on hand-made word boxes.
 */

/**
 * ColumnDetectionMode of the public API:
 * - ContentGroupsAndBorders (default): ruling lines where a table has them, whitespace elsewhere.
 * - ContentGroups: whitespace (content groups) only; ruling lines are ignored.
 * - Borders: columns and rows only from ruling lines; text outside ruled tables comes out one
 *   line per row, one cell per line.
 * - BorderedTables: only tables drawn with ruling lines are output; other text is dropped.
 * - ContentGroupsAI: the most thorough analysis: ContentGroupsAndBorders plus automatic joining
 *   of wrapped multi-line rows and of orphaned lines, even when lineGrouping is not given.
 */
export type ColumnDetectionMode =
  | "ContentGroupsAndBorders"
  | "ContentGroups"
  | "Borders"
  | "BorderedTables"
  | "ContentGroupsAI";

/** lineGrouping 1/2/3 of the public API, or LineGroupingMode. */
export type LineGrouping = "None" | "GroupByRows" | "GroupByColumns" | "JoinOrphanedRows";

export interface TableOptions {
  mode?: ColumnDetectionMode;
  lineGrouping?: LineGrouping;
  /** Join the lines of a multi-line cell with a space instead of a line break (GroupByRows only). */
  unwrap?: boolean;
  /** A change of font colour separates cells and rows. */
  considerFontColors?: boolean;
  /** A change of font size separates cells and rows. */
  considerFontSizes?: boolean;
  /** Gap, in space widths, above which text starts a new column (default 1.2). */
  spaceRatio?: number;
  /** The row with the most columns defines the columns and other rows align to it (default true). */
  autoAlignToHeader?: boolean;
  /**
   * Everything inside the area is one table (like tabula's area): used for rect/ExtractionArea.
   * Without it, tables are found on the page and other text becomes one-cell rows.
   */
  wholeAreaIsTable?: boolean;
}

/** A cell's text and the box of its words. */
export interface Cell {
  text: string;
}

export interface Table {
  /** 0-based page index where the table (or its first part) is. */
  page: number;
  /** Box on that page (pt, top-left origin). */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** "borders" for tables from ruling lines, "content" for whitespace-detected ones. */
  source: "borders" | "content";
  /** Rows of cell texts; every row has the same length. */
  rows: string[][];
  /** Column edges (length = columns + 1), used to join tables continued on the next page. */
  columnEdges: number[];
  /** Row edges (length = rows + 1) on the table's first page; rows joined from later pages are not covered. */
  rowEdges: number[];
  /** Merged cells (bordered tables): top-left cell and its span. */
  spans: { row: number; col: number; rowSpan: number; colSpan: number }[];
  /** Pages the table spans (after joining continued tables). */
  pages: number[];
}

/** A piece of a page in reading order: a table, or a line of text outside any table. */
export type Segment =
  | { kind: "table"; table: Table }
  | { kind: "text"; page: number; y0: number; y1: number; x0: number; cells: string[] };
