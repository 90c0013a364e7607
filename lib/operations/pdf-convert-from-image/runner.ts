import "server-only";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { imagesToPdf } from "@/lib/engine/images/images-to-pdf";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

/** Builds one PDF from the downloaded images, in the order of `url`. */
export const run: Runner<z.infer<typeof operation.params>> = async (ctx) => {
  if (ctx.sources.length === 0)
    throw new QuireError(400, "url: give one or more image URLs, separated by commas.");
  const images = [];
  for (const s of ctx.sources) images.push({ bytes: await readFile(s.path), name: s.name });
  const { pdf, pageCount } = await imagesToPdf(images, { pages: ctx.params.pages });
  const file = path.join(ctx.workDir, "result.pdf");
  await writeFile(file, pdf);
  ctx.log(`images to PDF: ${images.length} image(s), ${pageCount} page(s)`);
  return {
    outputs: [{ path: file, name: pdfName(ctx.params.name), contentType: "application/pdf" }],
    pageCount,
  };
};

function pdfName(name: string | undefined): string {
  const n = name?.trim();
  if (!n) return "result.pdf";
  return /\.pdf$/i.test(n) ? n : `${n}.pdf`;
}
