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
}
