import "server-only";
import { open, readFile } from "node:fs/promises";
import { QuireError, isQuireError } from "@/lib/core/errors";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { checkPdfWork, workLimitsFromEnv } from "@/lib/engine/pdf/work-budget";
import type { Runner } from "@/lib/operations/runner-types";

export interface WorkBudgetParams {
  password?: string;
  /** merge's passwords, one per input. */
  passwords?: string[];
}

/**
 * Measures each PDF source before the operation runs (in the sandbox, like all document work):
 * pages, inflated content and image sizes against MAX_PAGES, WORK_MAX_INFLATED_MB and
 * IMAGE_MAX_PIXELS (413 at once when one is passed). Answers `fields.pages`, one entry per
 * source: its page count, or null when it is not a PDF or cannot be opened here (the operation
 * then reports why).
 */
export const run: Runner<WorkBudgetParams> = async (ctx) => {
  const limits = workLimitsFromEnv();
  const pages: Array<number | null> = [];
  for (const [i, source] of ctx.sources.entries()) {
    if (!(await startsLikePdf(source.path))) {
      pages.push(null);
      continue;
    }
    const bytes = await readFile(source.path);
    let doc;
    try {
      doc = openPdf(bytes, ctx.params.passwords?.[i] ?? ctx.params.password);
    } catch (e) {
      if (isQuireError(e) && e.status !== 500) {
        pages.push(null);
        continue;
      }
      throw e;
    }
    try {
      const label = ctx.sources.length > 1 ? `file #${i + 1} (${source.name})` : "the PDF";
      const m = await checkPdfWork(doc, limits, label);
      pages.push(m.pages);
    } finally {
      doc.destroy();
    }
  }
  if (pages.length !== ctx.sources.length)
    throw new QuireError(500, "Internal error: work budget incomplete.");
  return { fields: { pages } };
};

/** Whether the first KiB holds a %PDF- header (only PDFs are opened; images and sheets are not read). */
async function startsLikePdf(file: string): Promise<boolean> {
  const fh = await open(file, "r");
  try {
    const head = Buffer.alloc(1024);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead).includes("%PDF-");
  } finally {
    await fh.close();
  }
}
