import "server-only";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { anyToPdf } from "@/lib/engine/convert/any-to-pdf";
import { emailToPdf } from "@/lib/engine/email/email-to-pdf";
import { countPdfPages, pdfName } from "@/lib/operations/pdf-output";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

/** Prints the message; attachments converted by any-to-pdf (one level deep) and embedded. */
export const run: Runner<z.infer<typeof operation.params>> = async (ctx) => {
  const p = ctx.params;
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of an .eml or .msg file.");
  const result = await emailToPdf(await readFile(source.path), {
    margins: p.margins,
    paperSize: p.paperSize,
    orientation: p.orientation,
    header: p.header,
    footer: p.footer,
    embedAttachments: p.embedAttachments,
    convertAttachments: p.convertAttachments,
    convertAttachment: (a) => anyToPdf(a, { log: ctx.log, depth: 1 }),
    log: ctx.log,
  });
  const file = path.join(ctx.workDir, "result.pdf");
  await writeFile(file, result.pdf);
  return {
    outputs: [{ path: file, name: pdfName(p.name), contentType: "application/pdf" }],
    pageCount: countPdfPages(result.pdf),
  };
};
