import { z } from "zod";
import { common, encryptionProfileKeys, meta, profileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";
import { printParams } from "@/lib/operations/print-params";

/**
 * POST /v1/pdf/convert/from/email — an .eml or Outlook .msg message printed as a page with its
 * header fields; attachments converted and appended (`convertAttachments`) and embedded as files
 * (`embedAttachments`). Cost: 1 per call + 1 per output page.
 */
export const operation = defineOperation({
  id: "pdf-convert-from-email",
  path: "/v1/pdf/convert/from/email",
  title: "E-mail to PDF",
  summary: "Prints an e-mail (.eml or Outlook .msg) with its header fields; attachments appended as pages and embedded as files.",
  category: "convert",
  params: z.object({
    url: meta(z.string().min(1, "url: give the URL of an .eml or .msg file"), {
      label: "E-mail URL",
      help: "The message to print: .eml (MIME) or Outlook .msg.",
      widget: "url",
      example: "https://example.com/message.eml",
    }),
    embedAttachments: meta(z.boolean().optional(), {
      label: "Embed attachments",
      help: "Embed the message's attachments, as sent, in the PDF as file attachments (default true).",
      default: true,
    }),
    convertAttachments: meta(z.boolean().optional(), {
      label: "Convert attachments",
      help: "Append attachments Quire can convert (PDF, images, Office documents, spreadsheets, text, e-mails) as pages after the message (default true).",
      default: true,
    }),
    margins: printParams.margins,
    paperSize: printParams.paperSize,
    orientation: printParams.orientation,
    header: printParams.header,
    footer: printParams.footer,
    name: common.name,
    expiration: common.expiration,
    async: common.async,
    callback: common.callback,
    httpusername: common.httpusername,
    httppassword: common.httppassword,
    profiles: profiles({ outputDataFormat: profileKeys.outputDataFormat, ...encryptionProfileKeys }),
  }),
  input: "email",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.pdf", contentType: "application/pdf" },
  response: z.object({
    url: z.string().describe("URL of the PDF."),
  }),
});
