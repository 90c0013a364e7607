import "server-only";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { QuireError, isQuireError } from "@/lib/core/errors";
import { PdfMerger } from "@/lib/engine/pdf/merge-pdfs";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { pdfOutputName } from "@/lib/operations/output-name";
import type { RunContext, RunResult, SourceFile } from "@/lib/operations/runner-types";
import type { mergeParams } from "./contract";

type MergeParams = z.infer<ReturnType<typeof mergeParams>>;

/** How one source becomes PDF bytes: as it is (merge) or converted first (merge2). */
export type ToPdf = (source: SourceFile, label: string) => Promise<Uint8Array>;

/**
 * The runner of both merges: each source in turn becomes a PDF, is opened with its password,
 * appended and closed, so one input is in memory at a time. Every failure names its input
 * ("url #3 (name.pdf): ..."). pageCount is the merged PDF's page count.
 */
export async function mergeSources(ctx: RunContext<MergeParams>, toPdf: ToPdf): Promise<RunResult> {
  const { sources, params } = ctx;
  if (sources.length === 0) throw new QuireError(400, "url: give the URLs of the files to merge, separated by commas.");
  const passwords = params.passwords;
  if (passwords && passwords.length !== sources.length) {
    throw new QuireError(
      400,
      `passwords: ${passwords.length} password(s) for ${sources.length} URL(s); give one per URL of url, in order ("" for an input without one).`,
    );
  }
  const merger = new PdfMerger({
    renameFields: params.profiles?.RenameMatchingFieldsDuringMerge ?? true,
    generateBookmarks: params.profiles?.GenerateBookmarks ?? false,
  });
  try {
    for (const [i, source] of sources.entries()) {
      const label = `url #${i + 1} (${source.name})`;
      const own = passwords?.[i] || undefined;
      const password = own ?? params.password;
      try {
        const bytes = await toPdf(source, label);
        const doc = openPdf(bytes, password);
        try {
          if (!doc.hasPermission("assemble")) {
            throw new QuireError(
              443,
              `its permissions forbid taking its pages into another document (assemble): send its owner password in ${own ? `passwords[${i}]` : "`password` or `passwords`"}.`,
            );
          }
          merger.add(doc, source.name);
        } finally {
          doc.destroy();
        }
      } catch (e) {
        throw labelled(e, label, i, password !== undefined && password !== "");
      }
      ctx.log(`merge: ${label} added, ${merger.pageCount} page(s) so far`);
    }
    const file = path.join(ctx.workDir, "result.pdf");
    await writeFile(file, merger.finish());
    const renamed = merger.renamedFields;
    return {
      outputs: [{ path: file, name: pdfOutputName(params.name), contentType: "application/pdf" }],
      pageCount: merger.pageCount,
      ...(renamed.length > 0
        ? { message: `Renamed ${renamed.length} form field(s) whose names an earlier input used: ${renamed.slice(0, 10).map((r) => `${r.from} → ${r.to}`).join(", ")}${renamed.length > 10 ? ", ..." : ""}.` }
        : {}),
    };
  } finally {
    merger.destroy();
  }
}

/** The error with the input it concerns in front; a password error says where the password goes. */
function labelled(e: unknown, label: string, index: number, hadPassword: boolean): unknown {
  if (!isQuireError(e)) return e;
  if (e.status === 441) {
    return new QuireError(
      441,
      hadPassword
        ? `${label}: wrong password: the password given for this input does not open it; send the right one in \`passwords[${index}]\` (or \`password\`).`
        : `${label}: this PDF is encrypted: send its password in \`password\`, or in \`passwords[${index}]\` for this input alone.`,
    );
  }
  return new QuireError(e.status, `${label}: ${e.message.replace(/^url: /, "")}`);
}
