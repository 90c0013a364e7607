import "server-only";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type * as mupdf from "mupdf";
import type { DocumentPermission } from "mupdf";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { isEncrypted, openPdfWithAccess } from "@/lib/engine/pdf/open-pdf";
import { encryptDocument } from "@/lib/engine/pdf/security";
import { pdfOutputName } from "@/lib/operations/output-name";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

type Params = z.infer<typeof operation.params>;

/** Encrypts the source with the given passwords, algorithm and permissions. */
export const run: Runner<Params> = async (ctx) => {
  const p = ctx.params;
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a PDF document.");
  if (!p.ownerPassword && !p.userPassword) {
    throw new QuireError(400, "ownerPassword: give an owner password (and a userPassword to require one for opening the PDF).");
  }
  const { doc, access } = openPdfWithAccess(await readFile(source.path), p.password);
  try {
    // Changing the security of a restricted PDF is the owner's call (as in every PDF editor).
    if (isEncrypted(doc) && access !== "owner" && !fullyPermitted(doc)) {
      throw new QuireError(443, "this PDF is already encrypted with restrictions: send its owner password in `password` to change its security.");
    }
    const algorithm = p.encryptionAlgorithm ?? "AES_256bit";
    const { bytes, ownerGenerated } = encryptDocument(doc, {
      userPassword: p.userPassword,
      ownerPassword: p.ownerPassword,
      algorithm,
      permissions: {
        print: p.allowPrintDocument ?? false,
        printHighQuality: (p.printQuality ?? "HighResolution") === "HighResolution",
        modify: p.allowModifyDocument ?? false,
        copy: p.allowContentExtraction ?? false,
        annotate: p.allowModifyAnnotations ?? false,
        fillForms: p.allowFillForms ?? false,
        accessibility: p.allowAccessibilitySupport ?? false,
        assemble: p.allowAssemblyDocument ?? false,
      },
    });
    const file = path.join(ctx.workDir, "result.pdf");
    await writeFile(file, bytes);
    const notes = [`Encrypted with ${algorithm}.`];
    if (ownerGenerated) notes.push("No ownerPassword was given: a random one was set, so the restrictions cannot be lifted.");
    if (p.ownerPassword && p.ownerPassword === p.userPassword) {
      notes.push("The user password equals the owner password: whoever opens the PDF has every permission.");
    }
    return {
      outputs: [{ path: file, name: pdfOutputName(p.name), contentType: "application/pdf" }],
      pageCount: doc.countPages(),
      message: notes.join(" "),
    };
  } finally {
    doc.destroy();
  }
};

const ALL: DocumentPermission[] = ["print", "copy", "edit", "annotate", "form", "accessibility", "assemble", "print-hq"];

function fullyPermitted(doc: mupdf.PDFDocument): boolean {
  return ALL.every((perm) => doc.hasPermission(perm));
}
