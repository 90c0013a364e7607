import "server-only";
import { renderHtmlToPdf } from "@/lib/engine/browser/render-html-to-pdf";
import { rowsToHtml, sheetRows } from "@/lib/engine/sheets/sheet-rows";

/**
 * A CSV file (or the first sheet of a workbook) printed as a readable table: the first row is the
 * header, repeated at the top of every page; wide tables (more than 8 columns) go landscape.
 * Nothing is loaded from the network: the HTML is Quire's own.
 */
export async function csvToPdf(bytes: Buffer, opts: { title?: string; log?: (l: string) => void } = {}): Promise<{ pdf: Buffer; rows: number; columns: number }> {
  const sheet = sheetRows(bytes, { worksheetIndex: 1 });
  const columns = sheet.rows[0]?.length ?? 0;
  const html = sheet.rows.length === 0
    ? `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><p>(empty)</p></body></html>`
    : rowsToHtml(sheet.rows, opts.title ?? sheet.sheetName, { print: true });
  const pdf = await renderHtmlToPdf({ html, landscape: columns > 8, log: opts.log });
  return { pdf, rows: sheet.rows.length, columns };
}
