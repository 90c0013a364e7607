import "server-only";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { isEncrypted, openPdfWithAccess } from "@/lib/engine/pdf/open-pdf";
import { decryptDocument } from "@/lib/engine/pdf/security";
import { pdfOutputName } from "@/lib/operations/output-name";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

/** Opens the source with its password and saves it without encryption. */
export const run: Runner<z.infer<typeof operation.params>> = async (ctx) => {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a PDF document.");
  const { doc, access } = openPdfWithAccess(await readFile(source.path), ctx.params.password);
  try {
    const encrypted = isEncrypted(doc);
    const file = path.join(ctx.workDir, "result.pdf");
    await writeFile(file, decryptDocument(doc));
    ctx.log(`security/remove: ${encrypted ? `decrypted (${access} access)` : "was not encrypted"}`);
    return {
      outputs: [{ path: file, name: pdfOutputName(ctx.params.name), contentType: "application/pdf" }],
      pageCount: doc.countPages(),
      message: encrypted ? "Encryption, passwords and restrictions removed." : "The PDF was not encrypted; it is returned as it was.",
    };
  } finally {
    doc.destroy();
  }
};
