import { defineOperation } from "@/lib/operations/types";
import { workbookParams, workbookResponse } from "@/lib/operations/workbook-fields";

/**
 * POST /v1/pdf/convert/to/xls — tables and text of a PDF, scan or image as an Excel 97–2003 (xls) workbook:
 * the analysis of PDF → CSV, numbers and dates stored as such, merged cells kept, one sheet per
 * page (or per table). docs/convert.md ("PDF → Excel"). Cost: 1 credit per call plus 1 per
 * processed page.
 */
export const operation = defineOperation({
  id: "pdf-convert-to-xls",
  path: "/v1/pdf/convert/to/xls",
  title: "PDF to Excel 97–2003 (xls)",
  summary: "Tables and text of a PDF, scan or image as a spreadsheet: numbers as numbers, dates as dates, merged cells kept.",
  category: "convert",
  params: workbookParams,
  input: "document",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.xls", contentType: "application/vnd.ms-excel" },
  response: workbookResponse,
});
