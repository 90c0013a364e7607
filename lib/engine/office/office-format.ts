import "server-only";
import path from "node:path";
import * as XLSX from "@e965/xlsx";
import { QuireError } from "@/lib/core/errors";
import { checkZip, isZip, type ZipLimits } from "@/lib/engine/sheets/zip-guard";

/**
 * Which office format a file is, from its bytes (names lie), before LibreOffice sees it: zip
 * packages are checked for bombs and told apart by their parts, OLE compound files by their
 * streams (an "EncryptedPackage" stream is a password-protected OOXML file; Word 97 files carry an
 * encryption flag in their FIB). Anything LibreOffice is not meant to open here is refused.
 */
export type OfficeFormat = "docx" | "doc" | "rtf" | "odt" | "xlsx" | "xls" | "ods" | "csv";
export type OfficeFamily = "text" | "sheet";

export const TEXT_FORMATS: readonly OfficeFormat[] = ["doc", "docx", "rtf", "odt"];
export const SHEET_FORMATS: readonly OfficeFormat[] = ["xls", "xlsx", "ods", "csv"];

export function familyOf(format: OfficeFormat): OfficeFamily {
  return TEXT_FORMATS.includes(format) ? "text" : "sheet";
}

/** SheetJS's bundled compound-file reader (not in its type declarations). */
interface CfbEntry {
  name: string;
  content?: Uint8Array;
}
const CFB = (XLSX as unknown as { CFB: { read(data: Buffer, opts: { type: "buffer" }): { FileIndex: CfbEntry[] } } }).CFB;

const passwordProtected = (what: string) =>
  new QuireError(442, `${what}: the document is password-protected; remove the password and send it again.`);

/** The format of an office document; 415 for anything else, 413 for a zip bomb, 442 for an encrypted file. */
export function sniffOfficeFormat(bytes: Buffer, name: string, what: string, zipLimits: ZipLimits): OfficeFormat {
  if (bytes.length === 0) throw new QuireError(442, `${what}: the file is empty.`);
  const ext = path.extname(name).slice(1).toLowerCase();
  if (isZip(bytes)) {
    const entries = checkZip(bytes, what, zipLimits);
    const names = new Set(entries.map((e) => e.name.toLowerCase()));
    if ([...names].some((n) => n.startsWith("word/"))) return "docx";
    if ([...names].some((n) => n.startsWith("xl/"))) return "xlsx";
    if (names.has("content.xml")) {
      const head = bytes.subarray(0, 200).toString("latin1");
      if (head.includes("opendocument.spreadsheet")) return "ods";
      if (head.includes("opendocument.text")) return "odt";
      return ext === "ods" ? "ods" : "odt";
    }
    throw new QuireError(415, `${what}: this zip file is not a Word, Excel or OpenDocument file.`);
  }
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0xd0cf11e0 && bytes.readUInt32BE(4) === 0xa1b11ae1) {
    return oleFormat(bytes, what);
  }
  const head = bytes.subarray(0, Math.min(bytes.length, 8192));
  if (head.subarray(0, 5).toString("latin1") === "{\\rtf") return "rtf";
  if (head.subarray(0, 5).toString("latin1") === "%PDF-") throw new QuireError(415, `${what}: this is already a PDF.`);
  // Plain text is read as CSV (a workbook of one sheet), unless its name promises a binary format.
  const binaryName = ["doc", "docx", "odt", "xls", "xlsx", "ods"].includes(ext);
  if (!head.includes(0) && head.length > 0 && !binaryName) return "csv";
  throw new QuireError(415, `${what}: not an office document (doc, docx, rtf, odt, xls, xlsx, ods or csv).`);
}

/** Word 97-2003, Excel 97-2003, or an encrypted OOXML package, by the streams of the compound file. */
function oleFormat(bytes: Buffer, what: string): OfficeFormat {
  let cfb: { FileIndex: CfbEntry[] };
  try {
    cfb = CFB.read(bytes, { type: "buffer" });
  } catch {
    throw new QuireError(442, `${what}: the file is damaged (an unreadable OLE compound file).`);
  }
  const streams = new Set(cfb.FileIndex.map((f) => f.name));
  if (streams.has("EncryptedPackage") || streams.has("EncryptionInfo")) throw passwordProtected(what);
  if (streams.has("WordDocument")) {
    const word = cfb.FileIndex.find((f) => f.name === "WordDocument");
    const content = word?.content;
    // FIB base: flags at offset 0x0A; bit 8 is fEncrypted ([MS-DOC] 2.5.2).
    if (content && content.length > 0x0c && (content[0x0b] & 0x01) === 0x01) throw passwordProtected(what);
    return "doc";
  }
  if (streams.has("Workbook") || streams.has("Book")) return "xls";
  throw new QuireError(415, `${what}: this OLE file is neither a Word nor an Excel document.`);
}
