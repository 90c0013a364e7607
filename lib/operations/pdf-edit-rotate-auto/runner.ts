import "server-only";
import type { z } from "zod";
import { parseLanguages } from "@/lib/engine/ocr/languages";
import { autoRotate } from "@/lib/engine/pdf/auto-rotate";
import { editInPlace } from "@/lib/operations/edit-in-place";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

/** Sets each page upright; `message` says which pages turned and how each was judged. */
export const run: Runner<z.infer<typeof operation.params>> = (ctx) => {
  // A typo in lang should fail before any work, even if no page ends up being read.
  const langs = parseLanguages(ctx.params.lang);
  return editInPlace(ctx, "rotating pages", async (doc) => {
    const verdicts = await autoRotate(doc, { langs });
    const turned = verdicts.filter((v) => v.turned !== 0);
    const undecided = verdicts.filter((v) => v.by === "undecided");
    ctx.log(`rotate/auto: ${turned.length} of ${verdicts.length} page(s) turned, ${undecided.length} undecided`);
    const list = (vs: typeof verdicts) => vs.slice(0, 30).map((v) => v.index).join(", ") + (vs.length > 30 ? ", ..." : "");
    const parts = [
      turned.length === 0
        ? "Every page was already upright."
        : `Turned ${turned.length} page(s): ${turned.slice(0, 30).map((v) => `${v.index} by ${v.turned}°`).join(", ")}${turned.length > 30 ? ", ..." : ""}.`,
    ];
    if (undecided.length) parts.push(`Too little text to tell on page(s) ${list(undecided)}; left as they were.`);
    return { message: parts.join(" ") };
  });
};
