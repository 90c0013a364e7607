import "server-only";
import type { z } from "zod";
import { loadStampImage } from "@/lib/engine/edit/stamp-image";
import type { Runner } from "@/lib/operations/runner-types";
import { runTextEdit } from "@/lib/operations/text-edit-run";
import type { operation } from "./contract";

/** Removes each occurrence of searchString and draws replaceImage in its box. */
export const run: Runner<z.infer<typeof operation.params>> = (ctx) =>
  runTextEdit(ctx, [{ search: ctx.params.searchString, field: "searchString", image: true }], async (doc) => {
    const img = await loadStampImage(ctx.params.replaceImage, "replaceImage", (u) => ctx.fetchUrl(u));
    const ref = doc.addImage(img.image);
    return { ref, width: img.naturalWidth, height: img.naturalHeight };
  });
