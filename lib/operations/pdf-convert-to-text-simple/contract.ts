import { z } from "zod";
import { common, encryptionProfileKeys, meta, profileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/pdf/convert/to/text-simple — the text layer of a PDF in reading order (text columns
 * one after the other), one line per visual line of a column; no OCR. docs/convert.md
 * ("PDF → text"). Cost: 1 credit per call plus 1 per processed page.
 */
export const operation = defineOperation({
  id: "pdf-convert-to-text-simple",
  path: "/v1/pdf/convert/to/text-simple",
  title: "PDF to text (simple)",
  summary: "The text layer of a PDF in reading order: columns read one after the other, no layout, no OCR.",
  category: "convert",
  params: z.object({
    url: common.url,
    pages: common.pages0,
    lineEnding: meta(z.enum(["CRLF", "LF", "CR"]).optional(), {
      label: "Line ending",
      help: "CRLF (default, Windows), LF (Unix) or CR.",
      advanced: true,
    }),
    inline: common.inline,
    password: common.password,
    async: common.async,
    name: common.name,
    expiration: common.expiration,
    callback: common.callback,
    httpusername: common.httpusername,
    httppassword: common.httppassword,
    profiles: profiles({
      outputDataFormat: profileKeys.outputDataFormat,
      ...encryptionProfileKeys,
    }),
  }),
  input: "pdf",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.txt", contentType: "text/plain" },
  response: z.object({
    url: z.string().optional().describe("URL of the text file (without inline)."),
    body: z.string().optional().describe("The text (inline: true)."),
  }),
});
