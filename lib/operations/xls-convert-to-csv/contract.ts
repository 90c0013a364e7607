import { z } from "zod";
import { defineOperation } from "@/lib/operations/types";
import { sheetParams } from "@/lib/operations/sheet-params";

/**
 * POST /v1/xls/convert/to/csv — one worksheet of an .xls, .xlsx, .ods or .csv file as CSV, cells
 * formatted as the sheet shows them. `inline: true` answers with the CSV text in `body`.
 * Cost: 1 per call + 1 for the sheet.
 */
export const operation = defineOperation({
  id: "xls-convert-to-csv",
  path: "/v1/xls/convert/to/csv",
  title: "Spreadsheet to CSV",
  summary: "Converts one worksheet of an Excel (.xls, .xlsx), OpenDocument (.ods) or CSV file to CSV.",
  category: "convert",
  params: z.object({
    ...sheetParams,
  }),
  input: "sheet",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.csv", contentType: "text/csv" },
  response: z.object({
    url: z.string().optional().describe("URL of the CSV file (without inline)."),
    body: z.string().optional().describe("The CSV text, when inline is true."),
  }),
});
