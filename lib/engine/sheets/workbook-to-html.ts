import "server-only";
import * as XLSX from "@e965/xlsx";
import { sheetToCsv } from "./sheet-to-csv";

/**
 * A workbook as one printable HTML document: every sheet a table of the cells as the sheet shows
 * them (through sheetToCsv, so the same formats, limits and zip-bomb checks apply), its name as a
 * heading, each sheet on new pages. Quire's own markup, no script or external resource.
 */
export function workbookToHtml(bytes: Buffer): { html: string; sheets: number; widest: number } {
  const first = sheetToCsv(bytes, { worksheetIndex: 1 });
  const sections: string[] = [];
  let widest = 0;
  for (let i = 1; i <= first.sheetCount; i++) {
    const sheet = i === 1 ? first : sheetToCsv(bytes, { worksheetIndex: i });
    widest = Math.max(widest, sheet.columns);
    sections.push(`<section><h1>${escapeHtml(sheet.sheetName)}</h1>${csvToTable(sheet.csv)}</section>`);
  }
  const html = `<!DOCTYPE html><html><head><meta charset="utf-8"><style>
body { font: 9pt "Liberation Sans", Arial, sans-serif; margin: 0; }
section + section { break-before: page; }
h1 { font-size: 11pt; margin: 0 0 6pt; }
table { border-collapse: collapse; }
td { border: 0.5pt solid #bbb; padding: 1.5pt 4pt; vertical-align: top; white-space: pre-wrap; }
tr { break-inside: avoid; }
</style></head><body>${sections.join("")}</body></html>`;
  return { html, sheets: first.sheetCount, widest };
}

/** The CSV of one sheet as an HTML table (SheetJS reads it back as text, cell for cell). */
function csvToTable(csv: string): string {
  if (csv.trim() === "") return "<p>(empty sheet)</p>";
  const wb = XLSX.read(csv, { type: "string", raw: true, dense: true });
  const ws = wb.Sheets[wb.SheetNames[0]];
  const rows = XLSX.utils.sheet_to_json<string[]>(ws, { header: 1, raw: false, blankrows: true, defval: "" });
  return `<table>${rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(String(c))}</td>`).join("")}</tr>`).join("")}</table>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
