import "server-only";
import type { z } from "zod";
import { renderToImages } from "@/lib/operations/render-to-images";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

/** MuPDF render → sharp TIFF (lib/operations/render-to-images.ts). */
export const run: Runner<z.infer<typeof operation.params>> = (ctx) => renderToImages(ctx, "tiff");
