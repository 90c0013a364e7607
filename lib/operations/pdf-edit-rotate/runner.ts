import "server-only";
import type { z } from "zod";
import { normalizeAngle, rotatePages } from "@/lib/engine/pdf/edit-pages";
import { parsePages } from "@/lib/engine/pages";
import { editInPlace } from "@/lib/operations/edit-in-place";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

/** Turns the 0-based `pages` by `angle`; pageCount is the document's page count; credits count the turned pages. */
export const run: Runner<z.infer<typeof operation.params>> = (ctx) =>
  editInPlace(ctx, "rotating pages", (doc) => {
    const pages = parsePages(ctx.params.pages, doc.countPages(), 0);
    const angle = normalizeAngle(ctx.params.angle ?? 0);
    rotatePages(doc, pages, angle);
    ctx.log(`rotate: ${pages.length} page(s) by ${angle}°`);
    return angle === 0 ? { message: "angle is 0: no page was turned.", pagesProcessed: 0 } : { pagesProcessed: pages.length };
  });
