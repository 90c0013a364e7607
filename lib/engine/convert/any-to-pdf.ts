import "server-only";
import path from "node:path";
import { QuireError } from "@/lib/core/errors";
import { renderHtmlToPdf } from "@/lib/engine/browser/render-html-to-pdf";
import { renderUrlToPdf } from "@/lib/engine/browser/render-url-to-pdf";
import { imagesToPdf } from "@/lib/engine/images/images-to-pdf";
import { sniffImageFormat } from "@/lib/engine/images/sniff-image";
import { workbookToHtml } from "@/lib/engine/sheets/workbook-to-html";
import { isZip, readZipDirectory } from "@/lib/engine/sheets/zip-guard";

/**
 * Any supported document as PDF bytes, by the conversions Quire has: a PDF as it is, images
 * (images → PDF), spreadsheets (each sheet a table, printed by Chromium), HTML (a web page printed
 * from its URL, an HTML file printed as it is) and plain text. Word processor, presentation and
 * e-mail files are recognised and answered with 415 until an office converter is installed.
 */
export type DocumentKind = "pdf" | "image" | "sheet" | "html" | "text" | "office" | "email" | "unknown";

export interface AnyDocument {
  bytes: Buffer;
  /** File name from the URL or upload: its extension decides where the bytes cannot. */
  name: string;
  contentType: string;
  /** The web address an HTML document came from, to print it there (its relative links then work). */
  pageUrl?: string;
}

const SHEET_EXT = new Set(["xls", "xlsx", "xlsm", "xlsb", "ods", "csv"]);
const OFFICE_EXT = new Set(["doc", "docx", "docm", "dot", "dotx", "odt", "ott", "rtf", "ppt", "pptx", "pps", "ppsx", "odp", "pages", "wpd"]);
const EMAIL_EXT = new Set(["msg", "eml"]);
const HTML_EXT = new Set(["html", "htm", "xhtml", "mht", "mhtml"]);
const TEXT_EXT = new Set(["txt", "text", "log", "md"]);

/** What a file is: its first bytes first (names and types lie), then its extension and Content-Type. */
export function detectKind(doc: Pick<AnyDocument, "bytes" | "name" | "contentType">): DocumentKind {
  const b = doc.bytes;
  const ext = path.extname(doc.name).slice(1).toLowerCase();
  const type = doc.contentType.split(";")[0].trim().toLowerCase();
  const head = b.subarray(0, Math.min(b.length, 1024)).toString("latin1");
  if (head.includes("%PDF-")) return "pdf";
  if (sniffImageFormat(b)) return "image";
  if (isZip(b)) return zipKind(b, ext, type);
  if (b.length >= 4 && b[0] === 0xd0 && b[1] === 0xcf && b[2] === 0x11 && b[3] === 0xe0) {
    // An OLE2 compound file: Excel, Word, PowerPoint 97-2003 or Outlook; only the name tells.
    if (SHEET_EXT.has(ext) || type.includes("excel")) return "sheet";
    if (EMAIL_EXT.has(ext) || type.includes("outlook")) return "email";
    return "office";
  }
  if (head.startsWith("{\\rtf")) return "office";
  if (b.subarray(0, Math.min(b.length, 8192)).includes(0)) return "unknown";
  const text = head.replace(/^\uFEFF|^ï»¿/, "").trimStart().toLowerCase();
  if (HTML_EXT.has(ext) || type === "text/html" || type === "application/xhtml+xml" || /^(<!--[\s\S]*?-->\s*)*<(!doctype html|html[\s>])/.test(text)) {
    return "html";
  }
  if (SHEET_EXT.has(ext) || type === "text/csv" || (text.startsWith("<?xml") && head.includes("urn:schemas-microsoft-com:office:spreadsheet"))) {
    return "sheet";
  }
  if (EMAIL_EXT.has(ext) || type === "message/rfc822") return "email";
  if (TEXT_EXT.has(ext) || type === "text/plain") return "text";
  return "unknown";
}

function zipKind(b: Buffer, ext: string, type: string): DocumentKind {
  if (SHEET_EXT.has(ext) || type.includes("spreadsheet")) return "sheet";
  if (OFFICE_EXT.has(ext) || type.includes("wordprocessing") || type.includes("presentation") || type.includes("opendocument.text")) {
    return "office";
  }
  // A name without a telling extension: the archive's parts say what it is.
  let names: string[] = [];
  try {
    names = readZipDirectory(b, "the file").map((e) => e.name.toLowerCase());
  } catch {
    return "unknown";
  }
  if (names.some((n) => n.startsWith("xl/"))) return "sheet";
  if (names.some((n) => n.startsWith("word/") || n.startsWith("ppt/"))) return "office";
  if (names.includes("content.xml")) {
    const mimetype = b.subarray(0, 200).toString("latin1");
    return mimetype.includes("opendocument.spreadsheet") ? "sheet" : "office";
  }
  return "unknown";
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
