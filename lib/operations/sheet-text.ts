import "server-only";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { QuireError } from "@/lib/core/errors";
import { rowsToHtml, rowsToJson, rowsToText, rowsToXml, sheetRows } from "@/lib/engine/sheets/sheet-rows";
import type { RunContext, RunResult } from "@/lib/operations/runner-types";

/** The text outputs of /v1/xls/convert/to/{html,json,txt,xml}: one worksheet, as a file or inline. */
export type SheetTextFormat = "html" | "json" | "txt" | "xml";

const types: Record<SheetTextFormat, string> = {
  html: "text/html",
  json: "application/json",
  txt: "text/plain",
  xml: "application/xml",
};

interface SheetTextParams {
  worksheetIndex?: string;
  name?: string;
}

/** Converts the chosen worksheet (1-based) to `format`; pageCount = 1 sheet, like the CSV conversion. */
export async function runSheetText(ctx: RunContext<SheetTextParams>, format: SheetTextFormat): Promise<RunResult> {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a spreadsheet (.xls, .xlsx, .ods or .csv).");
  const index = ctx.params.worksheetIndex === undefined ? 1 : Number.parseInt(ctx.params.worksheetIndex.trim(), 10);
  const sheet = sheetRows(await readFile(source.path), { worksheetIndex: index });
  const text =
    format === "html"
      ? rowsToHtml(sheet.rows, sheet.sheetName)
      : format === "json"
        ? rowsToJson(sheet.rows)
        : format === "txt"
          ? rowsToText(sheet.rows)
          : rowsToXml(sheet.rows, sheet.sheetName);
  const file = path.join(ctx.workDir, `result.${format}`);
  await writeFile(file, text, "utf8");
  ctx.log(`xls to ${format}: ${sheet.format}, sheet ${index} of ${sheet.sheetCount} ("${sheet.sheetName}"), ${sheet.rows.length} rows`);
  return {
    outputs: [{ path: file, name: outputName(ctx.params.name, format), contentType: types[format] }],
    inlineText: text,
    pageCount: 1,
  };
}

function outputName(name: string | undefined, ext: string): string {
  const n = name?.trim();
  if (!n) return `result.${ext}`;
  return n.toLowerCase().endsWith(`.${ext}`) ? n : `${n}.${ext}`;
}
