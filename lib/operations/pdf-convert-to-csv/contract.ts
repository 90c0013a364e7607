import { z } from "zod";
import { common, encryptionProfileKeys, meta, ocrProfileKeys, profileKeys, profiles } from "@/lib/operations/fields";
import { extractionFields, tableProfileKeys } from "@/lib/operations/extraction-fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/pdf/convert/to/csv — tables and text of a PDF, a scanned PDF or an image as CSV
 * (every cell quoted, rows ending CR LF). docs/extraction.md describes the analysis, the OCR
 * modes and every profile key. Cost: 1 credit per call plus 1 per processed page.
 */
export const operation = defineOperation({
  id: "pdf-convert-to-csv",
  path: "/v1/pdf/convert/to/csv",
  title: "PDF to CSV",
  summary: "Tables and text of a PDF, scan or image as CSV: columns from whitespace and ruling lines, OCR for scans.",
  category: "extract",
  params: z.object({
    url: common.url,
    pages: common.pages0,
    ...extractionFields,
    inline: common.inline,
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
      SaveVectors: meta(z.boolean().optional(), {
        label: "Save vectors",
        help: "Also read text drawn as vector outlines (OCR of the rendered page merged with the text layer), when OCRMode is not given.",
        advanced: true,
      }),
      SaveImages: meta(z.enum(["None", "OuterFile", "Embed"]).optional(), {
        label: "Save images",
        help: "None (default): images are left out. Embed: each image becomes a cell holding a data: URI. OuterFile: each image is saved as a separate output file and its cell holds the file name.",
        advanced: true,
      }),
      outputDataFormat: profileKeys.outputDataFormat,
      ...encryptionProfileKeys,
    }),
  }),
  input: "document",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.csv", contentType: "text/csv" },
  response: z.object({
    url: z.string().optional().describe("URL of the CSV file (without inline)."),
    body: z.string().optional().describe("The CSV text (inline: true)."),
  }),
});
