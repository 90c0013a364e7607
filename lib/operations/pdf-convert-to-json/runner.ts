import "server-only";
import type { z } from "zod";
import { pdfToStructured } from "@/lib/operations/pdf-to-structured";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

/** Text objects → JSON (lib/operations/pdf-to-structured.ts). */
export const run: Runner<z.infer<typeof operation.params>> = (ctx) => pdfToStructured(ctx, "json");
