import "server-only";
import * as mupdf from "mupdf";
import { QuireError, engineTrapCause } from "@/lib/core/errors";

/**
 * MuPDF reports repairs and syntax problems through its log callback; by default the WASM build
 * prints them to the console, which would spam the worker's output for every damaged upload.
 * We keep the last few messages instead (useful in a 442 message and for tests) and print them
 * only when QUIRE_MUPDF_LOG=1.
 */
const recentLog: string[] = [];
const LOG_KEEP = 20;

function remember(level: string, message: string): void {
  recentLog.push(`${level}: ${message}`);
  if (recentLog.length > LOG_KEEP) recentLog.shift();
  if (process.env.QUIRE_MUPDF_LOG === "1") process.stderr.write(`mupdf ${level}: ${message}\n`);
}

let logInstalled = false;

/** Routes MuPDF's warnings and errors away from stdout; safe to call many times. */
export function quietMupdf(): void {
  if (logInstalled) return;
  mupdf.setLog({ warning: (m) => remember("warning", m), error: (m) => remember("error", m) });
  logInstalled = true;
}
quietMupdf();

/** The latest MuPDF log lines (warnings about repairs and the like), oldest first. */
export function recentMupdfLog(): string[] {
  return [...recentLog];
}

/**
 * Acrobat accepts a PDF whose `%PDF-` marker appears anywhere in the first 1024 bytes
 * (ISO 32000-2 §7.5.2 notes leading garbage is common). Anything else is not a PDF: checking
 * first keeps MuPDF from sniffing the bytes as HTML, an image or XPS and "opening" them.
 */
function looksLikePdf(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024));
  return head.includes("%PDF-");
}

export interface OpenPdfResult {
  doc: mupdf.PDFDocument;
  /** How the password authenticated: "none" (not encrypted), "empty" (empty user password), "user" or "owner". */
  access: "none" | "empty" | "user" | "owner";
}

/**
 * Opens PDF bytes with MuPDF, repairing what can be repaired, and authenticates `password`.
 * Not a PDF, unrepairable or zero pages → 442; encrypted without or with a wrong password → 441.
 * The caller owns the document and should `destroy()` it when done.
 */
export function openPdf(bytes: Uint8Array, password?: string): mupdf.PDFDocument {
  return openPdfWithAccess(bytes, password).doc;
}

/** openPdf, also telling how the document was unlocked (owner access lifts permission limits). */
export function openPdfWithAccess(bytes: Uint8Array, password?: string): OpenPdfResult {
  if (bytes.byteLength === 0) throw new QuireError(442, "the file is empty: send the URL of a PDF document.");
  if (!looksLikePdf(bytes)) {
    throw new QuireError(442, "the file is not a PDF or is damaged beyond repair: it has no %PDF- header.");
  }
  let doc: mupdf.PDFDocument;
  try {
    const opened = mupdf.Document.openDocument(bytes, "application/pdf");
    const pdf = opened.asPDF();
    if (!pdf) {
      opened.destroy();
      throw new QuireError(442, "the file is not a PDF or is damaged beyond repair: it was not read as a PDF.");
    }
    doc = pdf;
  } catch (e) {
    // A WASM trap is the engine's failure, not the file's: it must not read as "damaged" (442).
    if (e instanceof QuireError || engineTrapCause(e)) throw e;
    throw new QuireError(442, `the file is not a PDF or is damaged beyond repair: ${describe(e)}.`);
  }

  try {
    const access = unlock(doc, password);
    let pages = 0;
    let cause = "it has no pages";
    try {
      pages = doc.countPages();
    } catch (e) {
      if (engineTrapCause(e)) throw e;
      cause = describe(e);
    }
    // A page tree that loops (a /Pages node among its own descendants) counts pages but fails
    // on every page load: rebuild it from the page objects, as for a lost tree.
    if (pages >= 1 && pageTreeHasCycle(doc)) pages = rebuildPageTree(doc);
    if (pages < 1) pages = rebuildPageTree(doc);
    if (pages < 1) throw new QuireError(442, `the file is not a PDF or is damaged beyond repair: ${cause}.`);
    return { doc, access };
  } catch (e) {
    doc.destroy();
    throw e;
  }
}

/** Applies the password. MuPDF's authenticate result is a bit set: 1 no password needed, 2 user, 4 owner. */
function unlock(doc: mupdf.PDFDocument, password: string | undefined): OpenPdfResult["access"] {
  const encrypted = isEncrypted(doc);
  if (doc.needsPassword()) {
    if (password === undefined || password === "") {
      throw new QuireError(441, "this PDF is encrypted: send its password in `password`.");
    }
    const r = doc.authenticatePassword(password);
    if (r === 0) throw new QuireError(441, "wrong password: the `password` given does not open this PDF.");
    return r & 4 ? "owner" : "user";
  }
  if (!encrypted) return "none";
  // Encrypted with an empty user password: it opens anyway. A given password can still be the
  // owner password, which lifts the permission restrictions; a wrong one changes nothing.
  if (password) {
    const r = doc.authenticatePassword(password);
    if (r & 4) return "owner";
  }
  return "empty";
}

const MAX_SCAN_OBJECTS = 2_000_000;

/**
 * Last resort for a PDF whose page tree is lost (a missing /Pages object, a corrupt object
 * stream) while its pages survive: gathers every /Type /Page object, in object-number order,
 * under a new /Pages node in memory (as pdf.js and qpdf do when recovering). Returns the page
 * count, 0 when there is nothing to recover.
 */
function rebuildPageTree(doc: mupdf.PDFDocument): number {
  try {
    const n = doc.countObjects();
    if (n > MAX_SCAN_OBJECTS) return 0;
    const kids: mupdf.PDFObject[] = [];
    for (let i = 1; i < n; i++) {
      const ref = doc.newIndirect(i);
      const obj = ref.resolve();
      if (!obj.isDictionary()) continue;
      const type = obj.get("Type");
      if (type.isName() && type.asName() === "Page") kids.push(ref);
    }
    if (kids.length === 0) return 0;
    let root = doc.getTrailer().get("Root");
    if (!root.isDictionary()) {
      root = doc.addObject(doc.newDictionary());
      root.put("Type", doc.newName("Catalog"));
      doc.getTrailer().put("Root", root);
    }
    const pages = doc.addObject(doc.newDictionary());
    pages.put("Type", doc.newName("Pages"));
    const list = pages.put("Kids", doc.newArray());
    for (const kid of kids) {
      list.push(kid);
      kid.put("Parent", pages);
    }
    pages.put("Count", kids.length);
    root.put("Pages", pages);
    remember("warning", `rebuilt a lost page tree from ${kids.length} page object(s)`);
    return doc.countPages();
  } catch {
    return 0;
  }
}

/** Whether the /Pages tree reaches a node again below itself (walks /Kids only, bounded). */
function pageTreeHasCycle(doc: mupdf.PDFDocument): boolean {
  try {
    const root = doc.getTrailer().get("Root").get("Pages");
    if (!root.isIndirect()) return false;
    const onPath = new Set<number>();
    let visited = 0;
    const walk = (node: mupdf.PDFObject, depth: number): boolean => {
      if (!node.isIndirect()) return false;
      const num = node.asIndirect();
      if (onPath.has(num)) return true;
      if (++visited > MAX_SCAN_OBJECTS) throw new Error("page tree too large to check");
      if (depth > 256) return true;
      const dict = node.resolve();
      const type = dict.get("Type");
      if (!(type.isName() && type.asName() === "Pages")) return false;
      const kids = dict.get("Kids");
      if (!kids.isArray()) return false;
      onPath.add(num);
      for (let i = 0; i < kids.length; i++) if (walk(kids.get(i), depth + 1)) return true;
      onPath.delete(num);
      return false;
    };
    return walk(root, 0);
  } catch {
    return false;
  }
}

/** True when the trailer names an /Encrypt dictionary. */
export function isEncrypted(doc: mupdf.PDFDocument): boolean {
  try {
    return !doc.getTrailer().get("Encrypt").isNull();
  } catch {
    return false;
  }
}

function describe(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return msg.replace(/\s+/g, " ").trim().slice(0, 200) || "unknown error";
}

/**
 * doc.loadPage for reading a page's content: MuPDF's complaint about a damaged page tree or page
 * object (a cycle, a malformed node found only when the page is looked up) answers 442 naming
 * the page, not an internal error. Engine traps pass through (the pool replaces the process).
 */
export function loadPdfPage(doc: mupdf.PDFDocument, index: number): mupdf.PDFPage;
export function loadPdfPage(doc: mupdf.Document, index: number): mupdf.Page;
export function loadPdfPage(doc: mupdf.Document, index: number): mupdf.Page {
  try {
    return doc.loadPage(index);
  } catch (e) {
    if (e instanceof QuireError || engineTrapCause(e)) throw e;
    throw new QuireError(442, `the file is damaged: page ${index + 1} cannot be read (${describe(e)}).`);
  }
}
