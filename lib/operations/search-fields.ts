import { z } from "zod";
import { meta } from "@/lib/operations/fields";

/**
 * The search switches that find, split2 and the text edits share. Their wire names and defaults
 * follow the public API per endpoint (`regexSearch` on find/split2, `regex` on the text edits;
 * case-sensitive by default except split2), so the declarations take those as arguments.
 */
export function regexSearchField(subject: string) {
  return meta(z.boolean().optional(), {
    label: "Regular expression",
    help: `Take ${subject} as a regular expression (JavaScript syntax; lines of a page are joined by line breaks). Default false.`,
  });
}

export function caseSensitiveField(defaultValue: boolean) {
  return meta(z.boolean().optional(), {
    label: "Case sensitive",
    help: defaultValue
      ? "Match letter case exactly. Default true (as the public API); false finds any case."
      : "Match letter case exactly. Default false (any case).",
  });
}
