import "server-only";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { analysePage } from "@/lib/engine/tables/page-tables";
import { getPageTexts } from "@/lib/engine/text/page-texts";
import type { Runner } from "@/lib/operations/runner-types";
import type { foundTableSchema, operation } from "./contract";

type Params = z.infer<typeof operation.params>;

const r2 = (v: number) => Math.round(v * 100) / 100;

/** Runs the table analysis page by page (tables are not joined across pages: each box is on one page). */
export const run: Runner<Params> = async (ctx) => {
  const p = ctx.params;
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a PDF document.");
  const texts = await getPageTexts(await readFile(source.path), {
    password: p.password,
    pages: p.pages,
    ocrMode: "Never",
    rotation: 0,
    withRules: true,
  });
  const tables: z.infer<typeof foundTableSchema>[] = [];
  for (const page of texts.pages) {
    for (const seg of analysePage(page)) {
      if (seg.kind !== "table") continue;
      const t = seg.table;
      const [X, Y, Width, Height] = [r2(t.x0), r2(t.y0), r2(t.x1 - t.x0), r2(t.y1 - t.y0)];
      tables.push({
        PageIndex: page.index,
        X,
        Y,
        Width,
        Height,
        rect: `${X},${Y},${Width},${Height}`,
        Columns: t.columnEdges.slice(0, -1).map(r2),
        Rows: t.rows.length,
        Source: t.source,
      });
    }
  }
  ctx.log(`find/table: ${tables.length} table(s) on ${texts.pages.length} page(s)`);
  const body = { tables };
  const result = { fields: { body }, pageCount: texts.pageCount, pagesProcessed: texts.pages.length };
  if (p.inline) return result;
  const file = path.join(ctx.workDir, "result.json");
  await writeFile(file, JSON.stringify(body));
  const name = (p.name?.trim() || "result").replace(/\.json$/i, "") + ".json";
  return { ...result, outputs: [{ path: file, name, contentType: "application/json" }] };
};
