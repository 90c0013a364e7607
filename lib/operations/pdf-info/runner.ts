import "server-only";
import { readFile } from "node:fs/promises";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { readInfo } from "@/lib/engine/pdf/read-info";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

/** Answers `info` (lib/engine/pdf/read-info.ts documents every field). */
export const run: Runner<z.infer<typeof operation.params>> = async (ctx) => {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a PDF document.");
  const doc = openPdf(await readFile(source.path), ctx.params.password);
  try {
    const info = readInfo(doc);
    return { fields: { info }, pageCount: info.PageCount };
  } finally {
    doc.destroy();
  }
};
