import "server-only";
import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { analysePages } from "@/lib/engine/tables/extract-tables";
import { checkAreaOnPages, resolveExtraction } from "@/lib/engine/tables/extraction-options";
import { buildWorkbook, workbookToXlsx, xlsxToXls } from "@/lib/engine/tables/to-workbook";
import { getPageTexts } from "@/lib/engine/text/page-texts";
import { convertedName } from "@/lib/operations/output-name";
import type { RunContext, RunResult } from "@/lib/operations/runner-types";
import type { workbookParams } from "@/lib/operations/workbook-fields";

const TYPES = {
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  xls: "application/vnd.ms-excel",
} as const;

/**
 * The runner of pdf-convert-to-xlsx and -xls: text layer and/or OCR → the table analysis of
 * PDF → CSV → a workbook (lib/engine/tables/to-workbook.ts).
 */
export async function pdfToWorkbook(ctx: RunContext<z.infer<typeof workbookParams>>, format: "xlsx" | "xls"): Promise<RunResult> {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a PDF or image.");
  const bytes = await readFile(source.path);
  const opts = resolveExtraction(ctx.params);
  const texts = await getPageTexts(bytes, {
    ...opts.text,
    onProgress: (done, total) => {
      if (done === total || done % 25 === 0) ctx.log(`read ${done}/${total} page(s)`);
    },
  });
  checkAreaOnPages(opts.area, texts.pages, ctx.params.rect ? "rect" : "ExtractionArea");
  const segments = analysePages(texts.pages, opts.table, opts.area);
  const wb = buildWorkbook(
    segments,
    texts.pages.map((p) => p.index),
    ctx.params.profiles?.Worksheets ?? "PerPage",
  );
  const xlsx = await workbookToXlsx(wb);
  const file = path.join(ctx.workDir, `result.${format}`);
  writeFileSync(file, format === "xlsx" ? xlsx : xlsxToXls(xlsx));
  ctx.log(`${texts.pages.length} page(s), ${segments.filter((s) => s.kind === "table").length} table(s), ${wb.worksheets.length} sheet(s)`);
  return {
    outputs: [{ path: file, name: convertedName(ctx.params.name, source.name, format), contentType: TYPES[format] }],
    pageCount: texts.pages.length,
  };
}
