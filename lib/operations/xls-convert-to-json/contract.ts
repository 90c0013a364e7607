import { z } from "zod";
import { defineOperation } from "@/lib/operations/types";
import { sheetParams } from "@/lib/operations/sheet-params";

/**
 * POST /v1/xls/convert/to/json — one worksheet of an .xls, .xlsx, .ods or .csv file as JSON, cells
 * as the sheet shows them (docs/convert.md). `inline: true` answers with the JSON text in `body`.
 * Cost: 1 per call + 1 for the sheet.
 */
export const operation = defineOperation({
  id: "xls-convert-to-json",
  path: "/v1/xls/convert/to/json",
  title: "Spreadsheet to JSON",
  summary: "Converts one worksheet of an Excel, OpenDocument or CSV file to JSON: one object per row, keyed by the first row.",
  category: "convert",
  params: z.object({
    ...sheetParams,
  }),
  input: "sheet",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.json", contentType: "application/json" },
  response: z.object({
    url: z.string().optional().describe("URL of the JSON file (without inline)."),
    body: z.string().optional().describe("The JSON text, when inline is true."),
  }),
});
