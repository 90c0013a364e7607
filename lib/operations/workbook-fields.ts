import { z } from "zod";
import { common, encryptionProfileKeys, meta, ocrProfileKeys, profileKeys, profiles } from "@/lib/operations/fields";
import { extractionFields, tableProfileKeys } from "@/lib/operations/extraction-fields";

/** Request fields of PDF → xlsx/xls (universal; docs/convert.md "PDF → Excel"). */
export const workbookParams = z.object({
  url: common.url,
  pages: common.pages0,
  ...extractionFields,
  password: common.password,
  async: common.async,
  name: common.name,
  expiration: common.expiration,
  callback: common.callback,
  httpusername: common.httpusername,
  httppassword: common.httppassword,
  profiles: profiles({
    ...ocrProfileKeys,
    ...tableProfileKeys,
    Worksheets: meta(z.enum(["PerPage", "PerTable", "Single"]).optional(), {
      label: "Worksheets",
      help: "PerPage (default): one sheet per page, tables and text in reading order. PerTable: each detected table on its own sheet (text outside tables left out; per page when no table is found). Single: everything on one sheet.",
      advanced: true,
    }),
    outputDataFormat: profileKeys.outputDataFormat,
    ...encryptionProfileKeys,
  }),
});

export const workbookResponse = z.object({
  url: z.string().optional().describe("URL of the spreadsheet file."),
});
