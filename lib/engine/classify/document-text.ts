import "server-only";
import { openPdf, loadPdfPage } from "@/lib/engine/pdf/open-pdf";
import { getPageTexts, sniffKind, type OcrMode } from "@/lib/engine/text/page-texts";
import type { PageText } from "@/lib/engine/text/types";
import { buildLayout, layoutText } from "@/lib/engine/invoice/layout";

/**
 * The text of a document for classification: the text layer, OCR where a page has none (the
 * first MAX_OCR_PAGES pages only: classes rarely need more, and OCR is the slow part).
 */
export const MAX_OCR_PAGES = 20;

export interface ClassifierTextOptions {
  password?: string;
  ocrMode?: OcrMode;
  ocrResolution?: number;
  rotation?: number;
  grayscale?: boolean;
  gamma?: number[];
  /** RenderTextObjects: false ignores the text layer (every page is OCRed instead). */
  useTextLayer?: boolean;
  /** RenderImageObjects: false never OCRs (text layer only). */
  useImages?: boolean;
}

export interface ClassifierText {
  pages: PageText[];
  pageCount: number;
  kind: "pdf" | "image";
  /** Fillable form fields (widgets) of the PDF: a strong sign of a form. */
  formFields: number;
}

export async function readClassifierText(
  bytes: Uint8Array,
  opts: ClassifierTextOptions = {},
): Promise<ClassifierText> {
  let mode: OcrMode = opts.ocrMode ?? "Auto";
  if (opts.useImages === false) mode = "Never";
  else if (opts.useTextLayer === false) mode = "Always";
  const common = {
    password: opts.password,
    ocrResolution: opts.ocrResolution,
    rotation: opts.rotation,
    grayscale: opts.grayscale,
    gamma: opts.gamma,
    lang: "eng",
  };
  let count = Number.POSITIVE_INFINITY;
  let formFields = 0;
  if (sniffKind(bytes) === "pdf") {
    const doc = openPdf(bytes, opts.password);
    try {
      count = doc.countPages();
      for (let i = 0; i < Math.min(count, MAX_OCR_PAGES); i++) {
        const page = loadPdfPage(doc, i);
        try {
          formFields += page.getWidgets().length;
        } catch {
          // A page without an annotation list.
        } finally {
          page.destroy();
        }
      }
    } finally {
      doc.destroy();
    }
  }
  if (!Number.isFinite(count) || count <= MAX_OCR_PAGES || mode === "Never") {
    const all = await getPageTexts(bytes, { ...common, ocrMode: mode });
    return { pages: all.pages, pageCount: all.pageCount, kind: all.kind, formFields };
  }
  const head = Array.from({ length: MAX_OCR_PAGES }, (_, i) => i);
  const tail = Array.from({ length: count - MAX_OCR_PAGES }, (_, i) => i + MAX_OCR_PAGES);
  const first = await getPageTexts(bytes, { ...common, ocrMode: mode, pageIndices: head });
  const rest = await getPageTexts(bytes, { ...common, ocrMode: "Never", pageIndices: tail });
  return { pages: [...first.pages, ...rest.pages], pageCount: first.pageCount, kind: first.kind, formFields };
}

/** The text of each page, rows in reading order joined by line breaks. */
export function pageTexts(pages: PageText[]): { page: number; text: string }[] {
  return pages.map((p) => ({ page: p.index, text: layoutText(buildLayout([p])) }));
}
