import path from "node:path";
import { sniffImageFormat } from "@/lib/engine/images/sniff-image";
import { isZip, readZipDirectory } from "@/lib/engine/sheets/zip-guard";

/**
 * What kind of document a file is, for the conversions of any-to-pdf.ts. Light on purpose (no
 * browser, spreadsheet or image library): merge imports it to point non-PDF inputs to merge2.
 */
export type DocumentKind = "pdf" | "image" | "sheet" | "html" | "text" | "office" | "email" | "unknown";

/** What is known of a file before converting it. */
export interface FileFacts {
  bytes: Buffer;
  /** File name from the URL or upload: its extension decides where the bytes cannot. */
  name: string;
  contentType: string;
}

const SHEET_EXT = new Set(["xls", "xlsx", "xlsm", "xlsb", "ods", "csv"]);
const OFFICE_EXT = new Set(["doc", "docx", "docm", "dot", "dotx", "odt", "ott", "rtf", "ppt", "pptx", "pps", "ppsx", "odp", "pages", "wpd"]);
const EMAIL_EXT = new Set(["msg", "eml"]);
const HTML_EXT = new Set(["html", "htm", "xhtml", "mht", "mhtml"]);
const TEXT_EXT = new Set(["txt", "text", "log", "md"]);

/** What a file is: its first bytes first (names and types lie), then its extension and Content-Type. */
export function detectKind(doc: FileFacts): DocumentKind {
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

