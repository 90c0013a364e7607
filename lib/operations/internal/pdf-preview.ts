import "server-only";
import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { QuireError } from "@/lib/core/errors";
import { openPdf, loadPdfPage } from "@/lib/engine/pdf/open-pdf";
import { renderPage } from "@/lib/engine/pdf/render-page";
import { checkPdfWork } from "@/lib/engine/pdf/work-budget";
import type { Runner } from "@/lib/operations/runner-types";

/** What the dashboard's PDF preview asks for: the page sizes, or one page as PNG. */
export type PdfPreviewParams = { mode: "info"; password?: string } | { mode: "page"; page: number; dpi: number; password?: string };

const MAX_INFO_PAGES = 500;

/**
 * The dashboard's PDF preview, run in the sandbox like every other document task (an internal
 * task, not a public operation): a PDF whose content inflates to gigabytes costs a sandboxed
 * child its time or memory cap, never the web process's event loop.
 */
export const run: Runner<PdfPreviewParams> = async (ctx) => {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of the PDF to preview");
  const doc = openPdf(await readFile(source.path), ctx.params.password);
  try {
    // A bomb (a content stream inflating to gigabytes) is refused in a moment, before drawing.
    await checkPdfWork(doc);
    const count = doc.countPages();
    if (ctx.params.mode === "info") {
      const pages: { width: number; height: number }[] = [];
      for (let i = 0; i < Math.min(count, MAX_INFO_PAGES); i++) {
        const p = loadPdfPage(doc, i);
        const [x0, y0, x1, y1] = p.getBounds();
        pages.push({ width: x1 - x0, height: y1 - y0 });
        p.destroy();
      }
      return { fields: { pageCount: count, pages }, pageCount: count };
    }
    const r = renderPage(doc, ctx.params.page, { dpi: ctx.params.dpi });
    const file = path.join(ctx.workDir, "preview.png");
    writeFileSync(file, r.png);
    return { outputs: [{ path: file, name: "preview.png", contentType: "image/png" }], pageCount: count };
  } finally {
    doc.destroy();
  }
};
