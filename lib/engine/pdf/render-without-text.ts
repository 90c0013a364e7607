import "server-only";
import * as mupdf from "mupdf";

/**
 * Draws everything but text (images, vector art) on white: the background of PDF → HTML pages
 * and the input of OCR mode TextFromImagesOnly. Every wrapper MuPDF hands to a device callback
 * is destroyed inside the callback (a later finalizer would free memory the display list owns).
 */
export function renderWithoutText(page: mupdf.Page, matrix: mupdf.Matrix, cs: mupdf.ColorSpace): mupdf.Pixmap {
  const bounds = mupdf.Rect.transform(page.getBounds(), matrix);
  const pix = new mupdf.Pixmap(cs, [Math.floor(bounds[0]), Math.floor(bounds[1]), Math.ceil(bounds[2]), Math.ceil(bounds[3])], false);
  pix.clear(255);
  const draw = new mupdf.DrawDevice(matrix, pix);
  const filter = new mupdf.Device({
    fillPath: (p, eo, ctm, c, color, a) => (draw.fillPath(p, eo, ctm, c, color as mupdf.Color, a), p.destroy(), c.destroy()),
    strokePath: (p, s, ctm, c, color, a) => (draw.strokePath(p, s, ctm, c, color as mupdf.Color, a), p.destroy(), s.destroy(), c.destroy()),
    clipPath: (p, eo, ctm) => (draw.clipPath(p, eo, ctm), p.destroy()),
    clipStrokePath: (p, s, ctm) => (draw.clipStrokePath(p, s, ctm), p.destroy(), s.destroy()),
    clipText: (t, ctm) => (draw.clipText(t, ctm), t.destroy()),
    clipStrokeText: (t, s, ctm) => (draw.clipStrokeText(t, s, ctm), t.destroy(), s.destroy()),
    fillText: (t, _ctm, c) => (t.destroy(), c.destroy()),
    strokeText: (t, s, _ctm, c) => (t.destroy(), s.destroy(), c.destroy()),
    ignoreText: (t) => t.destroy(),
    fillShade: (sh, ctm, a) => draw.fillShade(sh, ctm, a),
    fillImage: (img, ctm, a) => (draw.fillImage(img, ctm, a), img.destroy()),
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
  try {
    page.run(filter, mupdf.Matrix.identity);
    filter.close();
    draw.close();
  } finally {
    filter.destroy();
    draw.destroy();
  }
  return pix;
}
