import "server-only";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { imagesToPdf } from "@/lib/engine/images/images-to-pdf";
import { getPageTexts, sniffKind } from "@/lib/engine/text/page-texts";
import { layoutText } from "@/lib/engine/text/plain-text";
import type { PageText, Word } from "@/lib/engine/text/types";
import { run as makeSearchable } from "@/lib/operations/pdf-makesearchable/runner";
import type { Runner } from "@/lib/operations/runner-types";
import { pageRangeToPages, readTextSenseOptions, textSenseBaseName, textSenseOutputTypes, type operation } from "./contract";

const round = (n: number) => Math.round(n * 100) / 100;
const box = (b: { x0: number; y0: number; x1: number; y1: number }) => [round(b.x0), round(b.y0), round(b.x1 - b.x0), round(b.y1 - b.y0)];

/** A page as TextSense JSON: its lines in reading order, each with its words, boxes and confidence. */
function pageJson(p: PageText, ocred: boolean) {
  const lines = new Map<number, Word[]>();
  for (const w of p.words) (lines.get(w.lineId) ?? lines.set(w.lineId, []).get(w.lineId)!).push(w);
  const ordered = [...lines.values()].map((ws) => {
    const b = {
      x0: Math.min(...ws.map((w) => w.x0)),
      y0: Math.min(...ws.map((w) => w.y0)),
      x1: Math.max(...ws.map((w) => w.x1)),
      y1: Math.max(...ws.map((w) => w.y1)),
    };
    return { ws: [...ws].sort((a, c) => a.x0 - c.x0), b };
  });
  ordered.sort((a, c) => a.b.y0 - c.b.y0 || a.b.x0 - c.b.x0);
  return {
    page: p.index + 1,
    width: round(p.width),
    height: round(p.height),
    ocr: ocred,
    ...(p.ocrSkew ? { deskewAngle: round(p.ocrSkew) } : {}),
    ...(p.ocrOrientation ? { orientation: p.ocrOrientation } : {}),
    lines: ordered.map(({ ws, b }) => ({
      text: ws.map((w) => w.text).join(" "),
      box: box(b),
      words: ws.map((w) => ({
        text: w.text,
        box: box(w),
        ...(w.confidence !== undefined ? { confidence: round(w.confidence / 100) } : {}),
      })),
    })),
  };
}

/**
 * TextSense OCR: the document read by OCR (pages without a text layer; pages with one keep their
 * text), stored as JSON, text or a searchable PDF. Boxes are `[x, y, width, height]` in PDF points
 * from the page's top-left corner.
 */
export const run: Runner<z.infer<typeof operation.params>> = async (ctx) => {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "inputUri: give the URL of a PDF or an image.");
  const { job } = readTextSenseOptions(ctx.params.options);
  const pages = pageRangeToPages(job.pageRange);
  const base = textSenseBaseName(ctx.params.name);
  const file = path.join(ctx.workDir, `${base}.${job.outputType}`);

  if (job.outputType === "pdf") {
    const bytes = await readFile(source.path);
    let pdfSource = source;
    if (sniffKind(bytes) === "image") {
      const { pdf } = await imagesToPdf([{ bytes, name: source.name }], {});
      const asPdf = path.join(ctx.workDir, "scan.pdf");
      await writeFile(asPdf, pdf);
      pdfSource = { ...source, path: asPdf, name: "scan.pdf", contentType: "application/pdf", size: pdf.length };
    }
    const r = await makeSearchable({
      ...ctx,
      sources: [pdfSource],
      params: { url: ctx.params.url, lang: job.lang, pages, password: ctx.params.password, name: `${base}.pdf` },
    });
    const out = r.outputs?.[0];
    if (!out) throw new QuireError(500, "the searchable PDF was not written.");
    return { ...r, outputs: [{ ...out, name: `${base}.pdf`, contentType: textSenseOutputTypes.pdf }] };
  }

  const texts = await getPageTexts(await readFile(source.path), {
    password: ctx.params.password,
    pages,
    lang: job.lang,
    ocrMode: "Auto",
    onProgress: (done, total) => {
      if (done === total || done % 10 === 0) ctx.log(`read ${done}/${total} page(s)`);
    },
  });
  if (job.outputType === "txt") {
    await writeFile(file, layoutText(texts.pages, {}));
  } else {
    const ocr = new Set(texts.ocrPages);
    const json = { pageCount: texts.pageCount, pages: texts.pages.map((p) => pageJson(p, ocr.has(p.index))) };
    await writeFile(file, JSON.stringify(json));
  }
  return {
    outputs: [{ path: file, name: `${base}.${job.outputType}`, contentType: textSenseOutputTypes[job.outputType] }],
    pageCount: texts.pageCount,
    pagesProcessed: texts.pages.length,
  };
};
