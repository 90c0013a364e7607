import "server-only";
import * as mupdf from "mupdf";
import { fmt } from "./color";

export type Rect4 = [number, number, number, number];

/**
 * Drawing on an existing page in "display space": points from the top-left corner of the page
 * as a viewer shows it (crop box, /Rotate applied), y growing downwards — the coordinates the
 * API takes. MuPDF's page transform maps PDF user space to that space; our content stream
 * starts with its inverse, so everything after it is written in display space.
 */
export class PageCanvas {
  readonly page: mupdf.PDFPage;
  readonly obj: mupdf.PDFObject;
  /** PDF user space → display space. */
  readonly ctm: mupdf.Matrix;
  /** Display-space bounds of the page: [x0, y0, x1, y1]. */
  readonly bounds: Rect4;
  private ops: string[] = [];
  private names = new Map<string, string>();
  private resources: mupdf.PDFObject | null = null;

  constructor(
    private doc: mupdf.PDFDocument,
    readonly index: number,
  ) {
    this.page = doc.loadPage(index);
    this.obj = this.page.getObject();
    this.ctm = this.page.getTransform();
    this.bounds = this.page.getBounds() as Rect4;
  }

  get width(): number {
    return this.bounds[2] - this.bounds[0];
  }

  get height(): number {
    return this.bounds[3] - this.bounds[1];
  }

  /** API coordinates (from the top-left) → display space. */
  point(x: number, y: number): [number, number] {
    return [this.bounds[0] + x, this.bounds[1] + y];
  }

  /** A display-space rectangle in PDF user space (for annotation /Rect). */
  toPdfRect(r: Rect4): Rect4 {
    const inv = mupdf.Matrix.invert(this.ctm);
    return mupdf.Rect.transform(r, inv) as Rect4;
  }

  /** Appends content-stream operators (display space). */
  draw(...ops: string[]): void {
    this.ops.push(...ops);
  }

  /** The page's own /Resources dictionary, made from the inherited one when the page has none. */
  private res(): mupdf.PDFObject {
    if (this.resources) return this.resources;
    let res = this.obj.get("Resources");
    if (!res.isDictionary()) {
      const inherited = this.obj.getInheritable("Resources");
      res = this.doc.newDictionary();
      if (inherited.isDictionary()) inherited.forEach((v, k) => res.put(k, v));
      res = this.obj.put("Resources", res);
    }
    this.resources = res;
    return res;
  }

  /** The resource name under which `ref` is reachable in category `cat` (Font, XObject, ExtGState). */
  resource(cat: "Font" | "XObject" | "ExtGState", ref: mupdf.PDFObject, prefix: string): string {
    const key = `${cat}:${ref.isIndirect() ? ref.asIndirect() : ref.toString()}`;
    const known = this.names.get(key);
    if (known) return known;
    const res = this.res();
    let sub = res.get(cat);
    if (!sub.isDictionary()) sub = res.put(cat, this.doc.newDictionary());
    let n = 1;
    while (!sub.get(`${prefix}${n}`).isNull()) n++;
    const name = `${prefix}${n}`;
    sub.put(name, ref);
    this.names.set(key, name);
    return name;
  }

  /** An ExtGState with fill and stroke opacity `alpha` (cached per page). */
  opacity(alpha: number): string {
    const a = Math.round(alpha * 1000) / 1000;
    const key = `alpha:${a}`;
    const known = this.names.get(key);
    if (known) return known;
    const gs = this.doc.addObject(this.doc.newDictionary());
    gs.put("Type", this.doc.newName("ExtGState"));
    gs.put("ca", a);
    gs.put("CA", a);
    const name = this.resource("ExtGState", gs, "QuireGS");
    this.names.set(key, name);
    return name;
  }

  /**
   * Writes the collected drawing after the page's content. The old content is wrapped in q/Q so
   * a graphics state it leaves behind (an unbalanced cm, a clip) cannot move or hide ours.
   */
  commit(): void {
    if (this.ops.length === 0) return;
    const inv = mupdf.Matrix.invert(this.ctm);
    const body = `q\n${inv.map(fmt).join(" ")} cm\n${this.ops.join("\n")}\nQ\n`;
    const contents = this.obj.get("Contents");
    const list = this.doc.newArray();
    const old: mupdf.PDFObject[] = [];
    const resolved = contents.resolve();
    if (resolved.isArray()) for (let i = 0; i < resolved.length; i++) old.push(resolved.get(i));
    else if (contents.isStream()) old.push(contents);
    if (old.length) {
      list.push(this.doc.addStream("q\n", {}));
      for (const o of old) list.push(o);
      list.push(this.doc.addStream(`Q\n${body}`, {}));
    } else list.push(this.doc.addStream(body, {}));
    this.obj.put("Contents", list);
    this.ops = [];
  }

  /** A URI link over a display-space rectangle. */
  link(rect: Rect4, uri: string): void {
    this.page.createLink(rect, uri);
  }
}
