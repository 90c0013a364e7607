import "server-only";
import { QuireError } from "@/lib/core/errors";
import { renderHtmlToPdf } from "@/lib/engine/browser/render-html-to-pdf";
import { renderUrlToPdf } from "@/lib/engine/browser/render-url-to-pdf";
import { emailToPdf } from "@/lib/engine/email/email-to-pdf";
import { imagesToPdf } from "@/lib/engine/images/images-to-pdf";
import { convertOfficeToPdf } from "@/lib/engine/office/convert-to-pdf";
import { workbookToHtml } from "@/lib/engine/sheets/workbook-to-html";
import { detectKind, type FileFacts } from "./detect-kind";

/**
 * Any supported document as PDF bytes, by the conversions Quire has: a PDF as it is, images
 * (images → PDF), spreadsheets (each sheet a table, printed by Chromium), HTML (a web page printed
 * from its URL, an HTML file printed as it is), plain text, word-processor files (LibreOffice,
 * lib/engine/office) and e-mails (the message as a printed page, its attachments converted after
 * it). Presentations are recognised (detect-kind.ts) and answered with 415.
 */
export interface AnyDocument extends FileFacts {
  /** The web address an HTML document came from, to print it there (its relative links then work). */
  pageUrl?: string;
}

const SUPPORTED =
  "PDF, images (PNG, JPEG, GIF, WebP, TIFF, BMP), spreadsheets (xls, xlsx, ods, csv), word-processor files (doc, docx, rtf, odt), e-mails (eml, msg), HTML files and web pages, plain text";

/** The document as PDF bytes; 415 for a kind this server cannot convert, naming what it can. */
export async function anyToPdf(
  doc: AnyDocument,
  opts: { log?: (line: string) => void; /** Nesting of e-mails in e-mails (attachments of attachments). */ depth?: number } = {},
): Promise<Uint8Array> {
  const kind = detectKind(doc);
  opts.log?.(`convert: ${doc.name} is ${kind}`);
  switch (kind) {
    case "pdf":
      return doc.bytes;
    case "image":
      return (await imagesToPdf([{ bytes: doc.bytes, name: doc.name }])).pdf;
    case "sheet": {
      const { html, widest } = workbookToHtml(doc.bytes);
      return renderHtmlToPdf({ html, landscape: widest > 8, log: opts.log });
    }
    case "html":
      if (doc.pageUrl) return (await renderUrlToPdf({ url: doc.pageUrl, log: opts.log })).pdf;
      return renderHtmlToPdf({ html: decodeText(doc.bytes), allowNetwork: true, log: opts.log });
    case "text":
      return renderHtmlToPdf({ html: textPage(decodeText(doc.bytes)), log: opts.log });
    case "office":
      if (/\.(pptx?|pps[xm]?|odp|key)$/i.test(doc.name) || /presentation/i.test(doc.contentType)) {
        throw new QuireError(415, `presentations (ppt, pptx, odp) are not converted on this server; this operation takes ${SUPPORTED}.`);
      }
      return (await convertOfficeToPdf({ bytes: doc.bytes, name: doc.name }, { log: opts.log })).pdf;
    case "email": {
      const depth = opts.depth ?? 0;
      const result = await emailToPdf(doc.bytes, {
        log: opts.log,
        // An e-mail attached to an e-mail is printed, but its own attachments are only embedded.
        convertAttachments: depth === 0,
        convertAttachment: (a) => anyToPdf({ ...a }, { log: opts.log, depth: depth + 1 }),
      });
      return result.pdf;
    }
    default:
      throw new QuireError(415, `not a format this operation converts (${doc.contentType || "unknown type"}); it takes ${SUPPORTED}.`);
  }
}

/** UTF-8 when valid (BOM dropped), else Windows-1252. */
function decodeText(bytes: Buffer): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

function textPage(text: string): string {
  const escaped = text.replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]!);
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><style>body { margin: 0; } pre { font: 10pt "Liberation Mono", "DejaVu Sans Mono", monospace; white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; }</style></head><body><pre>${escaped}</pre></body></html>`;
}
