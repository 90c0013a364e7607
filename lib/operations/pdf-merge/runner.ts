import "server-only";
import { readFile } from "node:fs/promises";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { detectKind } from "@/lib/engine/convert/detect-kind";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";
import { mergeSources } from "./merge-sources";

/** Merges the downloaded PDFs in the order of `url`; other documents are pointed to merge2. */
export const run: Runner<z.infer<typeof operation.params>> = (ctx) =>
  mergeSources(ctx, async (source) => {
    const bytes = await readFile(source.path);
    const kind = detectKind({ bytes, name: source.name, contentType: source.contentType });
    if (kind !== "pdf" && kind !== "unknown") {
      throw new QuireError(
        442,
        `this is ${kind === "image" ? "an image" : `a ${kind === "sheet" ? "spreadsheet" : kind === "html" ? "web page" : kind} file`}, not a PDF: /v1/pdf/merge takes PDFs only; /v1/pdf/merge2 converts images, spreadsheets, web pages and text to PDF first.`,
      );
    }
    return bytes;
  });
