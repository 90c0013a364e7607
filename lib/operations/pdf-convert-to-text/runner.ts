import "server-only";
import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { analysePages } from "@/lib/engine/tables/extract-tables";
import { checkAreaOnPages, resolveExtraction } from "@/lib/engine/tables/extraction-options";
import { getPageTexts } from "@/lib/engine/text/page-texts";
import { plainTextPages } from "@/lib/engine/text/quick-lines";
import { layoutText, segmentsLayoutText } from "@/lib/engine/text/plain-text";
import { convertedName } from "@/lib/operations/output-name";
import { readChunksBeside } from "@/lib/operations/page-chunks";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

/**
 * Text layer and/or OCR → layout text. Without lineGrouping the words are set on a character
 * grid; with lineGrouping the table analysis (as for CSV) groups multi-line cells first and the
 * rows are set at the tables' column positions.
 */
export const run: Runner<z.infer<typeof operation.params>> = async (ctx) => {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a PDF or image.");
  const bytes = await readFile(source.path);
  const opts = resolveExtraction(ctx.params);
  const grouping = opts.table.lineGrouping ?? "None";
  // A long document laid out page by page: its pages are read in several processes at once.
  const chunks = grouping === "None" ? await readChunksBeside(ctx, bytes, "text") : null;
  if (chunks) {
    checkAreaOnPages(opts.area, chunks.pages, ctx.params.rect ? "rect" : "ExtractionArea");
    const text = chunks.pages.map((p) => p.text ?? "").join("\f");
    const file = path.join(ctx.workDir, "result.txt");
    writeFileSync(file, text, "utf8");
    ctx.log(`${chunks.pages.length} page(s) to text, ${chunks.ocrPages.length} OCRed`);
    return {
      outputs: [{ path: file, name: convertedName(ctx.params.name, source.name, "txt"), contentType: "text/plain" }],
      inlineText: text,
      pageCount: chunks.pages.length,
    };
  }
  // Layout text of a whole page needs only whole runs: the fast reading of the text layer where
  // it serves (an area cuts runs, so it needs the words).
  const read = grouping === "None" && !opts.area ? plainTextPages : getPageTexts;
  const texts = await read(bytes, {
    ...opts.text,
    withRules: grouping !== "None" && opts.text.withRules,
    onProgress: (done, total) => {
      if (done === total || done % 25 === 0) ctx.log(`read ${done}/${total} page(s)`);
    },
  });
  checkAreaOnPages(opts.area, texts.pages, ctx.params.rect ? "rect" : "ExtractionArea");
  const text =
    grouping === "None"
      ? layoutText(texts.pages, { area: opts.area })
      : segmentsLayoutText(texts.pages, analysePages(texts.pages, { ...opts.table, wholeAreaIsTable: false }, opts.area), { area: opts.area });
  const file = path.join(ctx.workDir, "result.txt");
  writeFileSync(file, text, "utf8");
  ctx.log(`${texts.pages.length} page(s) to text, ${texts.ocrPages.length} OCRed`);
  return {
    outputs: [{ path: file, name: convertedName(ctx.params.name, source.name, "txt"), contentType: "text/plain" }],
    inlineText: text,
    pageCount: texts.pages.length,
  };
};
