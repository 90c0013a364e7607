import "server-only";
import * as XLSX from "@e965/xlsx";
import { sheetToCsv, type SheetCsv, type SheetToCsvOptions } from "./sheet-to-csv";

/**
 * One worksheet as rows of display text (what the sheet shows, as the CSV export writes it), for
 * the text outputs of /v1/xls/convert/to/{html,json,txt,xml} and CSV → PDF. It goes through
 * sheetToCsv, so formats, limits and the zip-bomb checks are the same as the CSV conversion's.
 */
export interface SheetRows extends Omit<SheetCsv, "csv" | "rows"> {
  /** The sheet's rows of display text, all as wide as the widest. */
  rows: string[][];
}

export function sheetRows(bytes: Buffer, opts: SheetToCsvOptions = {}): SheetRows {
  const { csv, rows: _count, ...facts } = sheetToCsv(bytes, opts);
  void _count;
  return { ...facts, rows: csvRows(csv) };
}

/** CSV text → rows of strings, every row as wide as the widest (SheetJS reads it back cell for cell). */
export function csvRows(csv: string): string[][] {
  if (csv.trim() === "") return [];
  const wb = XLSX.read(csv, { type: "string", raw: true, dense: true });
  const ws = wb.Sheets[wb.SheetNames[0]];
  const rows = XLSX.utils.sheet_to_json<unknown[]>(ws, { header: 1, raw: false, blankrows: true, defval: "" });
  const width = rows.reduce((w, r) => Math.max(w, r.length), 0);
  return rows.map((r) => Array.from({ length: width }, (_, i) => (r[i] === undefined ? "" : String(r[i]))));
}

const escapeMap: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => escapeMap[c]!);
}

/**
 * Rows as an HTML document: a table whose first row is the header (<thead>, which Chromium
 * repeats at the top of every printed page), cells kept on their lines, no script, no resource.
 */
export function rowsToHtml(rows: string[][], title: string, opts: { header?: boolean; print?: boolean } = {}): string {
  const header = opts.header !== false && rows.length > 1;
  const head = header ? `<thead><tr>${rows[0].map((c) => `<th>${escapeHtml(c)}</th>`).join("")}</tr></thead>` : "";
  const body = (header ? rows.slice(1) : rows)
    .map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join("")}</tr>`)
    .join("\n");
  const style = `body { font: ${opts.print ? "8.5pt" : "10pt"} "Liberation Sans", "DejaVu Sans", Arial, sans-serif; margin: ${opts.print ? "0" : "1em"}; }
table { border-collapse: collapse; ${opts.print ? "width: 100%;" : ""} }
th, td { border: 0.5pt solid #999; padding: 2pt 4pt; vertical-align: top; white-space: pre-wrap; overflow-wrap: anywhere; text-align: left; }
th { background: #e8e8e8; font-weight: bold; }
thead { display: table-header-group; }
tr { break-inside: avoid; }`;
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>
${style}
</style></head><body>
<table>${head}<tbody>
${body}
</tbody></table>
</body></html>
`;
}

/** Rows as plain text: columns padded to their widest cell, two spaces apart, CRLF line ends. */
export function rowsToText(rows: string[][]): string {
  const flat = rows.map((r) => r.map((c) => c.replace(/\r?\n/g, " ")));
  const widths: number[] = [];
  for (const r of flat) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, [...c].length)));
  return flat.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c + " ".repeat(widths[i] - [...c].length))).join("  ").trimEnd()).join("\r\n") + (flat.length ? "\r\n" : "");
}

/**
 * Rows as JSON: an array of objects keyed by the first row's headers (an empty or repeated header
 * becomes "Column N" / "Name_2"), one object per following row, values as the sheet shows them.
 */
export function rowsToJson(rows: string[][]): string {
  if (rows.length === 0) return "[]";
  const keys: string[] = [];
  const seen = new Map<string, number>();
  rows[0].forEach((h, i) => {
    let key = h.trim() || `Column ${i + 1}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    if (n > 1) key = `${key}_${n}`;
    keys.push(key);
  });
  const objects = rows.slice(1).map((r) => Object.fromEntries(keys.map((k, i) => [k, r[i] ?? ""])));
  return JSON.stringify(objects, null, 2);
}

const xmlEscape = (s: string) =>
  s
    // Characters XML 1.0 cannot carry at all are dropped.
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
    .replace(/[&<>"]/g, (c) => escapeMap[c]!);

/** Rows as XML: <sheet name> with <row index> of <cell column="A" index> text, 1-based as in the sheet. */
export function rowsToXml(rows: string[][], sheetName: string): string {
  const out = [`<?xml version="1.0" encoding="UTF-8"?>`, `<document>`, `  <sheet name="${xmlEscape(sheetName)}">`];
  rows.forEach((r, ri) => {
    const cells = r
      .map((c, ci) => (c === "" ? "" : `<cell column="${XLSX.utils.encode_col(ci)}" index="${ci + 1}">${xmlEscape(c)}</cell>`))
      .join("");
    out.push(`    <row index="${ri + 1}">${cells}</row>`);
  });
  out.push(`  </sheet>`, `</document>`, ``);
  return out.join("\n");
}
