import "server-only";
import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { analysePages, joinContinuedTables, segmentRows, toCsv } from "@/lib/engine/tables/extract-tables";
import { checkAreaOnPages, resolveExtraction } from "@/lib/engine/tables/extraction-options";
import type { Segment } from "@/lib/engine/tables/types";
import { extractPageImages } from "@/lib/engine/text/images";
import { getPageTexts } from "@/lib/engine/text/page-texts";
import { readChunksBeside } from "@/lib/operations/page-chunks";
import type { OutputFile, Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

/**
 * Text layer and/or OCR → table analysis → CSV. The CSV holds, in reading order, the rows of
 * each detected table and one row per line of other text (see docs/extraction.md).
 */
export const run: Runner<z.infer<typeof operation.params>> = async (ctx) => {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a PDF or image.");
  const bytes = await readFile(source.path);
  const opts = resolveExtraction(ctx.params);
  const saveImages = ctx.params.profiles?.SaveImages ?? "None";
  const field = ctx.params.rect ? "rect" : "ExtractionArea";
  let segments: Segment[];
  let pages: { index: number; width: number; height: number }[];
  let ocrCount: number;
  let kind: "pdf" | "image" = "pdf";
  // A long document without images to save: its pages are read in several processes at once.
  const chunks = saveImages === "None" ? await readChunksBeside(ctx, bytes, "csv") : null;
  if (chunks) {
    pages = chunks.pages;
    checkAreaOnPages(opts.area, pages, field);
    segments = joinContinuedTables(chunks.pages.map((p) => p.segments ?? []));
    ocrCount = chunks.ocrPages.length;
  } else {
    const texts = await getPageTexts(bytes, {
      ...opts.text,
      onProgress: (done, total) => {
        if (done === total || done % 25 === 0) ctx.log(`read ${done}/${total} page(s)`);
      },
    });
    checkAreaOnPages(opts.area, texts.pages, field);
    segments = analysePages(texts.pages, opts.table, opts.area);
    pages = texts.pages;
    ocrCount = texts.ocrPages.length;
    kind = texts.kind;
  }

  const outputs: OutputFile[] = [];
  if (saveImages !== "None" && kind === "pdf") {
    segments = withImages(segments, bytes, ctx.params.password, pages.map((p) => p.index), opts.area, saveImages, ctx.workDir, outputs);
  }

  const csv = toCsv(segmentRows(segments));
  const name = csvName(ctx.params.name, source.name);
  const file = path.join(ctx.workDir, "result.csv");
  writeFileSync(file, csv, "utf8");
  ctx.log(`${pages.length} page(s), ${ocrCount} OCRed, ${segments.filter((s) => s.kind === "table").length} table(s)`);
  return {
    outputs: [{ path: file, name, contentType: "text/csv" }, ...outputs],
    inlineText: csv,
    pageCount: pages.length,
  };
};

export function csvName(requested: string | undefined, sourceName: string): string {
  const base = (requested ?? "").trim() || `${path.basename(sourceName || "result", path.extname(sourceName || "")) || "result"}.csv`;
  return /\.csv$/i.test(base) ? base : `${base}.csv`;
}

/**
 * SaveImages: each image of the selected pages becomes a one-cell row at its place in the
 * reading order, holding a data: URI (Embed) or the name of an extra output file (OuterFile).
 */
function withImages(
  segments: Segment[],
  bytes: Uint8Array,
  password: string | undefined,
  pageIndices: number[],
  area: { x: number; y: number; width: number; height: number } | undefined,
  mode: "OuterFile" | "Embed",
  workDir: string,
  outputs: OutputFile[],
): Segment[] {
  const doc = openPdf(bytes, password);
  try {
    const byPage = new Map<number, Segment[]>();
    for (const s of segments) {
      const page = s.kind === "table" ? s.table.page : s.page;
      const list = byPage.get(page) ?? [];
      list.push(s);
      byPage.set(page, list);
    }
    const out: Segment[] = [];
    for (const index of pageIndices) {
      const own = byPage.get(index) ?? [];
      const images = extractPageImages(doc, index).filter(
        (im) => !area || (im.x0 < area.x + area.width && im.x1 > area.x && im.y0 < area.y + area.height && im.y1 > area.y),
      );
      const imageSegs: Segment[] = images.map((im, n) => {
        let cell: string;
        if (mode === "Embed") cell = `data:image/png;base64,${im.png.toString("base64")}`;
        else {
          const fileName = `image-page${index}-${n + 1}.png`;
          const file = path.join(workDir, fileName);
          writeFileSync(file, im.png);
          outputs.push({ path: file, name: fileName, contentType: "image/png" });
          cell = fileName;
        }
        return { kind: "text", page: index, x0: im.x0, y0: im.y0, y1: im.y1, cells: [cell] };
      });
      const top = (s: Segment) => (s.kind === "table" ? s.table.y0 : s.y0);
      out.push(...[...own, ...imageSegs].sort((a, b) => top(a) - top(b)));
    }
    // Segments of pages not in the list (none expected) keep their place at the end.
    for (const [page, list] of byPage) if (!pageIndices.includes(page)) out.push(...list);
    return out;
  } finally {
    doc.destroy();
  }
}
