/**
 * Positioned text of a page, in PDF points with a top-left origin (y grows downwards), as
 * produced by lib/engine/text/words.ts from MuPDF's structured text, or by OCR for scans.
 */
export interface Word {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  fontSize: number;
  fontName: string;
  bold: boolean;
  italic: boolean;
  /** RGB as 0xRRGGBB. */
  color: number;
  /** The text line (MuPDF line or OCR line) it belongs to, unique within the page. */
  lineId: number;
  /** True when the word came from OCR. */
  ocr?: boolean;
  /** Confidence 0–100 for OCR words. */
  confidence?: number;
}

/** A ruling line or rectangle edge from vector paths, used for bordered tables. */
export interface Rule {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface PageText {
  /** 0-based page index in the document. */
  index: number;
  width: number;
  height: number;
  /** Page rotation in degrees as stored in the PDF. */
  rotation: number;
  words: Word[];
  rules: Rule[];
  /**
   * OCRed scans: the skew corrected before recognition, in degrees counter-clockwise (the
   * words are positioned on the page turned level by this angle about its centre).
   */
  ocrSkew?: number;
  /** OCRed scans: clockwise degrees the page was turned after orientation detection. */
  ocrOrientation?: number;
  /**
   * OCRed scans read deskewed or turned (ocrSkew, ocrOrientation): the map from the frame the
   * words are in (level, upright; width × height above) onto the page as rendered, where `rect`
   * areas refer to and positions are reported (lib/engine/text/page-frame.ts).
   */
  ocrFrame?: Matrix;
}

/** An affine map [a b c d e f]: (x, y) → (a·x + c·y + e, b·x + d·y + f), as PDF's `cm`. */
export type Matrix = [number, number, number, number, number, number];
