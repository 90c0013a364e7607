import "server-only";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { sendEmail } from "@/lib/engine/email/send-email";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

type Params = z.infer<typeof operation.params>;

/** Largest total of attachments (bytes): what common SMTP servers accept in one message. */
const MAX_ATTACHMENT_BYTES = 40 * 1024 * 1024;

/** Fetches the attachments (egress guard, in the parent), then sends through the caller's server. */
export const run: Runner<Params> = async (ctx) => {
  const p = ctx.params;
  if (!p.bodyText && !p.bodyHtml && !p.url) throw new QuireError(400, "bodyText: give a text or HTML body, or files to attach in url.");
  const urls = (p.url ?? "").split(",").map((u) => u.trim()).filter(Boolean);
  if (urls.length > 50) throw new QuireError(454, "url: at most 50 attachments per message");
  const attachments = [];
  let total = 0;
  for (const [i, u] of urls.entries()) {
    const got = await ctx.fetchUrl(u).catch((e: unknown) => {
      if (e instanceof QuireError && urls.length > 1) throw new QuireError(e.status, `url #${i + 1}: ${e.message.replace(/^url: /, "")}`);
      throw e;
    });
    total += got.bytes.length;
    if (total > MAX_ATTACHMENT_BYTES) throw new QuireError(413, `url: the attachments are larger than ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB together`);
    attachments.push({ name: got.name, contentType: got.contentType || "application/octet-stream", content: got.bytes });
  }
  const sent = await sendEmail({
    server: p.smtpServer,
    port: p.smtpPort,
    username: p.smtpUsername,
    password: p.smtpPassword,
    from: p.from,
    to: p.to,
    cc: p.cc,
    bcc: p.bcc,
    replyTo: p.replyTo,
    subject: p.subject,
    text: p.bodyText,
    html: p.bodyHtml,
    attachments,
    timeoutMs: (p.timeout ?? 30) * 1000,
  });
  ctx.log(`email sent: ${sent.accepted.length} accepted, ${sent.rejected.length} rejected, ${attachments.length} attachment(s)`);
  return {
    fields: { messageId: sent.messageId, accepted: sent.accepted, rejected: sent.rejected },
    message: sent.rejected.length ? `Sent, but the server refused ${sent.rejected.join(", ")}` : "Sent",
  };
};
