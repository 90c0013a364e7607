import { z } from "zod";
import { meta } from "@/lib/operations/fields";
import { textEditFields } from "@/lib/operations/text-edit-fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/pdf/edit/replace-text-with-image — removes every occurrence of `searchString` (a
 * redaction of the content stream) and draws `replaceImage` in its box, fitted with its
 * proportions kept (left-aligned, centred vertically). Cost: 1 per call + 1 per page.
 */
export const operation = defineOperation({
  id: "pdf-edit-replace-text-with-image",
  path: "/v1/pdf/edit/replace-text-with-image",
  title: "Replace text with image",
  summary: "Replaces text in a PDF by an image (a signature, a logo) placed where the text was.",
  category: "edit",
  params: z.object({
    ...textEditFields,
    searchString: meta(z.string().min(1, "searchString: give the text to replace"), {
      label: "Search text",
      help: "Text to find (white space matches any white space), or a regular expression with regex.",
      example: "[SIGNATURE]",
    }),
    replaceImage: meta(z.string().min(1, "replaceImage: give the URL (or data: URI) of the image"), {
      label: "Image",
      help: "URL of a PNG, JPEG, WebP, GIF or SVG image, or a base64 data: URI.",
      widget: "url",
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
