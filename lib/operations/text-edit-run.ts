import "server-only";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type * as mupdf from "mupdf";
import { QuireError } from "@/lib/core/errors";
import { parsePages } from "@/lib/engine/pages";
import { savePdf } from "@/lib/engine/pdf/edit-pages";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { rasterizePages } from "@/lib/engine/pdf/rasterize-pages";
import { redactText, type TextEdit } from "@/lib/engine/pdf/redact-text";
import { compileSearch } from "@/lib/engine/text/find-text";
import { pdfOutputName } from "./output-name";
import type { RunContext, RunResult } from "./runner-types";

export interface TextEditParams {
  password?: string;
  name?: string;
  pages?: string;
  regex?: boolean;
  caseSensitive?: boolean;
  replacementLimit?: number;
  makeUnsearchable?: boolean;
}

/** One search of a text edit: the search string (its field name for errors) and what replaces it. */
export interface EditSpec {
  search: string;
  field: string;
  replace?: string;
  image?: boolean;
}

/**
 * The shape of the text edits: open the source with its password, check that its permissions
 * allow changing content, compile the searches (400 on a bad expression before any work), redact
 * on the selected pages, optionally rasterise them, and save with unused objects dropped (the
 * old content streams, which still held the removed text, go with them).
 */
export async function runTextEdit(
  ctx: RunContext<TextEditParams>,
  specs: EditSpec[],
  image?: (doc: mupdf.PDFDocument) => Promise<TextEdit["image"]>,
): Promise<RunResult> {
  const p = ctx.params;
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a PDF document.");
  if (specs.length === 0) throw new QuireError(400, "searchString: give the text to find (or searchStrings).");
  const regs = specs.map((s) => compileSearch(s.search, { regex: p.regex, caseSensitive: p.caseSensitive ?? true }, s.field));
  const doc = openPdf(await readFile(source.path), p.password);
  try {
    if (!doc.hasPermission("edit")) {
      throw new QuireError(443, "this PDF's permissions forbid changing its content (modify): send the owner password in `password`.");
    }
    const pages = parsePages(p.pages, doc.countPages(), 0);
    const img = image ? await image(doc) : undefined;
    const edits: TextEdit[] = specs.map((s, i) => ({
      re: regs[i],
      replace: s.replace,
      image: s.image ? img : undefined,
      limit: p.replacementLimit || undefined,
    }));
    const { counts, missing } = redactText(doc, pages, edits);
    if (p.makeUnsearchable) rasterizePages(doc, pages);
    const file = path.join(ctx.workDir, "result.pdf");
    await writeFile(file, savePdf(doc, true));
    const total = counts.reduce((a, b) => a + b, 0);
    ctx.log(`text edit: ${total} occurrence(s) on ${pages.length} page(s)`);
    const notes = [
      `${total} occurrence(s) ${specs.some((s) => s.replace || s.image) ? "replaced" : "removed"}` +
        (specs.length > 1 ? ` (${specs.map((s, i) => `${s.field} "${s.search}": ${counts[i]}`).join(", ")})` : "") +
        ".",
    ];
    if (missing.length) notes.push(`No standard font has these characters, drawn as "?": ${missing.slice(0, 20).join(" ")}.`);
    return {
      outputs: [{ path: file, name: pdfOutputName(p.name), contentType: "application/pdf" }],
      pageCount: doc.countPages(),
      pagesProcessed: pages.length,
      message: notes.join(" "),
    };
  } finally {
    doc.destroy();
  }
}
