import "server-only";
import * as mupdf from "mupdf";
import { QuireError } from "@/lib/core/errors";
import { fmt } from "@/lib/engine/edit/color";
import { loadPdfPage } from "@/lib/engine/pdf/open-pdf";

/**
 * Makes pages unsearchable (POST /v1/pdf/makeunsearchable, and `makeUnsearchable` of the text
 * edits): each page is rendered with its annotations and form fields, and its content becomes
 * that one picture. Page size, boxes and /Rotate stay; link annotations stay (they hold no text),
 * every other annotation is part of the picture now.
 */
export interface RasterizeOptions {
  /** Render resolution (default 200 dpi). */
  dpi?: number;
  /** JPEG quality 1–100 (default 85). */
  quality?: number;
}

/** The one limit of a rendered page (docs/limits.md), as renderPage applies it. */
const MAX_PIXELS = 50_000_000;

/** Replaces the content of the 0-based `pages` by a rendered image of each. */
export function rasterizePages(doc: mupdf.PDFDocument, pages: number[], opts: RasterizeOptions = {}): void {
  const dpi = opts.dpi ?? 200;
  const quality = opts.quality ?? 85;
  for (const index of pages) {
    const page = loadPdfPage(doc, index);
    try {
      const bounds = page.getBounds();
      const pixels = Math.ceil((bounds[2] - bounds[0]) * (dpi / 72)) * Math.ceil((bounds[3] - bounds[1]) * (dpi / 72));
      if (pixels > MAX_PIXELS) {
        throw new QuireError(
          413,
          `page ${index} at ${dpi} dpi would be ${pixels.toLocaleString("en-US")} pixels, more than the limit of ${MAX_PIXELS.toLocaleString("en-US")}; use a lower resolution.`,
        );
      }
      const pix = page.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceRGB, false, true);
      let jpeg: Uint8Array;
      try {
        jpeg = pix.asJPEG(quality);
      } finally {
        pix.destroy();
      }
      const image = new mupdf.Image(jpeg);
      const ref = doc.addImage(image);
      image.destroy();
      const obj = page.getObject();
      const resources = doc.newDictionary();
      resources.put("XObject", doc.newDictionary()).put("QuireIm1", ref);
      const [x0, y0, x1, y1] = bounds;
      const w = x1 - x0;
      const h = y1 - y0;
      // The picture fills the page as displayed; the inverse page transform brings display space back to PDF space.
      const inv = mupdf.Matrix.invert(page.getTransform());
      const content = `q\n${inv.map(fmt).join(" ")} cm\n${fmt(w)} 0 0 ${fmt(-h)} ${fmt(x0)} ${fmt(y0 + h)} cm\n/QuireIm1 Do\nQ\n`;
      obj.put("Resources", resources);
      obj.put("Contents", doc.addStream(content, {}));
      keepOnlyLinks(doc, obj);
      obj.delete("Group");
    } finally {
      page.destroy();
    }
  }
  if (pages.length === doc.countPages()) {
    // Every widget is now part of a picture: the form has no fields left to fill.
    doc.getTrailer().get("Root").delete("AcroForm");
  }
}

function keepOnlyLinks(doc: mupdf.PDFDocument, page: mupdf.PDFObject): void {
  const annots = page.get("Annots");
  if (!annots.isArray()) return;
  const kept = doc.newArray();
  for (let i = 0; i < annots.length; i++) {
    const a = annots.get(i);
    if (a.get("Subtype").isName() && a.get("Subtype").asName() === "Link") kept.push(a);
  }
  if (kept.length) page.put("Annots", kept);
  else page.delete("Annots");
}
