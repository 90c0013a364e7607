import "server-only";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { convertOfficeToPdf } from "@/lib/engine/office/convert-to-pdf";
import { countPdfPages, pdfName } from "@/lib/operations/pdf-output";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

/** LibreOffice converts the word-processor file; pageCount is the PDF's page count. */
export const run: Runner<z.infer<typeof operation.params>> = async (ctx) => {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a .doc, .docx, .rtf or .odt file.");
  const { pdf } = await convertOfficeToPdf(
    { bytes: await readFile(source.path), name: source.name },
    { accept: "text", workDir: ctx.workDir, log: ctx.log },
  );
  const file = path.join(ctx.workDir, "result.pdf");
  await writeFile(file, pdf);
  return {
    outputs: [{ path: file, name: pdfName(ctx.params.name), contentType: "application/pdf" }],
    pageCount: countPdfPages(pdf),
  };
};
