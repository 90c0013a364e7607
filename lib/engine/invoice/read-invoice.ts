import "server-only";
import { QuireError } from "@/lib/core/errors";
import { openPdf, loadPdfPage } from "@/lib/engine/pdf/open-pdf";
import { getPageTexts, sniffKind } from "@/lib/engine/text/page-texts";
import type { PageText } from "@/lib/engine/text/types";
import { analysePage } from "@/lib/engine/tables/page-tables";
import { findEmbeddedEInvoice } from "@/lib/engine/invoice/einvoice/embedded";
import {
  invoiceNumbersByPage,
  parseInvoice,
  type ParseInvoiceOptions,
} from "@/lib/engine/invoice/parse-invoice";
import { buildLayout, layoutText } from "@/lib/engine/invoice/layout";
import { fillWithLlm, llmConfigFromEnv } from "@/lib/engine/invoice/llm";
import type { Column } from "@/lib/engine/invoice/line-items";
import type { FieldSources, InvoiceBody } from "@/lib/engine/invoice/types";

/**
 * The invoice parser end to end: a PDF (text or scanned) or an image → the seed's invoice
 * object. An embedded e-invoice (Factur-X, ZUGFeRD, XRechnung, UBL) is read exactly; otherwise
 * the words (text layer, OCR where a page has none) go through the layout analysis, with
 * a second OCR pass over the first page's images when the vendor is only in a logo, and the
 * optional LLM backend for what is still missing.
 */
export const MAX_INVOICE_PAGES = 100;

export interface ReadInvoiceOptions {
  password?: string;
  customFields?: string[];
  /** OCR language(s) for scans (default "eng"). */
  lang?: string;
  log?: (message: string) => void;
  /** Skip the LLM backend even when configured (tests, accuracy runs). */
  noLlm?: boolean;
  /** Read the page even when an e-invoice is embedded (accuracy runs of the visual path). */
  ignoreEmbedded?: boolean;
}

export interface ReadInvoiceResult {
  body: InvoiceBody;
  fieldSources: FieldSources;
  /** Confidence extension: dotted body path → 0–1 (1 for values read from an embedded e-invoice). */
  confidence: Record<string, number>;
  pageCount: number;
  message: string;
  /** "einvoice" when values came from embedded XML, else "layout". */
  source: "einvoice" | "layout";
}

export async function readInvoice(
  bytes: Uint8Array,
  opts: ReadInvoiceOptions = {},
): Promise<ReadInvoiceResult> {
  const kind = sniffKind(bytes);
  if (kind === null) throw new QuireError(415, "the invoice must be a PDF or an image (PNG, JPEG, TIFF).");
  const customFields = opts.customFields ?? [];
  let pageCount = 1;
  if (kind === "pdf") {
    const doc = openPdf(bytes, opts.password);
    try {
      pageCount = doc.countPages();
      if (pageCount > MAX_INVOICE_PAGES) {
        throw new QuireError(
          400,
          `the invoice has ${pageCount} pages; the invoice parser reads at most ${MAX_INVOICE_PAGES} pages per file. Send each invoice as a separate file.`,
        );
      }
      const embedded = opts.ignoreEmbedded ? undefined : findEmbeddedEInvoice(doc, customFields);
      if (embedded) {
        const what = embedded.syntax === "CII" ? "UN/CEFACT CII (Factur-X/ZUGFeRD/XRechnung)" : "UBL";
        return {
          body: embedded.body,
          fieldSources: {},
          confidence: Object.fromEntries(leafPaths(embedded.body).filter((p) => !p.startsWith("lineItems")).map((p) => [p, 1])),
          pageCount,
          source: "einvoice",
          message: `Read exactly from the embedded ${what} e-invoice "${embedded.fileName}"${embedded.profile ? ` (profile ${embedded.profile})` : ""}; the page layout was not analysed.`,
        };
      }
    } finally {
      doc.destroy();
    }
  }
  const texts = await getPageTexts(bytes, {
    password: opts.password,
    ocrMode: "Auto",
    lang: opts.lang ?? "eng",
    withRules: true,
  });
  pageCount = texts.pageCount;
  if (kind === "image" && pageCount > MAX_INVOICE_PAGES) {
    throw new QuireError(
      400,
      `the image has ${pageCount} pages; the invoice parser reads at most ${MAX_INVOICE_PAGES} pages per file.`,
    );
  }
  let pages = texts.pages;
  const ocrNotes: string[] = [];
  // One invoice per file: a second invoice number starting a later page ends the first invoice.
  const numbers = invoiceNumbersByPage(pages);
  const first = numbers.get(pages[0]?.index ?? 0);
  const other = first ? pages.find((p) => numbers.has(p.index) && numbers.get(p.index) !== first) : undefined;
  if (first && other) {
    const distinct = new Set(numbers.values());
    pages = pages.filter((p) => p.index < other.index);
    ocrNotes.push(
      `the file holds ${distinct.size} invoices (numbers ${[...distinct].slice(0, 5).join(", ")}); only the first (pages 0-${other.index - 1}) was parsed: send each invoice as a separate file`,
    );
  }
  const parseOpts: ParseInvoiceOptions = { customFields, tableEdges: engineEdges(pages) };
  let result = parseInvoice(pages, parseOpts);
  if (texts.ocrPages.length > 0) {
    // fieldSources are on the page as scanned; say how each scan was straightened to be read.
    const fixes = pages
      .filter((p) => p.ocrSkew || p.ocrOrientation)
      .map((p) => `page ${p.index} ${[p.ocrSkew ? `deskewed ${p.ocrSkew}°` : "", p.ocrOrientation ? `turned ${p.ocrOrientation}°` : ""].filter(Boolean).join(" and ")}`);
    ocrNotes.push(`OCR on page(s) ${texts.ocrPages.join(", ")}${fixes.length ? ` (${fixes.join("; ")})` : ""}`);
  }
  // The vendor printed only in a logo or an image block: OCR the first page's images too.
  if (
    kind === "pdf" &&
    !result.body.vendor?.name &&
    !texts.ocrPages.includes(0) &&
    pages.length > 0 &&
    hasImages(bytes, opts.password, pages[0].index)
  ) {
    try {
      const again = await getPageTexts(bytes, {
        password: opts.password,
        ocrMode: "TextFromImagesOnly",
        lang: opts.lang ?? "eng",
        pageIndices: [pages[0].index],
        withRules: true,
      });
      const merged = again.pages[0];
      if (merged && merged.words.length > pages[0].words.length) {
        pages = [merged, ...pages.slice(1)];
        const second = parseInvoice(pages, { ...parseOpts, tableEdges: engineEdges(pages) });
        if (second.body.vendor?.name) {
          result = second;
          ocrNotes.push("OCR of the first page's images");
        }
      }
    } catch (e) {
      opts.log?.(`image OCR skipped: ${(e as Error).message}`);
    }
  }
  const notes = [...ocrNotes];
  const llm = opts.noLlm ? undefined : llmConfigFromEnv();
  if (llm) {
    const text = layoutText(buildLayout(pages));
    const { filled, error } = await fillWithLlm(result.body, text, llm, customFields);
    if (filled.length > 0) notes.push(`LLM backend filled ${filled.join(", ")}`);
    if (error) opts.log?.(error);
  }
  const found = countLeaves(result.body);
  const message =
    found === 0
      ? "No invoice fields were found; check that the file is an invoice with readable text."
      : `Invoice parsed by layout analysis (${found} fields${notes.length > 0 ? `; ${notes.join("; ")}` : ""}).`;
  return {
    body: result.body,
    fieldSources: result.fieldSources,
    confidence: result.confidence ?? {},
    pageCount,
    message,
    source: "layout",
  };
}

/** True when the page shows images covering at least 1% of it (a logo, a scanned block). */
function hasImages(bytes: Uint8Array, password: string | undefined, index: number): boolean {
  const doc = openPdf(bytes, password);
  try {
    const page = loadPdfPage(doc, index);
    const [x0, y0, x1, y1] = page.getBounds();
    const area = (x1 - x0) * (y1 - y0);
    const st = page.toStructuredText("preserve-images");
    let covered = 0;
    st.walk({
      onImageBlock(bbox) {
        covered += Math.max(0, bbox[2] - bbox[0]) * Math.max(0, bbox[3] - bbox[1]);
      },
    });
    st.destroy();
    page.destroy();
    return covered >= area * 0.01;
  } catch {
    return false;
  } finally {
    doc.destroy();
  }
}

function countLeaves(v: unknown): number {
  if (typeof v === "string") return 1;
  if (Array.isArray(v)) return v.reduce((s: number, x) => s + countLeaves(x), 0);
  if (v && typeof v === "object") return Object.values(v).reduce((s: number, x) => s + countLeaves(x), 0);
  return 0;
}

/**
 * Column edges from the extraction engine's table analysis, for a line-item header at
 * `headerY`: used when the engine finds a table there with as many columns as the header.
 */
function engineEdges(pages: PageText[]): ParseInvoiceOptions["tableEdges"] {
  const cache = new Map<number, ReturnType<typeof analysePage>>();
  return (pageIndex: number, cols: Column[], headerY: number) => {
    const page = pages.find((p) => p.index === pageIndex);
    if (!page) return undefined;
    let segs = cache.get(pageIndex);
    if (!segs) {
      try {
        segs = analysePage(page, { mode: "ContentGroupsAndBorders" });
      } catch {
        segs = [];
      }
      cache.set(pageIndex, segs);
    }
    for (const s of segs) {
      if (s.kind !== "table") continue;
      const t = s.table;
      if (t.y0 - 2 > headerY || t.y1 < headerY) continue;
      if (t.columnEdges.length !== cols.length + 1) continue;
      // The engine's edges must agree with the header cells (each header inside its column).
      const ok = cols.every((c, i) => {
        const cx = (c.x0 + c.x1) / 2;
        return cx >= t.columnEdges[i] - 2 && cx <= t.columnEdges[i + 1] + 2;
      });
      if (ok) return [0, ...t.columnEdges.slice(1, -1), page.width + 1];
    }
    return undefined;
  };
}

/** Dotted paths of the string leaves of an object ("vendor.name", "paymentDetails.total"). */
function leafPaths(v: unknown, prefix = ""): string[] {
  if (typeof v === "string") return prefix ? [prefix] : [];
  if (v && typeof v === "object" && !Array.isArray(v))
    return Object.entries(v).flatMap(([k, x]) => leafPaths(x, prefix ? `${prefix}.${k}` : k));
  return [];
}
