import { z } from "zod";
import { meta } from "@/lib/operations/fields";
import { searchStringsField, textEditFields } from "@/lib/operations/text-edit-fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/pdf/edit/replace-text — replaces every occurrence of `searchString` by
 * `replaceString` (or each of `searchStrings` by the `replaceStrings` item at the same place).
 * The old glyphs are removed from the content stream (a redaction) and the new text is drawn
 * where they were, in a standard font of the same size, weight and colour.
 * Cost: 1 per call + 1 per page of the document.
 */
export const operation = defineOperation({
  id: "pdf-edit-replace-text",
  path: "/v1/pdf/edit/replace-text",
  title: "Replace text",
  summary: "Replaces text in a PDF: the old text is removed, the new one drawn in its place.",
  category: "edit",
  params: z.object({
    ...textEditFields,
    searchStrings: searchStringsField,
    replaceString: meta(z.string().optional(), {
      label: "Replacement",
      help: "Text drawn in place of each occurrence of searchString (empty: the text is only removed).",
      example: "[REDACTED]",
    }),
    replaceStrings: meta(z.array(z.string()).optional(), {
      label: "Replacements",
      help: "One replacement per item of searchStrings, in the same order.",
      advanced: true,
    }),
    makeUnsearchable: meta(z.boolean().optional(), {
      label: "Make unsearchable",
      help: "Also turn the edited pages into pictures, so no text can be extracted from them. Default false.",
      advanced: true,
    }),
  }),
  input: "pdf",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.pdf", contentType: "application/pdf" },
  response: z.object({
    url: z.string().describe("URL of the edited PDF."),
  }),
});
