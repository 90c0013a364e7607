import "server-only";
import { envNumber } from "@/lib/core/config";
import * as XLSX from "@e965/xlsx";
import * as cptable from "@e965/xlsx/dist/cpexcel.full.mjs";
import { QuireError } from "@/lib/core/errors";
import { checkZip, isZip } from "./zip-guard";

// Legacy .xls files in non-Unicode code pages (BIFF5 and older) need the code page tables.
XLSX.set_cptable(cptable);

/**
 * Spreadsheet → CSV with SheetJS (@e965/xlsx): .xls, .xlsx/.xlsm, .ods and .csv. Cells are
 * written as the sheet shows them (SheetJS formats numbers and dates with the cell's number
 * format, as Excel's own CSV export does), merged ranges keep their value in the top-left cell.
 * Zip containers are checked for bombs first; the sheet's size is capped.
 */
export interface SheetLimits {
  maxUncompressedBytes: number;
  maxZipEntries: number;
  maxZipRatio: number;
  maxRows: number;
  /** Rows × columns of the sheet's used range. */
  maxCells: number;
}

/** SHEET_MAX_UNCOMPRESSED_BYTES (200 MiB), SHEET_MAX_ROWS (1 048 576), SHEET_MAX_CELLS (5 000 000). */
function sheetLimitsFromEnv(): SheetLimits {
  return {
    maxUncompressedBytes: envNumber("SHEET_MAX_UNCOMPRESSED_BYTES", 200 * 1024 * 1024),
    maxZipEntries: envNumber("SHEET_MAX_ZIP_ENTRIES", 10_000),
    maxZipRatio: envNumber("SHEET_MAX_ZIP_RATIO", 1000),
    maxRows: envNumber("SHEET_MAX_ROWS", 1_048_576),
    maxCells: envNumber("SHEET_MAX_CELLS", 5_000_000),
  };
}

export type SheetFormat = "xlsx" | "xls" | "ods" | "csv" | "xml";

export interface SheetCsv {
  csv: string;
  sheetName: string;
  /** Sheets in the workbook (worksheets, charts and macro sheets alike, as Excel counts them). */
  sheetCount: number;
  format: SheetFormat;
  rows: number;
  columns: number;
}

export interface SheetToCsvOptions {
  /** 1-based index of the sheet (the public API's `worksheetIndex`); default 1. */
  worksheetIndex?: number;
  limits?: Partial<SheetLimits>;
  /** Row separator (default CRLF, as Excel writes CSV). */
  rowSeparator?: string;
}

const what = "the spreadsheet";

/** Converts one sheet of a workbook to CSV text. */
export function sheetToCsv(bytes: Buffer, opts: SheetToCsvOptions = {}): SheetCsv {
  const limits = { ...sheetLimitsFromEnv(), ...opts.limits };
  const index = (opts.worksheetIndex ?? 1) - 1;
  if (!Number.isInteger(index) || index < 0)
    throw new QuireError(454, "worksheetIndex: give a sheet number starting at 1.");
  const { format, input } = classify(bytes, limits);

  const common: XLSX.ParsingOptions = {
    dense: true,
    sheets: index,
    sheetRows: limits.maxRows + 1,
    cellHTML: false,
    cellNF: true,
    cellStyles: false,
    bookVBA: false,
    bookFiles: false,
  };
  let wb: XLSX.WorkBook;
  try {
    wb =
      format === "csv"
        ? XLSX.read(input as string, { ...common, type: "string", raw: true })
        : XLSX.read(input as Buffer, { ...common, type: "buffer" });
  } catch (e) {
    throw readFailure(e, format);
  }
  const sheetCount = wb.SheetNames.length;
  if (sheetCount === 0) throw new QuireError(442, `${what}: the workbook has no sheets.`);
  if (index >= sheetCount) {
    throw new QuireError(
      454,
      `worksheetIndex: the workbook has ${sheetCount} sheet(s); give a number from 1 to ${sheetCount}.`,
    );
  }
  const sheetName = wb.SheetNames[index];
  const ws = wb.Sheets[sheetName];
  if (!ws || !ws["!ref"]) {
    return { csv: "", sheetName, sheetCount, format, rows: 0, columns: 0 };
  }
  const full = XLSX.utils.decode_range((ws["!fullref"] as string | undefined) ?? ws["!ref"]);
  const fullRows = full.e.r + 1;
  if (fullRows > limits.maxRows) {
    throw new QuireError(
      413,
      `worksheetIndex: sheet "${sheetName}" has ${fullRows} rows; the limit is ${limits.maxRows}.`,
    );
  }
  let range = XLSX.utils.decode_range(ws["!ref"]);
  if (cellsOf(range) > limits.maxCells) {
    // The declared range may be far larger than the cells in use (a stray format at XFD1048576).
    range = usedRange(ws) ?? range;
    ws["!ref"] = XLSX.utils.encode_range(range);
  }
  const rows = range.e.r + 1;
  const columns = range.e.c + 1;
  if (cellsOf(range) > limits.maxCells) {
    throw new QuireError(
      413,
      `worksheetIndex: sheet "${sheetName}" spans ${rows} rows × ${columns} columns; the limit is ${limits.maxCells.toLocaleString("en-US")} cells.`,
    );
  }
  fixNegativeElapsed(ws);
  const rs = opts.rowSeparator ?? "\r\n";
  const body = XLSX.utils.sheet_to_csv(ws, { FS: ",", RS: rs, blankrows: true, strip: false });
  return { csv: body === "" ? "" : body + rs, sheetName, sheetCount, format, rows, columns };
}

function cellsOf(r: XLSX.Range): number {
  return (r.e.r - r.s.r + 1) * (r.e.c - r.s.c + 1);
}

const elapsedFormat = /\[(h+|m+|s+)\]/i;

/**
 * SheetJS's formatter leaves negative durations in elapsed-time formats ([h], [mm], [ss]) blank,
 * where Excel shows them with a minus sign ("-28" for -1.2 days as [HH]).
 */
function fixNegativeElapsed(ws: XLSX.WorkSheet): void {
  const data = ws["!data"] as Array<Array<XLSX.CellObject | undefined> | undefined> | undefined;
  for (const row of data ?? []) {
    for (const cell of row ?? []) {
      if (!cell || cell.t !== "n" || cell.w !== "" || typeof cell.v !== "number" || cell.v >= 0) continue;
      const fmt = typeof cell.z === "string" ? cell.z : "";
      if (!elapsedFormat.test(fmt)) continue;
      try {
        cell.w = "-" + XLSX.SSF.format(fmt, -cell.v);
      } catch {
        /* keep SheetJS's text */
      }
    }
  }
}

/** The range from A1 to the last cell that holds something (dense sheets). */
function usedRange(ws: XLSX.WorkSheet): XLSX.Range | null {
  const data = ws["!data"] as Array<Array<XLSX.CellObject | undefined> | undefined> | undefined;
  if (!data) return null;
  let lastRow = -1;
  let lastCol = -1;
  for (let r = 0; r < data.length; r++) {
    const row = data[r];
    if (!row) continue;
    for (let c = row.length - 1; c >= 0; c--) {
      const cell = row[c];
      if (cell && (cell.v !== undefined || cell.w !== undefined || cell.f !== undefined)) {
        lastRow = r;
        if (c > lastCol) lastCol = c;
        break;
      }
    }
  }
  if (lastRow < 0) return { s: { r: 0, c: 0 }, e: { r: 0, c: 0 } };
  return { s: { r: 0, c: 0 }, e: { r: lastRow, c: lastCol } };
}

/** Tells the container from the bytes and prepares SheetJS's input. */
function classify(bytes: Buffer, limits: SheetLimits): { format: SheetFormat; input: Buffer | string } {
  if (bytes.length === 0) throw new QuireError(442, `${what}: the file is empty.`);
  if (isZip(bytes)) {
    const entries = checkZip(bytes, what, {
      maxUncompressedBytes: limits.maxUncompressedBytes,
      maxEntries: limits.maxZipEntries,
      maxRatio: limits.maxZipRatio,
    });
    const names = new Set(entries.map((e) => e.name.toLowerCase()));
    if (names.has("content.xml") || names.has("mimetype")) return { format: "ods", input: bytes };
    if (names.has("[content_types].xml")) return { format: "xlsx", input: bytes };
    throw new QuireError(
      415,
      `${what}: this zip file is not a workbook (no Excel or OpenDocument parts); send .xls, .xlsx, .ods or .csv.`,
    );
  }
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0)
    return { format: "xls", input: bytes };
  // BIFF2–4 worksheets without the compound-file wrapper start with a BOF record.
  if (
    bytes[0] === 0x09 &&
    (bytes[1] === 0x00 || bytes[1] === 0x02 || bytes[1] === 0x04 || bytes[1] === 0x08) &&
    bytes[2] <= 0x10
  ) {
    return { format: "xls", input: bytes };
  }
  const head = bytes.subarray(0, Math.min(bytes.length, 8192));
  if (head.includes(0)) {
    if (head.subarray(0, 5).toString("latin1") === "%PDF-")
      throw new QuireError(415, `${what}: this is a PDF; send .xls, .xlsx, .ods or .csv.`);
    throw new QuireError(415, `${what}: not a spreadsheet; send .xls, .xlsx, .ods or .csv.`);
  }
  if (head.subarray(0, 5).toString("latin1") === "%PDF-")
    throw new QuireError(415, `${what}: this is a PDF; send .xls, .xlsx, .ods or .csv.`);
  const text = decodeText(bytes);
  const start = text.trimStart().slice(0, 200).toLowerCase();
  if (start.startsWith("<?xml") || start.startsWith("<office:document") || start.startsWith("<workbook")) {
    return { format: "xml", input: bytes };
  }
  return { format: "csv", input: text };
}

/** UTF-8 (BOM dropped) when valid, else Windows-1252, Excel's default for "CSV". */
function decodeText(bytes: Buffer): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

function readFailure(e: unknown, format: SheetFormat): QuireError {
  const message = String((e as Error)?.message ?? e);
  if (/password|encrypt/i.test(message)) {
    return new QuireError(
      442,
      `${what}: the workbook is password-protected; remove the password and send it again.`,
    );
  }
  if (/unsupported|not supported/i.test(message))
    return new QuireError(415, `${what}: ${message.split("\n")[0].slice(0, 200)}.`);
  return new QuireError(
    442,
    `${what}: the ${format.toUpperCase()} file is damaged or not a workbook (${message.split("\n")[0].slice(0, 160)}).`,
  );
}
