import { z } from "zod";
import { common, encryptionProfileKeys, meta, profileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/xls/convert/to/pdf — a workbook (.xls, .xlsx, .ods, .csv) printed to PDF by
 * LibreOffice Calc, as its page setup says: every sheet, or the one `worksheetIndex` names;
 * `autosize` puts each sheet on one page sized to its content. Cost: 1 per call + 1 per page.
 */
export const operation = defineOperation({
  id: "xls-convert-to-pdf",
  path: "/v1/xls/convert/to/pdf",
  title: "Spreadsheet to PDF",
  summary: "Prints an Excel (.xls, .xlsx), OpenDocument (.ods) or CSV file to PDF with LibreOffice Calc.",
  category: "convert",
  params: z.object({
    url: common.url,
    worksheetIndex: meta(
      z
        .string()
        .regex(/^\s*\d+\s*$/, "worksheetIndex: give the sheet number, 1 for the first sheet")
        .optional(),
      {
        label: "Worksheet",
        help: "Number of the only sheet to print; the first sheet is 1. Empty = every sheet of the workbook.",
        example: "1",
      },
    ),
    autosize: meta(z.boolean().optional(), {
      label: "Fit each sheet on one page",
      help: "Each sheet on a single page sized to its content instead of the sheet's page setup (default false).",
    }),
    name: common.name,
    expiration: common.expiration,
    async: common.async,
    callback: common.callback,
    httpusername: common.httpusername,
    httppassword: common.httppassword,
    profiles: profiles({ outputDataFormat: profileKeys.outputDataFormat, ...encryptionProfileKeys }),
  }),
  input: "sheet",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.pdf", contentType: "application/pdf" },
  response: z.object({
    url: z.string().describe("URL of the PDF."),
  }),
});
