import "server-only";
import type * as mupdf from "mupdf";
import { QuireError } from "@/lib/core/errors";
import { parsePages } from "@/lib/engine/pages";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { analysePage } from "@/lib/engine/tables/page-tables";
import { resolveExtraction, type ExtractionParams } from "@/lib/engine/tables/extraction-options";
import type { Segment } from "@/lib/engine/tables/types";
import { getPageTexts, sniffKind, type PageTextsOptions } from "@/lib/engine/text/page-texts";
import { layoutText } from "@/lib/engine/text/plain-text";
import { plainTextPages } from "@/lib/engine/text/quick-lines";
import type { RunContext } from "@/lib/operations/runner-types";

/**
 * Pages of one extraction job read in several sandbox children at once (RunContext.runBeside):
 * the selected pages are cut into runs of consecutive pages, the job's own process reads the
 * first run while each free child reads another (the internal task "page-chunk",
 * lib/operations/internal/page-chunk.ts), and the results are put back in page order. What a
 * child returns is already per page and final (CSV segments before tables are joined across
 * pages, layout text), so the output is the same as from one process. Pages that need OCR are
 * left to the job's own process (its OCR pool and memory plan stay as they are).
 */

/** What a run of pages is turned into: CSV segments (table analysis) or layout text. */
export type ChunkTask = "csv" | "text";

export interface ChunkPage {
  index: number;
  width: number;
  height: number;
  /** Left for the job's own process (the page needs OCR); no content. */
  deferred?: boolean;
  segments?: Segment[];
  text?: string;
}

export interface ChunkResult {
  pages: ChunkPage[];
  ocrPages: number[];
}

/** Params of the internal task "page-chunk". */
export interface PageChunkParams {
  task: ChunkTask;
  params: ExtractionParams;
  pageIndices: number[];
}

/** Fewest pages worth a run of their own in another process (its start costs a few ms). */
export const MIN_CHUNK_PAGES = 16;

/**
 * Reads `pageIndices` of the PDF for `task`; with deferOcr, pages that need OCR come back
 * `deferred`. `document`: the PDF already open (the caller destroys it), else it is opened here.
 */
export async function readChunk(
  bytes: Uint8Array,
  task: ChunkTask,
  params: ExtractionParams,
  pageIndices: number[] | undefined,
  deferOcr: boolean,
  onProgress?: PageTextsOptions["onProgress"],
  document?: mupdf.Document,
): Promise<ChunkResult> {
  const opts = resolveExtraction(params);
  const read = task === "text" && !opts.area ? plainTextPages : getPageTexts;
  const texts = await read(bytes, { ...opts.text, withRules: task === "csv" && opts.text.withRules, pageIndices, deferOcr, onProgress, document });
  const deferred = new Set(texts.deferredPages ?? []);
  const pages = texts.pages.map((p): ChunkPage => {
    const page: ChunkPage = { index: p.index, width: p.width, height: p.height };
    if (deferred.has(p.index)) page.deferred = true;
    else if (task === "csv") page.segments = analysePage(p, opts.table, opts.area);
    else page.text = layoutText([p], { area: opts.area });
    return page;
  });
  return { pages, ocrPages: texts.ocrPages };
}

/**
 * The job's pages read in runs across free sandbox children, in page order; null when the job
 * is not worth splitting (few pages, no other child, not a PDF, OCR of every page asked for),
 * and the caller reads it the usual way.
 */
export async function readChunksBeside(
  ctx: RunContext<ExtractionParams>,
  bytes: Uint8Array,
  task: ChunkTask,
): Promise<ChunkResult | null> {
  const slots = ctx.besideSlots ?? 0;
  if (slots < 1 || !ctx.runBeside || sniffKind(bytes) !== "pdf") return null;
  const opts = resolveExtraction(ctx.params);
  if (opts.text.ocrMode !== "Auto" && opts.text.ocrMode !== "Never") return null;
  // Opened once: the page count here and this process's own runs read the same document.
  const doc = openPdf(bytes, ctx.params.password);
  try {
    return await readRuns(ctx, bytes, task, doc, slots);
  } finally {
    doc.destroy();
  }
}

async function readRuns(
  ctx: RunContext<ExtractionParams>,
  bytes: Uint8Array,
  task: ChunkTask,
  doc: mupdf.Document,
  slots: number,
): Promise<ChunkResult | null> {
  const indices = selectedPages(doc, ctx.params);
  const runs = Math.min(slots + 1, Math.floor(indices.length / MIN_CHUNK_PAGES));
  if (runs < 2) return null;
  const chunks = Array.from({ length: runs }, (_, k) =>
    indices.slice(Math.round((k * indices.length) / runs), Math.round(((k + 1) * indices.length) / runs)),
  );
  // Ask first (the request leaves before this process gets busy), settle later: a failure of a
  // part must not go unhandled while this process reads its own run.
  const asked = chunks.slice(1).map((pageIndices) =>
    ctx.runBeside!("page-chunk", { task, params: ctx.params, pageIndices } satisfies PageChunkParams).then(
      (r) => ({ ok: true as const, result: r }),
      (error: unknown) => ({ ok: false as const, error }),
    ),
  );
  const results: ChunkResult[] = [await readChunk(bytes, task, ctx.params, chunks[0], true, undefined, doc)];
  let beside = 0;
  for (const [k, pending] of asked.entries()) {
    const answer = await pending;
    if (!answer.ok) throw answer.error;
    if (answer.result) {
      results.push(answer.result.fields?.chunk as ChunkResult);
      beside++;
    } else results.push(await readChunk(bytes, task, ctx.params, chunks[k + 1], true, undefined, doc));
  }
  const pages = results.flatMap((r) => r.pages);
  const ocrPages = results.flatMap((r) => r.ocrPages);
  // Pages that need OCR: read here, with the job's own OCR pool, as without the split.
  const deferred = pages.flatMap((p, n) => (p.deferred ? [n] : []));
  if (deferred.length) {
    const redo = await readChunk(bytes, task, ctx.params, deferred.map((n) => pages[n].index), false, undefined, doc);
    deferred.forEach((n, k) => (pages[n] = redo.pages[k]));
    ocrPages.push(...redo.ocrPages);
  }
  ctx.log(`${indices.length} page(s) read in ${beside + 1} process(es)`);
  return { pages, ocrPages: ocrPages.sort((a, b) => a - b) };
}

/** The 0-based pages the request selects (449 for a page past the end, as getPageTexts says it). */
function selectedPages(doc: mupdf.Document, params: ExtractionParams): number[] {
  const count = doc.countPages();
  const indices = parsePages(params.pages, count, 0);
  for (const i of indices) {
    if (!Number.isInteger(i) || i < 0 || i >= count) {
      throw new QuireError(449, `pages: page ${i} is past the last page (${count - 1}); the document has ${count} page(s).`);
    }
  }
  return indices;
}
