import "server-only";
import { QuireError } from "@/lib/core/errors";
import { sheetToCsv } from "@/lib/engine/sheets/sheet-to-csv";

/** The largest spreadsheet output the dashboard previews as a table (it is parsed in the web process). */
export const SHEET_PREVIEW_MAX_BYTES = 10 * 1024 * 1024;

/**
 * The first worksheet of a spreadsheet output (xlsx, xls, ods) as CSV for the result table,
 * with the engine's own zip-bomb and size guards and a tighter cap on rows and cells.
 */
export function sheetPreviewCsv(bytes: Uint8Array): string {
  if (bytes.byteLength > SHEET_PREVIEW_MAX_BYTES)
    throw new QuireError(413, `The sheet is larger than ${SHEET_PREVIEW_MAX_BYTES / 1024 / 1024} MB: download it instead.`);
  return sheetToCsv(Buffer.from(bytes), { worksheetIndex: 1, limits: { maxRows: 20_000, maxCells: 400_000 } }).csv;
}
