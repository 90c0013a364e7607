import "server-only";
import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { readInfo } from "@/lib/engine/pdf/read-info";
import { analysePages } from "@/lib/engine/tables/extract-tables";
import { checkAreaOnPages, resolveExtraction } from "@/lib/engine/tables/extraction-options";
import { getPageTexts } from "@/lib/engine/text/page-texts";
import { tableRows, textRows, toJson2Tree, toJsonTree, toXml } from "@/lib/engine/text/structured-text";
import { convertedName } from "@/lib/operations/output-name";
import type { RunContext, RunResult } from "@/lib/operations/runner-types";
import type { structuredParams } from "@/lib/operations/structured-fields";

export type StructuredFormat = "json" | "json2" | "json-meta" | "xml";

/**
 * The runner of pdf-convert-to-json, -json2, -json-meta and -xml: text layer and/or OCR → rows
 * of text objects (visual lines and content groups), or with json2 or a lineGrouping the rows
 * and cells of the table analysis (lib/engine/text/structured-text.ts) → JSON or XML.
 */
export async function pdfToStructured(ctx: RunContext<z.infer<typeof structuredParams>>, format: StructuredFormat): Promise<RunResult> {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a PDF or image.");
  const p = ctx.params;
  const bytes = await readFile(source.path);
  const opts = resolveExtraction(p);
  const useTables = format === "json2" || (opts.table.lineGrouping ?? "None") !== "None";
  const texts = await getPageTexts(bytes, {
    ...opts.text,
    withRules: useTables && opts.text.withRules,
    onProgress: (done, total) => {
      if (done === total || done % 25 === 0) ctx.log(`read ${done}/${total} page(s)`);
    },
  });
  checkAreaOnPages(opts.area, texts.pages, p.rect ? "rect" : "ExtractionArea");
  const pages = useTables
    ? tableRows(texts.pages, analysePages(texts.pages, { ...opts.table, wholeAreaIsTable: false }, opts.area), opts.area)
    : texts.pages.map((page) => textRows(page, opts.area, { spaceRatio: opts.table.spaceRatio, considerFontColors: opts.table.considerFontColors, considerFontSizes: opts.table.considerFontSizes }));
  const ext = format === "xml" ? "xml" : "json";
  const file = path.join(ctx.workDir, `result.${ext}`);
  const name = convertedName(p.name, source.name, ext);
  if (format === "xml") {
    const xml = toXml(pages);
    writeFileSync(file, xml, "utf8");
    return { outputs: [{ path: file, name, contentType: "application/xml" }], inlineText: xml, pageCount: texts.pages.length };
  }
  let info: Record<string, unknown> | undefined;
  if (format === "json-meta") {
    if (texts.kind === "pdf") {
      const doc = openPdf(bytes, p.password);
      try {
        info = { ...readInfo(doc) };
      } finally {
        doc.destroy();
      }
    } else info = { PageCount: texts.pageCount };
  }
  const tree = format === "json2" ? toJson2Tree(pages, texts.pageCount, texts.ocrPages.length) : toJsonTree(pages, info);
  if (p.inline) return { outputs: [], fields: { body: tree }, pageCount: texts.pages.length };
  writeFileSync(file, JSON.stringify(tree), "utf8");
  return { outputs: [{ path: file, name, contentType: "application/json" }], pageCount: texts.pages.length };
}
