import "server-only";
import JSZip from "jszip";
import { QuireError } from "@/lib/core/errors";

/**
 * An .xlsx copy in which only sheet `worksheetIndex` (1-based, in workbook order, hidden sheets
 * counted as Excel and SheetJS count them) is visible and active: LibreOffice prints no hidden
 * sheet, so the PDF holds that sheet alone. Only xl/workbook.xml changes.
 */
export async function keepOnlySheet(xlsx: Buffer, worksheetIndex: number): Promise<Buffer> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(xlsx);
  } catch {
    throw new QuireError(442, "the spreadsheet: the file is damaged (not a readable xlsx package).");
  }
  const part = zip.file("xl/workbook.xml");
  if (!part) throw new QuireError(442, "the spreadsheet: the file is damaged (no xl/workbook.xml).");
  const xml = await part.async("string");
  const sheets = [...xml.matchAll(/<(?:\w+:)?sheet\b[^>]*?\/?>/g)];
  if (sheets.length === 0) throw new QuireError(442, "the spreadsheet: the workbook has no sheets.");
  if (!Number.isInteger(worksheetIndex) || worksheetIndex < 1 || worksheetIndex > sheets.length) {
    throw new QuireError(
      454,
      `worksheetIndex: the workbook has ${sheets.length} sheet(s); give a number from 1 to ${sheets.length}.`,
    );
  }
  let i = 0;
  let out = xml.replace(/<(?:\w+:)?sheet\b[^>]*?\/?>/g, (tag) => {
    i++;
    const bare = tag.replace(/\s+state="[^"]*"/, "");
    if (i === worksheetIndex) return bare;
    return bare.replace(/(\s*\/?>)$/, ' state="hidden"$1');
  });
  // The active tab must be the visible sheet (a hidden active sheet is shown and printed).
  out = out.replace(/\s(activeTab|firstSheet)="\d+"/g, "");
  const view = `activeTab="${worksheetIndex - 1}" firstSheet="${worksheetIndex - 1}"`;
  if (/<(?:\w+:)?workbookView\b/.test(out)) out = out.replace(/<((?:\w+:)?workbookView)\b/, `<$1 ${view}`);
  // Without a view LibreOffice ignores the hidden state; the view goes right before <sheets>.
  else out = out.replace(/<((?:(\w+):)?sheets)\b/, (_m, tag: string, prefix?: string) => {
    const p = prefix ? `${prefix}:` : "";
    return `<${p}bookViews><${p}workbookView ${view}/></${p}bookViews><${tag}`;
  });
  zip.file("xl/workbook.xml", out);
  return zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
}
