import type { Matrix, PageText } from "@/lib/engine/text/types";

/**
 * The two frames of an OCRed scan that was deskewed or turned upright (PageText.ocrFrame):
 * words are positioned on the page as read — level and upright, where rows and columns are
 * built — and `ocrFrame` maps that frame onto the page as rendered (the scan as it is, skewed or
 * lying sideways), where `rect` areas are given and where positions are reported. Pages without
 * it have one frame. Pure.
 */

export type { Matrix };

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** m applied after n (first n, then m). */
export function compose(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

export function applyPoint(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

/** The upright box around a box's four corners mapped by m. */
export function mapBox<B extends Box>(m: Matrix, b: B): B {
  const pts = [applyPoint(m, b.x0, b.y0), applyPoint(m, b.x1, b.y0), applyPoint(m, b.x0, b.y1), applyPoint(m, b.x1, b.y1)];
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  return { ...b, x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

/**
 * Clockwise rotation by `deg` degrees about (cx, cy), y pointing down: how a page deskewed by
 * `deg` (text turned counter-clockwise to level) maps back onto the skewed scan.
 */
export function rotationAbout(deg: number, cx: number, cy: number): Matrix {
  const a = (deg * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  // (x, y) → (cx + dx·cos − dy·sin, cy + dx·sin + dy·cos)
  return [cos, sin, -sin, cos, cx - cx * cos + cy * sin, cy - cx * sin - cy * cos];
}

/**
 * From a page turned clockwise by q quarter turns back to the page before the turn (w × h, the
 * unturned size, y down): the inverse of lib/engine/ocr/preprocess.ts rotateQuarter.
 */
export function unturnMatrix(q: number, w: number, h: number): Matrix {
  switch (((q % 4) + 4) % 4) {
    case 1:
      return [0, -1, 1, 0, 0, h];
    case 2:
      return [-1, 0, 0, -1, w, h];
    case 3:
      return [0, 1, -1, 0, w, 0];
    default:
      return [...IDENTITY];
  }
}

/** A box (words, a cell, a field) of the page as read, on the page as rendered. */
export function pageBox<B extends Box>(page: Pick<PageText, "ocrFrame">, b: B): B {
  return page.ocrFrame ? mapBox(page.ocrFrame, b) : b;
}

/** Whether a box's centre, placed on the page as rendered, lies in the area (no area: yes). */
export function centreInArea(
  page: Pick<PageText, "ocrFrame">,
  b: Box,
  area: { x: number; y: number; width: number; height: number } | undefined,
): boolean {
  if (!area) return true;
  let x = (b.x0 + b.x1) / 2;
  let y = (b.y0 + b.y1) / 2;
  if (page.ocrFrame) [x, y] = applyPoint(page.ocrFrame, x, y);
  return x >= area.x && x <= area.x + area.width && y >= area.y && y <= area.y + area.height;
}

/** The size of the page as rendered (a scan OCRed turned a quarter turn has its sides swapped). */
export function renderedSize(page: Pick<PageText, "width" | "height" | "ocrOrientation">): { width: number; height: number } {
  return (page.ocrOrientation ?? 0) % 180 ? { width: page.height, height: page.width } : { width: page.width, height: page.height };
}
