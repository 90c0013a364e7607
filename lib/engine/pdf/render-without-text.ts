import "server-only";
import * as mupdf from "mupdf";

/**
 * Draws everything but text (images, vector art) on white: the background of PDF → HTML pages
 * and the input of OCR mode TextFromImagesOnly.
 */
export function renderWithoutText(page: mupdf.Page, matrix: mupdf.Matrix, cs: mupdf.ColorSpace, filter: TextFilter = {}): mupdf.Pixmap {
  const bounds = mupdf.Rect.transform(page.getBounds(), matrix);
  const pix = new mupdf.Pixmap(cs, [Math.floor(bounds[0]), Math.floor(bounds[1]), Math.ceil(bounds[2]), Math.ceil(bounds[3])], false);
  pix.clear(255);
  const draw = new mupdf.DrawDevice(matrix, pix);
  try {
    runWithoutText(page, draw, mupdf.Matrix.identity, filter);
    draw.close();
  } finally {
    draw.destroy();
  }
  return pix;
}

/** What a text-dropping device keeps or reports; everything optional. */
export interface TextFilter {
  /**
   * Glyphs of a filled or stroked text to draw after all: return a new Text holding them (the
   * device draws and destroys it) or null to drop the text. Default: drop every glyph.
   */
  keepText?(text: mupdf.Text, ctm: mupdf.Matrix, kind: "fill" | "stroke"): mupdf.Text | null;
  /** Called for every image drawn (fillImage), before it is passed on. */
  onImage?(image: mupdf.Image, ctm: mupdf.Matrix): void;
}

/**
 * MuPDF.js (1.28) wraps the shading it hands to fillShade without taking a reference, yet
 * registers a finalizer that drops one: once the garbage collector runs it, the shading is
 * freed twice and the WASM heap is corrupted (a later call traps with "memory access out of
 * bounds", often while another document is being freed). The wrapper is let go without a drop.
 */
function disown(sh: mupdf.Shade): void {
  (mupdf.Shade as unknown as { _finalizer?: FinalizationRegistry<unknown> })._finalizer?.unregister(sh);
  (sh as unknown as { pointer: number }).pointer = 0;
}

/** Runs a page through `target`, leaving out its text (see TextFilter for what may stay). */
export function runWithoutText(page: mupdf.Page, target: mupdf.Device, matrix: mupdf.Matrix, filter: TextFilter = {}): void {
  const device = withoutTextDevice(target, filter);
  try {
    page.run(device, matrix);
    device.close();
  } finally {
    device.destroy();
  }
}

/**
 * A device passing everything but text on to `target`. Every wrapper MuPDF hands to a device
 * callback is destroyed inside the callback (a later finalizer would free memory the display
 * list owns).
 */
export function withoutTextDevice(target: mupdf.Device, filter: TextFilter = {}): mupdf.Device {
  const draw = target;
  const kept = (text: mupdf.Text, ctm: mupdf.Matrix, kind: "fill" | "stroke", go: (t: mupdf.Text) => void) => {
    const t = filter.keepText?.(text, ctm, kind) ?? null;
    if (!t) return;
    try {
      go(t);
    } finally {
      t.destroy();
    }
  };
  return new mupdf.Device({
    fillPath: (p, eo, ctm, c, color, a) => (draw.fillPath(p, eo, ctm, c, color as mupdf.Color, a), p.destroy(), c.destroy()),
    strokePath: (p, s, ctm, c, color, a) => (draw.strokePath(p, s, ctm, c, color as mupdf.Color, a), p.destroy(), s.destroy(), c.destroy()),
    clipPath: (p, eo, ctm) => (draw.clipPath(p, eo, ctm), p.destroy()),
    clipStrokePath: (p, s, ctm) => (draw.clipStrokePath(p, s, ctm), p.destroy(), s.destroy()),
    clipText: (t, ctm) => (draw.clipText(t, ctm), t.destroy()),
    clipStrokeText: (t, s, ctm) => (draw.clipStrokeText(t, s, ctm), t.destroy(), s.destroy()),
    fillText: (t, ctm, c, color, a) => {
      try {
        kept(t, ctm, "fill", (k) => draw.fillText(k, ctm, c, color as mupdf.Color, a));
      } finally {
        t.destroy();
        c.destroy();
      }
    },
    strokeText: (t, s, ctm, c, color, a) => {
      try {
        kept(t, ctm, "stroke", (k) => draw.strokeText(k, s, ctm, c, color as mupdf.Color, a));
      } finally {
        t.destroy();
        s.destroy();
        c.destroy();
      }
    },
    ignoreText: (t) => t.destroy(),
    fillShade: (sh, ctm, a) => (draw.fillShade(sh, ctm, a), disown(sh)),
    fillImage: (img, ctm, a) => {
      try {
        filter.onImage?.(img, ctm);
        draw.fillImage(img, ctm, a);
      } finally {
        img.destroy();
      }
    },
    fillImageMask: (img, ctm, c, color, a) => (draw.fillImageMask(img, ctm, c, color as mupdf.Color, a), img.destroy(), c.destroy()),
    clipImageMask: (img, ctm) => (draw.clipImageMask(img, ctm), img.destroy()),
    popClip: () => draw.popClip(),
    beginMask: (area, lum, c, color) => (draw.beginMask(area, lum, c, color as mupdf.Color), c.destroy()),
    endMask: () => draw.endMask(),
    beginGroup: (area, c, iso, ko, bm, a) => (draw.beginGroup(area, c, iso, ko, bm, a), c?.destroy?.()),
    endGroup: () => draw.endGroup(),
    beginTile: (area, view, xs, ys, ctm, id, docId) => draw.beginTile(area, view, xs, ys, ctm, id, docId),
    endTile: () => draw.endTile(),
    beginLayer: (name) => draw.beginLayer(name),
    endLayer: () => draw.endLayer(),
  });
}
