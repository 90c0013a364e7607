import "server-only";
import * as mupdf from "mupdf";
import { loadPdfPage } from "@/lib/engine/pdf/open-pdf";

/** An image drawn on a page: its box (pt, top-left origin, displayed page space) and PNG bytes. */
export interface PageImage {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  png: Buffer;
  /** Pixel size of the image itself. */
  width: number;
  height: number;
}

/**
 * The images of one page, top to bottom, as PNG. Images smaller than `minSize` pt on a side
 * (rules drawn as images, dots) are skipped; at most `max` per page.
 */
export function extractPageImages(doc: mupdf.Document, index: number, opts: { minSize?: number; max?: number } = {}): PageImage[] {
  const minSize = opts.minSize ?? 4;
  const max = opts.max ?? 200;
  const page = loadPdfPage(doc, index);
  const out: PageImage[] = [];
  try {
    const [bx0, by0] = page.getBounds();
    const stext = page.toStructuredText("preserve-images");
    try {
      stext.walk({
        onImageBlock(bbox, _transform, image) {
          try {
            if (out.length >= max) return;
            if (bbox[2] - bbox[0] < minSize || bbox[3] - bbox[1] < minSize) return;
            const pix = image.toPixmap();
            try {
              // PNG wants gray or RGB: convert anything else (CMYK, indexed...).
              const cs = pix.getColorSpace();
              const n = cs ? cs.getNumberOfComponents() : 0;
              let src = pix;
              if (n !== 1 && n !== 3) src = pix.convertToColorSpace(mupdf.ColorSpace.DeviceRGB);
              try {
                out.push({
                  x0: bbox[0] - bx0,
                  y0: bbox[1] - by0,
                  x1: bbox[2] - bx0,
                  y1: bbox[3] - by0,
                  png: Buffer.from(src.asPNG()),
                  width: src.getWidth(),
                  height: src.getHeight(),
                });
              } finally {
                if (src !== pix) src.destroy();
              }
            } finally {
              pix.destroy();
            }
          } catch {
            // An undecodable image is left out rather than failing the page.
          } finally {
            image.destroy();
          }
        },
      });
    } finally {
      stext.destroy();
    }
  } finally {
    page.destroy();
  }
  return out.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
}
