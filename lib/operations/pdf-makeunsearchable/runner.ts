import "server-only";
import type { z } from "zod";
import { parsePages } from "@/lib/engine/pages";
import { rasterizePages } from "@/lib/engine/pdf/rasterize-pages";
import { editInPlace } from "@/lib/operations/edit-in-place";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

/** Renders the selected pages into pictures; unused objects (the old content, fonts) are dropped on save. */
export const run: Runner<z.infer<typeof operation.params>> = (ctx) =>
  editInPlace(ctx, "rewriting its pages", (doc) => {
    const pages = parsePages(ctx.params.pages, doc.countPages(), 0);
    rasterizePages(doc, pages, { dpi: ctx.params.profiles?.RenderResolution, quality: ctx.params.profiles?.JPEGQuality });
    ctx.log(`makeunsearchable: ${pages.length} page(s) rendered`);
    return { collectGarbage: true, pagesProcessed: pages.length };
  });
