import "server-only";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { iterateAttachments } from "@/lib/engine/pdf/extract-attachments";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import type { OutputFile, Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

/** Writes each embedded file into workDir under its PDF name; none → `urls: []`. */
export const run: Runner<z.infer<typeof operation.params>> = async (ctx) => {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a PDF document.");
  const doc = openPdf(await readFile(source.path), ctx.params.password);
  try {
    const outputs: OutputFile[] = [];
    for (const att of iterateAttachments(doc)) {
      const file = path.join(ctx.workDir, `attachment-${String(outputs.length + 1).padStart(5, "0")}`);
      await writeFile(file, att.bytes);
      outputs.push({ path: file, name: att.name, contentType: att.contentType });
    }
    ctx.log(`extracted ${outputs.length} attachment(s)`);
    return { outputs, multiple: true, pageCount: doc.countPages() };
  } finally {
    doc.destroy();
  }
};
