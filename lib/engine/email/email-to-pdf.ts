import "server-only";
import * as mupdf from "mupdf";
import { PDFDocument } from "pdf-lib";
import { envNumber } from "@/lib/core/config";
import { isQuireError } from "@/lib/core/errors";
import { renderUrlToPdf } from "@/lib/engine/browser/render-url-to-pdf";
import { PdfMerger } from "@/lib/engine/pdf/merge-pdfs";
import { readEmail, type EmailAttachment, type EmailMessage } from "./read-email";

/**
 * An e-mail printed as a page: its header fields (From, To, Cc, Date, Subject, attachment
 * names) above its body, by Chromium with scripts off and every image or style the message loads
 * fetched through the egress guard. `convertAttachments` appends the attachments Quire can
 * convert as pages after the message (through `convertAttachment`, which the caller supplies:
 * any-to-pdf, so the converters stay in one place); `embedAttachments` embeds every attachment,
 * as sent, in the PDF as a file attachment.
 */
export interface EmailToPdfOptions {
  margins?: string;
  paperSize?: string;
  orientation?: "Portrait" | "Landscape";
  header?: string;
  footer?: string;
  /** Embed the original attachments as PDF file attachments (default true). */
  embedAttachments?: boolean;
  /** Append convertible attachments as pages (default true; needs convertAttachment). */
  convertAttachments?: boolean;
  convertAttachment?: (doc: { bytes: Buffer; name: string; contentType: string }) => Promise<Uint8Array>;
  /** EMAIL_MAX_BYTES (50 MiB) unless given. */
  maxBytes?: number;
  log?: (line: string) => void;
}

export interface EmailToPdfResult {
  pdf: Buffer;
  message: EmailMessage;
  /** Attachments appended as pages. */
  converted: string[];
  /** Attachments embedded as files. */
  embedded: string[];
}

export function emailMaxBytesFromEnv(): number {
  return envNumber("EMAIL_MAX_BYTES", 50 * 1024 * 1024);
}

export async function emailToPdf(bytes: Buffer, opts: EmailToPdfOptions = {}): Promise<EmailToPdfResult> {
  const log = opts.log ?? (() => {});
  const message = await readEmail(bytes, { maxBytes: opts.maxBytes ?? emailMaxBytesFromEnv() });
  const listed = message.attachments.filter((a) => !a.inline);
  const printed = await renderUrlToPdf({
    url: "about:blank",
    html: emailHtml(message, listed),
    javaScript: false,
    margins: opts.margins ?? "12mm",
    paperSize: opts.paperSize,
    orientation: opts.orientation,
    header: opts.header,
    footer: opts.footer,
    log,
  });
  let pdf: Uint8Array = printed.pdf;
  const converted: string[] = [];
  if ((opts.convertAttachments ?? true) && opts.convertAttachment && listed.length > 0) {
    const parts: Array<{ name: string; pdf: Uint8Array }> = [];
    for (const a of listed) {
      try {
        parts.push({ name: a.name, pdf: await opts.convertAttachment({ bytes: a.bytes, name: a.name, contentType: a.contentType }) });
        converted.push(a.name);
      } catch (e) {
        // An attachment Quire cannot convert stays an embedded file; the message still prints.
        if (!isQuireError(e)) throw e;
        log(`e-mail: attachment ${a.name} not converted (${e.status}: ${e.message.slice(0, 160)})`);
      }
    }
    if (parts.length > 0) pdf = mergeAll([{ name: message.subject || "message", pdf }, ...parts]);
  }
  const embedded: string[] = [];
  if ((opts.embedAttachments ?? true) && listed.length > 0) {
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    for (const a of listed) {
      await doc.attach(a.bytes, safeName(a.name), { mimeType: a.contentType, description: `Attachment of the e-mail "${message.subject}"` });
      embedded.push(a.name);
    }
    pdf = await doc.save();
  }
  log(`e-mail: ${message.format}, ${listed.length} attachment(s), ${converted.length} converted, ${embedded.length} embedded`);
  return { pdf: Buffer.from(pdf), message, converted, embedded };
}

function mergeAll(parts: Array<{ name: string; pdf: Uint8Array }>): Uint8Array {
  const merger = new PdfMerger({ renameFields: true });
  try {
    for (const part of parts) {
      const doc = mupdf.Document.openDocument(part.pdf, "application/pdf").asPDF();
      if (!doc) continue;
      try {
        merger.add(doc, part.name);
      } finally {
        doc.destroy();
      }
    }
    return merger.finish();
  } finally {
    merger.destroy();
  }
}

function safeName(name: string): string {
  return name.replace(/[\u0000-\u001f/\\]/g, "_").slice(0, 200) || "attachment";
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * The printed page: Quire's header block, then the message's own HTML with what could act on its
 * own removed (scripts do not run anyway; refresh, base, frames and plug-ins are dropped), or its
 * text with line breaks kept.
 */
export function emailHtml(m: EmailMessage, listed: EmailAttachment[]): string {
  const rows: Array<[string, string]> = [["From", m.from], ["To", m.to]];
  if (m.cc) rows.push(["Cc", m.cc]);
  if (m.date && !Number.isNaN(m.date.getTime())) rows.push(["Date", m.date.toUTCString()]);
  rows.push(["Subject", m.subject]);
  if (listed.length > 0) rows.push(["Attachments", listed.map((a) => `${a.name} (${formatSize(a.bytes.length)})`).join(", ")]);
  const head = `<table class="quire-mail-head">${rows
    .map(([k, v]) => `<tr><th>${esc(k)}:</th><td>${esc(v)}</td></tr>`)
    .join("")}</table><hr class="quire-mail-rule">`;
  const body = m.html?.trim()
    ? cleanHtml(m.html)
    : `<div class="quire-mail-text">${esc(m.text ?? "")}</div>`;
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${esc(m.subject)}</title><style>
body { font: 11pt "Liberation Sans", "DejaVu Sans", Arial, sans-serif; margin: 0; }
.quire-mail-head { border-collapse: collapse; font: 10pt "Liberation Sans", "DejaVu Sans", Arial, sans-serif; margin-bottom: 6pt; }
.quire-mail-head th { text-align: left; vertical-align: top; padding: 1pt 8pt 1pt 0; white-space: nowrap; }
.quire-mail-head td { padding: 1pt 0; overflow-wrap: anywhere; }
.quire-mail-rule { border: 0; border-top: 1pt solid #888; margin: 0 0 10pt; }
.quire-mail-text { white-space: pre-wrap; overflow-wrap: anywhere; font: 10.5pt "Liberation Mono", "DejaVu Sans Mono", monospace; }
img { max-width: 100%; }
</style></head><body>${head}<div class="quire-mail-body">${body}</div></body></html>`;
}

function cleanHtml(html: string): string {
  return html
    .replace(/<script\b[\s\S]*?<\/script\s*>/gi, "")
    .replace(/<(iframe|frame|frameset|object|embed|applet)\b[\s\S]*?(<\/\1\s*>|\/>)/gi, "")
    .replace(/<(meta|base|link)\b[^>]*>/gi, (tag) => (/^<link\b/i.test(tag) && /rel\s*=\s*["']?stylesheet/i.test(tag) ? tag : ""))
    .replace(/<\/?(html|head|body)\b[^>]*>/gi, "");
}

function formatSize(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${(n / 1048576).toFixed(1)} MB`;
}
