import { z } from "zod";
import { common, encryptionProfileKeys, jobFields, meta, profileKeys, profiles } from "@/lib/operations/fields";
import { caseSensitiveField, regexSearchField } from "@/lib/operations/search-fields";
import { defineOperation } from "@/lib/operations/types";

const rect = z.object({
  left: z.number(),
  top: z.number(),
  width: z.number(),
  height: z.number(),
  right: z.number(),
  bottom: z.number(),
});

/** One occurrence, as the public API answers it (a sample places an image at body[0].left/top). */
export const findMatchSchema = z.object({
  text: z.string().describe("The matched text."),
  pageIndex: z.number().int().describe("0-based page."),
  left: z.number().describe("Points from the left edge of the page as displayed."),
  top: z.number().describe("Points from the top edge of the page as displayed."),
  width: z.number(),
  height: z.number(),
  bounds: rect.describe("The same box with right and bottom."),
  elementCount: z.number().int().describe("Text lines the match covers."),
  elements: z.array(rect).describe("One box per text line the match covers."),
  fontSize: z.number().describe("Font size of the first matched character (points)."),
  fontName: z.string(),
});

/**
 * POST /v1/pdf/find — every occurrence of `searchString` (text or, with `regexSearch`, a
 * regular expression) in the text layer of the selected pages, with its page and box in points
 * from the top-left corner of the page as displayed. The matches are in `body`; without `inline`
 * they are also stored as a JSON file (`url`). Cost: 1 per call + 1 per page searched.
 */
export const operation = defineOperation({
  id: "pdf-find",
  path: "/v1/pdf/find",
  title: "Find text",
  summary: "Finds text or a regular expression in a PDF and answers each occurrence with its page and box.",
  category: "extract",
  params: z.object({
    url: common.url,
    searchString: meta(z.string().min(1, "searchString: give the text to search for"), {
      label: "Search text",
      help: "Text to find (white space matches any white space, also a line break), or a regular expression with regexSearch.",
      example: "Invoice",
    }),
    regexSearch: regexSearchField("searchString"),
    caseSensitive: caseSensitiveField(true),
    wordMatchingMode: meta(z.enum(["None", "SmartMatch", "ExactMatch"]).optional(), {
      label: "Word matching",
      help: "None (default): anywhere, also inside words. SmartMatch: not inside a word (\"Invoice\" finds \"Invoice:\", not \"Invoices\"). ExactMatch: whole white-space-separated words only.",
      advanced: true,
    }),
    pages: common.pages0,
    inline: common.inline,
    ...jobFields,
    profiles: profiles({ outputDataFormat: profileKeys.outputDataFormat, ...encryptionProfileKeys }),
  }),
  input: "pdf",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.json", contentType: "application/json" },
  response: z.object({
    body: z.array(findMatchSchema).describe("Every occurrence, in page and reading order."),
    url: z.string().optional().describe("URL of the same list as a JSON file (without inline)."),
  }),
});
