import { z } from "zod";
import { common, meta } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/email/send — sends an e-mail through the caller's SMTP server (nodemailer), with the
 * files named in `url` attached (fetched through the egress guard). The SMTP server's address is
 * checked by the same egress rules as every download. Cost: 1 per call.
 */
export const operation = defineOperation({
  id: "email-send",
  path: "/v1/email/send",
  title: "Send e-mail",
  summary: "Sends an e-mail with attachments through your SMTP server.",
  category: "email",
  params: z.object({
    url: meta(z.string().optional(), {
      label: "Attachment URLs",
      help: "Comma-separated URLs of the files to attach (http/https or Quire file links). Empty: no attachment.",
      widget: "url",
    }),
    from: meta(z.string().min(1, "from: give the sender, e.g. John Doe <john@example.com>"), {
      label: "From",
      help: "Sender name and address, e.g. John Doe <john@example.com>.",
      example: "John Doe <john@example.com>",
    }),
    to: meta(z.string().min(1, "to: give at least one recipient"), {
      label: "To",
      help: "Recipients, comma-separated, e.g. Partner <partner@example.com>.",
      example: "Partner <partner@example.com>",
    }),
    cc: meta(z.string().optional(), { label: "Cc", help: "Copy recipients, comma-separated.", advanced: true }),
    bcc: meta(z.string().optional(), { label: "Bcc", help: "Blind copy recipients, comma-separated.", advanced: true }),
    replyTo: meta(z.string().optional(), { label: "Reply-To", help: "Where replies go.", advanced: true }),
    subject: meta(z.string().min(1, "subject: give the subject line"), { label: "Subject", help: "Subject line.", example: "Check attached sample pdf" }),
    bodyText: meta(z.string().optional(), { label: "Text body", help: "Plain text version of the message.", widget: "textarea" }),
    bodyHtml: meta(z.string().optional(), { label: "HTML body", help: "HTML version of the message.", widget: "textarea", advanced: true }),
    smtpServer: meta(z.string().min(1, "smtpServer: give your SMTP server's host name, e.g. smtp.gmail.com"), {
      label: "SMTP server",
      help: "Host name of your SMTP server (it must be reachable at a public address, or be named in EGRESS_ALLOW).",
      example: "smtp.gmail.com",
    }),
    smtpPort: meta(z.number().int().min(1).max(65535).optional(), {
      label: "SMTP port",
      help: "587 (STARTTLS, default), 465 (TLS from the start) or 25.",
      example: 587,
    }),
    smtpUsername: meta(z.string().optional(), { label: "SMTP user name", help: "Login of the SMTP server." }),
    smtpPassword: meta(z.string().optional(), {
      label: "SMTP password",
      help: "Password of the SMTP server (Gmail: an app password). Never shown in job lists.",
      widget: "password",
    }),
    timeout: meta(z.number().int().min(1).max(600).optional(), {
      label: "Timeout (seconds)",
      help: "How long to wait for the SMTP server at each step (default 30); past it the call answers 408.",
      advanced: true,
    }),
    name: common.name,
    async: common.async,
    callback: common.callback,
    httpusername: common.httpusername,
    httppassword: common.httppassword,
    expiration: common.expiration,
  }),
  input: "none",
  pageBase: 0,
  cost: { perCall: 1, perPage: 0 },
  response: z.object({
    messageId: z.string().describe("Message-ID of the sent message."),
    accepted: z.array(z.string()).describe("Recipients the SMTP server accepted."),
    rejected: z.array(z.string()).describe("Recipients it refused (the message went to the others)."),
  }),
});
