import "server-only";
import * as XLSX from "@e965/xlsx";
import ExcelJS from "exceljs";
import type { Segment } from "@/lib/engine/tables/types";

/**
 * Extracted tables (lib/engine/tables, the same analysis as PDF → CSV) as a spreadsheet, written
 * with exceljs (xlsx) and converted to BIFF8 by SheetJS for .xls. Cells that read as numbers,
 * percentages, amounts or dates are stored as such (with a number format that shows them as
 * they were); merged cells of bordered tables stay merged.
 */

/** PerPage (default): one sheet per page; PerTable: one sheet per table; Single: one sheet. */
export type SheetLayout = "PerPage" | "PerTable" | "Single";

export interface TypedCell {
  value: string | number | Date;
  numFmt?: string;
}

const CURRENCY = /^([$€£¥₹]|USD|EUR|GBP|CHF)\s?|\s?([$€£¥₹]|USD|EUR|GBP|CHF)$/;
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/**
 * What a cell's text holds: a number (plain, grouped, decimal comma, negative in parentheses or
 * with a trailing minus, a percentage, an amount with a currency sign), a date, or text. Codes
 * that only look numeric stay text: leading zeros ("00123"), more than 15 digits, phone-like
 * groups separated by spaces or dashes.
 */
export function typeCell(raw: string): TypedCell {
  const text = raw.trim();
  if (text === "" || text.length > 40 || text.includes("\n")) return { value: raw };
  const date = parseDate(text);
  if (date) return date;
  let s = text;
  let negative = false;
  const paren = /^\(.*\)$/.test(s);
  if (paren) {
    negative = true;
    s = s.slice(1, -1).trim();
  }
  let currency = "";
  const cm = CURRENCY.exec(s);
  if (cm) {
    currency = (cm[1] ?? cm[2]).trim();
    s = s.replace(CURRENCY, "").trim();
  }
  if (/^-/.test(s)) {
    negative = !negative;
    s = s.slice(1).trim();
  } else if (/-$/.test(s)) {
    negative = !negative;
    s = s.slice(0, -1).trim();
  } else if (/^\+/.test(s)) s = s.slice(1).trim();
  if (!currency) {
    const cm2 = CURRENCY.exec(s);
    if (cm2) {
      currency = (cm2[1] ?? cm2[2]).trim();
      s = s.replace(CURRENCY, "").trim();
    }
  }
  let percent = false;
  if (s.endsWith("%")) {
    percent = true;
    s = s.slice(0, -1).trim();
  }
  const num = parseNumber(s);
  if (!num) return { value: raw };
  let value = negative ? -num.value : num.value;
  const decimals = "0".repeat(num.decimals);
  const core = `${num.grouped || currency ? "#,##0" : "0"}${decimals ? "." + decimals : ""}`;
  if (percent) {
    value /= 100;
    return { value, numFmt: `${core}%` };
  }
  // Negatives in parentheses (accounting) are shown so again.
  if (currency) {
    const sym = currency.length === 1 ? `"${currency}"` : `"${currency} "`;
    return { value, numFmt: paren ? `${sym}${core};(${sym}${core})` : `${sym}${core};-${sym}${core}` };
  }
  if (paren) return { value, numFmt: `${core};(${core})` };
  return { value, numFmt: num.grouped || num.decimals ? core : undefined };
}

function parseNumber(s: string): { value: number; decimals: number; grouped: boolean } | null {
  if (!/^[\d.,'\u00a0\u202f]+$/.test(s) || !/\d/.test(s)) return null;
  const digits = s.replace(/\D/g, "");
  if (digits.length > 15) return null;
  let intPart = s;
  let frac = "";
  const lastDot = s.lastIndexOf(".");
  const lastComma = s.lastIndexOf(",");
  if (lastDot >= 0 && lastComma >= 0) {
    const dec = Math.max(lastDot, lastComma);
    intPart = s.slice(0, dec);
    frac = s.slice(dec + 1);
  } else if (lastComma >= 0 || lastDot >= 0) {
    const sep = lastComma >= 0 ? "," : ".";
    const count = s.split(sep).length - 1;
    // "1,234" / "1,234,567" / "1.234.567": grouping; "12,5" / "3.14": a decimal separator.
    const grouping = new RegExp(`^\\d{1,3}(\\${sep}\\d{3})+$`).test(s) && (sep === "," || count > 1);
    if (!grouping) {
      if (count > 1) return null;
      const at = s.lastIndexOf(sep);
      intPart = s.slice(0, at);
      frac = s.slice(at + 1);
    }
  }
  if (!/^\d*$/.test(frac)) return null;
  const grouped = /[.,'\u00a0\u202f]/.test(intPart);
  if (grouped && !/^\d{1,3}([.,'\u00a0\u202f]\d{3})+$/.test(intPart)) return null;
  const intDigits = intPart.replace(/\D/g, "");
  if (intDigits.length > 1 && intDigits.startsWith("0")) return null; // codes: 00123
  if (intDigits === "" && frac === "") return null;
  const value = Number(`${intDigits || "0"}.${frac || "0"}`);
  return Number.isFinite(value) ? { value, decimals: frac.length, grouped } : null;
}

function utcDate(y: number, m: number, d: number, hh = 0, mm = 0, ss = 0): Date | null {
  if (y < 100) y += y < 50 ? 2000 : 1900;
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1900 || y > 9999) return null;
  const dt = new Date(Date.UTC(y, m - 1, d, hh, mm, ss));
  return dt.getUTCDate() === d ? dt : null;
}

/** ISO dates (with an optional time), m/d/yyyy (d/m/yyyy when the first part is over 12), d.m.yyyy, "Jan 5, 2024", "5 January 2024". */
function parseDate(s: string): TypedCell | null {
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(s);
  if (m) {
    const d = utcDate(+m[1], +m[2], +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
    return d ? { value: d, numFmt: m[4] ? "yyyy-mm-dd hh:mm" : "yyyy-mm-dd" } : null;
  }
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})$/.exec(s);
  if (m) {
    const a = +m[1];
    const b = +m[2];
    const dayFirst = a > 12 && b <= 12;
    const d = dayFirst ? utcDate(+m[3], b, a) : utcDate(+m[3], a, b);
    return d ? { value: d, numFmt: dayFirst ? "dd/mm/yyyy" : "mm/dd/yyyy" } : null;
  }
  m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(s);
  if (m) {
    const d = utcDate(+m[3], +m[2], +m[1]);
    return d ? { value: d, numFmt: "dd\\.mm\\.yyyy" } : null; // "." escaped: a literal, not a decimal point
  }
  m = /^([A-Za-z]{3,9})\.? (\d{1,2}),? (\d{4})$/.exec(s);
  if (m) {
    const mon = MONTHS.indexOf(m[1].slice(0, 3).toLowerCase());
    const d = mon >= 0 ? utcDate(+m[3], mon + 1, +m[2]) : null;
    return d ? { value: d, numFmt: "mmm d, yyyy" } : null;
  }
  m = /^(\d{1,2}) ([A-Za-z]{3,9})\.?,? (\d{4})$/.exec(s);
  if (m) {
    const mon = MONTHS.indexOf(m[2].slice(0, 3).toLowerCase());
    const d = mon >= 0 ? utcDate(+m[3], mon + 1, +m[1]) : null;
    return d ? { value: d, numFmt: "d mmm yyyy" } : null;
  }
  return null;
}

interface SheetPart {
  name: string;
  segments: Segment[];
}

function segmentPage(s: Segment): number {
  return s.kind === "table" ? s.table.page : s.page;
}

/** Which segments go on which sheet. */
export function planSheets(segments: Segment[], pageIndices: number[], layout: SheetLayout): SheetPart[] {
  if (layout === "Single") return [{ name: "Sheet1", segments }];
  if (layout === "PerTable") {
    const tables = segments.filter((s) => s.kind === "table");
    if (tables.length > 0) return tables.map((t, i) => ({ name: `Table ${i + 1}`, segments: [t] }));
  }
  // One sheet per selected page, even when the page has no text (the sheet is then empty).
  return pageIndices.map((p) => ({ name: `Page ${p + 1}`, segments: segments.filter((s) => segmentPage(s) === p) }));
}

/** Builds the workbook (see the top of this file). */
export function buildWorkbook(segments: Segment[], pageIndices: number[], layout: SheetLayout = "PerPage"): ExcelJS.Workbook {
  const wb = new ExcelJS.Workbook();
  wb.creator = "Quire";
  for (const part of planSheets(segments, pageIndices, layout)) {
    const ws = wb.addWorksheet(part.name);
    const widths: number[] = [];
    let row = 1;
    const put = (cells: string[]) => {
      cells.forEach((text, c) => {
        if (text === "") return;
        const cell = ws.getCell(row, c + 1);
        const typed = typeCell(text);
        cell.value = typed.value;
        if (typed.numFmt) cell.numFmt = typed.numFmt;
        if (text.includes("\n")) cell.alignment = { wrapText: true, vertical: "top" };
        const len = Math.max(...text.split("\n").map((l) => l.length));
        widths[c] = Math.max(widths[c] ?? 8, Math.min(60, len + 2));
      });
      row++;
    };
    for (const s of part.segments) {
      if (s.kind === "text") {
        put(s.cells);
        continue;
      }
      const top = row;
      for (const r of s.table.rows) put(r);
      for (const sp of s.table.spans) {
        if (sp.rowSpan > 1 || sp.colSpan > 1) {
          ws.mergeCells(top + sp.row, sp.col + 1, top + sp.row + sp.rowSpan - 1, sp.col + sp.colSpan);
        }
      }
    }
    widths.forEach((w, i) => {
      if (w) ws.getColumn(i + 1).width = w;
    });
  }
  return wb;
}

/** The workbook as .xlsx bytes. */
export async function workbookToXlsx(wb: ExcelJS.Workbook): Promise<Buffer> {
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** .xlsx bytes as a BIFF8 .xls (Excel 97–2003), values, formats and merges kept. */
export function xlsxToXls(xlsx: Buffer): Buffer {
  const book = XLSX.read(xlsx, { type: "buffer", cellDates: true, cellNF: true, cellStyles: true });
  return Buffer.from(XLSX.write(book, { type: "buffer", bookType: "biff8", cellDates: false }) as Uint8Array);
}
