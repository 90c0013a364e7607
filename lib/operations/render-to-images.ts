import "server-only";
import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { QuireError } from "@/lib/core/errors";
import { parsePages } from "@/lib/engine/pages";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { encodeRaw, joinTiffPages, renderPageRgb, type TiffCompression } from "@/lib/engine/pdf/render-images";
import { parseArea } from "@/lib/engine/tables/extraction-options";
import type { ImageFormatId } from "@/lib/operations/image-fields";
import type { OutputFile, RunContext, RunResult } from "@/lib/operations/runner-types";

interface ImageParams {
  pages?: string;
  rect?: string;
  inline?: boolean;
  password?: string;
  name?: string;
  profiles?: { RenderingResolution?: number; JPEGQuality?: number; WebPQuality?: number; TIFFCompression?: TiffCompression };
}

const CONTENT_TYPE: Record<ImageFormatId, string> = { png: "image/png", jpg: "image/jpeg", webp: "image/webp", tiff: "image/tiff" };

/**
 * The runner of pdf-convert-to-png/-jpg/-webp/-tiff: each selected page rendered by MuPDF and
 * encoded by sharp, one file per page (`urls`) or one multi-page TIFF (`url`); with inline also
 * the base64 of each in `body`.
 */
export async function renderToImages(ctx: RunContext<ImageParams>, format: ImageFormatId): Promise<RunResult> {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a PDF.");
  const p = ctx.params;
  const dpi = p.profiles?.RenderingResolution ?? 150;
  const area = parseArea(p.rect, undefined);
  const doc = openPdf(await readFile(source.path), p.password);
  try {
    const count = doc.countPages();
    const indices = parsePages(p.pages, count, 0);
    const stem = (p.name ?? "").trim().replace(/\.[a-z0-9]{2,4}$/i, "").replace(/[/\\]/g, "_") || path.basename(source.name || "result", path.extname(source.name || "")) || "result";
    const opts = { dpi, quality: p.profiles?.JPEGQuality ?? p.profiles?.WebPQuality, tiffCompression: p.profiles?.TIFFCompression };
    const inline: string[] = [];
    const tiffPages: Buffer[] = [];
    const outputs: OutputFile[] = [];
    for (const [n, index] of indices.entries()) {
      const raw = renderPageRgb(doc, index, dpi, area);
      const bytes = await encodeRaw(raw, format, opts);
      if (format === "tiff") tiffPages.push(bytes);
      else {
        const file = path.join(ctx.workDir, `page-${n}.${format}`);
        writeFileSync(file, bytes);
        outputs.push({ path: file, name: `${stem}-page${index + 1}.${format}`, contentType: CONTENT_TYPE[format] });
        if (p.inline === true) inline.push(bytes.toString("base64"));
      }
      if ((n + 1) % 25 === 0) ctx.log(`rendered ${n + 1}/${indices.length} page(s)`);
    }
    if (format === "tiff") {
      const tiff = joinTiffPages(tiffPages);
      const file = path.join(ctx.workDir, "result.tiff");
      writeFileSync(file, tiff);
      if (p.inline === true) inline.push(tiff.toString("base64"));
      outputs.push({ path: file, name: `${stem}.tiff`, contentType: "image/tiff" });
    }
    // inline: the files are still linked (clients read either); body holds the base64 text, a
    // string for one image and a list for several.
    const fields = p.inline === true ? { body: inline.length === 1 ? inline[0] : inline } : undefined;
    return { outputs, multiple: format !== "tiff", fields, pageCount: indices.length };
  } finally {
    doc.destroy();
  }
}
