import "server-only";
import { readFile } from "node:fs/promises";
import type { z } from "zod";
import { publicTypeName } from "@/lib/engine/barcode/barcode-types";
import { barcodeFormats, readImageBarcodes, readPageBarcodes, type FoundBarcode } from "@/lib/engine/barcode/read-barcodes";
import { parsePages } from "@/lib/engine/pages";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { sniffKind } from "@/lib/engine/text/page-texts";
import { QuireError } from "@/lib/core/errors";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

type Params = z.infer<typeof operation.params>;

/**
 * Reads the selected pages (PDF) or frames (image). `pageCount` is the number of pages read; a
 * page without a barcode adds nothing (an unreadable image answers an empty list, not an error).
 */
export const run: Runner<Params> = async (ctx) => {
  const p = ctx.params;
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a PDF or an image.");
  const names = (p.types || p.type || "").split(",").map((t) => t.trim()).filter(Boolean);
  const formats = barcodeFormats(names, p.types ? "types" : "type");
  const bytes = await readFile(source.path);
  const found: Array<{ page: number; b: FoundBarcode }> = [];
  let pagesRead = 0;
  if (sniffKind(bytes) === "pdf") {
    const doc = openPdf(bytes, p.password);
    try {
      const pages = parsePages(p.pages, doc.countPages(), 0);
      for (const i of pages) {
        for (const b of await readPageBarcodes(doc, i, formats)) found.push({ page: i, b });
        pagesRead++;
      }
    } finally {
      doc.destroy();
    }
  } else {
    const frames = await readImageBarcodes(bytes, formats);
    const pages = parsePages(p.pages, frames.length, 0);
    for (const i of pages) for (const b of frames[i]) found.push({ page: i, b });
    pagesRead = pages.length;
  }
  found.sort((a, b) => a.page - b.page || a.b.box.y - b.b.box.y || a.b.box.x - b.b.box.x);
  ctx.log(`barcode read: ${found.length} barcode(s) on ${pagesRead} page(s)`);
  return {
    pageCount: pagesRead,
    fields: {
      barcodes: found.map(({ page, b }) => ({
        Value: b.text,
        TypeName: publicTypeName(b.format, b.text),
        Page: page,
        Rect: `{X=${b.box.x},Y=${b.box.y},Width=${b.box.width},Height=${b.box.height}}`,
        Box: b.box,
        Confidence: 1,
        File: source.name,
      })),
    },
  };
};
