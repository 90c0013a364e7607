import "server-only";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { renderUrlToPdf } from "@/lib/engine/browser/render-url-to-pdf";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

/** Prints the page at `url` through the browser pool; pageCount is the PDF's page count. */
export const run: Runner<z.infer<typeof operation.params>> = async (ctx) => {
  const p = ctx.params;
  const result = await renderUrlToPdf({
    url: p.url,
    margins: p.margins,
    paperSize: p.paperSize,
    orientation: p.orientation,
    printBackground: p.printBackground,
    mediaType: p.mediaType,
    doNotWaitFullLoad: p.DoNotWaitFullLoad,
    header: p.header,
    footer: p.footer,
    customScript: p.profiles?.CustomScript,
    log: ctx.log,
  });
  const file = path.join(ctx.workDir, "result.pdf");
  await writeFile(file, result.pdf);
  return {
    outputs: [{ path: file, name: pdfName(p.name), contentType: "application/pdf" }],
    pageCount: countPages(result.pdf),
  };
};

function countPages(pdf: Uint8Array): number {
  const doc = openPdf(pdf);
  try {
    return doc.countPages();
  } finally {
    doc.destroy();
  }
}

function pdfName(name: string | undefined): string {
  const n = name?.trim();
  if (!n) return "result.pdf";
  return /\.pdf$/i.test(n) ? n : `${n}.pdf`;
}
