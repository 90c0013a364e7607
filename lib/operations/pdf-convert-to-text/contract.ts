import { z } from "zod";
import { defineOperation } from "@/lib/operations/types";
import { structuredParams } from "@/lib/operations/structured-fields";

/**
 * POST /v1/pdf/convert/to/text — layout-preserving plain text of a PDF, a scan (OCR) or an
 * image: every visual line one text line, words at the column their position gives, pages
 * separated by a form feed. docs/convert.md ("PDF → text"). Cost: 1 credit per call plus 1
 * per processed page.
 */
export const operation = defineOperation({
  id: "pdf-convert-to-text",
  path: "/v1/pdf/convert/to/text",
  title: "PDF to text",
  summary: "Plain text of a PDF, scan or image with its layout kept (columns stay side by side), OCR for scans.",
  category: "convert",
  params: structuredParams,
  input: "document",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.txt", contentType: "text/plain" },
  response: z.object({
    url: z.string().optional().describe("URL of the text file (without inline)."),
    body: z.string().optional().describe("The text (inline: true)."),
  }),
});
