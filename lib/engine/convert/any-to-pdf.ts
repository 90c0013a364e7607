import "server-only";
import { QuireError } from "@/lib/core/errors";
import { renderHtmlToPdf } from "@/lib/engine/browser/render-html-to-pdf";
import { renderUrlToPdf } from "@/lib/engine/browser/render-url-to-pdf";
import { imagesToPdf } from "@/lib/engine/images/images-to-pdf";
import { workbookToHtml } from "@/lib/engine/sheets/workbook-to-html";
import { detectKind, type FileFacts } from "./detect-kind";

/**
 * Any supported document as PDF bytes, by the conversions Quire has: a PDF as it is, images
 * (images → PDF), spreadsheets (each sheet a table, printed by Chromium), HTML (a web page printed
 * from its URL, an HTML file printed as it is) and plain text. Word processor, presentation and
 * e-mail files are recognised (detect-kind.ts) and answered with 415 until an office converter
 * is installed.
 */
export interface AnyDocument extends FileFacts {
  /** The web address an HTML document came from, to print it there (its relative links then work). */
  pageUrl?: string;
}

const SUPPORTED = "PDF, images (PNG, JPEG, GIF, WebP, TIFF, BMP), spreadsheets (xls, xlsx, ods, csv), HTML files and web pages, plain text";

/** The document as PDF bytes; 415 for a kind this server cannot convert, naming what it can. */
export async function anyToPdf(doc: AnyDocument, opts: { log?: (line: string) => void } = {}): Promise<Uint8Array> {
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
      throw new QuireError(
        415,
        `word processor and presentation files (doc, docx, odt, rtf, ppt, pptx...) are not converted on this server yet; convert it to PDF first. This operation takes ${SUPPORTED}.`,
      );
    case "email":
      throw new QuireError(415, `e-mail files (msg, eml) are not converted on this server yet; this operation takes ${SUPPORTED}.`);
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
