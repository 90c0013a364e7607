import "server-only";
import nodemailer from "nodemailer";
import { QuireError } from "@/lib/core/errors";
import { checkUrl, type CheckUrlOptions } from "@/lib/egress";

/**
 * Sends one message through the caller's SMTP server with nodemailer. The server's name is
 * resolved once and checked by the egress guard's address rules (public unicast only, unless
 * EGRESS_ALLOW names it), and the connection is pinned to that address (TLS still checks the
 * name). A server that does not answer within `timeoutMs` → 408.
 */
export interface SendEmailOptions {
  server: string;
  port?: number;
  username?: string;
  password?: string;
  from: string;
  to: string;
  cc?: string;
  bcc?: string;
  replyTo?: string;
  subject: string;
  text?: string;
  html?: string;
  attachments: Array<{ name: string; contentType: string; content: Buffer }>;
  timeoutMs: number;
  /** Tests: the egress check's resolver and allow-list. */
  egress?: Pick<CheckUrlOptions, "lookup" | "policy">;
}

export interface SendEmailResult {
  messageId: string;
  accepted: string[];
  rejected: string[];
  response: string;
}

export async function sendEmail(o: SendEmailOptions): Promise<SendEmailResult> {
  const host = o.server.trim().replace(/^smtps?:\/\//i, "").replace(/\/.*$/, "");
  const hostOnly = host.replace(/:\d+$/, "");
  const port = o.port ?? (/:\d+$/.test(host) ? Number(host.split(":").pop()) : 587);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new QuireError(400, `smtpPort: ${port} is not a port (1–65535)`);
  const checked = await checkUrl(`http://${hostOnly.includes(":") ? `[${hostOnly}]` : hostOnly}:${port}/`, { field: "smtpServer", ...o.egress });
  const servername = checked.url.hostname.replace(/^\[|\]$/g, "");
  const transport = nodemailer.createTransport({
    host: checked.address,
    port,
    secure: port === 465,
    auth: o.username || o.password ? { user: o.username ?? "", pass: o.password ?? "" } : undefined,
    name: "quire",
    tls: { servername: servername === checked.address ? undefined : servername },
    connectionTimeout: o.timeoutMs,
    greetingTimeout: o.timeoutMs,
    socketTimeout: o.timeoutMs,
    dnsTimeout: o.timeoutMs,
  });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timeoutError(o.server, port, o.timeoutMs)), o.timeoutMs + 1000);
  });
  try {
    const info = await Promise.race([
      transport.sendMail({
        from: o.from,
        to: o.to,
        cc: o.cc || undefined,
        bcc: o.bcc || undefined,
        replyTo: o.replyTo || undefined,
        subject: o.subject,
        text: o.text || undefined,
        html: o.html || undefined,
        attachments: o.attachments.map((a) => ({ filename: a.name, contentType: a.contentType, content: a.content })),
      }),
      deadline,
    ]);
    return {
      messageId: info.messageId ?? "",
      accepted: (info.accepted ?? []).map(String),
      rejected: (info.rejected ?? []).map(String),
      response: info.response ?? "",
    };
  } catch (e) {
    throw smtpError(e, o.server, port, o.timeoutMs);
  } finally {
    clearTimeout(timer);
    transport.close();
  }
}

function timeoutError(server: string, port: number, ms: number) {
  return new QuireError(408, `smtpServer: ${server}:${port} did not answer within ${Math.round(ms / 1000)} s; check the server and port (or raise timeout).`);
}

/** nodemailer's failures as the caller's errors: timeouts 408, refused/auth/recipients 400. */
function smtpError(e: unknown, server: string, port: number, ms: number): QuireError {
  if (e instanceof QuireError) return e;
  const err = e as { code?: string; command?: string; responseCode?: number; response?: string; message?: string };
  if (err.code === "ETIMEDOUT" || err.code === "ESOCKET" && /timeout/i.test(err.message ?? "")) return timeoutError(server, port, ms);
  if (err.code === "EAUTH") return new QuireError(400, `smtpUsername/smtpPassword: the SMTP server refused the login (${(err.response ?? err.message ?? "").slice(0, 200)})`);
  if (err.code === "EENVELOPE") return new QuireError(400, `to: the SMTP server refused the recipients (${(err.response ?? err.message ?? "").slice(0, 200)})`);
  if (err.code === "ECONNREFUSED" || err.code === "ECONNECTION" || err.code === "ESOCKET" || err.code === "EDNS") {
    return new QuireError(400, `smtpServer: cannot connect to ${server}:${port} (${(err.message ?? err.code).slice(0, 200)})`);
  }
  if (err.responseCode) return new QuireError(400, `the SMTP server answered ${err.responseCode} to ${err.command ?? "the message"}: ${(err.response ?? "").slice(0, 200)}`);
  return new QuireError(500, `sending the e-mail failed: ${err.message ?? String(e)}`);
}
