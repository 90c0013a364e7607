import "server-only";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { csvToPdf } from "@/lib/engine/convert/csv-to-pdf";
import { countPdfPages, pdfName } from "@/lib/operations/pdf-output";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

/** Prints the CSV as a table through the browser pool; pageCount is the PDF's page count. */
export const run: Runner<z.infer<typeof operation.params>> = async (ctx) => {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a CSV file.");
  const result = await csvToPdf(await readFile(source.path), { title: source.name, log: ctx.log });
  ctx.log(`csv to pdf: ${result.rows} rows × ${result.columns} columns`);
  const file = path.join(ctx.workDir, "result.pdf");
  await writeFile(file, result.pdf);
  return {
    outputs: [{ path: file, name: pdfName(ctx.params.name), contentType: "application/pdf" }],
    pageCount: countPdfPages(result.pdf),
  };
};
