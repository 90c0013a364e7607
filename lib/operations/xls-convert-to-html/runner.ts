import "server-only";
import type { z } from "zod";
import type { Runner } from "@/lib/operations/runner-types";
import { runSheetText } from "@/lib/operations/sheet-text";
import type { operation } from "./contract";

/** One worksheet as HTML (lib/engine/sheets/sheet-rows.ts); file or inline body. */
export const run: Runner<z.infer<typeof operation.params>> = (ctx) => runSheetText(ctx, "html");
