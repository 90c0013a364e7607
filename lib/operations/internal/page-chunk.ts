import "server-only";
import { readFile } from "node:fs/promises";
import { QuireError } from "@/lib/core/errors";
import { readChunk, type PageChunkParams } from "@/lib/operations/page-chunks";
import type { Runner } from "@/lib/operations/runner-types";

/**
 * A run of pages of an extraction job, read in a second sandbox child for the job's own process
 * (lib/operations/page-chunks.ts): the source is read from the job's file, not sent over IPC.
 * Pages that need OCR come back deferred, for the job's process to OCR. `fields.chunk` holds the
 * ChunkResult; nothing is stored or charged here.
 */
export const run: Runner<PageChunkParams> = async (ctx) => {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(500, "Internal error: a page chunk without its source.");
  const bytes = await readFile(source.path);
  const chunk = await readChunk(bytes, ctx.params.task, ctx.params.params, ctx.params.pageIndices, true);
  return { fields: { chunk } };
};
