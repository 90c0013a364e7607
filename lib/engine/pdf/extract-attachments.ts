import "server-only";
import type * as mupdf from "mupdf";

/** One embedded file of a PDF. */
export interface PdfAttachment {
  /** File name to give the caller: the filespec's name, made safe and unique within the PDF. */
  name: string;
  /** The embedded stream's /Subtype when given, else a guess from the extension. */
  contentType: string;
  bytes: Uint8Array;
  /** Where it was found: the document's EmbeddedFiles name tree or a FileAttachment annotation. */
  source: "document" | "annotation";
  /** 0-based page of the FileAttachment annotation, for source "annotation". */
  pageIndex?: number;
}

const MAX_TREE_DEPTH = 32;
const MAX_ATTACHMENTS = 10_000;

/**
 * Yields the embedded files of a PDF (ISO 32000-1 §7.11.4): first the document-level
 * EmbeddedFiles name tree (which also holds portfolio files), then FileAttachment annotations
 * page by page. A file reachable both ways is yielded once; filespecs that point at external
 * files (no /EF) are skipped. One at a time, so large attachments are not all held in memory.
 */
export function* iterateAttachments(doc: mupdf.PDFDocument): Generator<PdfAttachment> {
  const seenStreams = new Set<number>();
  const names = new UniqueNames();
  let count = 0;

  const take = (
    spec: mupdf.PDFObject,
    fallbackName: string,
    source: PdfAttachment["source"],
    pageIndex?: number,
  ) => {
    const fs = spec.resolve();
    if (!fs.isDictionary() && !fs.isString()) return null;
    const ef = fs.isDictionary() ? fs.get("EF") : null;
    if (!ef || !ef.isDictionary()) return null;
    const stream = firstOf(ef, ["UF", "F", "Unix", "DOS", "Mac"]);
    if (!stream) return null;
    if (stream.isIndirect()) {
      if (seenStreams.has(stream.asIndirect())) return null;
      seenStreams.add(stream.asIndirect());
    }
    let bytes: Uint8Array;
    try {
      const buf = stream.readStream();
      try {
        bytes = buf.asUint8Array().slice();
      } finally {
        buf.destroy();
      }
    } catch {
      return null; // a broken stream: skip it rather than fail the other files
    }
    let fileName = "";
    let mime = "";
    try {
      const params = doc.getFilespecParams(spec);
      fileName = params.filename ?? "";
      mime = params.mimetype ?? "";
    } catch {
      /* fall back below */
    }
    if (!fileName) fileName = fallbackName;
    const name = names.take(safeFileName(fileName));
    return { name, contentType: contentTypeOf(mime, name), bytes, source, pageIndex } satisfies PdfAttachment;
  };

  for (const [key, spec] of nameTreeEntries(doc.getTrailer().get("Root", "Names", "EmbeddedFiles"))) {
    if (count >= MAX_ATTACHMENTS) return;
    const att = take(spec, key, "document");
    if (att) {
      count++;
      yield att;
    }
  }

  const pages = doc.countPages();
  for (let i = 0; i < pages; i++) {
    const annots = doc.findPage(i).get("Annots");
    if (!annots.isArray()) continue;
    for (let a = 0; a < annots.length; a++) {
      if (count >= MAX_ATTACHMENTS) return;
      const annot = annots.get(a).resolve();
      if (!annot.isDictionary()) continue;
      const subtype = annot.get("Subtype");
      if (!subtype.isName() || subtype.asName() !== "FileAttachment") continue;
      const fs = annot.get("FS");
      if (fs.isNull()) continue;
      const contents = annot.get("Contents");
      const att = take(
        fs,
        contents.isString() && contents.asString() ? contents.asString() : "attachment",
        "annotation",
        i,
      );
      if (att) {
        count++;
        yield att;
      }
    }
  }
}

/** All embedded files at once (see iterateAttachments). */
export function extractAttachments(doc: mupdf.PDFDocument): PdfAttachment[] {
  return [...iterateAttachments(doc)];
}

/** Key/value pairs of a name tree (ISO 32000-1 §7.9.6), guarding against cycles and depth. */
function nameTreeEntries(root: mupdf.PDFObject): [string, mupdf.PDFObject][] {
  const out: [string, mupdf.PDFObject][] = [];
  const seen = new Set<number>();
  const walk = (node: mupdf.PDFObject, depth: number) => {
    if (depth > MAX_TREE_DEPTH || out.length >= MAX_ATTACHMENTS) return;
    if (node.isIndirect()) {
      if (seen.has(node.asIndirect())) return;
      seen.add(node.asIndirect());
    }
    const dict = node.resolve();
    if (!dict.isDictionary()) return;
    const names = dict.get("Names");
    if (names.isArray()) {
      for (let i = 0; i + 1 < names.length; i += 2) {
        const k = names.get(i);
        out.push([k.isString() ? k.asString() : "", names.get(i + 1)]);
      }
    }
    const kids = dict.get("Kids");
    if (kids.isArray()) for (let i = 0; i < kids.length; i++) walk(kids.get(i), depth + 1);
  };
  if (!root.isNull()) walk(root, 0);
  return out;
}

function firstOf(dict: mupdf.PDFObject, keys: string[]): mupdf.PDFObject | null {
  for (const k of keys) {
    const v = dict.get(k);
    // Stream-ness belongs to the indirect object: test the reference, not what it resolves to.
    if (v.isStream()) return v;
  }
  return null;
}

/** The last path part, without control or reserved characters; "attachment" when nothing is left. */
export function safeFileName(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? "";
  const cleaned = last
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, "")
    .trim()
    .slice(0, 200);
  return cleaned === "" || /^\.+$/.test(cleaned) ? "attachment" : cleaned;
}

/** Hands out unique names: "a.txt", then "a(2).txt", "a(3).txt" (case-insensitive). */
export class UniqueNames {
  private readonly used = new Set<string>();
  take(name: string): string {
    const dot = name.lastIndexOf(".");
    const stem = dot > 0 ? name.slice(0, dot) : name;
    const ext = dot > 0 ? name.slice(dot) : "";
    let candidate = name;
    for (let n = 2; this.used.has(candidate.toLowerCase()); n++) candidate = `${stem}(${n})${ext}`;
    this.used.add(candidate.toLowerCase());
    return candidate;
  }
}

const EXTENSION_TYPES: Record<string, string> = {
  pdf: "application/pdf",
  txt: "text/plain",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  xml: "application/xml",
  json: "application/json",
  html: "text/html",
  htm: "text/html",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  tif: "image/tiff",
  tiff: "image/tiff",
  bmp: "image/bmp",
  svg: "image/svg+xml",
  zip: "application/zip",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  odt: "application/vnd.oasis.opendocument.text",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
  rtf: "application/rtf",
  eml: "message/rfc822",
};

/** The declared MIME type when it says something, else a guess from the file extension. */
export function contentTypeOf(declared: string, name: string): string {
  const type = declared.trim().toLowerCase();
  if (/^[a-z0-9][\w.+-]*\/[\w.+-]+$/.test(type) && type !== "application/octet-stream") return type;
  const ext = name.includes(".") ? name.slice(name.lastIndexOf(".") + 1).toLowerCase() : "";
  return EXTENSION_TYPES[ext] ?? "application/octet-stream";
}
