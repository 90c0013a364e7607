import * as XLSX from "@e965/xlsx";
import MailComposer from "nodemailer/lib/mail-composer";

/** An .eml (MIME) message built by nodemailer's composer: text + HTML bodies, attachments. */
export async function makeEml(o: {
  from?: string;
  to?: string;
  cc?: string;
  subject?: string;
  text?: string;
  html?: string;
  date?: Date;
  attachments?: Array<{ filename: string; content: Buffer | string; contentType?: string }>;
}): Promise<Buffer> {
  const mail = new MailComposer({
    from: o.from ?? "Alice Sender <alice@example.org>",
    to: o.to ?? "Bob Receiver <bob@example.org>",
    cc: o.cc,
    subject: o.subject ?? "Quarterly report",
    text: o.text ?? "Hello Bob,\nthe report is attached.",
    html: o.html,
    date: o.date ?? new Date("2026-03-04T05:06:07Z"),
    messageId: "<test-1@example.org>",
    attachments: o.attachments,
  });
  return new Promise((resolve, reject) => mail.compile().build((err, msg) => (err ? reject(err) : resolve(msg))));
}

const utf16 = (s: string) => Buffer.from(s + "\0", "utf16le");

/**
 * A minimal Outlook .msg: an OLE compound file (SheetJS's CFB writer) holding the MAPI property
 * streams Outlook writes for subject, body, sender, recipients and attachments ([MS-OXMSG]).
 */
export function makeMsg(o: {
  subject: string;
  body: string;
  senderName: string;
  senderEmail: string;
  to: Array<{ name: string; email: string }>;
  attachments: Array<{ name: string; content: Buffer; mime?: string }>;
}): Buffer {
  const CFB = XLSX.CFB;
  const cfb = CFB.utils.cfb_new();
  const add = (p: string, data: Buffer) => CFB.utils.cfb_add(cfb, p, data);
  // Top-level property stream: 32-byte header (next recipient / attachment ids and counts), no fixed properties.
  const head = Buffer.alloc(32);
  head.writeUInt32LE(o.to.length, 8);
  head.writeUInt32LE(o.attachments.length, 12);
  head.writeUInt32LE(o.to.length, 16);
  head.writeUInt32LE(o.attachments.length, 20);
  add("/__properties_version1.0", head);
  add("/__substg1.0_001A001F", utf16("IPM.Note"));
  add("/__substg1.0_0037001F", utf16(o.subject));
  add("/__substg1.0_1000001F", utf16(o.body));
  add("/__substg1.0_0C1A001F", utf16(o.senderName));
  add("/__substg1.0_0C1F001F", utf16(o.senderEmail));
  add("/__substg1.0_5D01001F", utf16(o.senderEmail));
  o.to.forEach((r, i) => {
    const dir = `/__recip_version1.0_#${i.toString(16).toUpperCase().padStart(8, "0")}`;
    add(`${dir}/__properties_version1.0`, Buffer.alloc(8));
    add(`${dir}/__substg1.0_3001001F`, utf16(r.name));
    add(`${dir}/__substg1.0_3003001F`, utf16(r.email));
    add(`${dir}/__substg1.0_39FE001F`, utf16(r.email));
  });
  o.attachments.forEach((a, i) => {
    const dir = `/__attach_version1.0_#${i.toString(16).toUpperCase().padStart(8, "0")}`;
    add(`${dir}/__properties_version1.0`, Buffer.alloc(8));
    add(`${dir}/__substg1.0_3707001F`, utf16(a.name));
    add(`${dir}/__substg1.0_3704001F`, utf16(a.name.slice(0, 8)));
    add(`${dir}/__substg1.0_37010102`, a.content);
    if (a.mime) add(`${dir}/__substg1.0_370E001F`, utf16(a.mime));
  });
  CFB.utils.cfb_gc(cfb);
  return Buffer.from(CFB.write(cfb, { type: "buffer", fileType: "cfb" }) as Uint8Array);
}
