import { z } from "zod";
import { common, encryptionProfileKeys, meta, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

export const decodedEmail = z.object({
  from: z.string(),
  to: z.string(),
  cc: z.string(),
  bcc: z.string(),
  replyTo: z.string(),
  subject: z.string(),
  date: z.string().describe("ISO 8601, or empty when the message has no date."),
  messageId: z.string(),
  bodyText: z.string(),
  bodyHtml: z.string(),
  attachments: z
    .array(z.object({ name: z.string(), contentType: z.string(), size: z.number().int(), contentId: z.string() }))
    .describe("The message's attachments (their bytes: /v1/email/extract-attachments)."),
});

/**
 * POST /v1/email/decode — the parts of an e-mail file (.eml or Outlook .msg): addresses, subject,
 * date, text and HTML bodies, the list of attachments. Answers them in `body`; without `inline`
 * also `url`, a JSON file of the same. Cost: 1 per call.
 */
export const operation = defineOperation({
  id: "email-decode",
  path: "/v1/email/decode",
  title: "Decode e-mail",
  summary: "Reads an .eml or .msg file: sender, recipients, subject, date, text and HTML bodies, attachments.",
  category: "email",
  params: z.object({
    url: common.url,
    inline: meta(z.boolean().optional(), { label: "Inline result", help: "Answer only `body`, without a link to a JSON file of it." }),
    name: common.name,
    async: common.async,
    callback: common.callback,
    httpusername: common.httpusername,
    httppassword: common.httppassword,
    expiration: common.expiration,
    profiles: profiles({ ...encryptionProfileKeys }),
  }),
  input: "file",
  pageBase: 0,
  cost: { perCall: 1, perPage: 0 },
  resultFile: { name: "email.json", contentType: "application/json" },
  response: z.object({
    body: decodedEmail.describe("The decoded message."),
    url: z.string().optional().describe("Link to the same as a JSON file (absent with inline: true)."),
  }),
});
