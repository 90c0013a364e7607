import { z } from "zod";
import { common, encryptionProfileKeys, meta, profileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/pdf/convert/from/doc — a Word (.doc, .docx), RTF or OpenDocument text (.odt) file as
 * PDF, by LibreOffice in a sandbox without network or macros (docs/convert.md).
 * Cost: 1 per call + 1 per output page.
 */
export const operation = defineOperation({
  id: "pdf-convert-from-doc",
  path: "/v1/pdf/convert/from/doc",
  title: "Word document to PDF",
  summary: "Converts a Word (.doc, .docx), RTF or OpenDocument text (.odt) file to PDF with LibreOffice.",
  category: "convert",
  params: z.object({
    url: meta(z.string().min(1, "url: give the URL of a .doc, .docx, .rtf or .odt file"), {
      label: "Document URL",
      help: "The document to convert: .doc, .docx, .rtf or .odt (the file's content decides, not its name).",
      widget: "url",
      example: "https://example.com/letter.docx",
    }),
    name: common.name,
    expiration: common.expiration,
    async: common.async,
    callback: common.callback,
    httpusername: common.httpusername,
    httppassword: common.httppassword,
    profiles: profiles({ outputDataFormat: profileKeys.outputDataFormat, ...encryptionProfileKeys }),
  }),
  input: "office",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.pdf", contentType: "application/pdf" },
  response: z.object({
    url: z.string().describe("URL of the PDF."),
  }),
});
