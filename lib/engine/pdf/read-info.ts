import "server-only";
import type * as mupdf from "mupdf";
import { isEncrypted } from "@/lib/engine/pdf/open-pdf";

/** The public API's document info object (`info` of POST /v1/pdf/info), with PDF.co's field names. */
export interface PdfInfo {
  PageCount: number;
  Author: string;
  Title: string;
  Producer: string;
  Subject: string;
  Creator: string;
  Keywords: string;
  /** Outline (bookmark) titles, depth-first, one per line; "" when the PDF has no outline. */
  Bookmarks: string;
  /** `M/d/yyyy h:mm:ss AM|PM` in UTC; "" when absent or unreadable. */
  CreationDate: string;
  ModificationDate: string;
  Encrypted: boolean;
  /** See ENCRYPTION_ALGORITHMS: 0 none, 1 RC4 40-bit, 2 RC4 128-bit, 3 AES 128-bit, 4 AES 256-bit. */
  EncryptionAlgorithm: number;
  PageRectangle: PageRectangle;
  PermissionPrinting: boolean;
  PermissionModifyDocument: boolean;
  PermissionContentExtraction: boolean;
  PermissionModifyAnnotations: boolean;
  PermissionFillForms: boolean;
  PermissionAccessibility: boolean;
  PermissionAssemble: boolean;
  PermissionHighQualityPrint: boolean;
}

/** A .NET-RectangleF-shaped rectangle, as PDF.co clients read it. Units are PDF points. */
export interface PageRectangle {
  Location: { IsEmpty: boolean; X: number; Y: number };
  /** `"<width>, <height>"`, e.g. "612, 792". */
  Size: string;
  X: number;
  Y: number;
  Width: number;
  Height: number;
  Left: number;
  Top: number;
  Right: number;
  Bottom: number;
  IsEmpty: boolean;
}

/** Integer codes of `EncryptionAlgorithm` (Quire's documented mapping). */
const ENCRYPTION_ALGORITHMS = { none: 0, rc4_40: 1, rc4_128: 2, aes_128: 3, aes_256: 4 } as const;

const MAX_BOOKMARKS = 5000;

/** Reads the info object of an opened (and unlocked) PDF. Cheap: loads only the first page. */
export function readInfo(doc: mupdf.PDFDocument): PdfInfo {
  const meta = (key: string) => (doc.getMetaData(key) ?? "").replace(/\0/g, "");
  const encrypted = isEncrypted(doc);
  const encryptDict = encrypted ? doc.getTrailer().get("Encrypt") : null;
  const perms = permissionsOf(encryptDict);
  return {
    PageCount: doc.countPages(),
    Author: meta("info:Author"),
    Title: meta("info:Title"),
    Producer: meta("info:Producer"),
    Subject: meta("info:Subject"),
    Creator: meta("info:Creator"),
    Keywords: meta("info:Keywords"),
    Bookmarks: bookmarksOf(doc),
    CreationDate: formatPdfDate(meta("info:CreationDate")),
    ModificationDate: formatPdfDate(meta("info:ModDate")),
    Encrypted: encrypted,
    EncryptionAlgorithm: encryptDict ? encryptionAlgorithmOf(encryptDict) : ENCRYPTION_ALGORITHMS.none,
    PageRectangle: pageRectangleOf(doc),
    PermissionPrinting: perms.print,
    PermissionModifyDocument: perms.modify,
    PermissionContentExtraction: perms.copy,
    PermissionModifyAnnotations: perms.annotate,
    PermissionFillForms: perms.fillForms,
    PermissionAccessibility: perms.accessibility,
    PermissionAssemble: perms.assemble,
    PermissionHighQualityPrint: perms.printHighQuality,
  };
}

/**
 * Parses a PDF date string (ISO 32000-1 §7.9.4: `D:YYYYMMDDHHmmSSOHH'mm'`, every part after the
 * year optional, `D:` often missing, apostrophes often missing) into a UTC Date, or null.
 */
export function parsePdfDate(text: string): Date | null {
  const m =
    /^\s*(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?\s*(?:([Zz+-])\s*(\d{2})?'?\s*(\d{2})?'?)?/.exec(
      text,
    );
  if (!m) return null;
  const [, y, mo = "01", d = "01", h = "00", mi = "00", s = "00", sign, oh = "00", om = "00"] = m;
  const n = (v: string) => Number.parseInt(v, 10);
  if (n(mo) < 1 || n(mo) > 12 || n(d) < 1 || n(d) > 31 || n(h) > 23 || n(mi) > 59 || n(s) > 59) return null;
  let ms = Date.UTC(n(y), n(mo) - 1, n(d), n(h), n(mi), n(s));
  if (sign === "+" || sign === "-") {
    const offset = (n(oh) * 60 + n(om)) * 60_000;
    ms += sign === "+" ? -offset : offset;
  }
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A PDF date as `M/d/yyyy h:mm:ss AM|PM` in UTC (PDF.co's display form); "" when unreadable. */
export function formatPdfDate(text: string): string {
  const date = text ? parsePdfDate(text) : null;
  return date ? formatUsDateTime(date) : "";
}

/** `M/d/yyyy h:mm:ss AM|PM`, UTC. */
function formatUsDateTime(date: Date): string {
  const h24 = date.getUTCHours();
  const h12 = h24 % 12 === 0 ? 12 : h24 % 12;
  const pad = (v: number) => String(v).padStart(2, "0");
  return (
    `${date.getUTCMonth() + 1}/${date.getUTCDate()}/${date.getUTCFullYear()} ` +
    `${h12}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} ${h24 < 12 ? "AM" : "PM"}`
  );
}

/**
 * Maps the /Encrypt dictionary to Quire's EncryptionAlgorithm code. V 1 is RC4 40-bit; V 2/3 is
 * RC4 with /Length bits; V 4 names its crypt filter's method (AESV2 = AES-128, V2 = RC4-128);
 * V 5 (R 5/6) is AES-256 (ISO 32000-2 §7.6.2). Unknown handlers report 0.
 */
function encryptionAlgorithmOf(encrypt: mupdf.PDFObject): number {
  const num = (key: string, fallback: number) => {
    const v = encrypt.get(key);
    return v.isNumber() ? v.asNumber() : fallback;
  };
  const v = num("V", 0);
  if (v === 1) return ENCRYPTION_ALGORITHMS.rc4_40;
  if (v === 2 || v === 3)
    return num("Length", 40) <= 40 ? ENCRYPTION_ALGORITHMS.rc4_40 : ENCRYPTION_ALGORITHMS.rc4_128;
  if (v === 4) {
    const stmf = encrypt.get("StmF");
    const filterName = stmf.isName() ? stmf.asName() : "Identity";
    const cfm = encrypt.get("CF", filterName, "CFM");
    const method = cfm.isName() ? cfm.asName() : "None";
    if (method === "AESV2") return ENCRYPTION_ALGORITHMS.aes_128;
    if (method === "AESV3") return ENCRYPTION_ALGORITHMS.aes_256;
    if (method === "V2") return ENCRYPTION_ALGORITHMS.rc4_128;
    return ENCRYPTION_ALGORITHMS.none;
  }
  if (v === 5) return ENCRYPTION_ALGORITHMS.aes_256;
  return ENCRYPTION_ALGORITHMS.none;
}

interface Permissions {
  print: boolean;
  modify: boolean;
  copy: boolean;
  annotate: boolean;
  fillForms: boolean;
  accessibility: boolean;
  assemble: boolean;
  printHighQuality: boolean;
}

/**
 * The user-access permissions declared by /P (ISO 32000-1 Table 22; bit n is 1 << (n-1)).
 * Revision 2 handlers have only bits 3–6, so the later bits follow the earlier ones as the spec
 * describes. Not encrypted → everything allowed. These are the document's declared rights,
 * whatever password was given.
 */
function permissionsOf(encrypt: mupdf.PDFObject | null): Permissions {
  if (!encrypt || encrypt.isNull()) {
    return {
      print: true,
      modify: true,
      copy: true,
      annotate: true,
      fillForms: true,
      accessibility: true,
      assemble: true,
      printHighQuality: true,
    };
  }
  const pObj = encrypt.get("P");
  const p = pObj.isNumber() ? pObj.asNumber() | 0 : -1;
  const rObj = encrypt.get("R");
  const r = rObj.isNumber() ? rObj.asNumber() : 2;
  const bit = (n: number) => (p & (1 << (n - 1))) !== 0;
  const print = bit(3);
  const modify = bit(4);
  const copy = bit(5);
  const annotate = bit(6);
  if (r < 3) {
    return {
      print,
      modify,
      copy,
      annotate,
      fillForms: annotate,
      accessibility: copy,
      assemble: modify,
      printHighQuality: print,
    };
  }
  return {
    print,
    modify,
    copy,
    annotate,
    fillForms: bit(9),
    accessibility: bit(10),
    assemble: bit(11),
    printHighQuality: print && bit(12),
  };
}

/** Outline titles depth-first, one per line (no indentation); "" when there is none or it is broken. */
function bookmarksOf(doc: mupdf.PDFDocument): string {
  let outline: ReturnType<mupdf.PDFDocument["loadOutline"]>;
  try {
    outline = doc.loadOutline();
  } catch {
    return "";
  }
  const titles: string[] = [];
  const walk = (items: NonNullable<typeof outline>, depth: number) => {
    for (const item of items) {
      if (titles.length >= MAX_BOOKMARKS || depth > 64) return;
      titles.push((item.title ?? "").replace(/[\r\n]+/g, " ").trim());
      if (item.down) walk(item.down, depth + 1);
    }
  };
  if (outline) walk(outline, 0);
  return titles.join("\n");
}

/**
 * The first page's visible box (CropBox clipped to MediaBox, ISO 32000-1 §14.11.2) in points,
 * with width and height swapped for /Rotate 90 or 270 so they read as the page is shown.
 * X and Y are the box's lower-left corner in PDF user space (usually 0, 0).
 */
function pageRectangleOf(doc: mupdf.PDFDocument, pageIndex = 0): PageRectangle {
  const page = doc.findPage(pageIndex);
  const rectOf = (key: string): [number, number, number, number] | null => {
    const box = page.getInheritable(key);
    if (!box.isArray() || box.length < 4) return null;
    const v = [0, 1, 2, 3].map((i) => {
      const n = box.get(i);
      return n.isNumber() ? n.asNumber() : Number.NaN;
    });
    if (v.some((n) => !Number.isFinite(n))) return null;
    return [Math.min(v[0], v[2]), Math.min(v[1], v[3]), Math.max(v[0], v[2]), Math.max(v[1], v[3])];
  };
  const media = rectOf("MediaBox") ?? [0, 0, 612, 792];
  const crop = rectOf("CropBox");
  const box = crop
    ? ([
        Math.max(media[0], crop[0]),
        Math.max(media[1], crop[1]),
        Math.min(media[2], crop[2]),
        Math.min(media[3], crop[3]),
      ] as const)
    : media;
  const rotateObj = page.getInheritable("Rotate");
  const rotate = ((((rotateObj.isNumber() ? Math.round(rotateObj.asNumber() / 90) * 90 : 0) % 360) + 360) %
    360) as number;
  const unitObj = page.get("UserUnit");
  const unit = unitObj.isNumber() && unitObj.asNumber() > 0 ? unitObj.asNumber() : 1;
  let width = Math.max(0, box[2] - box[0]) * unit;
  let height = Math.max(0, box[3] - box[1]) * unit;
  if (rotate === 90 || rotate === 270) [width, height] = [height, width];
  const r = (n: number) => Math.round(n * 1000) / 1000 + 0; // + 0 turns -0 into 0
  const X = r(box[0] * unit);
  const Y = r(box[1] * unit);
  const W = r(width);
  const H = r(height);
  return {
    Location: { IsEmpty: X === 0 && Y === 0, X, Y },
    Size: `${W}, ${H}`,
    X,
    Y,
    Width: W,
    Height: H,
    Left: X,
    Top: Y,
    Right: r(X + W),
    Bottom: r(Y + H),
    IsEmpty: W <= 0 || H <= 0,
  };
}
