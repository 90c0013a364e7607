import "server-only";
import MsgReaderModule from "@kenjiuno/msgreader";
import { simpleParser, type AddressObject, type EmailAddress } from "mailparser";
import { QuireError } from "@/lib/core/errors";

/**
 * An e-mail message read from an .eml file (RFC 5322 / MIME, by mailparser) or an Outlook .msg
 * file (a compound file of MAPI properties, by @kenjiuno/msgreader), in one shape.
 */
export interface ParsedEmail {
  format: "eml" | "msg";
  from: string;
  to: string;
  cc: string;
  bcc: string;
  replyTo: string;
  subject: string;
  /** ISO 8601, or "" when the message carries no date. */
  date: string;
  messageId: string;
  bodyText: string;
  bodyHtml: string;
  attachments: EmailAttachment[];
}

export interface EmailAttachment {
  name: string;
  contentType: string;
  content: Buffer;
  /** Content-ID of an inline part (an image the HTML body shows), else "". */
  contentId: string;
}

// A CommonJS module with `exports.default`: bundlers hand over the class, Node's ESM loader the exports object.
const MsgReader = ((MsgReaderModule as unknown as { default?: typeof MsgReaderModule }).default ?? MsgReaderModule) as typeof MsgReaderModule;
type MsgReader = MsgReaderModule;

const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** Whether the bytes are an Outlook .msg (an OLE compound file) rather than MIME text. */
export function isMsgFile(bytes: Buffer): boolean {
  return bytes.subarray(0, 8).equals(OLE_MAGIC);
}

/** Reads an .eml or .msg; 415 when the bytes are neither. */
export async function parseEmail(bytes: Buffer): Promise<ParsedEmail> {
  if (bytes.length === 0) throw new QuireError(415, "url: the file is empty; send an e-mail message (.eml or .msg).");
  return isMsgFile(bytes) ? parseMsg(bytes) : parseEml(bytes);
}

async function parseEml(bytes: Buffer): Promise<ParsedEmail> {
  // A MIME message starts with header lines ("Name: value"); anything else is not one.
  const head = bytes.subarray(0, 2048).toString("latin1").replace(/^\uFEFF/, "");
  if (!/^[\x21-\x39\x3b-\x7e]+:[^\r\n]*\r?\n/.test(head)) {
    throw new QuireError(415, "url: the file is not an e-mail message: send an .eml (MIME) or Outlook .msg file.");
  }
  const m = await simpleParser(bytes, { skipImageLinks: true, maxHtmlLengthToParse: 20 * 1024 * 1024 });
  // "Name <address>" without the quotes mailparser's text form adds (groups flattened).
  const one = (e: EmailAddress): string[] =>
    e.group ? e.group.flatMap(one) : [e.name && e.address ? `${e.name} <${e.address}>` : (e.address ?? e.name ?? "")];
  const addr = (a: AddressObject | AddressObject[] | undefined) =>
    a === undefined ? "" : (Array.isArray(a) ? a : [a]).flatMap((x) => x.value.flatMap(one)).filter(Boolean).join(", ");
  return {
    format: "eml",
    from: addr(m.from),
    to: addr(m.to),
    cc: addr(m.cc),
    bcc: addr(m.bcc),
    replyTo: addr(m.replyTo),
    subject: m.subject ?? "",
    date: m.date && !Number.isNaN(m.date.getTime()) ? m.date.toISOString() : "",
    messageId: m.messageId ?? "",
    bodyText: m.text ?? "",
    bodyHtml: typeof m.html === "string" ? m.html : "",
    attachments: m.attachments.map((a, i) => ({
      name: a.filename || `attachment-${i + 1}${extensionOf(a.contentType)}`,
      contentType: a.contentType || "application/octet-stream",
      content: a.content,
      contentId: a.cid ?? "",
    })),
  };
}

function parseMsg(bytes: Buffer): ParsedEmail {
  let reader: MsgReader;
  let data: ReturnType<MsgReader["getFileData"]>;
  try {
    reader = new MsgReader(new Uint8Array(bytes).buffer);
    data = reader.getFileData();
  } catch (e) {
    throw new QuireError(442, `url: the Outlook .msg file is damaged (${(e as Error).message}).`);
  }
  if (data.error) throw new QuireError(442, `url: the Outlook .msg file cannot be read (${data.error}).`);
  const person = (name?: string, email?: string) =>
    name && email && name !== email ? `${name} <${email}>` : (email ?? name ?? "");
  const recipients = (kind: "to" | "cc" | "bcc") =>
    (data.recipients ?? [])
      .filter((r) => (r.recipType ?? "to") === kind)
      .map((r) => person(r.name, r.smtpAddress || r.email))
      .join(", ");
  const html = data.bodyHtml ?? (data.html ? Buffer.from(data.html).toString("utf8") : "");
  const date = data.messageDeliveryTime || data.clientSubmitTime || data.creationTime || "";
  const parsedDate = date ? new Date(date) : undefined;
  return {
    format: "msg",
    from: person(data.senderName, data.senderSmtpAddress || data.senderEmail),
    to: recipients("to"),
    cc: recipients("cc"),
    bcc: recipients("bcc"),
    replyTo: "",
    subject: data.subject ?? "",
    date: parsedDate && !Number.isNaN(parsedDate.getTime()) ? parsedDate.toISOString() : "",
    messageId: data.messageId ?? "",
    bodyText: data.body ?? "",
    bodyHtml: html,
    attachments: (data.attachments ?? []).map((a, i) => {
      const got = reader.getAttachment(a);
      return {
        name: got.fileName || a.fileName || `attachment-${i + 1}`,
        contentType: a.attachMimeTag || "application/octet-stream",
        content: Buffer.from(got.content),
        contentId: a.pidContentId ?? "",
      };
    }),
  };
}

function extensionOf(contentType: string | undefined): string {
  const map: Record<string, string> = { "application/pdf": ".pdf", "image/png": ".png", "image/jpeg": ".jpg", "text/plain": ".txt", "message/rfc822": ".eml" };
  return map[(contentType ?? "").toLowerCase()] ?? ".bin";
}
