import "server-only";
import * as mupdf from "mupdf";
import { QuireError } from "@/lib/core/errors";
import { parsePageGroups } from "@/lib/engine/pages";

/** One output of a split: its 0-based source pages and its file name. */
export interface SplitPart {
  pages: number[];
  name: string;
}

/**
 * Plans a split from the public API's 1-based `pages` (POST /v1/pdf/split): one output per item;
 * empty = every page on its own. Names are `<base>_page<first>[-<last>].pdf`, the base being
 * the caller's `name` without its extension (default "result", as PDF.co's `result_page1-2.pdf`).
 * A repeated group gets "(2)", "(3)"... so names stay unique. More outputs than pages → 450
 * (public API: "the number of output files cannot exceed the number of pages").
 */
export function planSplit(pageCount: number, pages: string | undefined, name?: string): SplitPart[] {
  const groups =
    (pages ?? "").trim() === ""
      ? Array.from({ length: pageCount }, (_, i) => [i])
      : parsePageGroups(pages, pageCount, 1);
  if (groups.length > pageCount) {
    throw new QuireError(
      450,
      `pages: ${groups.length} output files requested but the document has only ${pageCount} page(s); a split cannot make more files than pages.`,
    );
  }
  const base = splitBaseName(name);
  const used = new Map<string, number>();
  return groups.map((g) => {
    const first = g[0] + 1;
    const last = g[g.length - 1] + 1;
    const stem = `${base}_page${first === last ? first : `${first}-${last}`}`;
    const n = (used.get(stem) ?? 0) + 1;
    used.set(stem, n);
    return { pages: g, name: n === 1 ? `${stem}.pdf` : `${stem}(${n}).pdf` };
  });
}

/** "doc.pdf" → "doc"; path parts and characters unsafe in file names are dropped; default "result". */
export function splitBaseName(name: string | undefined): string {
  const last = (name ?? "").split(/[\\/]/).pop() ?? "";
  const stem = last
    .replace(/\.pdf$/i, "")
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, "")
    .trim();
  return stem === "" || stem === "." || stem === ".." ? "result" : stem.slice(0, 150);
}

/**
 * Copies the given source pages into a new PDF and returns its bytes. Pages are rebuilt from
 * their content, resources and boxes through one graft map (shared fonts and images are copied
 * once per output) and only what those pages use is written, so a part costs time in proportion
 * to its own pages, not to the whole document. Annotations come along: links to pages inside
 * the part are re-pointed, links to pages outside it are dropped, and form widgets keep their
 * fields (a trimmed AcroForm holds just the fields of the part).
 */
export function extractPages(src: mupdf.PDFDocument, pages: number[]): Uint8Array {
  const out = new mupdf.PDFDocument();
  try {
    const copier = new PageCopier(src, out);
    copier.copyPages(pages);
    copyInfo(src, out);
    const buf = out.saveToBuffer(copier.droppedSomething ? "garbage" : "");
    try {
      return buf.asUint8Array().slice();
    } finally {
      buf.destroy();
    }
  } catch (e) {
    if (e instanceof QuireError) throw e;
    const msg = e instanceof Error ? e.message : String(e);
    throw new QuireError(
      442,
      `the PDF is damaged: page(s) ${pages.map((p) => p + 1).join(", ")} could not be copied (${msg.slice(0, 200)}).`,
    );
  } finally {
    out.destroy();
  }
}

/** Splits `src` by the plan, handing each part's bytes to `write` as soon as it is made. */
export function splitPdf(
  src: mupdf.PDFDocument,
  parts: SplitPart[],
  write: (part: SplitPart, bytes: Uint8Array, index: number) => void,
): void {
  parts.forEach((part, i) => write(part, extractPages(src, part.pages), i));
}

/** Page keys copied as they are (ISO 32000-1 Table 30); the inheritable ones are looked up. */
const PAGE_KEYS = ["Contents", "BleedBox", "TrimBox", "ArtBox", "UserUnit", "Group", "Tabs"] as const;
const INHERITABLE_PAGE_KEYS = ["Resources", "MediaBox", "CropBox", "Rotate"] as const;
/** Annotation keys rebuilt instead of copied. */
const ANNOT_SKIP = new Set(["P", "Parent", "Popup", "IRT", "StructParent"]);
const FIELD_SKIP = new Set(["P", "Parent", "Kids", "StructParent"]);
const INFO_KEYS = ["Title", "Author", "Subject", "Keywords", "Creator"] as const;

class DropAnnotation extends Error {}

class PageCopier {
  readonly map: mupdf.PDFGraftMap;
  /** Source page object number → new page reference. */
  readonly pageRefs = new Map<number, mupdf.PDFObject>();
  /** Source annotation object number → its copy (null when dropped). */
  readonly annotRefs = new Map<number, mupdf.PDFObject | null>();
  readonly fieldRefs = new Map<number, mupdf.PDFObject>();
  readonly copied = new Map<number, mupdf.PDFObject>();
  /** Objects copied by the lenient fallback (see graft). */
  readonly lenient = new Map<number, mupdf.PDFObject>();
  /** Object numbers of the annotations on the copied pages. */
  readonly annotsHere = new Set<number>();
  acroFields: mupdf.PDFObject | null = null;
  droppedSomething = false;

  constructor(
    readonly src: mupdf.PDFDocument,
    readonly out: mupdf.PDFDocument,
  ) {
    this.map = out.newGraftMap();
  }

  copyPages(pages: number[]): void {
    const sources: { src: mupdf.PDFObject; dst: mupdf.PDFObject }[] = [];
    for (const index of pages) {
      const srcPage = this.src.findPage(index);
      const dict = this.out.newDictionary();
      dict.put("Type", this.out.newName("Page"));
      for (const key of INHERITABLE_PAGE_KEYS) {
        const v = srcPage.getInheritable(key);
        if (!v.isNull()) dict.put(key, this.graft(v));
      }
      for (const key of PAGE_KEYS) {
        const v = srcPage.get(key);
        if (!v.isNull()) dict.put(key, this.graft(v));
      }
      if (dict.get("MediaBox").isNull()) dict.put("MediaBox", [0, 0, 612, 792]);
      const ref = this.out.addObject(dict);
      this.out.insertPage(-1, ref);
      // A page listed twice gets two copies; links resolve to the first.
      if (srcPage.isIndirect() && !this.pageRefs.has(srcPage.asIndirect()))
        this.pageRefs.set(srcPage.asIndirect(), ref);
      sources.push({ src: srcPage, dst: ref });
      const annots = srcPage.get("Annots");
      if (annots.isArray()) {
        for (let i = 0; i < annots.length; i++) {
          const a = annots.get(i);
          if (a.isIndirect()) this.annotsHere.add(a.asIndirect());
        }
      }
    }
    // Annotations second, once every page of the part has its new reference.
    for (const { src, dst } of sources) this.copyAnnots(src, dst);
  }

  private copyAnnots(srcPage: mupdf.PDFObject, dstPage: mupdf.PDFObject): void {
    const annots = srcPage.get("Annots");
    if (!annots.isArray() || annots.length === 0) return;
    const list = this.out.newArray();
    for (let i = 0; i < annots.length; i++) {
      const copy = this.copyAnnot(annots.get(i));
      if (!copy) continue;
      copy.put("P", dstPage);
      list.push(copy);
    }
    if (list.length > 0) dstPage.put("Annots", list);
  }

  /** Copies one annotation (memoised); null when it cannot live without pages left behind. */
  private copyAnnot(ref: mupdf.PDFObject): mupdf.PDFObject | null {
    const num = ref.isIndirect() ? ref.asIndirect() : -1;
    if (num >= 0 && this.annotRefs.has(num)) return this.annotRefs.get(num) ?? null;
    const a = ref.resolve();
    if (!a.isDictionary()) return null;
    if (num >= 0 && !this.annotsHere.has(num)) return null; // lives on a page not in this part
    const dict = this.out.newDictionary();
    const copy = this.out.addObject(dict);
    if (num >= 0) this.annotRefs.set(num, copy);
    try {
      a.forEach((value, key) => {
        if (typeof key !== "string" || ANNOT_SKIP.has(key)) return;
        copy.put(key, this.copyValue(value));
      });
      const subtype = a.get("Subtype");
      const isPopup = subtype.isName() && subtype.asName() === "Popup";
      // Markup ↔ popup links survive only when both ends are in this part.
      for (const key of ["Popup", "IRT"] as const) {
        const target = a.get(key);
        if (!target.isIndirect()) continue;
        const t = this.copyAnnot(target);
        if (t) copy.put(key, t);
      }
      const parent = a.get("Parent");
      if (isPopup) {
        if (parent.isIndirect()) {
          const p = this.copyAnnot(parent);
          if (!p) throw new DropAnnotation();
          copy.put("Parent", p);
        }
      } else if (subtype.isName() && subtype.asName() === "Widget") {
        this.attachWidget(a, copy, parent);
      }
      return copy;
    } catch (e) {
      if (!(e instanceof DropAnnotation)) throw e;
      if (num >= 0) this.annotRefs.set(num, null);
      this.droppedSomething = true;
      return null;
    }
  }

  /** Puts a copied widget into the trimmed AcroForm, rebuilding its field ancestry. */
  private attachWidget(widget: mupdf.PDFObject, copy: mupdf.PDFObject, parent: mupdf.PDFObject): void {
    if (parent.isIndirect()) {
      const field = this.copyField(parent);
      copy.put("Parent", field);
      field.get("Kids").push(copy);
    } else if (widget.get("T").isString() || widget.get("FT").isName()) {
      this.fields().push(copy); // a widget merged with its root field
    }
  }

  private copyField(ref: mupdf.PDFObject): mupdf.PDFObject {
    const num = ref.asIndirect();
    const known = this.fieldRefs.get(num);
    if (known) return known;
    const node = ref.resolve();
    const copy = this.out.addObject(this.out.newDictionary());
    this.fieldRefs.set(num, copy);
    node.forEach((value, key) => {
      if (typeof key !== "string" || FIELD_SKIP.has(key)) return;
      copy.put(key, this.copyValue(value));
    });
    copy.put("Kids", this.out.newArray());
    const parent = node.get("Parent");
    if (parent.isIndirect() && parent.asIndirect() !== num) {
      const p = this.copyField(parent);
      copy.put("Parent", p);
      p.get("Kids").push(copy);
    } else {
      this.fields().push(copy);
    }
    return copy;
  }

  /** The new document's /AcroForm /Fields, made on first use with the source form's defaults. */
  private fields(): mupdf.PDFObject {
    if (this.acroFields) return this.acroFields;
    const srcForm = this.src.getTrailer().get("Root", "AcroForm");
    const form = this.out.addObject(this.out.newDictionary());
    if (srcForm.isDictionary()) {
      for (const key of ["DA", "Q", "NeedAppearances", "SigFlags", "DR"]) {
        const v = srcForm.get(key);
        if (!v.isNull()) form.put(key, this.graft(v));
      }
    }
    const fields: mupdf.PDFObject = form.put("Fields", this.out.newArray());
    this.out.getTrailer().get("Root").put("AcroForm", form);
    this.acroFields = fields;
    return fields;
  }

  /**
   * Copies an annotation's value. Streams (appearances) and their resources go through the graft
   * map. A reference to a page maps to its copy, or drops the annotation when that page is not
   * in the part: grafting it would drag the whole page tree along.
   */
  private copyValue(value: mupdf.PDFObject, depth = 0): mupdf.PDFObject {
    if (depth > 64) throw new DropAnnotation();
    if (value.isIndirect()) {
      const num = value.asIndirect();
      const known = this.copied.get(num) ?? this.pageRefs.get(num);
      if (known) return known;
      // Stream-ness belongs to the indirect object: test the reference, not what it resolves to.
      if (value.isStream()) return this.graft(value);
      const target = value.resolve();
      if (target.isDictionary()) {
        const type = target.get("Type");
        const typeName = type.isName() ? type.asName() : "";
        if (typeName === "Page" || typeName === "Pages" || typeName === "Catalog") throw new DropAnnotation();
        if (this.annotsHere.has(num) || typeName === "Annot") {
          const a = this.copyAnnot(value);
          if (!a) throw new DropAnnotation();
          return a;
        }
        const copy = this.out.addObject(this.out.newDictionary());
        this.copied.set(num, copy);
        target.forEach((v, k) => {
          if (typeof k === "string") copy.put(k, this.copyValue(v, depth + 1));
        });
        return copy;
      }
      if (target.isArray()) {
        const copy = this.out.addObject(this.out.newArray());
        this.copied.set(num, copy);
        target.forEach((v) => copy.push(this.copyValue(v, depth + 1)));
        return copy;
      }
      return this.graft(target);
    }
    if (value.isDictionary()) {
      const dict = this.out.newDictionary();
      value.forEach((v, k) => {
        if (typeof k === "string") dict.put(k, this.copyValue(v, depth + 1));
      });
      return dict;
    }
    if (value.isArray()) {
      const arr = this.out.newArray();
      value.forEach((v) => arr.push(this.copyValue(v, depth + 1)));
      return arr;
    }
    return this.graft(value);
  }

  /**
   * MuPDF's graft (fast, native) refuses a subtree holding a reference to an object that does
   * not exist. ISO 32000-1 §7.3.10 says such a reference is null, so on failure the subtree is
   * copied again in JS with missing objects as null and streams copied raw (still filtered,
   * already decrypted).
   */
  private graft(value: mupdf.PDFObject): mupdf.PDFObject {
    try {
      return this.map.graftObject(value);
    } catch {
      return this.copyLenient(value, 0);
    }
  }

  private copyLenient(value: mupdf.PDFObject, depth: number): mupdf.PDFObject {
    if (depth > 100) return this.out.newNull();
    if (value.isIndirect()) {
      const num = value.asIndirect();
      const known = this.lenient.get(num) ?? this.pageRefs.get(num);
      if (known) return known;
      const target = value.resolve();
      if (target.isNull()) return this.out.newNull();
      if (value.isStream()) {
        const raw = value.readRawStream();
        const copy = this.out.addRawStream(raw, this.out.newDictionary());
        raw.destroy();
        this.lenient.set(num, copy);
        target.forEach((v, k) => {
          if (typeof k === "string" && k !== "Length") copy.put(k, this.copyLenient(v, depth + 1));
        });
        return copy;
      }
      if (target.isDictionary()) {
        const type = target.get("Type");
        if (type.isName() && ["Page", "Pages", "Catalog"].includes(type.asName())) return this.out.newNull();
        const copy = this.out.addObject(this.out.newDictionary());
        this.lenient.set(num, copy);
        target.forEach((v, k) => {
          if (typeof k === "string") copy.put(k, this.copyLenient(v, depth + 1));
        });
        return copy;
      }
      if (target.isArray()) {
        const copy = this.out.addObject(this.out.newArray());
        this.lenient.set(num, copy);
        target.forEach((v) => copy.push(this.copyLenient(v, depth + 1)));
        return copy;
      }
      return this.copyLenient(target, depth + 1);
    }
    if (value.isDictionary()) {
      const dict = this.out.newDictionary();
      value.forEach((v, k) => {
        if (typeof k === "string") dict.put(k, this.copyLenient(v, depth + 1));
      });
      return dict;
    }
    if (value.isArray()) {
      const arr = this.out.newArray();
      value.forEach((v) => arr.push(this.copyLenient(v, depth + 1)));
      return arr;
    }
    return this.map.graftObject(value); // a direct scalar: cannot fail
  }
}

/** Keeps the descriptive Info entries (not the dates or producer) on each part. */
function copyInfo(src: mupdf.PDFDocument, out: mupdf.PDFDocument): void {
  for (const key of INFO_KEYS) {
    const v = src.getMetaData(`info:${key}`);
    if (v) out.setMetaData(`info:${key}`, v);
  }
}
