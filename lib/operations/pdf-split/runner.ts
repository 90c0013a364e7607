import "server-only";
import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { extractPages, planSplit } from "@/lib/engine/pdf/split-pdf";
import type { OutputFile, Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

/** Writes one PDF per planned part into workDir; `pageCount` is the number of pages written out. */
export const run: Runner<z.infer<typeof operation.params>> = async (ctx) => {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a PDF document.");
  const doc = openPdf(await readFile(source.path), ctx.params.password);
  try {
    if (!doc.hasPermission("assemble")) {
      throw new QuireError(
        443,
        "this PDF's permissions forbid taking its pages apart (assemble): send the owner password in `password`.",
      );
    }
    const pageCount = doc.countPages();
    const parts = planSplit(pageCount, ctx.params.pages, ctx.params.name);
    const outputs: OutputFile[] = [];
    for (const [i, part] of parts.entries()) {
      const file = path.join(ctx.workDir, `part-${String(i + 1).padStart(5, "0")}.pdf`);
      // Synchronous on purpose: the runner owns its sandboxed process, and for hundreds of small
      // files one write syscall each beats a thread-pool round trip each (bench/pdf-core.ts).
      writeFileSync(file, extractPages(doc, part.pages));
      outputs.push({ path: file, name: part.name, contentType: "application/pdf" });
    }
    const written = new Set(parts.flatMap((p) => p.pages)).size;
    ctx.log(`split ${written} of ${pageCount} page(s) into ${outputs.length} file(s)`);
    // pageCount and credits: the pages written out (page 1 of a 4-page file is 1 page of work).
    return { outputs, multiple: true, pageCount: written };
  } finally {
    doc.destroy();
  }
};
