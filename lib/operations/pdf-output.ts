import "server-only";
import { openPdf } from "@/lib/engine/pdf/open-pdf";

/** The page count of a PDF a runner made (for credits and `pageCount`). */
export function countPdfPages(pdf: Uint8Array): number {
  const doc = openPdf(pdf);
  try {
    return doc.countPages();
  } finally {
    doc.destroy();
  }
}

/** The caller's `name` with a .pdf extension, or "result.pdf". */
export function pdfName(name: string | undefined, fallback = "result.pdf"): string {
  const n = name?.trim();
  if (!n) return fallback;
  return /\.pdf$/i.test(n) ? n : `${n}.pdf`;
}
