import { z } from "zod";
import { common, encryptionProfileKeys, meta, profileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/email/extract-attachments — the attachments of an e-mail file (.eml or Outlook .msg)
 * as files: `urls`, one per attachment, with their own names. Cost: 1 per call.
 */
export const operation = defineOperation({
  id: "email-extract-attachments",
  path: "/v1/email/extract-attachments",
  title: "Extract e-mail attachments",
  summary: "Saves every attachment of an .eml or .msg file and answers their links.",
  category: "email",
  params: z.object({
    url: common.url,
    inline: meta(z.boolean().optional(), {
      label: "Inline result",
      help: "Accepted for compatibility; attachments are files, so the answer is always their links.",
      advanced: true,
    }),
    name: common.name,
    async: common.async,
    callback: common.callback,
    httpusername: common.httpusername,
    httppassword: common.httppassword,
    expiration: common.expiration,
    profiles: profiles({ outputDataFormat: profileKeys.outputDataFormat, ...encryptionProfileKeys }),
  }),
  input: "file",
  pageBase: 0,
  cost: { perCall: 1, perPage: 0 },
  resultFile: { name: "attachment", contentType: "application/octet-stream", multiple: true },
  response: z.object({
    urls: z.array(z.string()).describe("One link per attachment, in the message's order (empty when it has none)."),
  }),
});
