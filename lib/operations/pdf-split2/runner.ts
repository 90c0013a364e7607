import "server-only";
import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type * as mupdf from "mupdf";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { barcodeFormats, readPageBarcodes } from "@/lib/engine/barcode/read-barcodes";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { pageSearchText, parseKeySearch, planKeySplit, type KeySearch } from "@/lib/engine/pdf/split-by-key";
import { extractPages } from "@/lib/engine/pdf/split-pdf";
import { getPageTexts } from "@/lib/engine/text/page-texts";
import type { OutputFile, Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

type Params = z.infer<typeof operation.params>;

/** Finds the key pages, then writes one PDF per part; `pageCount` is the source's page count. */
export const run: Runner<Params> = async (ctx) => {
  const p = ctx.params;
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a PDF document.");
  const search = parseKeySearch(p.searchString, { regex: p.regexSearch, caseSensitive: p.caseSensitive });
  const bytes = await readFile(source.path);
  const doc = openPdf(bytes, p.password);
  try {
    if (!doc.hasPermission("assemble")) {
      throw new QuireError(443, "this PDF's permissions forbid taking its pages apart (assemble): send the owner password in `password`.");
    }
    const pageCount = doc.countPages();
    const keys = await findKeyPages(doc, bytes, search, p, ctx.log);
    const parts = planKeySplit(pageCount, keys, { excludeKeyPages: p.excludeKeyPages, name: p.name });
    const outputs: OutputFile[] = [];
    for (const [i, part] of parts.entries()) {
      const file = path.join(ctx.workDir, `part-${String(i + 1).padStart(5, "0")}.pdf`);
      writeFileSync(file, extractPages(doc, part.pages));
      outputs.push({ path: file, name: part.name, contentType: "application/pdf" });
    }
    ctx.log(`split2: ${keys.length} key page(s) of ${pageCount}, ${outputs.length} part(s)`);
    return { outputs, multiple: true, pageCount, message: describe(search, keys, pageCount, outputs.length, p.excludeKeyPages) };
  } finally {
    doc.destroy();
  }
};

/**
 * 0-based pages where the search matched. Text: the text layer, OCR for pages without one.
 * Barcodes: each page rendered and read by ZXing; a page matches when it carries a barcode of
 * one of the types whose value matches (any value when the macro gives none).
 */
async function findKeyPages(doc: mupdf.PDFDocument, bytes: Uint8Array, search: KeySearch, p: Params, log: (m: string) => void): Promise<number[]> {
  if (search.kind === "barcode") {
    const formats = barcodeFormats(search.types);
    const keys: number[] = [];
    for (let i = 0; i < doc.countPages(); i++) {
      const found = await readPageBarcodes(doc, i, formats);
      if (found.some((b) => !search.value || search.value(b.text))) keys.push(i);
    }
    return keys;
  }
  const texts = await getPageTexts(bytes, { password: p.password, lang: p.lang, ocrMode: "Auto" });
  if (texts.ocrPages.length) log(`split2: OCR read ${texts.ocrPages.length} page(s) without a text layer`);
  return texts.pages.filter((page) => search.test(pageSearchText(page))).map((page) => page.index);
}

function describe(search: KeySearch, keys: number[], pageCount: number, parts: number, exclude?: boolean): string {
  if (keys.length === 0) return `${cap(search.describe)} was not found on any of the ${pageCount} page(s): the whole file is the one output.`;
  const list = keys.slice(0, 20).map((k) => k + 1).join(", ") + (keys.length > 20 ? ", ..." : "");
  const tail = parts === 0 ? "; every page was a key page, so with excludeKeyPages nothing is left" : "";
  return `${cap(search.describe)} found on page(s) ${list}: ${parts} part(s)${exclude ? ", key pages left out" : ""}${tail}.`;
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
