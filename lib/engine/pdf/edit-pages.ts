import "server-only";
import type * as mupdf from "mupdf";
import { QuireError } from "@/lib/core/errors";

/**
 * Page edits done in place on an open document, so everything else of the file survives as it
 * is (metadata, attachments, layers, encryption with the same passwords): deleting pages and
 * setting their rotation. The caller owns the document and saves it with savePdf.
 */

/**
 * Removes the given 0-based pages. MuPDF prunes bookmarks, links and named destinations that
 * pointed at them. Two things are put right here: form fields (a field goes when all its widgets
 * went; MuPDF's own pruning also drops fields of kept pages whose widgets carry no /P), and the
 * catalog, which MuPDF rebuilds with its page tree, outline and destinations only: the other
 * entries (attachments, JavaScript, page mode and layout, language, viewer preferences, layers,
 * XMP metadata...) are put back. The structure tree is not: it would point at deleted pages.
 * Deleting every page → 450 (a PDF needs a page).
 */
export function deletePages(doc: mupdf.PDFDocument, remove: number[]): { kept: number; removed: number } {
  const count = doc.countPages();
  const gone = new Set(remove);
  const keep = Array.from({ length: count }, (_, i) => i).filter((i) => !gone.has(i));
  if (keep.length === 0) {
    throw new QuireError(450, `pages: the selection deletes all ${count} page(s); a PDF must keep at least one page.`);
  }
  if (keep.length === count) return { kept: count, removed: 0 };
  const roots = formRoots(doc);
  const catalog = catalogEntries(doc);
  doc.rearrangePages(keep);
  restoreCatalog(doc, catalog);
  if (roots) restoreFields(doc, roots);
  return { kept: keep.length, removed: count - keep.length };
}

/** Catalog entries that would point at deleted pages, or describe what MuPDF rebuilds itself. */
const CATALOG_REBUILT = new Set(["Type", "Pages", "Outlines", "Dests", "StructTreeRoot", "MarkInfo"]);

function catalogEntries(doc: mupdf.PDFDocument): Map<string, mupdf.PDFObject> {
  const entries = new Map<string, mupdf.PDFObject>();
  doc.getTrailer().get("Root").forEach((value, key) => {
    if (typeof key === "string") entries.set(key, value);
  });
  return entries;
}

/** Puts back the catalog entries MuPDF dropped; /Names keeps MuPDF's pruned /Dests beside the old trees. */
function restoreCatalog(doc: mupdf.PDFDocument, before: Map<string, mupdf.PDFObject>): void {
  const root = doc.getTrailer().get("Root");
  for (const [key, value] of before) {
    if (CATALOG_REBUILT.has(key)) continue;
    if (key !== "Names") {
      if (root.get(key).isNull()) root.put(key, value);
      continue;
    }
    const old = value.resolve();
    if (!old.isDictionary()) continue;
    let names = root.get("Names");
    if (!names.isDictionary()) names = root.put("Names", doc.newDictionary());
    old.forEach((tree, name) => {
      if (typeof name === "string" && name !== "Dests" && names.get(name).isNull()) names.put(name, tree);
    });
  }
}

/**
 * Turns the given pages clockwise by `angle` (a multiple of 90) on top of their current rotation,
 * as viewers show it (ISO 32000-1 §7.7.3.3 /Rotate, which is inheritable: the value is set on
 * the page itself).
 */
export function rotatePages(doc: mupdf.PDFDocument, pages: number[], angle: number): void {
  const turn = normalizeAngle(angle);
  if (turn === 0) return;
  // Every page object is looked up before the first change: a change drops MuPDF's page-tree
  // cache, and a lookup after each one walked the tree again (500 pages: 20 ms instead of 2).
  const objects = [...new Set(pages)].map((i) => doc.findPage(i));
  for (const page of objects) {
    const current = page.getInheritable("Rotate");
    const now = current.isNumber() ? normalizeAngle(Math.round(current.asNumber() / 90) * 90) : 0;
    page.put("Rotate", (now + turn) % 360);
  }
}

/** 0, 90, 180 or 270 for any multiple of 90 (negative turns anticlockwise). */
export function normalizeAngle(angle: number): number {
  return (((angle % 360) + 360) % 360) as 0 | 90 | 180 | 270;
}

/** The document's bytes: a full rewrite, encryption kept as it was; `garbage` drops orphans (deleted pages). */
export function savePdf(doc: mupdf.PDFDocument, collectGarbage: boolean): Uint8Array {
  const buf = doc.saveToBuffer(collectGarbage ? "garbage" : "");
  try {
    return buf.asUint8Array().slice();
  } finally {
    buf.destroy();
  }
}

/** The AcroForm's root fields before an edit (references stay valid across rearranging). */
function formRoots(doc: mupdf.PDFDocument): mupdf.PDFObject[] | null {
  const fields = doc.getTrailer().get("Root", "AcroForm", "Fields");
  if (!fields.isArray() || fields.length === 0) return null;
  const out: mupdf.PDFObject[] = [];
  for (let i = 0; i < fields.length; i++) out.push(fields.get(i));
  return out;
}

/** Rebuilds /AcroForm /Fields from the old roots, keeping the fields that still have a widget on a page. */
function restoreFields(doc: mupdf.PDFDocument, roots: mupdf.PDFObject[]): void {
  const onPages = new Set<number>();
  for (let p = 0; p < doc.countPages(); p++) {
    const annots = doc.findPage(p).get("Annots");
    if (!annots.isArray()) continue;
    for (let i = 0; i < annots.length; i++) {
      const a = annots.get(i);
      if (a.isIndirect()) onPages.add(a.asIndirect());
    }
  }
  const seen = new Set<number>();
  /** Whether the field (sub)tree still has a widget on a page; prunes its Kids in place. */
  const keep = (node: mupdf.PDFObject, depth: number): boolean => {
    if (depth > 64) return false;
    if (node.isIndirect()) {
      if (seen.has(node.asIndirect())) return false;
      seen.add(node.asIndirect());
    }
    const dict = node.resolve();
    if (!dict.isDictionary()) return false;
    const kids = dict.get("Kids");
    const subtype = dict.get("Subtype");
    const isWidget = subtype.isName() && subtype.asName() === "Widget";
    if (!kids.isArray() || kids.length === 0) {
      // A terminal field: its widget (merged with it) must still be on a page; a field without
      // any widget was never on a page and stays.
      return isWidget ? node.isIndirect() && onPages.has(node.asIndirect()) : true;
    }
    const left: mupdf.PDFObject[] = [];
    for (let i = 0; i < kids.length; i++) {
      const kid = kids.get(i);
      if (keep(kid, depth + 1)) left.push(kid);
    }
    if (left.length === kids.length) return true;
    if (left.length === 0) return false;
    const arr = doc.newArray();
    for (const k of left) arr.push(k);
    dict.put("Kids", arr);
    return true;
  };
  const kept = roots.filter((r) => keep(r, 0));
  let form = doc.getTrailer().get("Root", "AcroForm");
  if (!form.isDictionary()) {
    form = doc.addObject(doc.newDictionary());
    doc.getTrailer().get("Root").put("AcroForm", form);
  }
  const arr = doc.newArray();
  for (const k of kept) arr.push(k);
  form.put("Fields", arr);
}
