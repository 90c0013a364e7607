import "server-only";
import * as mupdf from "mupdf";
import { QuireError } from "@/lib/core/errors";
import { OutputForm, PageCopier } from "./page-copier";
import { copyInfo } from "./split-pdf";

export interface MergeOptions {
  /**
   * Rename a form field whose name an earlier input already used (`name` → `name_2`), so the
   * inputs' forms keep working side by side (profile RenameMatchingFieldsDuringMerge, default true).
   */
  renameFields?: boolean;
  /** One top-level bookmark per input, named by its title, holding that input's own bookmarks. */
  generateBookmarks?: boolean;
}

/** A bookmark of the output, built from an input's outline before it is written. */
interface OutlineNode {
  title: mupdf.PDFObject;
  dest: mupdf.PDFObject | null;
  action: mupdf.PDFObject | null;
  color: mupdf.PDFObject | null;
  flags: number;
  open: boolean;
  children: OutlineNode[];
}

const MAX_OUTLINE_DEPTH = 64;
const MAX_OUTLINE_ITEMS = 100_000;

/**
 * Merges PDFs in order into one: every page with its annotations and links (named destinations
 * made explicit), the form fields of every input in one AcroForm (clashing names renamed unless
 * asked not to), and every input's bookmarks re-pointed to the merged pages. The descriptive
 * Info entries come from the first input. Inputs are added one at a time, so the caller can
 * open, add and close them in turn and hold one input in memory at a time.
 */
export class PdfMerger {
  private readonly out = new mupdf.PDFDocument();
  private readonly form: OutputForm;
  private readonly outline: OutlineNode[] = [];
  private inputs = 0;
  private pages = 0;
  private dropped = false;
  private outlineItems = 0;

  constructor(private readonly options: MergeOptions = {}) {
    this.form = new OutputForm(this.out, options.renameFields ?? true);
  }

  /** Pages in the output so far. */
  get pageCount(): number {
    return this.pages;
  }

  /** Form fields renamed because an earlier input used the name: input index, old and new name. */
  get renamedFields(): readonly { input: number; from: string; to: string }[] {
    return this.form.renamed;
  }

  /**
   * Appends every page of `doc` (owned by the caller), its fields and bookmarks; `title` names
   * its generated bookmark. A page that cannot be copied → 442.
   */
  add(doc: mupdf.PDFDocument, title: string): number {
    const index = this.inputs++;
    const copier = new PageCopier(doc, this.out, { form: this.form, input: index, resolveNamedDests: true });
    const count = doc.countPages();
    try {
      copier.copyPages(Array.from({ length: count }, (_, i) => i));
    } catch (e) {
      if (e instanceof QuireError) throw e;
      throw new QuireError(442, `the PDF is damaged: its pages could not be copied (${describe(e)}).`);
    }
    if (index === 0) copyInfo(doc, this.out);
    const items = this.readOutline(copier, doc);
    if (this.options.generateBookmarks) {
      const first = this.out.findPage(this.pages);
      const dest = this.out.newArray();
      dest.push(first);
      dest.push(this.out.newName("Fit"));
      this.outline.push({
        title: this.out.newString(title),
        dest,
        action: null,
        color: null,
        flags: 0,
        open: false,
        children: items,
      });
    } else {
      this.outline.push(...items);
    }
    this.pages += count;
    this.dropped ||= copier.droppedSomething;
    return count;
  }

  /** The merged PDF's bytes. */
  finish(): Uint8Array {
    if (this.pages === 0) throw new QuireError(400, "url: nothing to merge; give the URLs of one or more documents.");
    this.writeOutline();
    // Dropped annotations may leave orphans behind: collect them only then (it costs a full pass).
    const buf = this.out.saveToBuffer(this.dropped ? "garbage" : "");
    try {
      return buf.asUint8Array().slice();
    } finally {
      buf.destroy();
    }
  }

  destroy(): void {
    this.out.destroy();
  }

  /** The input's outline (ISO 32000-1 §12.3.3) as nodes of the output; cycles and runaway trees are cut. */
  private readOutline(copier: PageCopier, doc: mupdf.PDFDocument): OutlineNode[] {
    const root = doc.getTrailer().get("Root", "Outlines");
    if (!root.isDictionary()) return [];
    const seen = new Set<number>();
    const walk = (first: mupdf.PDFObject, depth: number): OutlineNode[] => {
      const nodes: OutlineNode[] = [];
      if (depth > MAX_OUTLINE_DEPTH) return nodes;
      let item = first;
      while (item.isIndirect() && !seen.has(item.asIndirect()) && this.outlineItems < MAX_OUTLINE_ITEMS) {
        seen.add(item.asIndirect());
        this.outlineItems++;
        const dict = item.resolve();
        if (!dict.isDictionary()) break;
        const node = this.readItem(copier, dict);
        node.children = walk(dict.get("First"), depth + 1);
        if (node.dest || node.action || node.children.length > 0) nodes.push(node);
        item = dict.get("Next");
      }
      return nodes;
    };
    try {
      return walk(root.get("First"), 0);
    } catch {
      // A broken outline must not cost the merge: the pages are what matters.
      return [];
    }
  }

  private readItem(copier: PageCopier, dict: mupdf.PDFObject): OutlineNode {
    const title = dict.get("Title");
    let dest: mupdf.PDFObject | null = null;
    let action: mupdf.PDFObject | null = null;
    const d = dict.get("Dest");
    const a = resolved(dict.get("A"));
    if (!d.isNull()) dest = copier.copyDestination(d);
    else if (a.isDictionary()) {
      const s = a.get("S");
      if (s.isName() && s.asName() === "GoTo") dest = copier.copyDestination(a.get("D"));
      else action = copier.copyObject(a);
    }
    const c = dict.get("C");
    const f = dict.get("F");
    const count = dict.get("Count");
    return {
      title: title.isString() ? copier.graft(title) : this.out.newString(""),
      dest,
      action,
      color: c.isArray() ? copier.copyObject(c) : null,
      flags: f.isNumber() ? f.asNumber() : 0,
      open: count.isNumber() && count.asNumber() > 0,
      children: [],
    };
  }

  private writeOutline(): void {
    if (this.outline.length === 0) return;
    const root = this.out.addObject(this.out.newDictionary());
    root.put("Type", this.out.newName("Outlines"));
    const visible = this.link(root, this.outline);
    root.put("Count", visible);
    this.out.getTrailer().get("Root").put("Outlines", root);
  }

  /** Writes sibling items under `parent`; returns how many items are visible below it. */
  private link(parent: mupdf.PDFObject, nodes: OutlineNode[]): number {
    const refs = nodes.map(() => this.out.addObject(this.out.newDictionary()));
    let visible = 0;
    nodes.forEach((n, i) => {
      const d = refs[i];
      d.put("Title", n.title);
      d.put("Parent", parent);
      if (i > 0) d.put("Prev", refs[i - 1]);
      if (i < refs.length - 1) d.put("Next", refs[i + 1]);
      if (n.dest) d.put("Dest", n.dest);
      else if (n.action) d.put("A", n.action);
      if (n.color) d.put("C", n.color);
      if (n.flags) d.put("F", n.flags);
      visible++;
      if (n.children.length > 0) {
        const below = this.link(d, n.children);
        d.put("Count", n.open ? below : -below);
        if (n.open) visible += below;
      }
    });
    parent.put("First", refs[0]);
    parent.put("Last", refs[refs.length - 1]);
    return visible;
  }
}

/** MuPDF.js cannot resolve its shared null object: look before resolving. */
function resolved(o: mupdf.PDFObject): mupdf.PDFObject {
  return o.isNull() ? o : o.resolve();
}

function describe(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return msg.replace(/\s+/g, " ").trim().slice(0, 200) || "unknown error";
}
