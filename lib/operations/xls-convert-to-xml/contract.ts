import { z } from "zod";
import { defineOperation } from "@/lib/operations/types";
import { sheetParams } from "@/lib/operations/sheet-params";

/**
 * POST /v1/xls/convert/to/xml — one worksheet of an .xls, .xlsx, .ods or .csv file as XML, cells
 * as the sheet shows them (docs/convert.md). `inline: true` answers with the XML text in `body`.
 * Cost: 1 per call + 1 for the sheet.
 */
export const operation = defineOperation({
  id: "xls-convert-to-xml",
  path: "/v1/xls/convert/to/xml",
  title: "Spreadsheet to XML",
  summary: "Converts one worksheet of an Excel, OpenDocument or CSV file to XML (rows and cells with their positions).",
  category: "convert",
  params: z.object({
    ...sheetParams,
  }),
  input: "sheet",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.xml", contentType: "application/xml" },
  response: z.object({
    url: z.string().optional().describe("URL of the XML file (without inline)."),
    body: z.string().optional().describe("The XML text, when inline is true."),
  }),
});
