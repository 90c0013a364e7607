import "server-only";
import * as mupdf from "mupdf";
import { QuireError, isQuireError } from "@/lib/core/errors";
import { parsePages } from "@/lib/engine/pages";
import { openPdfWithAccess } from "@/lib/engine/pdf/open-pdf";
import { parseColor, fmt, type Rgba } from "./color";
import { drawTextBlock, type TextBlock } from "./draw-text";
import { FontBook, resolveFace, type Face } from "./fonts";
import { createField, existingFieldNames, fillFields } from "./form-fields";
import { expandMacros } from "./macros";
import { PageCanvas, type Rect4 } from "./page-canvas";
import { loadStampImage, placedSize, type StampImage } from "./stamp-image";
import { layoutLines, DEFAULT_LEADING } from "./text-layout";
import type { EditRequest, ImageLoader, TextAnnotation } from "./types";

export interface EditResult {
  bytes: Uint8Array;
  pageCount: number;
  notes: string[];
}

/** Pages of a 0-based selection, with errors naming the item (`annotations[2].pages: ...`). */
function pagesOf(spec: string | undefined, pageCount: number, field: string): number[] {
  try {
    return parsePages(spec, pageCount, 0);
  } catch (e) {
    if (isQuireError(e)) throw new QuireError(e.status, `${field}.${e.message}`);
    throw e;
  }
}

/** Links open http(s), mailto: or tel: targets; a bare host gets https://. Script URLs are refused. */
export function normalizeLink(link: string, field: string): string {
  const l = link.trim();
  if (/^(https?:\/\/|mailto:|tel:)/i.test(l)) return l;
  if (/^[a-z][a-z0-9+.-]*:/i.test(l))
    throw new QuireError(454, `${field}: only http(s), mailto: and tel: links are allowed.`);
  if (/^[\w-]+(\.[\w-]+)+([/?#].*)?$/.test(l)) return `https://${l}`;
  throw new QuireError(454, `${field}: "${l}" is not a URL.`);
}

interface PreparedText {
  ann: TextAnnotation;
  field: string;
  color: Rgba;
  face: Face;
  pages: number[];
  link?: string;
}

/**
 * Adds text, form fields, images and links to a PDF and fills existing form fields
 * (POST /v1/pdf/edit/add). Everything is validated before the document is changed.
 */
export async function editPdf(
  input: Uint8Array,
  req: EditRequest,
  loadImage: ImageLoader,
): Promise<EditResult> {
  const notes: string[] = [];
  const { doc, access } = openPdfWithAccess(input, req.password);
  try {
    const pageCount = doc.countPages();
    checkPermissions(doc, access, req);

    // 1. Validate and prepare everything (nothing is written yet).
    const texts: PreparedText[] = req.annotations.map((ann, i) => {
      const field = `annotations[${i}]`;
      return {
        ann,
        field,
        color: parseColor(ann.color, `${field}.color`),
        face: resolveFace(ann.fontName, ann.fontBold, ann.fontItalic),
        pages: pagesOf(ann.pages, pageCount, field),
        link: ann.link ? normalizeLink(ann.link, `${field}.link`) : undefined,
      };
    });
    const stamps = req.images.map((img, i) => ({
      img,
      field: `images[${i}]`,
      pages: pagesOf(img.pages, pageCount, `images[${i}]`),
      link: img.link ? normalizeLink(img.link, `images[${i}].link`) : undefined,
    }));
    const fills = req.fields.map((f, i) => ({
      fieldName: f.fieldName,
      text: f.text,
      pages: f.pages ? new Set(pagesOf(f.pages, pageCount, `fields[${i}]`)) : undefined,
    }));
    const loaded = new Map<string, StampImage>();
    for (const s of stamps) {
      if (!loaded.has(s.img.url))
        loaded.set(s.img.url, await loadStampImage(s.img.url, `${s.field}.url`, loadImage));
    }

    // 2. Lay out text (macros differ per page), then create the fonts it needs.
    const book = new FontBook(doc);
    const blocks: { p: PreparedText; page: number; block: TextBlock; text: string }[] = [];
    for (const p of texts) {
      for (const page of p.pages) {
        const text = expandMacros(p.ann.text, { pageNumber: page + 1, pageCount, data: req.templateData });
        const lines = p.ann.type === "Text" ? layoutLines(text, p.face, p.ann.size, book, p.ann.width) : [];
        blocks.push({
          p,
          page,
          text,
          block: {
            lines,
            x: p.ann.x,
            y: p.ann.y,
            size: p.ann.size,
            leading: p.ann.leading,
            width: p.ann.width,
            height: p.ann.height,
            alignment: p.ann.alignment,
            color: p.color,
            face: p.face,
            underline: p.ann.fontUnderline,
            strikeout: p.ann.fontStrikeout,
            background: !p.ann.transparent,
          },
        });
      }
    }
    book.finalize();

    // 3. Draw on the pages.
    const canvases = new Map<number, PageCanvas>();
    const canvas = (i: number) => {
      let c = canvases.get(i);
      if (!c) canvases.set(i, (c = new PageCanvas(doc, i)));
      return c;
    };
    const imageRefs = new Map<string, mupdf.PDFObject>();
    for (const b of blocks) {
      if (b.p.ann.type !== "Text") continue;
      const c = canvas(b.page);
      const box = drawTextBlock(c, b.block);
      if (b.p.link && box[2] > box[0] && box[3] > box[1]) c.link(box, b.p.link);
    }
    for (const s of stamps) {
      const img = loaded.get(s.img.url)!;
      let ref = imageRefs.get(s.img.url);
      if (!ref) imageRefs.set(s.img.url, (ref = doc.addImage(img.image)));
      const { width, height } = placedSize(img, s.img.width, s.img.height);
      for (const page of s.pages) {
        const c = canvas(page);
        const name = c.resource("XObject", ref, "QuireIm");
        const [x, y] = c.point(s.img.x, s.img.y);
        c.draw(`q ${fmt(width)} 0 0 ${fmt(-height)} ${fmt(x)} ${fmt(y + height)} cm /${name} Do Q`);
        if (s.link) c.link([x, y, x + width, y + height], s.link);
      }
    }
    for (const c of canvases.values()) c.commit();

    // 4. New form fields: one field per annotation, one widget per page.
    const taken = existingFieldNames(doc);
    let auto = 0;
    for (const p of texts) {
      if (p.ann.type === "Text") continue;
      let name = p.ann.id?.trim() || "";
      if (!name) {
        do name = `field${++auto}`;
        while (taken.has(name));
      } else if (taken.has(name)) {
        const wanted = name;
        let n = 2;
        while (taken.has(`${wanted}_${n}`)) n++;
        name = `${wanted}_${n}`;
        notes.push(`${p.field}: a field named "${wanted}" already exists, so the new one is "${name}"`);
      }
      taken.add(name);
      const mine = blocks.filter((b) => b.p === p);
      const first = mine[0];
      if (!first) continue;
      const kind =
        p.ann.type === "TextField" ? "text" : p.ann.type === "TextFieldMultiline" ? "multiline" : "checkbox";
      createField(doc, {
        kind,
        name,
        value: kind === "checkbox" ? "" : first.text,
        checked: p.ann.type === "CheckboxChecked",
        size: p.ann.size,
        color: p.color,
        background: !p.ann.transparent,
        widgets: mine.map((b) => {
          const c = canvas(b.page);
          return { canvas: c, rect: fieldRect(c, p.ann, b.text, kind, book, p.face) };
        }),
      });
      if (p.link)
        for (const b of mine)
          canvas(b.page).link(fieldRect(canvas(b.page), p.ann, b.text, kind, book, p.face), p.link);
    }

    // 5. Fill existing fields.
    if (fills.length) fillFields(doc, fills);

    if (book.missing.size) {
      const chars = [...book.missing].slice(0, 20).join(" ");
      notes.push(`no available font has these characters, drawn as "?": ${chars}`);
    }
    const buf = doc.saveToBuffer("garbage,compress");
    try {
      return { bytes: buf.asUint8Array().slice(), pageCount, notes };
    } finally {
      buf.destroy();
    }
  } finally {
    doc.destroy();
  }
}

/** The widget rectangle: width/height when given, else sized for the text and font size. */
function fieldRect(
  c: PageCanvas,
  ann: TextAnnotation,
  text: string,
  kind: "text" | "multiline" | "checkbox",
  book: FontBook,
  face: Face,
): Rect4 {
  const [x, y] = c.point(ann.x, ann.y);
  if (kind === "checkbox") {
    const side = ann.size + 2;
    return [x, y, x + (ann.width ?? side), y + (ann.height ?? side)];
  }
  const lines = text.split("\n");
  const textWidth = Math.max(0, ...lines.map((l) => book.measure(l, face) * ann.size));
  const w = ann.width ?? Math.max(100, textWidth + 8);
  const leading = ann.leading ?? ann.size * DEFAULT_LEADING;
  const h =
    ann.height ?? (kind === "multiline" ? Math.max(3, lines.length) * leading + 6 : ann.size * 1.6 + 2);
  return [x, y, x + w, y + h];
}

/**
 * An encrypted PDF opened without its owner password keeps its permission flags
 * (ISO 32000-1 Table 22): adding content needs "edit", new fields and links need "annotate",
 * filling fields needs "form" (or "annotate").
 */
function checkPermissions(doc: mupdf.PDFDocument, access: string, req: EditRequest): void {
  if (access === "owner" || access === "none") return;
  const hint = "send the owner password in `password`.";
  const drawsText = req.annotations.some((a) => a.type === "Text") || req.images.length > 0;
  if (drawsText && !doc.hasPermission("edit")) {
    throw new QuireError(443, `this PDF's permissions forbid changing its content: ${hint}`);
  }
  const annotates =
    req.annotations.some((a) => a.type !== "Text" || a.link) || req.images.some((i) => i.link);
  if (annotates && !doc.hasPermission("annotate")) {
    throw new QuireError(443, `this PDF's permissions forbid adding form fields and links: ${hint}`);
  }
  if (req.fields.length && !doc.hasPermission("form") && !doc.hasPermission("annotate")) {
    throw new QuireError(443, `this PDF's permissions forbid filling its form: ${hint}`);
  }
}
