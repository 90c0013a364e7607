import "server-only";
import { simpleParser, type AddressObject } from "mailparser";
import MsgReaderModule from "@kenjiuno/msgreader";
import { QuireError } from "@/lib/core/errors";

/**
 * An e-mail (.eml RFC 5322 / MIME, or Outlook .msg) read into what a printed page shows: the
 * header fields, the HTML or text body (inline cid: images as data URIs), and the attachments.
 * .eml by mailparser, .msg by @kenjiuno/msgreader; the size is capped before either parses.
 */
export interface EmailAttachment {
  name: string;
  contentType: string;
  bytes: Buffer;
  /** Shown inside the body (a cid: image): not listed or appended separately. */
  inline: boolean;
}

export interface EmailMessage {
  format: "eml" | "msg";
  subject: string;
  from: string;
  to: string;
  cc: string;
  date: Date | undefined;
  html: string | undefined;
  text: string | undefined;
  attachments: EmailAttachment[];
}

// A CommonJS module compiled from TypeScript: under Node's ESM loader its default export is the
// whole `exports` object, under bundlers the class itself.
type MsgReaderClass = typeof MsgReaderModule;
const MsgReader: MsgReaderClass =
  ((MsgReaderModule as unknown as { default?: MsgReaderClass }).default ?? MsgReaderModule);

/** Whether the bytes are an OLE compound file (an Outlook .msg). */
function isOle(b: Buffer): boolean {
  return b.length >= 8 && b.readUInt32BE(0) === 0xd0cf11e0 && b.readUInt32BE(4) === 0xa1b11ae1;
}

export async function readEmail(bytes: Buffer, opts: { maxBytes: number }): Promise<EmailMessage> {
  if (bytes.length === 0) throw new QuireError(442, "the e-mail: the file is empty.");
  if (bytes.length > opts.maxBytes) {
    throw new QuireError(
      413,
      `the e-mail: ${Math.round(bytes.length / 1048576)} MB is more than this server converts (${Math.round(opts.maxBytes / 1048576)} MB).`,
    );
  }
  return isOle(bytes) ? readMsg(bytes) : readEml(bytes);
}

async function readEml(bytes: Buffer): Promise<EmailMessage> {
  const head = bytes.subarray(0, 4096).toString("latin1");
  if (!/^[\x21-\x39\x3b-\x7e]+:/m.test(head) || bytes.subarray(0, 8192).includes(0)) {
    throw new QuireError(415, "the e-mail: not an e-mail message (.eml with headers, or Outlook .msg).");
  }
  let mail;
  try {
    mail = await simpleParser(bytes, { skipTextToHtml: true, keepCidLinks: true, maxHtmlLengthToParse: 20 * 1024 * 1024 });
  } catch (e) {
    throw new QuireError(442, `the e-mail: it could not be read (${String((e as Error).message).slice(0, 160)}).`);
  }
  let html = typeof mail.html === "string" ? mail.html : undefined;
  const attachments: EmailAttachment[] = mail.attachments.map((a) => {
    const contentType = a.contentType ?? "application/octet-stream";
    let inline = false;
    // cid: links are kept by the parser and replaced here, so the images they name are known.
    if (a.cid && html?.includes(`cid:${a.cid}`) && contentType.startsWith("image/")) {
      html = html.split(`cid:${a.cid}`).join(`data:${contentType};base64,${a.content.toString("base64")}`);
      inline = true;
    }
    return {
      name: a.filename ?? (contentType === "message/rfc822" ? "message.eml" : "attachment"),
      contentType,
      bytes: a.content,
      inline,
    };
  });
  return {
    format: "eml",
    subject: mail.subject ?? "",
    from: addresses(mail.from),
    to: addresses(mail.to),
    cc: addresses(mail.cc),
    date: mail.date,
    html,
    text: mail.text,
    attachments,
  };
}

function addresses(a: AddressObject | AddressObject[] | undefined): string {
  if (!a) return "";
  return (Array.isArray(a) ? a : [a]).map((x) => x.text).join(", ");
}

function readMsg(bytes: Buffer): EmailMessage {
  let reader: InstanceType<MsgReaderClass>;
  let data;
  try {
    reader = new MsgReader(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    data = reader.getFileData();
  } catch (e) {
    throw new QuireError(442, `the e-mail: the Outlook message could not be read (${String((e as Error).message).slice(0, 160)}).`);
  }
  if (data.error) throw new QuireError(442, `the e-mail: the Outlook message could not be read (${data.error}).`);
  const recipients = data.recipients ?? [];
  const who = (kind: "to" | "cc") =>
    recipients
      .filter((r) => (r.recipType ?? "to") === kind)
      .map((r) => (r.name && r.email && r.name !== r.email ? `${r.name} <${r.email}>` : (r.email ?? r.name ?? "")))
      .join(", ");
  let html = data.bodyHtml ?? (data.html ? new TextDecoder("utf-8").decode(data.html) : undefined);
  const attachments: EmailAttachment[] = [];
  for (const a of data.attachments ?? []) {
    let content: Uint8Array;
    let burntName: string | undefined;
    try {
      // An attached Outlook item comes back as a .msg file of its own.
      const got = reader.getAttachment(a);
      content = got.content;
      burntName = got.fileName;
    } catch {
      continue;
    }
    const name = a.innerMsgContent ? (burntName ?? "message.msg") : (a.fileName ?? a.fileNameShort ?? burntName ?? "attachment");
    const contentType = a.innerMsgContent ? "application/vnd.ms-outlook" : (a.attachMimeTag ?? "application/octet-stream");
    const cid = a.pidContentId;
    let inline = false;
    if (cid && html?.includes(`cid:${cid}`) && contentType.startsWith("image/")) {
      html = html.split(`cid:${cid}`).join(`data:${contentType};base64,${Buffer.from(content).toString("base64")}`);
      inline = true;
    }
    attachments.push({ name, contentType, bytes: Buffer.from(content), inline });
  }
  const date = data.messageDeliveryTime ?? data.clientSubmitTime ?? data.creationTime;
  return {
    format: "msg",
    subject: data.subject ?? "",
    from: data.senderName && data.senderEmail && data.senderName !== data.senderEmail ? `${data.senderName} <${data.senderEmail}>` : (data.senderEmail ?? data.senderName ?? ""),
    to: who("to"),
    cc: who("cc"),
    date: date ? new Date(date) : undefined,
    html,
    text: data.body,
    attachments,
  };
}
