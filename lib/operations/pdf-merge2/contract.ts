import { z } from "zod";
import { mergeParams } from "@/lib/operations/pdf-merge/contract";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/pdf/merge2 — like merge, but each input may also be an image, a spreadsheet, an HTML
 * file or web page, or plain text: converted to PDF first, then merged in order. Cost: 1 per
 * call + 1 per page of the merged PDF.
 */
export const operation = defineOperation({
  id: "pdf-merge2",
  path: "/v1/pdf/merge2",
  title: "Merge documents",
  summary: "Converts images, spreadsheets, web pages and other documents to PDF and merges them with PDFs, in order.",
  category: "organize",
  params: mergeParams({
    label: "Document URLs",
    help: "URLs of the files to merge, separated by commas, in order: PDFs, images (PNG, JPEG, GIF, WebP, TIFF, BMP), spreadsheets (xls, xlsx, ods, csv), word-processor files (doc, docx, rtf, odt), e-mails (eml, msg), HTML files and web pages, plain text.",
    example: "https://example.com/a.pdf,https://example.com/photo.jpg,https://example.com/table.xlsx",
  }),
  input: "files",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.pdf", contentType: "application/pdf" },
  response: z.object({
    url: z.string().describe("URL of the merged PDF."),
  }),
});
