import "server-only";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type * as mupdf from "mupdf";
import { QuireError } from "@/lib/core/errors";
import { savePdf } from "@/lib/engine/pdf/edit-pages";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { pdfOutputName } from "./output-name";
import type { RunContext, RunResult } from "./runner-types";

interface EditOutcome {
  message?: string;
  collectGarbage?: boolean;
  /** Pages the edit worked on (credits); unset: every page of the result. */
  pagesProcessed?: number;
}

/**
 * The shape of the page edits (delete, rotate, auto-rotate): open the source with its password,
 * check that its permissions allow changing pages, edit the open document, save it whole
 * (encryption kept as it was) as the one output. `edit` returns the answer's `message`, if any.
 */
export async function editInPlace(
  ctx: RunContext<{ password?: string; name?: string }>,
  what: string,
  edit: (doc: mupdf.PDFDocument) => Promise<EditOutcome> | EditOutcome,
): Promise<RunResult> {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a PDF document.");
  const doc = openPdf(await readFile(source.path), ctx.params.password);
  try {
    if (!doc.hasPermission("assemble")) {
      throw new QuireError(
        443,
        `this PDF's permissions forbid ${what} (assemble): send the owner password in \`password\`.`,
      );
    }
    const { message, collectGarbage = false, pagesProcessed } = await edit(doc);
    const file = path.join(ctx.workDir, "result.pdf");
    await writeFile(file, savePdf(doc, collectGarbage));
    return {
      outputs: [{ path: file, name: pdfOutputName(ctx.params.name), contentType: "application/pdf" }],
      pageCount: doc.countPages(),
      ...(pagesProcessed !== undefined ? { pagesProcessed } : {}),
      ...(message ? { message } : {}),
    };
  } finally {
    doc.destroy();
  }
}
