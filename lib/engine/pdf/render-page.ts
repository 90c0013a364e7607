import "server-only";
import * as mupdf from "mupdf";
import { QuireError } from "@/lib/core/errors";
import { openPdf, loadPdfPage } from "@/lib/engine/pdf/open-pdf";

export interface RenderOptions {
  /** Resolution in dots per inch (default 96; 1 to 1200). */
  dpi?: number;
  /** Keep a transparent background instead of white. */
  alpha?: boolean;
  /** Draw annotations and form widgets too (default true). */
  annotations?: boolean;
  /** Refuse renders above this many pixels (default 50 million ≈ Letter at 1000 dpi). */
  maxPixels?: number;
}

export interface RenderedPage {
  png: Uint8Array;
  width: number;
  height: number;
}

/** Renders one page (0-based) of an open PDF to PNG. Past the end → 449; absurd sizes → 454. */
export function renderPage(
  doc: mupdf.PDFDocument,
  pageIndex: number,
  options: RenderOptions = {},
): RenderedPage {
  const { dpi = 96, alpha = false, annotations = true, maxPixels = 50_000_000 } = options;
  if (!Number.isFinite(dpi) || dpi < 1 || dpi > 1200)
    throw new QuireError(454, `dpi: use 1 to 1200, got ${dpi}.`);
  const count = doc.countPages();
  if (!Number.isInteger(pageIndex) || pageIndex < 0 || pageIndex >= count) {
    throw new QuireError(
      449,
      `page ${pageIndex} is past the last page (${count - 1}); the document has ${count} page(s).`,
    );
  }
  const page = loadPdfPage(doc, pageIndex);
  try {
    const scale = dpi / 72;
    const [x0, y0, x1, y1] = page.getBounds();
    const pixels = Math.ceil((x1 - x0) * scale) * Math.ceil((y1 - y0) * scale);
    if (pixels > maxPixels) {
      throw new QuireError(
        413,
        `page ${pageIndex} at ${dpi} dpi would be ${pixels.toLocaleString("en-US")} pixels, more than the limit of ${maxPixels.toLocaleString("en-US")}; use a lower resolution.`,
      );
    }
    const pixmap = page.toPixmap(
      mupdf.Matrix.scale(scale, scale),
      mupdf.ColorSpace.DeviceRGB,
      alpha,
      annotations,
    );
    try {
      pixmap.setResolution(Math.round(dpi), Math.round(dpi));
      return { png: pixmap.asPNG().slice(), width: pixmap.getWidth(), height: pixmap.getHeight() };
    } finally {
      pixmap.destroy();
    }
  } finally {
    page.destroy();
  }
}

/** Convenience for previews and tests: opens the bytes, renders one page, closes. */
export function renderPdfPage(
  bytes: Uint8Array,
  pageIndex: number,
  options: RenderOptions & { password?: string } = {},
): RenderedPage {
  const doc = openPdf(bytes, options.password);
  try {
    return renderPage(doc, pageIndex, options);
  } finally {
    doc.destroy();
  }
}
