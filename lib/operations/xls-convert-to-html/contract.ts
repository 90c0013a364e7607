import { z } from "zod";
import { defineOperation } from "@/lib/operations/types";
import { sheetParams } from "@/lib/operations/sheet-params";

/**
 * POST /v1/xls/convert/to/html — one worksheet of an .xls, .xlsx, .ods or .csv file as HTML, cells
 * as the sheet shows them (docs/convert.md). `inline: true` answers with the HTML document in `body`.
 * Cost: 1 per call + 1 for the sheet.
 */
export const operation = defineOperation({
  id: "xls-convert-to-html",
  path: "/v1/xls/convert/to/html",
  title: "Spreadsheet to HTML",
  summary: "Converts one worksheet of an Excel, OpenDocument or CSV file to an HTML table (the first row as its header).",
  category: "convert",
  params: z.object({
    ...sheetParams,
  }),
  input: "sheet",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.html", contentType: "text/html" },
  response: z.object({
    url: z.string().optional().describe("URL of the HTML file (without inline)."),
    body: z.string().optional().describe("The HTML text, when inline is true."),
  }),
});
