import "server-only";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import type { Runner } from "@/lib/operations/runner-types";
import { searchList } from "@/lib/operations/text-edit-fields";
import { runTextEdit } from "@/lib/operations/text-edit-run";
import type { operation } from "./contract";

/**
 * Pairs each search string with its replacement (searchString with replaceString, then
 * searchStrings[i] with replaceStrings[i]); more search strings than replacements → 400.
 */
export const run: Runner<z.infer<typeof operation.params>> = (ctx) => {
  const p = ctx.params;
  const searches = searchList(p);
  const replacements = [...(p.searchString ? [p.replaceString ?? ""] : []), ...(p.replaceStrings ?? [])];
  if (p.searchString && p.replaceString === undefined && !p.replaceStrings?.length) {
    throw new QuireError(400, "replaceString: give the text that replaces searchString (an empty string removes it).");
  }
  if (searches.length > replacements.length) {
    throw new QuireError(
      400,
      `replaceStrings: ${searches.length} search string(s) but ${replacements.length} replacement(s); give one replacement per search string, in the same order.`,
    );
  }
  return runTextEdit(
    ctx,
    searches.map((s, i) => ({ ...s, replace: replacements[i] })),
  );
};
