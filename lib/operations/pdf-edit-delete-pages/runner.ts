import "server-only";
import type { z } from "zod";
import { deletePages } from "@/lib/engine/pdf/edit-pages";
import { parsePages } from "@/lib/engine/pages";
import { editInPlace } from "@/lib/operations/edit-in-place";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

/** Deletes the 1-based `pages`; pageCount is the output's page count; credits count the deleted pages. */
export const run: Runner<z.infer<typeof operation.params>> = (ctx) =>
  editInPlace(ctx, "deleting pages", (doc) => {
    const remove = parsePages(ctx.params.pages, doc.countPages(), 1);
    const { kept, removed } = deletePages(doc, remove);
    ctx.log(`delete-pages: ${removed} page(s) deleted, ${kept} kept`);
    return { collectGarbage: true, pagesProcessed: removed };
  });
