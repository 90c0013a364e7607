import "server-only";
import { open, readFile } from "node:fs/promises";
import { QuireError, isQuireError } from "@/lib/core/errors";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { checkPdfWork, workLimitsFromEnv } from "@/lib/engine/pdf/work-budget";
import { sniffImageFormat } from "@/lib/engine/images/sniff-image";
import sharp from "sharp";
import type { Runner } from "@/lib/operations/runner-types";

export interface WorkBudgetParams {
  password?: string;
  /** merge's passwords, one per input. */
  passwords?: string[];
  /** When the sources are a slice of a job's (measured in parts): the index of the first, and how many the job has. */
  first?: number;
  of?: number;
}

/**
 * Measures each PDF source before the operation runs (in the sandbox, like all document work):
 * pages, inflated content and image sizes against MAX_PAGES, WORK_MAX_INFLATED_MB and
 * IMAGE_MAX_PIXELS (413 at once when one is passed), and each image's pages from its header
 * (the frames of a TIFF, else one) without decoding it. Answers `fields.pages`, one entry per
 * source: its page count, or null when that is only known after the work (a word-processor
 * file, an e-mail, a sheet) or the file cannot be read here (the operation then reports why).
 */
export const run: Runner<WorkBudgetParams> = async (ctx) => {
  const limits = workLimitsFromEnv();
  const pages: Array<number | null> = [];
  for (const [i, source] of ctx.sources.entries()) {
    const head = await headOf(source.path);
    if (!head.includes("%PDF-")) {
      pages.push(await imagePages(source.path, head));
      continue;
    }
    const bytes = await readFile(source.path);
    let doc;
    try {
      doc = openPdf(bytes, ctx.params.passwords?.[(ctx.params.first ?? 0) + i] ?? ctx.params.password);
    } catch (e) {
      if (isQuireError(e) && e.status !== 500) {
        pages.push(null);
        continue;
      }
      throw e;
    }
    try {
      const n = (ctx.params.first ?? 0) + i;
      const label = (ctx.params.of ?? ctx.sources.length) > 1 ? `file #${n + 1} (${source.name})` : "the PDF";
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

/** The first KiB of a file (a %PDF- header may follow some junk; an image's magic is at 0). */
async function headOf(file: string): Promise<Buffer> {
  const fh = await open(file, "r");
  try {
    const head = Buffer.alloc(1024);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/**
 * Pages an image becomes, from its header only: a TIFF's pages (IFDs), one for any other
 * image (GIF and WebP: their first frame); null when it is no image or its header is damaged.
 */
async function imagePages(file: string, head: Buffer): Promise<number | null> {
  const format = sniffImageFormat(head);
  if (!format) return null;
  if (format !== "tiff") return 1;
  try {
    const meta = await sharp(file, { limitInputPixels: false }).metadata();
    return Math.max(1, meta.pages ?? 1);
  } catch {
    return null;
  }
}
