import "server-only";
import * as mupdf from "mupdf";

/**
 * Copies pages of one PDF into another, page by page, with what lives on them: content,
 * resources and boxes through one graft map (shared fonts and images copied once), annotations
 * with links re-pointed to the copied pages (links to pages left behind are dropped), and form
 * widgets with their fields in the output's AcroForm. Split copies a part of one document into a
 * new one; merge copies every page of several documents into one, sharing one OutputForm.
 */

/** Page keys copied as they are (ISO 32000-1 Table 30); the inheritable ones are looked up. */
const PAGE_KEYS = ["Contents", "BleedBox", "TrimBox", "ArtBox", "UserUnit", "Group", "Tabs"] as const;
const INHERITABLE_PAGE_KEYS = ["Resources", "MediaBox", "CropBox", "Rotate"] as const;
/** Annotation keys rebuilt instead of copied. */
const ANNOT_SKIP = new Set(["P", "Parent", "Popup", "IRT", "StructParent"]);
const FIELD_SKIP = new Set(["P", "Parent", "Kids", "StructParent"]);
/** AcroForm entries that describe the whole form (ISO 32000-1 Table 218), merged across inputs. */
const FORM_KEYS = ["DA", "Q", "NeedAppearances", "SigFlags"] as const;

class DropAnnotation extends Error {}

/**
 * The output's AcroForm, made on first use and shared by every copier writing into the same
 * document. With `renameClashes`, a root field whose name an earlier input already used gets a
 * new name (`name_2`, `name_3`...), so fields of different inputs stay separate fields and keep
 * working; without it, same-named fields of different inputs stay as they are.
 */
export class OutputForm {
  private fieldsArray: mupdf.PDFObject | null = null;
  private form: mupdf.PDFObject | null = null;
  /** Root field name → the input that used it first. */
  private readonly names = new Map<string, number>();
  /** Fields renamed: old name → new names, for messages and tests. */
  readonly renamed: { input: number; from: string; to: string }[] = [];

  constructor(
    readonly out: mupdf.PDFDocument,
    readonly renameClashes = false,
  ) {}

  /** The form dictionary, merging the form-wide entries and default resources of `src` into it. */
  adopt(src: mupdf.PDFDocument, graft: (v: mupdf.PDFObject) => mupdf.PDFObject): void {
    const srcForm = src.getTrailer().get("Root", "AcroForm");
    const form = this.ensure();
    if (!srcForm.isDictionary()) return;
    for (const key of FORM_KEYS) {
      const v = srcForm.get(key);
      if (v.isNull()) continue;
      const mine = form.get(key);
      if (key === "NeedAppearances") {
        if (v.isBoolean() && v.asBoolean()) form.put(key, true);
      } else if (key === "SigFlags") {
        const a = mine.isNumber() ? mine.asNumber() : 0;
        if (v.isNumber()) form.put(key, a | v.asNumber());
      } else if (mine.isNull()) {
        form.put(key, graft(v));
      }
    }
    // Default resources: fonts named by the fields' /DA strings. The first input's entry wins.
    const dr = srcForm.get("DR");
    if (!dr.isDictionary()) return;
    let myDr = form.get("DR");
    if (!myDr.isDictionary()) myDr = form.put("DR", this.out.newDictionary());
    dr.forEach((category, kind) => {
      if (typeof kind !== "string") return;
      const resolved = category.resolve();
      if (!resolved.isDictionary()) {
        if (myDr.get(kind).isNull()) myDr.put(kind, graft(category));
        return;
      }
      let mine = myDr.get(kind);
      if (!mine.isDictionary()) mine = myDr.put(kind, this.out.newDictionary());
      resolved.forEach((value, name) => {
        if (typeof name === "string" && mine.get(name).isNull()) mine.put(name, graft(value));
      });
    });
  }

  /** Adds a root field copied from input `input`, renaming it on a clash when asked. */
  addRoot(field: mupdf.PDFObject, input: number): void {
    const t = field.get("T");
    if (t.isString()) {
      const name = t.asString();
      const owner = this.names.get(name);
      if (owner === undefined) this.names.set(name, input);
      else if (owner !== input && this.renameClashes) {
        let n = input + 1;
        let candidate = `${name}_${n}`;
        while (this.names.has(candidate)) candidate = `${name}_${++n}`;
        field.put("T", this.out.newString(candidate));
        this.names.set(candidate, input);
        this.renamed.push({ input, from: name, to: candidate });
      }
    }
    this.fields().push(field);
  }

  private fields(): mupdf.PDFObject {
    this.ensure();
    return this.fieldsArray!;
  }

  private ensure(): mupdf.PDFObject {
    if (this.form) return this.form;
    const form = this.out.addObject(this.out.newDictionary());
    this.fieldsArray = form.put("Fields", this.out.newArray());
    this.out.getTrailer().get("Root").put("AcroForm", form);
    this.form = form;
    return form;
  }
}

export interface PageCopierOptions {
  /** The output's form, shared when several documents go into one output (merge). */
  form?: OutputForm;
  /** Which input this copier reads (merge), for field renaming. */
  input?: number;
  /**
   * Turn links' named destinations into explicit ones (merge: the output has no name tree, and
   * names of different inputs could clash). Off, a named destination is copied as it is.
   */
  resolveNamedDests?: boolean;
}

export class PageCopier {
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
  droppedSomething = false;
  private formAdopted = false;
  private namedDests: Map<string, mupdf.PDFObject> | null = null;
  readonly form: OutputForm;
  readonly input: number;
  private readonly resolveNamedDests: boolean;

  constructor(
    readonly src: mupdf.PDFDocument,
    readonly out: mupdf.PDFDocument,
    options: PageCopierOptions = {},
  ) {
    this.map = out.newGraftMap();
    this.form = options.form ?? new OutputForm(out);
    this.input = options.input ?? 0;
    this.resolveNamedDests = options.resolveNamedDests ?? false;
  }

  copyPages(pages: number[]): void {
    const sources: { src: mupdf.PDFObject; dst: mupdf.PDFObject }[] = [];
    const append = this.pageAppender();
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
      append.add(ref);
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
    append.done();
    // Annotations second, once every page of the part has its new reference.
    for (const { src, dst } of sources) this.copyAnnots(src, dst);
  }

  /**
   * Appends pages to the output. Where its page tree is flat (one /Kids array holding every page:
   * a new document, or one this copier built), a page goes straight onto that array and /Count
   * is set once at the end; MuPDF's insertPage walked the tree again for each page (25 ms of a
   * 1000-page merge). Any other tree takes insertPage.
   */
  private pageAppender(): { add(ref: mupdf.PDFObject): void; done(): void } {
    const root = this.out.getTrailer().get("Root", "Pages");
    const kids = root.get("Kids");
    const count = root.get("Count");
    const flat = root.isIndirect() && kids.isArray() && count.isNumber() && count.asNumber() === kids.length;
    if (!flat) return { add: (ref) => this.out.insertPage(-1, ref), done: () => {} };
    let added = 0;
    return {
      add: (ref) => {
        ref.put("Parent", root);
        kids.push(ref);
        added++;
      },
      done: () => {
        if (added > 0) root.put("Count", kids.length);
      },
    };
  }

  /**
   * A destination of the source (explicit array, name or string of the name trees) as an
   * explicit destination in the output, or null when it points at a page that was not copied.
   */
  copyDestination(dest: mupdf.PDFObject): mupdf.PDFObject | null {
    const explicit = this.explicitDestination(dest);
    if (!explicit) return null;
    try {
      return this.copyValue(explicit);
    } catch (e) {
      if (e instanceof DropAnnotation) return null;
      throw e;
    }
  }

  /** Grafts any other object (outline colours, URI actions) into the output. */
  copyObject(value: mupdf.PDFObject): mupdf.PDFObject | null {
    try {
      return this.copyValue(value);
    } catch (e) {
      if (e instanceof DropAnnotation) return null;
      throw e;
    }
  }

  /**
   * ISO 32000-1 §12.3.2: a destination is an array, or a name (PDF 1.1 /Dests dictionary) or a
   * string (PDF 1.2 /Names /Dests tree) naming one; a named one may be a dictionary with /D.
   */
  explicitDestination(dest: mupdf.PDFObject): mupdf.PDFObject | null {
    // MuPDF.js cannot resolve its shared null object: look before resolving.
    if (dest.isNull()) return null;
    let d = dest.resolve();
    if (d.isName() || d.isString()) {
      const named = this.lookupNamedDest(d.isName() ? d.asName() : d.asString());
      if (!named || named.isNull()) return null;
      d = named.resolve();
    }
    if (d.isDictionary()) {
      const inner = d.get("D");
      if (inner.isNull()) return null;
      d = inner.resolve();
    }
    return d.isArray() && d.length > 0 ? d : null;
  }

  private lookupNamedDest(name: string): mupdf.PDFObject | undefined {
    if (!this.namedDests) {
      const map = new Map<string, mupdf.PDFObject>();
      try {
        for (const [k, v] of Object.entries(this.src.loadNameTree("Dests"))) map.set(k, v);
      } catch {
        /* no name tree */
      }
      const old = this.src.getTrailer().get("Root", "Dests");
      if (old.isDictionary()) {
        old.forEach((v, k) => {
          if (typeof k === "string" && !map.has(k)) map.set(k, v);
        });
      }
      this.namedDests = map;
    }
    return this.namedDests.get(name);
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
        copy.put(key, this.copyAnnotValue(key, value));
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

  /**
   * A link's named destination becomes an explicit one: the output has no name tree, and the
   * name could clash with another input's. A target page outside the output drops the link.
   */
  private copyAnnotValue(key: string, value: mupdf.PDFObject): mupdf.PDFObject {
    if (!this.resolveNamedDests) return this.copyValue(value);
    if (key === "Dest") {
      const explicit = this.explicitDestination(value);
      if (!explicit) throw new DropAnnotation();
      return this.copyValue(explicit);
    }
    if (key === "A") {
      const action = value.resolve();
      const s = action.isDictionary() ? action.get("S") : action;
      if (s.isName() && s.asName() === "GoTo") {
        const explicit = this.explicitDestination(action.get("D"));
        if (!explicit) throw new DropAnnotation();
        const copy = this.out.newDictionary();
        copy.put("S", this.out.newName("GoTo"));
        copy.put("D", this.copyValue(explicit));
        return copy;
      }
    }
    return this.copyValue(value);
  }

  /** Puts a copied widget into the output's AcroForm, rebuilding its field ancestry. */
  private attachWidget(widget: mupdf.PDFObject, copy: mupdf.PDFObject, parent: mupdf.PDFObject): void {
    this.adoptForm();
    if (parent.isIndirect()) {
      const field = this.copyField(parent);
      copy.put("Parent", field);
      field.get("Kids").push(copy);
    } else if (widget.get("T").isString() || widget.get("FT").isName()) {
      this.form.addRoot(copy, this.input); // a widget merged with its root field
    }
  }

  private adoptForm(): void {
    if (this.formAdopted) return;
    this.formAdopted = true;
    this.form.adopt(this.src, (v) => this.graft(v));
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
      this.form.addRoot(copy, this.input);
    }
    return copy;
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
  graft(value: mupdf.PDFObject): mupdf.PDFObject {
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
