import "server-only";
import { readFile } from "node:fs/promises";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { listFields } from "@/lib/engine/pdf/list-fields";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { readInfo } from "@/lib/engine/pdf/read-info";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

/** Answers `info` with `FieldsInfo.Fields` inside, as PDF.co clients read it. */
export const run: Runner<z.infer<typeof operation.params>> = async (ctx) => {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a PDF document.");
  const doc = openPdf(await readFile(source.path), ctx.params.password);
  try {
    const info = readInfo(doc);
    const fields = listFields(doc);
    return { fields: { info: { ...info, FieldsInfo: { Fields: fields } } }, pageCount: info.PageCount };
  } finally {
    doc.destroy();
  }
};
