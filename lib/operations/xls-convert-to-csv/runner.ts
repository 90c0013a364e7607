import "server-only";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { sheetToCsv } from "@/lib/engine/sheets/sheet-to-csv";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

/** Converts the chosen worksheet; writes the CSV file and offers it inline too. pageCount = 1 sheet. */
export const run: Runner<z.infer<typeof operation.params>> = async (ctx) => {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a spreadsheet (.xls, .xlsx, .ods or .csv).");
  const index =
    ctx.params.worksheetIndex === undefined ? 1 : Number.parseInt(ctx.params.worksheetIndex.trim(), 10);
  const result = sheetToCsv(await readFile(source.path), { worksheetIndex: index });
  const file = path.join(ctx.workDir, "result.csv");
  await writeFile(file, result.csv, "utf8");
  ctx.log(
    `xls to csv: ${result.format}, sheet ${index} of ${result.sheetCount} ("${result.sheetName}"), ${result.rows}×${result.columns}`,
  );
  return {
    outputs: [{ path: file, name: csvName(ctx.params.name), contentType: "text/csv" }],
    inlineText: result.csv,
    pageCount: 1,
  };
};

function csvName(name: string | undefined): string {
  const n = name?.trim();
  if (!n) return "result.csv";
  return /\.csv$/i.test(n) ? n : `${n}.csv`;
}
