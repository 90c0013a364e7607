import "server-only";
import * as mupdf from "mupdf";
import { QuireError } from "@/lib/core/errors";
import { parsePageGroups } from "@/lib/engine/pages";
import { PageCopier } from "./page-copier";

/** One output of a split: its 0-based source pages and its file name. */
export interface SplitPart {
  pages: number[];
  name: string;
}

/**
 * Plans a split from the public API's 1-based `pages` (POST /v1/pdf/split): one output per item;
 * empty = every page on its own. Names are `<base>_page<first>[-<last>].pdf`, the base being
 * the caller's `name` without its extension (default "result", as PDF.co's `result_page1-2.pdf`).
 * A repeated group gets "(2)", "(3)"... so names stay unique. More outputs than pages → 450
 * (public API: "the number of output files cannot exceed the number of pages").
 */
export function planSplit(pageCount: number, pages: string | undefined, name?: string): SplitPart[] {
  const groups =
    (pages ?? "").trim() === ""
      ? Array.from({ length: pageCount }, (_, i) => [i])
      : parsePageGroups(pages, pageCount, 1);
  if (groups.length > pageCount) {
    throw new QuireError(
      450,
      `pages: ${groups.length} output files requested but the document has only ${pageCount} page(s); a split cannot make more files than pages.`,
    );
  }
  const base = splitBaseName(name);
  const used = new Map<string, number>();
  return groups.map((g) => {
    const first = g[0] + 1;
    const last = g[g.length - 1] + 1;
    const stem = `${base}_page${first === last ? first : `${first}-${last}`}`;
    const n = (used.get(stem) ?? 0) + 1;
    used.set(stem, n);
    return { pages: g, name: n === 1 ? `${stem}.pdf` : `${stem}(${n}).pdf` };
  });
}

/** "doc.pdf" → "doc"; path parts and characters unsafe in file names are dropped; default "result". */
export function splitBaseName(name: string | undefined): string {
  const last = (name ?? "").split(/[\\/]/).pop() ?? "";
  const stem = last
    .replace(/\.pdf$/i, "")
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, "")
    .trim();
  return stem === "" || stem === "." || stem === ".." ? "result" : stem.slice(0, 150);
}

/**
 * Copies the given source pages into a new PDF and returns its bytes. Pages are rebuilt from
 * their content, resources and boxes through one graft map (shared fonts and images are copied
 * once per output) and only what those pages use is written, so a part costs time in proportion
 * to its own pages, not to the whole document. Annotations come along: links to pages inside
 * the part are re-pointed, links to pages outside it are dropped, and form widgets keep their
 * fields (a trimmed AcroForm holds just the fields of the part).
 */
export function extractPages(src: mupdf.PDFDocument, pages: number[]): Uint8Array {
  const out = new mupdf.PDFDocument();
  try {
    const copier = new PageCopier(src, out);
    copier.copyPages(pages);
    copyInfo(src, out);
    const buf = out.saveToBuffer(copier.droppedSomething ? "garbage" : "");
    try {
      return buf.asUint8Array().slice();
    } finally {
      buf.destroy();
    }
  } catch (e) {
    if (e instanceof QuireError) throw e;
    const msg = e instanceof Error ? e.message : String(e);
    throw new QuireError(
      442,
      `the PDF is damaged: page(s) ${pages.map((p) => p + 1).join(", ")} could not be copied (${msg.slice(0, 200)}).`,
    );
  } finally {
    out.destroy();
  }
}

/** Splits `src` by the plan, handing each part's bytes to `write` as soon as it is made. */
export function splitPdf(
  src: mupdf.PDFDocument,
  parts: SplitPart[],
  write: (part: SplitPart, bytes: Uint8Array, index: number) => void,
): void {
  parts.forEach((part, i) => write(part, extractPages(src, part.pages), i));
}

const INFO_KEYS = ["Title", "Author", "Subject", "Keywords", "Creator"] as const;

/** Keeps the descriptive Info entries (not the dates or producer) on each part. */
export function copyInfo(src: mupdf.PDFDocument, out: mupdf.PDFDocument): void {
  for (const key of INFO_KEYS) {
    const v = src.getMetaData(`info:${key}`);
    if (v) out.setMetaData(`info:${key}`, v);
  }
}
