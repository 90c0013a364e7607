import "server-only";
import { readFile } from "node:fs/promises";
import type { z } from "zod";
import { getConfig } from "@/lib/core/config";
import { anyToPdf } from "@/lib/engine/convert/any-to-pdf";
import { mergeSources } from "@/lib/operations/pdf-merge/merge-sources";
import type { Runner, SourceFile } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

/** Converts each source that is not a PDF, then merges them all in the order of `url`. */
export const run: Runner<z.infer<typeof operation.params>> = (ctx) =>
  mergeSources(ctx, async (source) =>
    anyToPdf({ bytes: await readFile(source.path), name: source.name, contentType: source.contentType, pageUrl: webAddress(source) }, { log: ctx.log }),
  );

/**
 * The address to print an HTML source from: its own URL when it came from the web (relative
 * links then resolve as for a visitor); not for Quire's own uploads, printed as files.
 */
function webAddress(source: SourceFile): string | undefined {
  try {
    const u = new URL(source.url);
    if (u.protocol !== "http:" && u.protocol !== "https:") return undefined;
    return u.origin === new URL(getConfig().publicUrl).origin ? undefined : source.url;
  } catch {
    return undefined;
  }
}
