import "server-only";
import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { pagesToHtml, type PageSource } from "@/lib/engine/html/pdf-to-html";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { checkAreaOnPages, resolveExtraction } from "@/lib/engine/tables/extraction-options";
import { getPageTexts } from "@/lib/engine/text/page-texts";
import type { OutputFile, Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

/** Text layer and/or OCR → tables → HTML (lib/engine/html/pdf-to-html.ts describes the output). */
export const run: Runner<z.infer<typeof operation.params>> = async (ctx) => {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a PDF or image.");
  const p = ctx.params;
  const bytes = await readFile(source.path);
  const opts = resolveExtraction(p);
  // The HTML reproduces the page as displayed: no automatic turning, only RotationAngle.
  const rotation = opts.text.rotation ?? 0;
  const texts = await getPageTexts(bytes, { ...opts.text, rotation });
  checkAreaOnPages(opts.area, texts.pages, p.rect ? "rect" : "ExtractionArea");
  const doc = texts.kind === "pdf" ? openPdf(bytes, p.password) : null;
  try {
    const pageSource: PageSource = doc ? { kind: "pdf", doc } : { kind: "image", bytes, pageCount: texts.pageCount };
    const title = path.basename(source.name || "document", path.extname(source.name || ""));
    const result = await pagesToHtml(texts.pages, pageSource, {
      simple: p.simple === true,
      columns: p.columns === true,
      optimizeImages: p.profiles?.OptimizeImages !== false,
      pageWidth: p.profiles?.OutputPageWidth ?? 1024,
      additionalCss: p.profiles?.AdditionalCssStyles,
      saveImages: p.profiles?.saveImages ?? 1,
      table: { ...opts.table, wholeAreaIsTable: false },
      area: opts.area,
      title,
      rotation,
      embedFonts: p.profiles?.EmbedFonts !== false,
      vectorGraphics: p.profiles?.VectorGraphics !== false,
    });
    const file = path.join(ctx.workDir, "result.html");
    writeFileSync(file, result.html, "utf8");
    const outputs: OutputFile[] = [{ path: file, name: htmlName(p.name, source.name), contentType: "text/html" }];
    for (const img of result.images) {
      const f = path.join(ctx.workDir, img.name);
      writeFileSync(f, img.bytes);
      outputs.push({ path: f, name: img.name, contentType: img.contentType });
    }
    ctx.log(`${texts.pages.length} page(s) to HTML, ${texts.ocrPages.length} OCRed`);
    return { outputs, inlineText: result.html, pageCount: texts.pages.length };
  } finally {
    doc?.destroy();
  }
};

function htmlName(requested: string | undefined, sourceName: string): string {
  const base = (requested ?? "").trim() || `${path.basename(sourceName || "result", path.extname(sourceName || "")) || "result"}.html`;
  return /\.html?$/i.test(base) ? base : `${base}.html`;
}
