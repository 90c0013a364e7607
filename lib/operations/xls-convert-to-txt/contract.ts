import { z } from "zod";
import { defineOperation } from "@/lib/operations/types";
import { sheetParams } from "@/lib/operations/sheet-params";

/**
 * POST /v1/xls/convert/to/txt — one worksheet of an .xls, .xlsx, .ods or .csv file as text, cells
 * as the sheet shows them (docs/convert.md). `inline: true` answers with the text in `body`.
 * Cost: 1 per call + 1 for the sheet.
 */
export const operation = defineOperation({
  id: "xls-convert-to-txt",
  path: "/v1/xls/convert/to/txt",
  title: "Spreadsheet to text",
  summary: "Converts one worksheet of an Excel, OpenDocument or CSV file to plain text with aligned columns.",
  category: "convert",
  params: z.object({
    ...sheetParams,
  }),
  input: "sheet",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.txt", contentType: "text/plain" },
  response: z.object({
    url: z.string().optional().describe("URL of the text file (without inline)."),
    body: z.string().optional().describe("The text text, when inline is true."),
  }),
});
