import "server-only";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { boxFields, compileSearch, findOnPage, type TextMatch } from "@/lib/engine/text/find-text";
import { getPageTexts } from "@/lib/engine/text/page-texts";
import type { Runner } from "@/lib/operations/runner-types";
import type { findMatchSchema, operation } from "./contract";

type Params = z.infer<typeof operation.params>;

/** The public API's form of a match. */
export function matchToJson(m: TextMatch): z.infer<typeof findMatchSchema> {
  const b = boxFields(m.box);
  return {
    text: m.text,
    pageIndex: m.pageIndex,
    left: b.left,
    top: b.top,
    width: b.width,
    height: b.height,
    bounds: b,
    elementCount: m.lines.length,
    elements: m.lines.map(boxFields),
    fontSize: Math.round(m.fontSize * 100) / 100,
    fontName: m.fontName,
  };
}

/** Searches the text layer of the selected pages; they are the pages charged (pageCount is the document's). */
export const run: Runner<Params> = async (ctx) => {
  const p = ctx.params;
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a PDF document.");
  const re = compileSearch(p.searchString, {
    regex: p.regexSearch,
    caseSensitive: p.caseSensitive ?? true,
    wordMatching: p.wordMatchingMode,
  });
  // rotation 0: coordinates stay in the page as displayed (no automatic upright turn).
  const texts = await getPageTexts(await readFile(source.path), { password: p.password, pages: p.pages, ocrMode: "Never", rotation: 0 });
  const body = texts.pages.flatMap((page) => findOnPage(page, re)).map(matchToJson);
  ctx.log(`find: ${body.length} match(es) on ${texts.pages.length} page(s)`);
  const result = { fields: { body }, pageCount: texts.pageCount, pagesProcessed: texts.pages.length };
  if (p.inline) return result;
  const file = path.join(ctx.workDir, "result.json");
  await writeFile(file, JSON.stringify(body));
  const name = (p.name?.trim() || "result").replace(/\.json$/i, "") + ".json";
  return { ...result, outputs: [{ path: file, name, contentType: "application/json" }] };
};
