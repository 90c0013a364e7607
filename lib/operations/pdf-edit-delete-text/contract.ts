import { z } from "zod";
import { meta } from "@/lib/operations/fields";
import { searchStringsField, textEditFields } from "@/lib/operations/text-edit-fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/pdf/edit/delete-text — removes every occurrence of `searchString`/`searchStrings`
 * from the selected pages. The glyphs are taken out of the content stream (a redaction), not
 * covered: text extraction of the output no longer finds them, and the rest of the page stays.
 * Cost: 1 per call + 1 per page of the document.
 */
export const operation = defineOperation({
  id: "pdf-edit-delete-text",
  path: "/v1/pdf/edit/delete-text",
  title: "Delete text",
  summary: "Removes text (really, not covered) wherever it occurs in a PDF.",
  category: "edit",
  params: z.object({
    ...textEditFields,
    searchStrings: searchStringsField,
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
