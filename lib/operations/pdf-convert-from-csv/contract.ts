import { z } from "zod";
import { common, encryptionProfileKeys, profileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/pdf/convert/from/csv — a CSV file (or a workbook's first sheet) as a printed table, the
 * first row repeated as the header of every page. Cost: 1 per call + 1 per output page.
 */
export const operation = defineOperation({
  id: "pdf-convert-from-csv",
  path: "/v1/pdf/convert/from/csv",
  title: "CSV to PDF",
  summary: "Prints a CSV file as a table, its header row repeated on every page; wide tables in landscape.",
  category: "convert",
  params: z.object({
    url: common.url,
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
